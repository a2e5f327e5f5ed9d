// Code and data addresses to names with elfutils' libdwfl: function
// (demangled), source file and line, module and offset; global variables by
// their symbol. One implementation for both users: the runtime symbolizes
// its own process (the modules /proc lists, used only while a report is
// written, under the checker lock), `raceaccel check` a recording's pcs in
// the modules the recording lists, reported at the addresses they had
// (ProgramModule), so that the same pc gives the same frame.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/program_info.hpp"

struct Dwfl;

namespace raceaccel {

struct Frame {
  std::string function;  // empty when unknown
  std::string file;      // empty when there is no line information
  int line = 0;
  std::string module;  // file name of the loaded object
  std::string module_path;
  uint64_t offset = 0;  // pc relative to the module's load address
};

struct GlobalVariable {
  std::string name;
  uint64_t addr = 0;
  uint64_t size = 0;
  std::string module;
  uint64_t offset = 0;
};

// The raw GNU build-id note of the ELF file at path; empty when the file
// has none, nullopt when it cannot be read as ELF.
std::optional<std::string> gnu_build_id(const std::string& path);
// A build-id as the hex text tools print (readelf -n, file).
std::string build_id_hex(const std::string& raw);

class Symbolizer {
 public:
  // The calling process.
  Symbolizer() = default;
  // A recorded process: only these modules, at their recorded addresses
  // (the files must be the ones recorded; see gnu_build_id).
  explicit Symbolizer(std::vector<ProgramModule> modules);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // `return_address` is a call's return address: the call itself is looked
  // up. Inlined calls there are expanded: innermost frame first.
  const std::vector<Frame>& frames(uint64_t return_address);
  std::optional<GlobalVariable> global_at(uint64_t addr);
  // The file-backed modules of the calling process now, with their
  // build-ids: what a recording needs to symbolize its pcs later.
  std::vector<ProgramModule> loaded_modules();

 private:
  Dwfl* session(bool refresh);
  bool offline_ = false;
  std::vector<ProgramModule> modules_;  // offline: what to report
  Dwfl* dwfl_ = nullptr;
  int pid_ = 0;
  std::unordered_map<uint64_t, std::vector<Frame>> frames_;
};

}  // namespace raceaccel
