#include "offload/stats_json.hpp"

#include <string>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::offload {

nlohmann::json stats_json(const OffloadStats& s) {
  nlohmann::json escalations = nlohmann::json::object();
  for (size_t i = 0; i < s.causes.size(); ++i) {
    if (s.causes[i] != 0)
      escalations[std::string(escalation_cause_name(static_cast<EscalationCause>(i)))] = s.causes[i];
  }
  return {{"accesses", s.access_commands},
          {"on_chip", s.on_chip()},
          {"escalations", escalations},
          {"slot_recycles", s.slot_recycles},
          {"slotless_threads", s.slotless_threads},
          {"cycles", s.device.cycles == 0 ? nlohmann::json(nullptr) : nlohmann::json(s.device.busy_cycles)},
          {"command_bytes", s.command_words * regs::kCommandBytes},
          {"host_ns_per_event", host_ns_per_event(s)}};
}

nlohmann::json stats_json(const OffloadStats& total, std::span<const OffloadStats> devices) {
  nlohmann::json out = stats_json(total);
  nlohmann::json each = nlohmann::json::array();
  for (const OffloadStats& d : devices) {
    nlohmann::json one = stats_json(d);
    one["events"] = d.events;  // the synchronization events and those accesses that touch its bytes
    each.push_back(std::move(one));
  }
  out["devices"] = std::move(each);
  return out;
}

}  // namespace raceaccel::offload
