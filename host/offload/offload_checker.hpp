// The offload engine: checks a trace on a Device (docs/driver.md).
//
// The host side of the hardware/software split (docs/hardware.md), for any
// backend behind driver::Device:
//  - synchronization is exact in software (ReferenceSyncState); the device's
//    clock rows mirror it: lock acquire/release by threads with a slot run
//    on the device's sync-object store (SyncObjectStore places the lock
//    clocks; acquire/release/load-object commands), everything else is sent
//    as set-row commands;
//  - threads beyond the device's slots, every access after a clock
//    outgrows cap_clock_bits, and every atomic access are sent as forced
//    escalations (the device keeps no atomic history: a granule an atomic
//    access touched is checked on the host until a full free);
//  - command words collect in large batches (one launch each); after a
//    launch, escalations are answered in word order with FastTrack on the
//    host's lines (HostLines), with the clock the thread had at that
//    command, and race records are mapped back to events, threads and sites.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_set>
#include <vector>

#include "detect/detector.hpp"
#include "detect/sync_state.hpp"
#include "driver/device.hpp"
#include "driver/records.hpp"
#include "offload/site_log.hpp"
#include "offload/soft_line.hpp"
#include "offload/sync_objects.hpp"
#include "offload/touched_pages.hpp"

namespace raceaccel::offload {

struct OffloadOptions {
  // Command words per launch. Launches cost tens of µs on a card, so batches
  // are large by default; the minimum is one set-row command with its data.
  size_t batch_words = 64 * 1024;
  unsigned bucket_bits = 16;                   // metadata bucket table: 2^bits × 128 bytes in device memory
  std::chrono::milliseconds timeout{120'000};  // per launch
  // Entries of the device's sync-object store the engine may use (at most
  // cap_objects; 0: every synchronization is sent as set-row).
  unsigned sync_objects = UINT32_MAX;
};

struct OffloadStats {
  uint64_t events = 0;
  uint64_t command_words = 0;  // sent to the device, set-row data included
  uint64_t batches = 0;
  uint64_t early_batches = 0;  // launched before full, to bound the clock history
  uint64_t escalations = 0;    // escalation records answered by the host (spills and reclaims included)
  uint64_t spills = 0;
  // The read-VC pool: clocks it spilled to the host (reason 5), lines
  // imported with the clock their record carried (EVERYTHING) and with a
  // clock spilled earlier joined with R (LASTWRITE).
  uint64_t read_share_escalations = 0;  // reason 1 records (READ SHARE the device could not keep)
  uint64_t read_clock_spills = 0;
  uint64_t read_clock_imports = 0;
  uint64_t lastwrite_imports = 0;
  uint64_t lastwrite_spill_imports = 0;  // of which from a bucket spill (reason 4)
  size_t kept_read_clocks_peak = 0;      // most spilled clocks held at once
  uint64_t reclaims = 0;
  uint64_t forced = 0;                        // commands sent with force_sw
  uint64_t atomic_commands = 0;               // of which for atomic accesses (always forced)
  uint64_t set_rows = 0;                      // set-row commands (each 1 + row_words words)
  uint64_t sync_commands = 0;                 // acquire and release commands (one word each)
  uint64_t object_loads = 0;                  // load-object commands (1 + row_words words)
  uint64_t device_races = 0, host_races = 0;  // per-byte races found on the device / by the host
  bool fell_back = false;                     // a clock outgrew the device's clock width
  std::chrono::nanoseconds launch_time{0};    // host clock, from to_device of the words to ap_done
  std::chrono::nanoseconds records_time{0};   // reading back and answering the records
  driver::Capabilities capabilities;
  // Free commands sent: the device looks their granules up like accesses
  // (a lookup that can miss), but its `accesses` counts reads and writes only.
  uint64_t free_commands = 0;
  driver::Statistics device;  // the stat_* registers, counted since this checker was made
};

// The metadata cache's lookups: every read, write and free command looks
// its granule up (and may miss), while the device's `accesses` counts reads
// and writes only, so misses are measured against accesses + frees.
inline uint64_t cache_lookups(const OffloadStats& s) { return s.device.accesses + s.free_commands; }
// Hits over lookups, in [0, 1] (0 without lookups). A miss is a lookup;
// misses beyond the lookups (a device that counts otherwise) show as 0.
inline double cache_hit_rate(const OffloadStats& s) {
  const uint64_t lookups = cache_lookups(s);
  if (lookups == 0) return 0.0;
  const uint64_t misses = s.device.misses < lookups ? s.device.misses : lookups;
  return static_cast<double>(lookups - misses) / static_cast<double>(lookups);
}

class OffloadChecker final : public Detector {
 public:
  explicit OffloadChecker(driver::Device& device, const OffloadOptions& options = {});
  std::string_view name() const override { return "offload"; }
  void process(const Event& e, uint64_t index) override;
  // Races of every launched batch; call finish() first for the whole trace.
  const std::vector<Race>& races() const override { return races_; }
  // Launches the last, partial batch.
  void finish();
  OffloadStats stats();
  size_t batch_words() const { return batch_words_; }

 private:
  // What a record needs to know about the command at its word index.
  struct SentCommand {
    uint64_t event = 0, granule = 0, site = 0;
    ThreadId tid = 0;
    uint32_t slot = 0;  // dense thread slot (may exceed the device's slots)
    uint8_t op = 0;     // regs::kOp*; set-row and its data words: kOpSetRow
    uint8_t mask = 0;
    // An atomic access, sent as a forced read (load) or write (store, RMW):
    // what it reads and writes, for the host's check.
    bool atomic_read = false, atomic_write = false;
  };

  void send(const driver::CommandWord& word, const SentCommand& info, std::span<const uint64_t> row = {});
  void send_granules(const Event& e, uint64_t index, uint32_t t, uint64_t addr, uint64_t size);
  void free_touched(const Event& e, uint64_t index, uint32_t t);
  void launch();
  void handle_escalation(const driver::EscalationRecord& r);
  SoftLine& import_line(const driver::EscalationRecord& r, const driver::Line& line);
  struct KeptReadClock;
  void age_kept_read_clocks();
  void handle_race(const driver::RaceRecord& r);
  void check_on_host(SoftLine& line, const SentCommand& c);
  Race make_race(const SentCommand& c, unsigned byte, RaceKind kind, Epoch prev,
                 std::optional<uint64_t> prev_atomic_site = std::nullopt) const;
  void sync_row(uint32_t slot);
  bool sync_on_device(const Event& e, uint64_t index, uint32_t t);
  void note_clock(uint32_t slot, uint64_t event);
  const VectorClock& clock_at(uint32_t slot, uint64_t event) const;
  void prune_history();

  driver::Device& device_;
  OffloadOptions options_;
  driver::Capabilities caps_;
  driver::Statistics device_at_start_;  // stats() reports the device's counts since then
  driver::LineShape shape_;
  size_t batch_words_;
  std::unique_ptr<driver::Buffer> commands_, race_records_, esc_records_, buckets_;
  bool first_launch_ = true;

  ReferenceSyncState sync_;
  std::vector<std::vector<uint64_t>> mirror_;  // the device's clock rows as last sent
  SyncObjectStore objects_;                    // lock clocks on the device
  std::vector<SyncObjectCommand> sync_commands_;
  bool fallback_ = false;
  std::vector<std::deque<std::pair<uint64_t, VectorClock>>> history_;  // per slot: (from event, clock)
  static constexpr size_t kHistoryLimit = 1 << 16;                     // entries before a batch is answered early
  size_t history_entries_ = 0;

  // The batch's commands, and for each word the index of its command
  // (kDataWord for set-row data words).
  static constexpr uint32_t kDataWord = UINT32_MAX;
  std::vector<SentCommand> sent_;
  std::vector<uint32_t> word_command_;
  const SentCommand* command_at(uint64_t word) const;
  std::vector<uint64_t> row_scratch_;
  HostLines host_lines_;
  // Read clocks the pool spilled (reason 5), per granule, until its line is
  // imported, reclaimed or fully freed: a LASTWRITE line's shared bytes read
  // this clock joined with their R (exact: the engine keeps a clock in the
  // pool only while its line is on chip). `batch`/`word` say when it was
  // spilled (a full free after that ends the granule's history).
  struct KeptReadClock {
    VectorClock clock;
    uint64_t batch = 0, word = 0;
  };
  std::vector<driver::RaceRecord> batch_race_records_;  // the batch's, decoded before its escalations
  std::unordered_map<uint64_t, KeptReadClock> kept_read_clocks_;
  TouchedPages touched_;  // pages any access was sent for
  SiteLog sites_;
  std::vector<Race> races_, batch_races_;
  OffloadStats stats_;
};

}  // namespace raceaccel::offload
