// The subcommands of the raceaccel CLI. Each registers its options on the
// CLI11 app and returns its exit status when run.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace raceaccel {

using CommandRunner = std::function<int()>;

CommandRunner add_check_command(CLI::App& app);
CommandRunner add_convert_command(CLI::App& app);
CommandRunner add_stats_command(CLI::App& app);
CommandRunner add_gen_command(CLI::App& app);
CommandRunner add_devices_command(CLI::App& app);
CommandRunner add_run_command(CLI::App& app);
CommandRunner add_sweep_command(CLI::App& app);
CommandRunner add_shape_command(CLI::App& app);

}  // namespace raceaccel
