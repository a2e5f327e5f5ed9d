// The offload protocol, written once (docs/driver.md, "Protocol core and
// transports"): everything the host does to keep a device's check engine
// exact, independent of how commands reach the engine and how its records
// come back.
//
// The core owns the host side of the hardware/software split
// (docs/hardware.md):
//  - synchronization is exact in software (ReferenceSyncState); the
//    engine's clock rows mirror it: lock acquire/release by threads with a
//    slot run on the engine's sync-object store (SyncObjectStore places the
//    lock clocks), everything else is sent as set-row commands;
//  - threads get engine slots (lanes) through LaneMap, which recycles the
//    slot of a joined thread for a thread forked after it;
//  - threads without a slot (a thread whose clock outgrows the clock width
//    leaves its slot) are sent as forced escalations;
//  - atomic operations are split: their synchronization is done here (and
//    mirrored in the clock rows), their access part goes to the engine as
//    an atomic read or write (ops 9 and 10) that it checks against the plain
//    history, when the engine has them; the atomic history is the host's
//    alone (AtomicHistory), and each plain access is checked against it
//    before it is sent: one concurrent with an atomic access goes forced,
//    with that conflict, so the host reports DJIT+'s race. An engine
//    without ops 9 and 10 gets every atomic access forced;
//  - every command gets a number; the sent-command table keeps what a
//    record needs about it (event, thread, site, op, mask) until every
//    record of it has come back, and the clock history keeps each thread's
//    clock as of every event still in flight;
//  - escalations are answered with FastTrack on the host's lines
//    (HostLines), with the clock the thread had at that command; race
//    records are mapped back to events, threads and sites.
//
// A Transport carries commands to an engine and hands its records back,
// already decoded by the driver's decoders (driver/records.hpp), with the
// command number in `word`. Two exist: the batched driver::Device
// (DeviceTransport, host/offload/device_transport.hpp) and the cycle-level
// Verilated engine (sim/engine_transport.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/event.hpp"
#include "detect/detector.hpp"
#include "detect/race.hpp"
#include "detect/sync_state.hpp"
#include "driver/records.hpp"
#include "offload/atomic_history.hpp"
#include "offload/lane_map.hpp"
#include "offload/site_log.hpp"
#include "offload/soft_line.hpp"
#include "offload/sync_objects.hpp"
#include "offload/touched_pages.hpp"

namespace raceaccel::offload {

// Why an access was not decided on chip (or, for the two spills, why
// state left it): the first cause the host can tell from the command and
// the line the record carries (docs/driver.md, "Statistics").
enum class EscalationCause : uint8_t {
  Slotless,     // forced: the thread has no hardware slot
  Atomic,       // forced: an atomic access on an engine without ops 9-10, or a plain one concurrent with an atomic one
  Overflow,     // forced: a clock outgrew the device's width (fallback)
  HostOwned,    // the line was already the host's (a consequence of an earlier cause)
  NoPool,       // READ SHARE on a device without a read-VC pool
  SecondShare,  // READ SHARE on a line whose shared bytes already hold a clock
  PartialRead,  // a read of some, not all, of a line's shared bytes
  LastWrite,    // a LASTWRITE line (its clock was spilled) needed its reads
  DifferentReads,  // READ SHARE of bytes whose earlier reads differ
  BucketSpill,     // an evicted line found its bucket taken (reason 4 record)
  ReadClockSpill,  // a read clock left the pool (reason 5 record)
  Other,
};
inline constexpr size_t kEscalationCauses = 12;
std::string_view escalation_cause_name(EscalationCause cause);  // snake_case, for JSON and text

// What the core counts (the same for every transport).
struct ProtocolStats {
  uint64_t events = 0;
  uint64_t early_batches = 0;  // answered early (transport flushed) to bound the clock history
  uint64_t escalations = 0;    // escalation records answered by the host (spills and reclaims included)
  uint64_t spills = 0;
  // The read-VC pool: clocks it spilled to the host (reason 5), lines
  // imported with the clock their record carried (EVERYTHING) and with a
  // clock spilled earlier joined with R (LASTWRITE).
  uint64_t read_share_escalations = 0;  // reason 1 records (READ SHARE the device could not keep)
  uint64_t read_clock_spills = 0;
  uint64_t partial_read_clock_spills = 0;  // of which reason 6 (reads since an earlier spill, joined)
  uint64_t read_clock_imports = 0;
  uint64_t lastwrite_imports = 0;
  uint64_t lastwrite_spill_imports = 0;  // of which from a bucket spill (reason 4)
  size_t kept_read_clocks_peak = 0;      // most spilled clocks held at once
  uint64_t reclaims = 0;
  uint64_t stale_placeholder_spills = 0;  // spills of a placeholder evicted before its granule was re-imported
  // Re-import (docs/kernel-interface.md, "Re-import"): host-owned lines
  // handed back to the device with import-line commands (1 + line_words
  // words each).
  uint64_t reimports = 0;
  uint64_t reimported_read_clocks = 0;        // of which with shared bytes (their clock took a pool entry)
  uint64_t reimported_more_clocks = 0;        // further clocks of those lines (op 8, several clocks per line)
  uint64_t slot_recycles = 0;                 // threads that took the slot of a joined thread (LaneMap)
  uint64_t slotless_threads = 0;              // threads that got no slot when they appeared
  uint64_t slots_taken_later = 0;             // of which took one later (counted in slot_recycles too)
  uint64_t forced = 0;                        // commands sent with force_sw
  uint64_t atomic_commands = 0;               // access commands for atomic accesses (ops 9-10, or forced without them)
  uint64_t atomic_conflicts = 0;              // plain access commands forced: concurrent with an atomic access
  uint64_t set_rows = 0;                      // set-row commands (each 1 + row_words words)
  uint64_t sync_commands = 0;                 // acquire and release commands (one word each)
  uint64_t object_loads = 0;                  // load-object commands (1 + row_words words)
  uint64_t device_races = 0, host_races = 0;  // per-byte races found on the device / by the host
  bool fell_back = false;                     // a thread's clock outgrew the device's clock width
  uint64_t overflow_evictions = 0;            // threads that left their slot for it (LaneMap::evict)
  // Free commands sent: the device looks their granules up like accesses
  // (a lookup that can miss), but its `accesses` counts reads and writes only.
  uint64_t free_commands = 0;
  std::array<uint64_t, 8> records_by_reason{};  // escalation records by regs::kReason*
  // Read and write commands (atomic ones included), and of those the ones
  // the device escalated (reasons 0-2): the rest were decided on chip.
  uint64_t access_commands = 0, escalated_accesses = 0;
  // Escalated accesses by first cause, plus the spill records.
  std::array<uint64_t, kEscalationCauses> causes{};
  uint64_t on_chip() const { return access_commands - escalated_accesses; }
};

// Where a transport delivers the records of the commands it carried.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // `word` of each record is the number of its command (ProtocolCore::send).
  virtual void on_escalation(const driver::EscalationRecord& r) = 0;
  virtual void on_race(const driver::RaceRecord& r) = 0;
  // Every record of the commands numbered below `next` has been delivered.
  virtual void answered(uint64_t next) = 0;
};

// How commands reach an engine. Records may be delivered at any time during
// send() or flush() (a batched device delivers a whole batch when it
// launches it, a cycle-level engine as its outputs fire), escalations of one
// granule in command order.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual void connect(RecordSink& sink) = 0;
  // For error messages: "software device", "engine".
  virtual std::string_view name() const = 0;
  // Command number `number` (consecutive from 0). Set-row and load-object
  // commands carry `row`, one lane per slot; lanes beyond the span are 0
  // (the core sends the lanes ever held only, LaneMap::used).
  virtual void send(const driver::CommandWord& word, uint64_t number, std::span<const uint64_t> row) = 0;
  // An import-line command (op 7) with its line and, when the word's mask
  // (the line's shared bytes) is not zero, the read clock, one lane per
  // slot. Only called when the core was told the engine has the command
  // (ProtocolCore's `reimport`).
  virtual void send_line(const driver::CommandWord& word, uint64_t number, const driver::Line& line,
                         std::span<const uint64_t> read_clock);
  // Delivers every record of the commands sent so far, then answered().
  virtual void flush() = 0;
};

class ProtocolCore final : public RecordSink {
 public:
  // `shape`: the engine's slots, clock width and read-VC pool (the line
  // format); `objects`: sync-object store entries the core may use;
  // `reimport`: hand host-owned lines back with import-line commands (the
  // engine has the command, and the policy is on); `recycle_slots`: joined
  // threads' slots go to threads forked later.
  // `atomics`: the engine checks atomic accesses (ops 9 and 10).
  ProtocolCore(Transport& transport, const driver::LineShape& shape, unsigned objects, bool reimport = false,
               bool recycle_slots = true, bool atomics = false);
  ProtocolCore(const ProtocolCore&) = delete;
  ProtocolCore& operator=(const ProtocolCore&) = delete;

  void process(const Event& e, uint64_t index);
  // Sharded checking (Detector::process_parts): the access part of a read,
  // write or atomic only for the bytes of `parts`, everything else whole.
  void process_parts(const Event& e, uint64_t index, std::span<const Detector::ByteRange> parts);
  // Answers every command sent so far.
  void finish() { transport_.flush(); }
  // Races of every answered command, sorted by event and address within
  // each answered stretch.
  const std::vector<Race>& races() const { return races_; }
  const ProtocolStats& stats() const { return stats_; }
  bool fell_back() const { return stats_.fell_back; }
  bool reimports() const { return reimport_; }
  bool atomics_on_chip() const { return atomics_on_chip_; }
  const driver::LineShape& shape() const { return shape_; }
  const SyncObjectStore& objects() const { return objects_; }

  void on_escalation(const driver::EscalationRecord& r) override;
  void on_race(const driver::RaceRecord& r) override;
  void answered(uint64_t next) override;

 private:
  // What a record needs to know about a command.
  // 32 bytes: one is written per command, and a batch's table is about as
  // large as the core's cache share (the trace's thread id is the dense
  // thread's, ReferenceSyncState::tid_of).
  struct SentCommand {
    uint64_t event = 0, granule = 0, site = 0;
    uint32_t slot = 0;  // dense thread index (not the engine's slot: LaneMap)
    uint8_t op = 0;     // regs::kOp*
    uint8_t mask = 0;
    // An atomic access, sent as a forced read (load) or write (store, RMW):
    // what it reads and writes, for the host's check.
    bool atomic_read : 1 = false, atomic_write : 1 = false;
    // Forced because of atomics: an atomic access the engine cannot check,
    // or a plain one with an atomic conflict (conflicts_ has it).
    bool atomic_forced : 1 = false;
    bool fell_back : 1 = false;  // sent after the thread's clock outgrew the device (evicted)
    bool slotless : 1 = false;   // the thread had no engine slot
  };
  static_assert(sizeof(SentCommand) <= 32);
  // Read clocks the pool spilled (reason 5), per granule, until its line is
  // imported, reclaimed or fully freed: a LASTWRITE line's shared bytes read
  // this clock joined with their R (exact: the engine keeps a clock in the
  // pool only while its line is on chip). `command` is the number of the
  // command whose record spilled it (a full free after that ends the
  // granule's history).
  // Per byte: with several clocks per line each reason-5 record names the
  // bytes its clock covers (escalation byte 18; 0: every byte).
  struct KeptReadClock {
    std::array<std::shared_ptr<const VectorClock>, 8> bytes;
    std::array<uint64_t, 8> command{};
    bool empty() const {
      return std::none_of(bytes.begin(), bytes.end(), [](const auto& c) { return c != nullptr; });
    }
  };

  [[noreturn]] void protocol_error(const std::string& what) const;
  // Numbers the next command, has `fill` write its table entry in place and
  // hands the command to the transport. In place: an entry built field by
  // field on the stack and then copied into the table stalled every command
  // (the copy's wide loads cannot be forwarded from the narrow stores that
  // built it), a fifth of the host's time.
  template <typename Fill>
  void send(const driver::CommandWord& word, Fill&& fill, std::span<const uint64_t> row = {});
  void send_granules(const Event& e, uint64_t index, uint32_t t, uint64_t addr, uint64_t size);
  void free_touched(const Event& e, uint64_t index, uint32_t t);
  SoftLine& import_line(const driver::EscalationRecord& r, const driver::Line& line);
  void age_kept_read_clocks(uint64_t next);
  void check_on_host(SoftLine& line, const SentCommand& c, uint64_t number);
  // A host line as the engine would hold it: the line, and the read clock
  // of its shared bytes (empty without shared bytes).
  struct DeviceLine {
    driver::Line line;  // shared: the bytes of the first clock (op 7's mask)
    std::vector<uint64_t> read_clock;
    // Several clocks per line: the other clocks and their bytes (op 8 each).
    std::vector<std::pair<unsigned, std::vector<uint64_t>>> more_clocks;
  };
  std::optional<DeviceLine> device_line(const SoftLine& line) const;
  void promote_import_candidates(uint64_t next);
  void reimport_before(const driver::CommandWord& c, uint64_t index);
  Race make_race(const SentCommand& c, unsigned byte, RaceKind kind, Epoch prev,
                 std::optional<uint64_t> prev_atomic_site = std::nullopt) const;
  void sync_row(uint32_t thread);
  std::span<const uint64_t> used_lanes(std::span<const uint64_t> row) const;
  void thread_created(uint32_t thread, const VectorClock* fork_clock, uint64_t index);
  void adopt_slot(uint32_t thread);
  Epoch thread_epoch(uint32_t lane, uint64_t clock, uint64_t command) const;
  bool sync_on_device(const Event& e, uint64_t index, uint32_t t);
  void note_clock(uint32_t slot, uint64_t event);
  void snapshot_clock(uint32_t slot, uint64_t event);
  const VectorClock& clock_at(uint32_t slot, uint64_t event) const;
  void prune_history();
  const SentCommand* command_at(uint64_t number) const;
  VectorClock read_clock_of(const driver::EscalationRecord& r) const;
  EscalationCause cause_of(const driver::EscalationRecord& r, const driver::Line& line, const SentCommand& c) const;

  Transport& transport_;
  driver::LineShape shape_;

  ReferenceSyncState sync_;
  LaneMap lanes_;                              // which engine slot (lane) each thread uses
  std::vector<std::vector<uint64_t>> mirror_;  // the engine's clock rows, by lane, as last sent
  std::vector<uint64_t> row_;                  // scratch
  SyncObjectStore objects_;                    // lock clocks on the engine
  std::vector<SyncObjectCommand> sync_commands_;
  // Per slot: (from event, clock), the first `size` entries in use. Pruned
  // entries stay constructed, so a new one reuses a clock's memory instead
  // of allocating. An entry is made at the first access command after the
  // clock changed (`stale`), not at every synchronization event.
  struct History {
    std::vector<std::pair<uint64_t, VectorClock>> entries;
    size_t size = 0;
    bool stale = true;
  };
  std::vector<History> history_;
  static constexpr size_t kHistoryLimit = 1 << 16;  // entries before the transport is flushed early
  size_t history_entries_ = 0;

  // The sent-command table: commands numbered table_base_ onwards, not yet
  // answered (a vector: answering a batch clears it but for the command
  // being sent, keeping its capacity).
  std::vector<SentCommand> table_;
  uint64_t table_base_ = 0;
  HostLines host_lines_;
  // Atomic accesses: whether the engine checks them, the history of every
  // byte as of the last command sent, and the conflicts of the plain
  // commands in flight that were forced for one (by command number).
  bool atomics_on_chip_ = false;
  AtomicHistory atomic_history_;
  std::unordered_map<uint64_t, AtomicConflicts> conflicts_;
  AtomicConflicts scratch_conflicts_;
  std::unordered_map<uint64_t, KeptReadClock> kept_read_clocks_;
  // Re-import: granules whose escalated command the host has applied
  // (candidates), and of those the ones with no command in flight when
  // their records were answered (ready: the host's copy is the line's
  // exact state, and stays so until the next command on the granule).
  bool reimport_ = false;
  std::unordered_set<uint64_t> import_candidates_, ready_imports_;
  TouchedPages touched_;  // pages any access was sent for
  SiteLog sites_;
  std::vector<Race> races_, pending_races_;
  ProtocolStats stats_;
};

}  // namespace raceaccel::offload
