// The raceaccel command line as a value: the CLI11 app with every
// subcommand's options, and the runner of each subcommand. main() parses and
// runs; the option-parsing fuzzer (tests/fuzz/fuzz_cli_options.cpp) only
// parses, so nothing here runs a command or touches a file.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.hpp"

namespace raceaccel {

struct CliApp {
  CLI::App app{"raceaccel: precise happens-before data-race detection for traces and programs"};
  std::map<std::string, CommandRunner> runners;  // by subcommand name
};

std::unique_ptr<CliApp> make_cli_app();

// Parses argv. Returns the exit status when there is nothing to run (help,
// version: 0; a usage error: 2, with its message on stderr unless `quiet`),
// and nullopt when the chosen subcommand's runner is to be called.
std::optional<int> parse_command_line(CliApp& cli, int argc, const char* const* argv, bool quiet = false);

// The runner of the subcommand that parse_command_line chose.
const CommandRunner& chosen_runner(const CliApp& cli);

// A CLI11 check: the value is an unsigned decimal integer in [lo, hi].
// (CLI11's own conversion takes "-1" for an unsigned option and wraps it.)
CLI::Validator unsigned_in(uint64_t lo, uint64_t hi);

}  // namespace raceaccel
