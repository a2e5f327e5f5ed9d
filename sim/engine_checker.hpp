// Runs the Verilated check engine (rtl/rac_check_engine.sv) as a Detector.
//
// This is the host side of the hardware/software split in docs/hardware.md:
//  - synchronization is exact in software (ReferenceSyncState); the engine's
//    thread-clock rows mirror it, through SetRow commands or, for lock
//    acquire/release, by the engine's own sync ops on lock clocks the host
//    places in the engine's sync-object store (objects > 0), planned by the
//    offload engine's SyncObjectStore (host/offload/sync_objects.hpp);
//  - an Alloc or Free sends free commands only for the pages an access
//    touched (host/offload/touched_pages.hpp), as the offload engine does;
//  - threads beyond the hardware slots, and everything after a clock outgrows
//    the hardware width, are sent as forced escalations;
//  - escalated commands are checked here, in software, on the state the
//    engine hands over with them; that state then stays in software until a
//    full free returns the granule to hardware.
// The backing store is a sparse memory model with seeded latency and
// back-pressure; the race and escalation outputs get seeded back-pressure too.
#pragma once

#include <array>
#include <bit>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "detect/detector.hpp"
#include "detect/sync_state.hpp"
#include "offload/sync_objects.hpp"
#include "offload/touched_pages.hpp"
#include "verilated_bits.hpp"
#include "verilated_setup.hpp"

namespace raceaccel::sim {

struct EngineConfig {
  unsigned slots = 8;  // must match the model's NumSlots, ClkW, Sets, Ways
  unsigned clk_bits = 16;
  unsigned sets = 64;
  unsigned ways = 4;
  // Entries of the engine's sync-object store the host may use (at most the
  // model's Objects; 0: every synchronization is sent as SetRow rows).
  unsigned objects = 0;
  // Entries of the engine's read-VC pool: must equal the model's ReadVcs
  // (it decides the line format; 0: no pool, concurrent reads go to software).
  unsigned read_vcs = 0;
  uint64_t seed = 1;
  unsigned max_mem_latency = 4;  // cycles before a fill response, drawn in [1, max]
  unsigned stall_percent = 20;   // chance per cycle that memory or an output is not ready
  // With RACEACCEL_FST=<file> in the environment (and models built with
  // -DRACEACCEL_TRACE=ON, the default), the run writes an FST waveform;
  // "{}" in <file> is replaced by this tag.
  std::string trace_tag = "engine";
};

struct EngineStats {
  uint64_t cycles = 0, commands = 0, accesses = 0, misses = 0, writebacks = 0, escalations = 0, events = 0;
  uint64_t sync_ops = 0, object_loads = 0, set_rows = 0;  // commands the host sent for synchronization
  uint64_t read_vc_spills = 0;                            // read clocks the pool handed to the host
  std::array<uint64_t, 8> records_by_reason{};            // escalation records by rac_pkg::Esc* reason
};

template <typename Model>
class EngineChecker final : public Detector {
 public:
  explicit EngineChecker(const EngineConfig& config);
  ~EngineChecker() override;
  std::string_view name() const override { return "engine"; }
  void process(const Event& e, uint64_t index) override;
  const std::vector<Race>& races() const override { return races_; }
  // Drains the engine; call before races().
  void finish();
  EngineStats stats() const;
  bool fell_back() const { return fallback_; }

 private:
  enum CmdOp : unsigned { kRead = 0, kWrite = 1, kFree = 2, kSetRow = 3, kAcquire = 4, kRelease = 5, kLoadObj = 6 };
  struct Command {
    unsigned op = 0;
    bool force = false;
    unsigned slot = 0;
    unsigned mask = 0;
    uint64_t granule = 0, seq = 0;
    std::vector<uint64_t> row;  // kSetRow: the clock lanes
  };
  // A software-owned byte: FastTrack state with full clocks and dense thread slots.
  struct SoftByte {
    bool raced = false;
    Epoch w, r;
    bool shared = false;
    VectorClock rvc;
  };
  struct SoftLine {
    SoftByte bytes[8];
  };
  struct Pending {  // an access in flight, for escalations and reports
    uint64_t seq;
    ThreadId tid;
    uint32_t slot;
    bool write;
    uint64_t site;
  };

  void push(const Command& c);
  bool tick();
  void drain_outputs();
  void serve_memory();
  void send_granules(const Event& e, uint64_t index, uint32_t t, uint64_t addr, uint64_t size);
  void sync_rows(uint32_t slot);
  bool sync_on_chip(const Event& e, uint32_t t, uint64_t index);
  void handle_escalation(uint64_t seq, unsigned reason, const std::vector<uint32_t>& line);
  VectorClock escalated_read_clock() const;
  SoftLine import_line(uint64_t granule, const std::vector<uint32_t>& line);
  void handle_race();
  void soft_check(SoftLine& line, uint64_t granule, const Command& c, const Pending& p);
  VectorClock clock_at(uint32_t slot, uint64_t seq) const;
  void record_clock(uint32_t slot, uint64_t seq);
  void forget_old(uint64_t index);
  void drain();

  EngineConfig cfg_;
  unsigned slot_w_, byte_w_, line_w_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
  FstTrace fst_;
  std::mt19937_64 rng_;
  ReferenceSyncState sync_;
  uint64_t max_clock_;                         // the largest clock value the engine holds
  std::vector<std::vector<uint64_t>> mirror_;  // the engine's clock rows as last set
  // The engine's sync-object store as the host placed it (the host always
  // knows each entry's value exactly, so an evicted entry is simply reloaded).
  offload::SyncObjectStore objects_;
  std::vector<offload::SyncObjectCommand> object_commands_;  // scratch for one event
  offload::TouchedPages touched_;
  uint64_t set_rows_ = 0;
  bool fallback_ = false;
  std::vector<Race> races_;
  uint64_t events_ = 0;
  // Commands pushed but possibly not finished, with what escalations need.
  std::unordered_map<uint64_t, std::vector<Command>> commands_by_seq_;
  std::unordered_map<uint64_t, Pending> pending_;
  std::unordered_map<uint64_t, SoftLine> soft_;
  // Read clocks the pool spilled, per granule: the reads of its shared bytes
  // before the line became LASTWRITE (the line then holds only later reads).
  std::unordered_map<uint64_t, VectorClock> spilled_reads_;
  std::array<uint64_t, 8> records_by_reason_{};
  // Per slot: (seq from which it holds, clock) — C_t as of any in-flight event.
  std::vector<std::deque<std::pair<uint64_t, VectorClock>>> history_;
  // Memory model
  std::unordered_map<uint64_t, std::vector<uint32_t>> memory_;
  bool fill_pending_ = false;
  unsigned fill_delay_ = 0;
  uint64_t fill_granule_ = 0;
  bool wb_pending_ = false;
  unsigned wb_delay_ = 0;
  uint64_t wb_granule_ = 0;
  std::vector<uint32_t> wb_data_;
};

}  // namespace raceaccel::sim

#include "engine_checker_impl.hpp"
