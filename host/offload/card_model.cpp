#include "offload/card_model.hpp"

#include <algorithm>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::offload {

CardThroughput card_throughput(const OffloadStats& s, uint64_t events, const CardAssumptions& a) {
  CardThroughput t;
  if (events == 0) return t;
  const auto n = static_cast<double>(events);
  t.to_card_bytes_per_event = static_cast<double>(s.command_words * regs::kCommandBytes) / n;
  // Every escalation record the host answered (spills and reclaims
  // included: the device's stat_escalations leaves spills out) and every
  // race record.
  t.from_card_bytes_per_event =
      static_cast<double>(s.escalations * s.capabilities.esc_record_bytes + s.device.races * regs::kRaceRecordBytes) /
      n;
  if (s.device.busy_cycles != 0) t.kernel_bound = a.kernel_hz * n / static_cast<double>(s.device.busy_cycles);
  // Each direction's limit; a direction that moves nothing sets none.
  double pcie = 0;
  const auto limit = [&](double bytes_per_event, double bytes_per_s) {
    if (bytes_per_event == 0) return;
    const double bound = bytes_per_s / bytes_per_event;
    pcie = pcie == 0 ? bound : std::min(pcie, bound);
  };
  limit(t.to_card_bytes_per_event, a.to_card_bytes_per_s);
  limit(t.from_card_bytes_per_event, a.from_card_bytes_per_s);
  t.pcie_bound = pcie;
  if (a.host_ns_per_event > 0) t.host_bound = 1e9 / a.host_ns_per_event;
  return t;
}

}  // namespace raceaccel::offload
