#include "cli/app.hpp"

#include <fmt/format.h>

#include <charconv>
#include <iostream>

#include "common/exit_codes.hpp"

namespace raceaccel {

std::unique_ptr<CliApp> make_cli_app() {
  auto cli = std::make_unique<CliApp>();
  CLI::App& app = cli->app;
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("raceaccel ") + RACEACCEL_VERSION);
  cli->runners["check"] = add_check_command(app);
  cli->runners["convert"] = add_convert_command(app);
  cli->runners["stats"] = add_stats_command(app);
  cli->runners["gen"] = add_gen_command(app);
  cli->runners["devices"] = add_devices_command(app);
  cli->runners["run"] = add_run_command(app);
  cli->runners["sweep"] = add_sweep_command(app);
  cli->runners["shape"] = add_shape_command(app);
  return cli;
}

std::optional<int> parse_command_line(CliApp& cli, int argc, const char* const* argv, bool quiet) {
  // CLI11 takes an unknown first word for a stray positional and then says
  // "A subcommand is required"; name the word and the subcommands instead.
  if (argc > 1 && argv[1][0] != '-' && cli.runners.count(argv[1]) == 0) {
    if (!quiet) {
      std::string names;
      for (const auto& [name, runner] : cli.runners) names += (names.empty() ? "" : ", ") + name;
      std::cerr << fmt::format("raceaccel: unknown subcommand '{}' (expected one of {})\n", argv[1], names);
      std::cerr << "Run with --help for more information.\n";
    }
    return exit_code::kUsage;
  }
  try {
    cli.app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = quiet ? e.get_exit_code() : cli.app.exit(e);
    return code == 0 ? exit_code::kOk : exit_code::kUsage;
  }
  return std::nullopt;
}

const CommandRunner& chosen_runner(const CliApp& cli) {
  return cli.runners.at(cli.app.get_subcommands().front()->get_name());
}

CLI::Validator unsigned_in(uint64_t lo, uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        uint64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 10);
        if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size()) {
          return fmt::format("'{}' is not an unsigned decimal integer", text);
        }
        if (ec == std::errc::result_out_of_range || value < lo || value > hi) {
          return fmt::format("{} is out of range [{} - {}]", text, lo, hi);
        }
        return std::string();
      },
      fmt::format("UINT in [{} - {}]", lo, hi));
}

}  // namespace raceaccel
