// raceaccel: precise dynamic data-race detection. See docs/cli.md.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <map>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"

int main(int argc, char** argv) {
  CLI::App app{"raceaccel: precise happens-before data-race detection for traces and programs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("raceaccel ") + RACEACCEL_VERSION);
  std::map<std::string, raceaccel::CommandRunner> runners;
  runners["check"] = raceaccel::add_check_command(app);
  runners["convert"] = raceaccel::add_convert_command(app);
  runners["stats"] = raceaccel::add_stats_command(app);
  runners["gen"] = raceaccel::add_gen_command(app);
  runners["devices"] = raceaccel::add_devices_command(app);
  runners["run"] = raceaccel::add_run_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? raceaccel::exit_code::kOk : raceaccel::exit_code::kUsage;
  }
  try {
    return runners.at(app.get_subcommands().front()->get_name())();
  } catch (const std::exception& e) {  // a bug or resource exhaustion, never a silent crash
    fmt::print(stderr, "raceaccel: internal error: {}\n", e.what());
    return raceaccel::exit_code::kCapacity;
  }
}
