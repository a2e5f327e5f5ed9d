// Runs the Verilated check engine (rtl/rac_check_engine.sv) as a Detector:
// the offload protocol core (host/offload/protocol_core.hpp) — the same code
// the device path runs — on the cycle-level engine transport
// (engine_transport.hpp), which is only the pin-level wiring.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "detect/detector.hpp"
#include "engine_transport.hpp"
#include "offload/protocol_core.hpp"

namespace raceaccel::sim {

struct EngineStats {
  uint64_t cycles = 0, commands = 0, accesses = 0, misses = 0, writebacks = 0, escalations = 0, events = 0;
  uint64_t sync_ops = 0, object_loads = 0, set_rows = 0;  // commands the host sent for synchronization
  uint64_t read_vc_spills = 0;                            // read clocks the pool handed to the host
  std::array<uint64_t, 8> records_by_reason{};            // escalation records by regs::kReason*
  offload::ProtocolStats protocol;                        // everything the core counts
};

template <typename Model>
class EngineChecker final : public Detector {
 public:
  explicit EngineChecker(const EngineConfig& config)
      : transport_(config),
        core_(transport_, config.shape(), config.objects, config.reimport, /*recycle_slots=*/true, config.atomics) {}
  std::string_view name() const override { return "engine"; }
  void process(const Event& e, uint64_t index) override { core_.process(e, index); }
  const std::vector<Race>& races() const override { return core_.races(); }
  // Drains the engine and answers every command; call before races().
  void finish() {
    core_.finish();
    transport_.check_assertions();
  }
  EngineStats stats() const {
    const Model& m = transport_.model();
    const offload::ProtocolStats& p = core_.stats();
    EngineStats s;
    s.cycles = m.stat_cycles_o;
    s.commands = m.stat_commands_o;
    s.accesses = m.stat_accesses_o;
    s.misses = m.stat_misses_o;
    s.writebacks = m.stat_writebacks_o;
    s.escalations = m.stat_escalations_o;
    s.events = p.events;
    s.sync_ops = p.sync_commands;
    s.object_loads = p.object_loads;
    s.set_rows = p.set_rows;
    s.read_vc_spills = p.read_clock_spills;
    s.records_by_reason = p.records_by_reason;
    s.protocol = p;
    return s;
  }
  bool fell_back() const { return core_.fell_back(); }

 private:
  EngineTransport<Model> transport_;
  offload::ProtocolCore core_;
};

}  // namespace raceaccel::sim
