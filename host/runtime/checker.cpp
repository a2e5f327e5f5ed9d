#include "runtime/checker.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "common/exit_codes.hpp"
#include "runtime/runtime.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel::rt {

Checker::Checker(std::unique_ptr<Detector> detector, Reporter& reporter)
    : detector_(std::move(detector)), reporter_(reporter) {}

Checker::~Checker() = default;

bool Checker::record_to(const std::string& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    error = path + ": cannot open for writing";
    return false;
  }
  ::close(fd);
  record_target_ = path;
  record_path_ = path;
  return true;
}

void Checker::start_recording() {
  InternalLock lock(mu_);
  start_recording_locked();
}

void Checker::start_recording_locked() {
  if (record_path_.empty()) return;
  record_file_ = std::make_unique<std::ofstream>(record_path_, std::ios::binary | std::ios::trunc);
  record_path_.clear();
  if (!*record_file_) {
    record_error_ = "cannot open for writing";
    record_file_.reset();
    early_events_.clear();
    return;
  }
  recorder_ = std::make_unique<BinaryWriter>(*record_file_);
  try {
    for (const Event& e : early_events_) recorder_->write(e, no_symbols_);
  } catch (const std::exception& err) {
    record_error_ = err.what();
    recorder_.release();  // NOLINT: a failed writer must not flush again at exit
  }
  early_events_.clear();
  early_events_.shrink_to_fit();
}

void Checker::link(ThreadState* ts) {
  InternalLock lock(mu_);
  ts->next = live_;
  ts->prev = nullptr;
  if (live_ != nullptr) live_->prev = ts;
  live_ = ts;
  ts->linked = true;
}

void Checker::unlink(ThreadState* ts) {
  InternalLock lock(mu_);
  drain_locked(ts, true);
  if (!ts->linked) return;
  if (ts->prev != nullptr)
    ts->prev->next = ts->next;
  else
    live_ = ts->next;
  if (ts->next != nullptr) ts->next->prev = ts->prev;
  ts->linked = false;
}

void Checker::drain(ThreadState* ts) {
  InternalLock lock(mu_);
  drain_locked(ts, true);
}

void Checker::emit(ThreadState* ts, const Event& e) {
  // History about to be discarded ends every thread's region (region_filter.hpp).
  if (e.op == Op::Free) g_forget_epoch.value.fetch_add(1, std::memory_order_seq_cst);
  InternalLock lock(mu_);
  drain_locked(ts, true);
  ts->new_region();
  process_locked(e);
}

uint64_t Checker::site_of(ThreadState* ts, const BufferedEvent& b) {
  if ((b.pc & kPatternPc) != 0) return pattern_site_of(ts, b);
  // Every field is multiplied before the shift, so that the call stack
  // (node) and the access size also pick the slot, not the pc alone.
  const size_t slot = ((b.pc * 0x9E3779B97F4A7C15ull) ^ (uint64_t{b.node} * 0xC2B2AE3D27D4EB4Full) ^
                       (uint64_t{b.size_kind} * 0x165667B19E3779F9ull)) >>
                      56;
  ThreadState::SiteCacheEntry& c = ts->site_cache[slot % kCacheSlots];
  if (c.site != 0 && c.pc == b.pc && c.node == b.node && c.size_kind == b.size_kind) return c.site;
  c = {b.pc, b.node, b.size_kind, sites_.intern(Site{b.node, b.size_kind, b.pc})};
  return c.site;
}

Event Checker::access_event(ThreadState* ts, const BufferedEvent& b) {
  const Op op = is_write(unpack_kind(b.size_kind)) ? Op::Write : Op::Read;
  return Event::range(op, ts->tid, b.addr, b.length, site_of(ts, b));
}

// Whether record-only entry b at position i of the drain [begin, ...) is an
// access a run of this drain absorbed (BufferedEvent::lead names the run).
bool Checker::absorbed_by_run(const BufferedEvent& b, uint32_t begin, uint32_t i) {
  return b.lead != 0 && b.lead - 1 >= begin && b.lead - 1 < i;
}

// Lists, per run of ts's entries [begin, end), the record-only entries of
// the accesses it absorbed, in buffer (program) order.
void Checker::link_absorbed(const ThreadState* ts, uint32_t begin, uint32_t end) {
  for (uint32_t i = begin; i < end; ++i) absorbed_head_[i] = kNoAbsorbed;
  std::array<uint32_t, kBufferCapacity> tail;
  for (uint32_t j = begin; j < end; ++j) {
    const BufferedEvent& b = ts->buffer[j];
    absorbed_next_[j] = kNoAbsorbed;
    if ((b.size_kind & kRecordOnly) == 0 || !absorbed_by_run(b, begin, j)) continue;
    const uint32_t run = b.lead - 1;
    if (absorbed_head_[run] == kNoAbsorbed) {
      absorbed_head_[run] = j;
    } else {
      absorbed_next_[tail[run]] = j;
    }
    tail[run] = j;
  }
}

// A run made by several pcs in turn, as a pattern site: its pcs rotated so
// that they are indexed by the unit's position in memory, not in the run
// (so one loop gives one pattern whatever unit a run starts at).
uint64_t Checker::pattern_site_of(const ThreadState* ts, const BufferedEvent& b) {
  const RunPattern& run = ts->patterns[b.pc & (kPatternSlots - 1)];
  const uint32_t unit = pattern_unit(unpack_size(b.size_kind));
  PcPattern p;
  p.unit = unit;
  p.offset = static_cast<uint32_t>(b.addr % unit);
  p.period = run.period;
  const uint64_t first = (b.addr - p.offset) / unit % run.period;  // the first unit's position
  for (uint32_t i = 0; i < run.period; ++i) p.pcs[(first + i) % run.period] = run.pcs[i];
  return sites_.intern(b.node, b.size_kind, p);
}

// The plain site of the first access of entry b (a run is recorded as it).
uint64_t Checker::first_site_of(const BufferedEvent& b, uint64_t site) {
  return (b.pc & kPatternPc) != 0 ? sites_.at_byte(site, b.addr) : site;
}

void Checker::drain_locked(ThreadState* ts, bool owner) {
  const uint32_t end = ts->count.load(std::memory_order_acquire);
  const uint32_t begin = ts->consumed;
  if (!stopped_ && !failed_ && end > begin) {
    ++stats_.drains;
    const uint64_t first_index = next_index_;
    const bool recording_now = recording();
    if (recording_now) link_absorbed(ts, begin, end);
    for (uint32_t i = begin; i < end; ++i) {
      BufferedEvent b = ts->buffer[i];
      const bool record_only = (b.size_kind & kRecordOnly) != 0;
      b.size_kind &= ~kRecordOnly;
      const AccessKind kind = unpack_kind(b.size_kind);
      if (kind == AccessKind::Alloc) {
        process_locked(Event::range(Op::Alloc, ts->tid, b.addr, b.length));
      } else if (record_only) {
        // An access a run absorbed was recorded right after the run's first.
        if (!recording_now || !absorbed_by_run(b, begin, i)) record_locked(access_event(ts, b));
        ++next_index_;  // keeps buffer positions and event indices in step (report_fresh_races)
      } else {
        const Event e = access_event(ts, b);
        ++stats_.accesses;
        check_locked(e);
        // A run of coalesced accesses is recorded as its first access, then
        // the accesses it absorbed, in program order: the order the run was
        // checked in (a report names the first access of a racy byte, so
        // the recording must not move the run's later accesses after other
        // accesses of the thread).
        if (recording_now) {
          record_locked(Event::range(e.op, e.tid, b.addr - b.lead, unpack_size(b.size_kind), first_site_of(b, e.site)));
          for (uint32_t j = absorbed_head_[i]; j != kNoAbsorbed; j = absorbed_next_[j]) {
            BufferedEvent a = ts->buffer[j];
            a.size_kind &= ~kRecordOnly;
            record_locked(access_event(ts, a));
          }
        }
      }
    }
    report_fresh_races(ts, begin, end, first_index);
  }
  if (owner) {
    stats_.filtered += ts->take_decided();
    ts->consumed = 0;
    ts->merge_floor = 0;
    ts->patterns_used = 0;
    ts->count.store(0, std::memory_order_relaxed);
  } else {
    ts->consumed = end;
  }
}

// The address of the access of ts's entry b that first touched byte: the
// entry's own access, or for a run of coalesced accesses of one size, the
// one whose checked bytes hold byte (its unit, and for a pattern run, where
// the unit lies in its access).
namespace {
uint64_t access_address(const ThreadState* ts, const BufferedEvent& b, uint64_t byte) {
  if (byte < b.addr || byte - b.addr >= b.length) return b.addr - b.lead;
  if ((b.pc & kPatternPc) != 0) {
    const RunPattern& p = ts->patterns[b.pc & (kPatternSlots - 1)];
    const uint32_t unit = pattern_unit(unpack_size(b.size_kind & ~kRecordOnly));
    const uint64_t k = (byte - b.addr) / unit;
    return b.addr + k * unit - p.offsets[k % p.period];
  }
  const uint32_t unit = unit_of(b);
  return b.addr + (byte - b.addr) / unit * unit - b.lead;
}
}  // namespace

// Reports the races the detector found since the last call. Races of the
// drain of ts[begin, end) (events from first_index on) name the access's own
// address; races a device found later (ts null) name the first racing byte.
void Checker::report_fresh_races(const ThreadState* ts, uint32_t begin, uint32_t end, uint64_t first_index) {
  const auto& races = detector_->races();
  if (races.size() <= races_seen_) return;
  std::vector<Race> fresh(races.begin() + static_cast<std::ptrdiff_t>(races_seen_), races.end());
  races_seen_ = races.size();
  // Reports name the very accesses: a pattern site becomes the site of the
  // access of its run that touched the racy byte.
  for (Race& r : fresh) {
    r.site = sites_.at_byte(r.site, r.addr);
    r.prev_site = sites_.at_byte(r.prev_site, r.addr);
  }
  stats_.races += fresh.size();
  if (keep_racy_bytes_)
    for (const Race& r : fresh) racy_bytes_.push_back(r.addr);
  for (const RaceReport& rep : coalesce_races(fresh)) {
    const uint64_t pos = begin + (rep.race.event - first_index);
    const bool in_drain = ts != nullptr && rep.race.event >= first_index && pos < end;
    reporter_.on_race(rep, in_drain ? access_address(ts, ts->buffer[pos], rep.addr) : rep.addr, sites_);
    if (reporter_.halt_requested()) halt_locked();
  }
}

void Checker::halt_locked() {
  const std::string record_error = finish_recording_locked();
  if (!record_error.empty()) reporter_.message(fmt::format("raceaccel: record={}: {}\n", record_target_, record_error));
  reporter_.print_summary();
  // Flushing the program's stdio may wait for a thread that holds a stdio
  // lock and waits for this lock (a traced malloc inside printf draining its
  // buffer): let such threads go on, their events now dropped, before it.
  stopped_ = true;
  mu_.unlock();  // held by a caller's InternalLock, which _exit never releases
  std::fflush(nullptr);
  exit_process(record_error.empty() && !reporter_.sarif_failed() ? reporter_.halt_status() : exit_code::kIo);
}

void Checker::process_locked(const Event& e) {
  if (check_locked(e)) record_locked(e);
}

bool Checker::check_locked(const Event& e) {
  if (stopped_ || failed_) return false;
  ++stats_.events;
  try {
    detector_->process(e, next_index_++);
  } catch (const CapacityError& err) {
    failed_ = true;
    reporter_.message(fmt::format("raceaccel: the detector cannot go on exactly: {}; checking stopped\n", err.what()));
    return false;
  } catch (const std::exception& err) {  // a device failed (driver::DeviceError) or memory ran out
    failed_ = true;
    reporter_.message(fmt::format("raceaccel: checking failed: {}; checking stopped\n", err.what()));
    return false;
  }
  return true;
}

void Checker::record_locked(const Event& e) {
  if (stopped_ || failed_) return;
  if (!record_path_.empty()) {
    early_events_.push_back(e);
  } else if (recorder_) {
    try {
      recorder_->write(e, no_symbols_);
    } catch (const std::exception& err) {
      record_error_ = err.what();
      recorder_.release();  // NOLINT: a failed writer must not flush again at exit
    }
  }
}

void Checker::drain_all_and_stop() {
  InternalLock lock(mu_);
  for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) {
    drain_locked(ts, false);
    stats_.filtered += ts->take_decided();  // once: a later unlink adds only what came after
  }
  // A device backend still holds its last batch: check it, report its races.
  if (!stopped_ && !failed_) {
    try {
      detector_->finish();
    } catch (const std::exception& err) {
      failed_ = true;
      reporter_.message(fmt::format("raceaccel: checking failed: {}; checking stopped\n", err.what()));
    }
    report_fresh_races(nullptr, 0, 0, 0);
  }
  stopped_ = true;
}

std::string Checker::finish_recording() {
  InternalLock lock(mu_);
  return finish_recording_locked();
}

std::string Checker::finish_recording_locked() {
  start_recording_locked();  // the program never reached main
  if (recorder_) {
    try {
      recorder_->finish();
      record_file_->close();  // flushes; the process may end with _exit next
      if (!*record_file_) record_error_ = "write failed";
    } catch (const std::exception& err) {
      record_error_ = err.what();
    }
    recorder_.reset();
  }
  return record_error_;
}

std::vector<std::pair<uint64_t, uint64_t>> Checker::racy_ranges() {
  InternalLock lock(mu_);
  std::sort(racy_bytes_.begin(), racy_bytes_.end());
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const uint64_t b : racy_bytes_) {
    if (!ranges.empty() && ranges.back().first + ranges.back().second >= b) {
      ranges.back().second = b + 1 - ranges.back().first;
    } else {
      ranges.emplace_back(b, 1);
    }
  }
  return ranges;
}

CheckerStats Checker::stats() {
  InternalLock lock(mu_);
  CheckerStats s = stats_;
  s.sites = sites_.size() - 1;  // id 0 is "unknown"
  return s;
}

void Checker::adopt_after_fork_child(ThreadState* self) {
  // Called in the child with the lock held (taken before fork).
  for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) {
    if (ts == self) continue;
    drain_locked(ts, false);
    process_locked(Event::sync(Op::Join, self->tid, ts->tid));
  }
  live_ = self;
  self->prev = self->next = nullptr;
  self->linked = true;
  if (recorder_) {
    // The parent owns the file; the child must neither write nor flush the
    // copy of its buffer.
    (void)recorder_.release();
    (void)record_file_.release();
  }
}

}  // namespace raceaccel::rt
