// Code and data addresses to names with elfutils' libdwfl: function
// (demangled), source file and line, module and offset; global variables by
// their symbol. Used only while a report is written (under the checker lock).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

struct Dwfl;

namespace raceaccel::rt {

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

class Symbolizer {
 public:
  Symbolizer() = default;
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // `return_address` is a call's return address: the call itself is looked
  // up. Inlined calls there are expanded: innermost frame first.
  const std::vector<Frame>& frames(uint64_t return_address);
  std::optional<GlobalVariable> global_at(uint64_t addr);

 private:
  Dwfl* session(bool refresh);
  Dwfl* dwfl_ = nullptr;
  int pid_ = 0;
  std::unordered_map<uint64_t, std::vector<Frame>> frames_;
};

}  // namespace raceaccel::rt
