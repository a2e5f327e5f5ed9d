// `raceaccel devices`: the backends built in and what each can use here.
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "common/exit_codes.hpp"
#include "driver/device.hpp"

namespace raceaccel {

CommandRunner add_devices_command(CLI::App& app) {
  app.add_subcommand("devices", "List the check backends and what is available here (XRT: cards found, or why not)");
  return [] {
    for (const driver::DeviceInfo& d : driver::list_devices()) {
      fmt::print("{:<10} {:<13} {}\n", d.backend, d.available ? "available" : "unavailable", d.name);
      if (!d.detail.empty()) fmt::print("{:<10} {:<13} {}\n", "", "", d.detail);
    }
    return exit_code::kOk;
  };
}

}  // namespace raceaccel
