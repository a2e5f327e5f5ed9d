// The "accelerator" object of `raceaccel check --json` and of the runtime's
// JSON summary (docs/reports.md): accesses, accesses decided on chip,
// escalations by first cause, cycles (null when not modelled), command
// bytes and the host's ns per event. Written once for both.
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "offload/offload_checker.hpp"

namespace raceaccel::offload {

nlohmann::json stats_json(const OffloadStats& s);
// Several devices (check --devices N): the summed block (sum_stats) with
// "devices", an array of each device's block, in device order.
nlohmann::json stats_json(const OffloadStats& total, std::span<const OffloadStats> devices);

}  // namespace raceaccel::offload
