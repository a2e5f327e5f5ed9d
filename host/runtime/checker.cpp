#include "runtime/checker.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <optional>
#include <utility>

#include "common/exit_codes.hpp"
#include "detect/fasttrack.hpp"
#include "runtime/runtime.hpp"
#include "runtime/sampling.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel::rt {

Checker::Checker(std::unique_ptr<Detector> detector, Reporter& reporter)
    : detector_(std::move(detector)), reporter_(reporter) {}

Checker::Checker(std::unique_ptr<ShardedFastTrack> parallel, Reporter& reporter)
    : parallel_(std::move(parallel)), reporter_(reporter) {}

Checker::~Checker() = default;

void Checker::sample_with(std::unique_ptr<Sampler> sampler) { sampler_ = std::move(sampler); }

bool Checker::record_to(const std::string& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    error = path + ": cannot open for writing";
    return false;
  }
  ::close(fd);
  record_target_ = path;
  record_path_ = path;
  exclusive_ = true;  // set at start-up, before any other thread runs
  return true;
}

void Checker::start_recording() {
  InternalLock lock(mu_);  // recording: every operation holds it
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
  BinaryWriterOptions options;
  options.program_info = true;  // write_program_info at the end
  recorder_ = std::make_unique<BinaryWriter>(*record_file_, options);
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
  Serialized serialized(*this);
  InternalLock lock(live_mu_);
  ts->next = live_;
  ts->prev = nullptr;
  if (live_ != nullptr) live_->prev = ts;
  live_ = ts;
  ts->linked = true;
}

void Checker::unlink(ThreadState* ts) {
  Serialized serialized(*this);
  {
    OwnerLockGuard drain_lock(ts->drain_mu);
    drain_locked(ts, true);
  }
  // Not under the drain lock: the exit path takes live_mu_ before drain locks.
  InternalLock lock(live_mu_);
  if (!ts->linked) return;
  if (parallel()) parallel_->finish(ts->view);  // for the thread's join
  unlinked_counts_.drains += ts->counts.drains;
  unlinked_counts_.accesses += ts->counts.accesses;
  unlinked_counts_.events += ts->counts.events;
  unlinked_counts_.filtered += ts->counts.filtered;
  unlinked_counts_.absorbed += ts->counts.absorbed;
  unlinked_counts_.streamed += ts->counts.streamed;
  if (ts->prev != nullptr)
    ts->prev->next = ts->next;
  else
    live_ = ts->next;
  if (ts->next != nullptr) ts->next->prev = ts->prev;
  ts->linked = false;
}

void Checker::drain(ThreadState* ts) {
  Serialized serialized(*this);
  OwnerLockGuard drain_lock(ts->drain_mu);
  drain_locked(ts, true);
}

void Checker::emit(ThreadState* ts, const Event& e) {
  if (parallel() && is_atomic(e.op)) {  // an atomic emitted on its own (a guard's acquire)
    at_atomic_location(ts, e.addr, [&](std::vector<Race>& found) {
      ts->new_region();
      atomic_locked(ts, e, found);
      return 0;
    });
    return;
  }
  // History about to be discarded ends every thread's region (region_filter.hpp).
  if (e.op == Op::Free) g_forget_epoch.value.fetch_add(1, std::memory_order_seq_cst);
  Serialized serialized(*this);
  OwnerLockGuard drain_lock(ts->drain_mu);
  drain_locked(ts, true);
  ts->new_region();
  if (parallel()) {
    apply_parallel(ts, e);
  } else {
    process_locked(e);
  }
}

void Checker::apply_parallel(ThreadState* ts, const Event& e) {
  if (stopped_ || failed_) return;
  try {
    parallel_->sync(e, ts->view);
  } catch (const std::exception& err) {
    return fail(err);
  }
  ++ts->counts.events;
  record_locked(e);
}

void Checker::atomic_locked(ThreadState* ts, const Event& e, std::vector<Race>& found) {
  if (stopped_ || failed_) return;
  try {
    parallel_->atomic_locked(e, 0, ts->view, found);
  } catch (const std::exception& err) {
    return fail(err);
  }
  ++ts->counts.events;
  record_locked(e);
}

void Checker::fail(const std::exception& err) {
  if (failed_.exchange(true)) return;
  InternalLock lock(report_mu_);
  if (dynamic_cast<const CapacityError*>(&err) != nullptr) {
    reporter_.message(fmt::format("raceaccel: the detector cannot go on exactly: {}; checking stopped\n", err.what()));
  } else {  // a device failed (driver::DeviceError) or memory ran out
    reporter_.message(fmt::format("raceaccel: checking failed: {}; checking stopped\n", err.what()));
  }
}

uint64_t Checker::site_of(ThreadState* ts, const BufferedEvent& b) {
  if ((b.pc & kPatternPc) != 0) return pattern_site_of(ts, b);
  // The cache holds code sites, which do not depend on the call stack: a
  // loop's instruction hits it under every stack (SiteDepot). Two ways a
  // set, the last used first: two sites of one loop that hash to the same
  // set (atomic_pipeline's stage had its atomic load and a plain read in
  // one) would otherwise evict each other at every access, and every miss
  // takes the report lock all threads share.
  const size_t set = ((b.pc * 0x9E3779B97F4A7C15ull) ^ (uint64_t{b.size_kind} * 0x165667B19E3779F9ull)) >> 56;
  ThreadState::SiteCacheEntry* ways = &ts->site_cache[(set % (kCacheSlots / 2)) * 2];
  const auto holds = [&](const ThreadState::SiteCacheEntry& c) {
    return c.code_plus_1 != 0 && c.pc == b.pc && c.size_kind == b.size_kind;
  };
  if (RACEACCEL_LIKELY(holds(ways[0]))) return SiteDepot::id_of(b.node, ways[0].code_plus_1 - 1);
  if (holds(ways[1])) {
    std::swap(ways[0], ways[1]);
    return SiteDepot::id_of(b.node, ways[0].code_plus_1 - 1);
  }
  InternalLock lock(report_mu_);
  const uint32_t code = sites_.code_of(b.pc, b.size_kind);
  if (code == SiteDepot::kMaxCodes) return 0;
  ways[1] = ways[0];
  ways[0] = {b.pc, b.size_kind, code + 1};
  return SiteDepot::id_of(b.node, code);
}

Event Checker::access_event(ThreadState* ts, const BufferedEvent& b) {
  if (unpack_kind(b.size_kind) == AccessKind::Atomic) {  // append_atomic_load: lead is the order
    return Event::atomic(Op::AtomicLoad, ts->tid, b.addr, b.length, static_cast<MemoryOrder>(b.lead), site_of(ts, b));
  }
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
uint64_t Checker::pattern_site_of(ThreadState* ts, const BufferedEvent& b) {
  const RunPattern& run = ts->patterns[b.pc & (kPatternSlots - 1)];
  const uint32_t unit = pattern_unit(unpack_size(b.size_kind));
  PcPattern p;
  p.unit = unit;
  p.offset = static_cast<uint32_t>(b.addr % unit);
  p.period = run.period;
  const uint64_t first = (b.addr - p.offset) / unit % run.period;  // the first unit's position
  for (uint32_t i = 0; i < run.period; ++i) p.pcs[(first + i) % run.period] = run.pcs[i];
  const uint64_t hash = (p.pcs[0] * 0x9E3779B97F4A7C15ull) ^ (uint64_t{b.size_kind} * 0xC2B2AE3D27D4EB4Full) ^
                        ((uint64_t{p.offset} << 32 | p.period) * 0x165667B19E3779F9ull);
  // Two ways a set, the last used first, as site_of's cache.
  ThreadState::PatternSiteEntry* ways = &ts->pattern_cache[((hash >> 60) % (ThreadState::kPatternCacheSlots / 2)) * 2];
  const auto holds = [&](const ThreadState::PatternSiteEntry& c) {
    return c.code_plus_1 != 0 && c.size_kind == b.size_kind && c.pattern == p;
  };
  if (holds(ways[0])) return SiteDepot::id_of(b.node, ways[0].code_plus_1 - 1);
  if (holds(ways[1])) {
    std::swap(ways[0], ways[1]);
    return SiteDepot::id_of(b.node, ways[0].code_plus_1 - 1);
  }
  InternalLock lock(report_mu_);
  const uint32_t code = sites_.pattern_code(b.size_kind, p);
  if (code == SiteDepot::kMaxCodes) return 0;
  ways[1] = ways[0];
  ways[0] = {p, b.size_kind, code + 1};
  return SiteDepot::id_of(b.node, code);
}

// The plain site of the first access of entry b (a run is recorded as it).
uint64_t Checker::first_site_of(const BufferedEvent& b, uint64_t site) {
  if ((b.pc & kPatternPc) == 0) return site;
  InternalLock lock(report_mu_);
  return sites_.at_byte(site, b.addr);
}

void Checker::drain_locked(ThreadState* ts, bool owner, ShardedFastTrack::Cursor* keep) {
  const uint32_t end = ts->count.load(std::memory_order_acquire);
  const uint32_t begin = ts->consumed;
  if (!stopped_ && !failed_ && end > begin) {
    if (parallel()) {
      ++ts->counts.drains;
    } else {
      ++stats_.drains;
    }
    const uint64_t first_index = parallel() ? begin : next_index_;
    const bool recording_now = recording();
    if (recording_now) link_absorbed(ts, begin, end);
    std::vector<Race> found;  // parallel
    std::optional<ShardedFastTrack::Cursor> own_cursor;
    ShardedFastTrack::Cursor* cursor = keep;
    if (parallel()) {
      start_view(ts);
      if (cursor == nullptr) cursor = &own_cursor.emplace(*parallel_);
    }
    uint64_t accesses = 0;
    uint64_t sampled_out = 0;
    Sampler* const sampler = sampler_.get();
    for (uint32_t i = begin; i < end; ++i) {
      // The owner reads its entry in place, field by field: the entry was
      // often stored a moment ago (a ring's slot, then the store that
      // drains), and a copy of the whole entry loads it 16 bytes at a time,
      // which the core cannot forward from the entry's narrower stores
      // still in its store buffer: the load waits for them to reach the
      // cache (24 % of drain_locked's samples on a one-thread ring). A
      // record-only entry (recording) is copied without its flag; another
      // thread's drain (exit, fork) copies the entry once, since its owner
      // may still extend a run in it.
      BufferedEvent copy;
      const bool record_only = (ts->buffer[i].size_kind & kRecordOnly) != 0;
      if (record_only || !owner) {
        copy = ts->buffer[i];
        copy.size_kind &= ~kRecordOnly;
      }
      const BufferedEvent& b = record_only || !owner ? copy : ts->buffer[i];
      const AccessKind kind = unpack_kind(b.size_kind);
      if (kind == AccessKind::Alloc) {
        // Recorded with the allocation call's site: `raceaccel check` finds
        // heap blocks and their allocation stacks from it.
        const Event e = Event::range(Op::Alloc, ts->tid, b.addr, b.length, recording_now ? site_of(ts, b) : 0);
        if (parallel()) {
          cursor->release();  // a drain holds one shard lock at a time
          apply_parallel(ts, e);
        } else {
          process_locked(e);
        }
      } else if (record_only) {
        // An access a run absorbed was recorded right after the run's first.
        if (!recording_now || !absorbed_by_run(b, begin, i)) record_locked(access_event(ts, b));
        ++next_index_;  // keeps buffer positions and event indices in step (report_fresh_races)
      } else if (sampler != nullptr && kind <= AccessKind::Write && !sampler->checks(b.addr)) {
        // Sampled out (sample=, sampling.hpp): recorded as if checked, not
        // checked. Allocation and free writes are always checked.
        ++sampled_out;
        if (!parallel()) ++next_index_;  // keeps buffer positions and event indices in step
        if (recording_now) record_run(ts, b, i, access_event(ts, b));
      } else {
        const Event e = access_event(ts, b);
        ++accesses;
        if (parallel()) {
          if (stopped_ || failed_) break;
          try {
            parallel_->access(e, i, ts->view, *cursor, found);
          } catch (const std::exception& err) {
            cursor->release();
            fail(err);
            break;
          }
        } else {
          check_locked(e);
        }
        // An Atomic entry was recorded at its load (record_held_load).
        if (recording_now && kind != AccessKind::Atomic) record_run(ts, b, i, e);
      }
    }
    if (own_cursor) own_cursor->release();
    if (sampled_out != 0) sampler->add_dropped(sampled_out);
    if (parallel()) {
      ts->counts.accesses += accesses;
      report_found(ts, begin, end, found);
    } else {
      stats_.accesses += accesses;
      report_fresh_races(ts, begin, end, first_index);
    }
  }
  if (owner) {
    // Per thread in parallel checking: a shared counter's cache line would
    // travel between the threads at every synchronization event.
    if (parallel()) {
      ts->counts.filtered += take_own_decided();  // an owner's drain runs on ts's thread
      ts->counts.absorbed += ts->take_absorbed(true);
      ts->counts.streamed += take_own_streamed();
    } else {
      stats_.filtered += take_own_decided();
      stats_.absorbed += ts->take_absorbed(true);
      stats_.streamed += take_own_streamed();
    }
    ts->consumed = 0;
    ts->end_open_runs(0);  // the buffer starts over
    ts->recent_runs[0] = ts->recent_runs[1] = ~0u;
    ts->patterns_used = 0;
    ts->count.store(0, std::memory_order_relaxed);
  } else {
    ts->consumed = end;
  }
}

void Checker::record_run(ThreadState* ts, const BufferedEvent& b, uint32_t i, const Event& e) {
  record_locked(Event::range(e.op, e.tid, b.addr - b.lead, unpack_size(b.size_kind), first_site_of(b, e.site)));
  for (uint32_t j = absorbed_head_[i]; j != kNoAbsorbed; j = absorbed_next_[j]) {
    BufferedEvent a = ts->buffer[j];
    a.size_kind &= ~kRecordOnly;
    record_locked(access_event(ts, a));
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
  detector_->forget_races();  // taken: reported now, never again
  races_seen_ = detector_->races().size();
  report_races(ts, begin, end, first_index, fresh);
}

void Checker::report_found(const ThreadState* ts, uint32_t begin, uint32_t end, std::vector<Race>& found) {
  if (found.empty()) return;
  parallel_->tids_of(found);  // the shards name the earlier access's thread by its slot
  report_races(ts, begin, end, begin, found);
}

void Checker::report_races(const ThreadState* ts, uint32_t begin, uint32_t end, uint64_t first_index,
                           std::vector<Race>& fresh) {
  InternalLock lock(report_mu_);
  if (stopped_) return;
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
  const std::string record_error = finish_recording_locked(true);
  if (!record_error.empty()) reporter_.message(fmt::format("raceaccel: record={}: {}\n", record_target_, record_error));
  reporter_.print_summary();
  // Flushing the program's stdio may wait for a thread that holds a stdio
  // lock and waits for this lock (a traced malloc inside printf draining its
  // buffer): let such threads go on, their events now dropped, before it.
  stopped_ = true;
  // Held by callers' InternalLocks, which _exit never releases.
  report_mu_.unlock();
  if (serialized()) mu_.unlock();
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
  } catch (const std::exception& err) {
    fail(err);
    return false;
  }
  return true;
}

void Checker::record_locked(const Event& e) {
  if (stopped_ || failed_) return;
  if (!record_path_.empty()) {
    early_events_.push_back(e);
    recorded_events_.fetch_add(1, std::memory_order_relaxed);
  } else if (recorder_) {
    try {
      recorder_->write(e, no_symbols_);
      recorded_events_.fetch_add(1, std::memory_order_relaxed);
    } catch (const std::exception& err) {
      record_error_ = err.what();
      recorder_.release();  // NOLINT: a failed writer must not flush again at exit
    }
  }
}

void Checker::drain_all_and_stop() {
  Serialized serialized(*this);
  {
    InternalLock lock(live_mu_);
    for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) {
      std::lock_guard<OwnerLock> drain_lock(ts->drain_mu);
      drain_locked(ts, false);
      if (ts == t_thread) {  // once: a later unlink adds only what came after
        stats_.filtered += take_own_decided();
        stats_.streamed += take_own_streamed();
      }
      stats_.absorbed += ts->take_absorbed(false);
    }
  }
  // A device backend still holds its last batch: check it, report its races.
  if (!parallel() && !stopped_ && !failed_) {
    try {
      detector_->finish();
    } catch (const std::exception& err) {
      fail(err);
    }
    report_fresh_races(nullptr, 0, 0, 0);
  }
  stopped_ = true;
}

std::string Checker::finish_recording() {
  InternalLock lock(mu_);
  return finish_recording_locked();
}

std::string Checker::finish_recording_locked(bool report_locked) {
  start_recording_locked();  // the program never reached main
  if (recorder_) {
    try {
      write_program_info(report_locked);
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

void Checker::write_program_info(bool report_locked) {
  ProgramInfo info;
  if (describe_program_) describe_program_(info);
  if (report_locked) {
    info.codes = sites_.codes();
  } else {
    InternalLock lock(report_mu_);
    info.codes = sites_.codes();
  }
  recorder_->write_program_info(info);
}

std::vector<std::pair<uint64_t, uint64_t>> Checker::racy_ranges() {
  InternalLock lock(report_mu_);
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
  CheckerStats s;
  s.events = stats_.events;
  s.accesses = stats_.accesses;
  s.filtered = stats_.filtered;
  s.absorbed = stats_.absorbed;
  s.streamed = stats_.streamed;
  s.drains = stats_.drains;
  s.races = stats_.races;
  if (sampler_) s.dropped = sampler_->dropped();
  if (parallel()) {
    InternalLock lock(live_mu_);
    ThreadState::Counts sum = unlinked_counts_;
    for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) {
      std::lock_guard<OwnerLock> drain_lock(ts->drain_mu);
      sum.drains += ts->counts.drains;
      sum.accesses += ts->counts.accesses;
      sum.events += ts->counts.events;
      sum.filtered += ts->counts.filtered;
      sum.absorbed += ts->counts.absorbed;
      sum.streamed += ts->counts.streamed;
    }
    s.drains += sum.drains;
    s.accesses += sum.accesses;
    s.events += sum.accesses + sum.events;
    s.filtered += sum.filtered;
    s.absorbed += sum.absorbed;
    s.streamed += sum.streamed;
  }
  s.absorbed += s.streamed;  // counted apart, reported as part of the runs' accesses
  if (parallel()) {
    s.clock_slots = parallel_->thread_slots();
  } else if (const auto* fasttrack = dynamic_cast<const FastTrackDetector*>(detector_.get())) {
    InternalLock lock(mu_);
    s.clock_slots = fasttrack->thread_slots();
  }
  InternalLock lock(report_mu_);
  s.sites = sites_.size();
  return s;
}

// Every lock, in the lock order: the threads' drain locks too, so that no
// thread is half-way through a drain in the child.
void Checker::lock_for_fork() {
  mu_.lock();
  live_mu_.lock();
  if (parallel()) {
    for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) ts->drain_mu.lock();
    parallel_->lock_all();
  }
  report_mu_.lock();
}

void Checker::unlock_after_fork() {
  report_mu_.unlock();
  if (parallel()) {
    parallel_->unlock_all();
    for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) ts->drain_mu.unlock();
  }
  live_mu_.unlock();
  mu_.unlock();
}

void Checker::adopt_after_fork_child(ThreadState* self, const std::vector<ThreadId>& finished) {
  // Called in the child with every lock held (taken before fork), by this,
  // the child's only thread: parallel checking takes the fine locks again as
  // it goes, so they are released first (the threads that held them in the
  // parent are gone), and taken again for unlock_after_fork. The report
  // lock is released in both modes: the drains take it for a code site
  // the thread's cache does not hold (the serial child hung there, waiting
  // for the lock it held itself).
  report_mu_.unlock();
  if (parallel()) {
    parallel_->unlock_all();
    for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) ts->drain_mu.reset_after_fork();
  }
  OwnerLock::enable_bias();  // the child's address space is not registered yet
  for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) {
    if (ts == self) continue;
    if (parallel()) {
      {
        std::lock_guard<OwnerLock> drain_lock(ts->drain_mu);
        drain_locked(ts, false);
      }
      parallel_->finish(ts->view);  // its clocks, for the join
      std::lock_guard<OwnerLock> drain_lock(self->drain_mu);
      apply_parallel(self, Event::sync(Op::Join, self->tid, ts->tid));
    } else {
      drain_locked(ts, false);
      process_locked(Event::sync(Op::Join, self->tid, ts->tid));
    }
  }
  // Threads that had already exited: their clocks are where their exit put
  // them (the global state), as for a pthread_join after the exit. Before,
  // the child was ordered after the live threads only, and its accesses
  // raced with what an exited, not yet joined thread had done.
  for (const ThreadId tid : finished) {
    if (tid == self->tid) continue;
    if (parallel()) {
      std::lock_guard<OwnerLock> drain_lock(self->drain_mu);
      apply_parallel(self, Event::sync(Op::Join, self->tid, tid));
    } else {
      process_locked(Event::sync(Op::Join, self->tid, tid));
    }
  }
  if (parallel()) {
    for (ThreadState* ts = live_; ts != nullptr; ts = ts->next) ts->drain_mu.lock();
    parallel_->lock_all();
  }
  report_mu_.lock();
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
