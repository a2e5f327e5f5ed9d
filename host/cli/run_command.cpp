// `raceaccel run`: runs a program built with raceaccel-cc/raceaccel-c++,
// with RACEACCEL_OPTIONS set from the command line (docs/runtime.md).
// The program replaces this process, so its exit status is the command's
// (66 when races were reported). Statuses of run itself: 2 bad options,
// 127 program not found, 126 program not executable.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cli/commands.hpp"
#include "common/exit_codes.hpp"
#include "runtime/options.hpp"

namespace raceaccel {
namespace {

constexpr int kProgramNotFound = 127;
constexpr int kProgramNotExecutable = 126;

struct RunOptions {
  std::string backend;
  std::string xclbin;
  std::string log_path;
  bool json = false;
  std::string record;
  std::string sarif;
  std::string suppressions;
  std::vector<std::string> program;
};

int run_program(const RunOptions& o) {
  // Options already in the environment come first: the command line wins.
  const char* existing = std::getenv("RACEACCEL_OPTIONS");
  std::string options = existing != nullptr ? existing : "";
  // RACEACCEL_OPTIONS separates options by white space and ':', so a value
  // holding one (a path "/tmp/a b", or "/tmp/x:exitcode=0") cannot be passed
  // through it: refuse it rather than split it into other options.
  std::string bad_value;
  auto add = [&](std::string_view key, const std::string& value) {
    if (value.find_first_of(" \t\n:") != std::string::npos && bad_value.empty()) {
      bad_value =
          fmt::format("{} '{}' cannot contain white space or ':' (they separate RACEACCEL_OPTIONS)", key, value);
    }
    if (!options.empty()) options += ' ';
    options += fmt::format("{}={}", key, value);
  };
  if (!o.backend.empty()) add("backend", o.backend);
  if (!o.xclbin.empty()) add("xclbin", o.xclbin);
  if (!o.log_path.empty()) add("log_path", o.log_path);
  if (o.json) add("json", "1");
  if (!o.record.empty()) add("record", o.record);
  if (!o.sarif.empty()) add("sarif", o.sarif);
  if (!o.suppressions.empty()) add("suppressions", o.suppressions);
  if (!bad_value.empty()) {
    fmt::print(stderr, "raceaccel run: {}\n", bad_value);
    return exit_code::kUsage;
  }
  const rt::ParsedOptions parsed = rt::parse_runtime_options(options);
  if (!parsed.error.empty()) {
    fmt::print(stderr, "raceaccel run: {}\n", parsed.error);
    return exit_code::kUsage;
  }
  setenv("RACEACCEL_OPTIONS", options.c_str(), 1);
  std::vector<char*> argv;
  for (const std::string& a : o.program) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  const int err = errno;
  fmt::print(stderr, "raceaccel run: cannot run {}: {}\n", o.program.front(), std::strerror(err));
  return err == ENOENT || err == ENOTDIR ? kProgramNotFound : kProgramNotExecutable;
}

}  // namespace

CommandRunner add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand(
      "run",
      "Run an instrumented program (built with raceaccel-cc/c++) under the race checker; exit status is the "
      "program's (66: races reported; 126/127: cannot run the program)");
  sub->add_option("--backend", o->backend,
                  "software: FastTrack (the default); djit: the golden detector; the others: the offload engine on "
                  "that device")
      ->check(CLI::IsMember(rt::runtime_backend_names()));
  sub->add_option("--xclbin", o->xclbin, "--backend xrt: the card image (rac_kernel .xclbin)");
  sub->add_option("--log-path", o->log_path, "Write reports to FILE.<pid> instead of stderr");
  sub->add_flag("--json", o->json, "Reports as JSON, one object per line");
  sub->add_option("--record", o->record, "Record the event stream as a binary trace for `raceaccel check`");
  sub->add_option("--sarif", o->sarif, "Also write the reports as a SARIF 2.1.0 log to FILE at exit")
      ->type_name("FILE");
  sub->add_option("--suppressions", o->suppressions,
                  "Drop the reports a ThreadSanitizer-format suppressions FILE matches")
      ->type_name("FILE");
  sub->add_option("program", o->program, "Program and its arguments (after --)")->required();
  sub->positionals_at_end();
  return [o] { return run_program(*o); };
}

}  // namespace raceaccel
