// Checks the same events on a device backend — the software model of the
// accelerator, the Verilator-simulated kernel or an Alveo card through XRT —
// and prints the races (docs/api.md). Usage: check_on_device [BACKEND [XCLBIN]]
// (default software). Exit status as `raceaccel check --backend`: 0 no race,
// 66 races, 69 device unavailable, 2 bad usage.
#include <cstdio>
#include <memory>
#include <string>

#include "common/device_status.hpp"
#include "common/exit_codes.hpp"
#include "driver/registry.hpp"
#include "example_trace.hpp"
#include "offload/offload_checker.hpp"
#include "report/race_report.hpp"

int main(int argc, char** argv) {
  const std::string backend = argc > 1 ? argv[1] : "software";
  const std::string xclbin = argc > 2 ? argv[2] : "";  // the card image, for xrt
  std::unique_ptr<raceaccel::driver::Device> device;
  try {
    device = raceaccel::driver::open_device(backend, xclbin, /*device_index=*/0);
  } catch (const raceaccel::driver::DeviceError& e) {
    std::fprintf(stderr, "check_on_device: %s\n", e.what());
    return raceaccel::device_error_status(e);  // 69 when there is no card
  }

  // OffloadChecker is a Detector: it is fed and read like DJIT+ or FastTrack.
  raceaccel::offload::OffloadChecker checker(*device);
  const std::vector<raceaccel::Event> events = example::events();
  for (uint64_t i = 0; i < events.size(); ++i) checker.process(events[i], i);
  checker.finish();  // launches the last batch: races() is then final

  const raceaccel::SymbolTable symbols = example::symbols();
  const std::vector<raceaccel::RaceReport> reports = raceaccel::coalesce_races(checker.races());
  for (const raceaccel::RaceReport& report : reports) {
    std::printf("%s\n", raceaccel::format_race_text(report, symbols, "example").c_str());
  }
  std::printf("%s: %zu race(s)\n", std::string(device->backend()).c_str(), reports.size());
  return reports.empty() ? raceaccel::exit_code::kOk : raceaccel::exit_code::kRaces;
}
