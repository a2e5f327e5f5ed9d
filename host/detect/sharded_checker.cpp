#include "detect/sharded_checker.hpp"

#include <algorithm>
#include <stdexcept>

namespace raceaccel {

namespace {

void check_options(const ShardedChecker::Options& options, size_t jobs) {
  if (jobs < 1 || jobs > ShardedChecker::kMaxJobs)
    throw std::invalid_argument("sharded checking: jobs must be in [1, " + std::to_string(ShardedChecker::kMaxJobs) +
                                "]");
  if (options.block_shift < 3 || options.block_shift > 40)
    throw std::invalid_argument("sharded checking: blocks must be 2^3 to 2^40 bytes");
  if (options.batch_events == 0 || options.batches < 2)
    throw std::invalid_argument("sharded checking: needs two batches of at least one event");
}

}  // namespace

ShardedChecker::ShardedChecker(std::string_view detector, const Options& options) : options_(options) {
  check_options(options, options.jobs);
  shards_.resize(options.jobs);
  for (Shard& s : shards_) {
    s.detector = make_detector(detector);
    if (!s.detector || !s.detector->shardable())
      throw std::invalid_argument("sharded checking: detector " + std::string(detector) + " cannot be sharded");
  }
  start();
}

ShardedChecker::ShardedChecker(std::vector<std::unique_ptr<Detector>> detectors, const Options& options)
    : options_(options) {
  check_options(options, detectors.size());
  options_.jobs = static_cast<unsigned>(detectors.size());
  shards_.resize(detectors.size());
  for (size_t i = 0; i < detectors.size(); ++i) {
    if (!detectors[i] || !detectors[i]->shardable())
      throw std::invalid_argument("sharded checking: a shard's detector cannot be sharded");
    shards_[i].detector = std::move(detectors[i]);
  }
  start();
}

void ShardedChecker::start() {
  name_ = std::string(shards_[0].detector->name());
  ring_.resize(options_.batches);
  fill_ = &ring_[0];
  for (Batch& b : ring_) {
    b.events.reserve(options_.batch_events);
    b.indices.reserve(options_.batch_events);
  }
  threads_.reserve(options_.jobs);
  for (unsigned i = 0; i < options_.jobs; ++i) threads_.emplace_back([this, i] { run(i); });
}

ShardedChecker::~ShardedChecker() { stop(); }

void ShardedChecker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

void ShardedChecker::process(const Event& e, uint64_t index) {
  Batch& b = *fill_;
  if (is_access(e.op) && !(have_last_tid_ && e.tid == last_tid_)) {
    if (seen_.insert(e.tid).second) b.first_sight.push_back(static_cast<uint32_t>(b.events.size()));
    last_tid_ = e.tid;
    have_last_tid_ = true;
  }
  b.events.push_back(e);
  b.indices.push_back(index);
  last_index_ = index;
  if (b.events.size() == options_.batch_events) publish();
}

// Hands the batch being filled to the shards and waits until the next one
// in the ring is free. A failed shard is reported here, once all are idle.
void ShardedChecker::publish() {
  bool failed = false;
  {
    std::unique_lock lock(mutex_);
    ring_[filling_ % ring_.size()].pending = options_.jobs;
    ++published_;
    ++filling_;
    Batch& next = ring_[filling_ % ring_.size()];
    work_.notify_all();
    done_.wait(lock, [&] { return next.pending == 0; });
    failed = any_failure_;
  }
  Batch& next = ring_[filling_ % ring_.size()];
  fill_ = &next;
  next.events.clear();
  next.indices.clear();
  next.first_sight.clear();
  if (failed) rethrow_failure();
}

void ShardedChecker::wait_idle() {
  std::unique_lock lock(mutex_);
  done_.wait(lock,
             [&] { return std::all_of(ring_.begin(), ring_.end(), [](const Batch& b) { return b.pending == 0; }); });
}

void ShardedChecker::finish() {
  if (finished_) return;
  if (!ring_[filling_ % ring_.size()].events.empty()) {
    std::unique_lock lock(mutex_);
    ring_[filling_ % ring_.size()].pending = options_.jobs;
    ++published_;
    ++filling_;
    work_.notify_all();
  }
  wait_idle();
  bool failed = false;
  {
    std::lock_guard lock(mutex_);
    failed = any_failure_;
    finishing_ = true;  // each worker finishes its detector as it stops: devices launch their last batches at once
  }
  if (failed) rethrow_failure();
  stop();
  if (any_failure_) rethrow_failure();  // a shard's finish() failed (the workers are joined: no lock needed)
  merge();
  finished_ = true;
}

// In-process shards fail at the same event, since all replay the same
// synchronization (the only source of CapacityError); the earliest failure
// is the one a single detector would have met. Device shards may fail
// apart (a device error ends one shard's launch): the earliest is reported.
// Races after it are dropped.
void ShardedChecker::rethrow_failure() {
  wait_idle();
  stop();
  const Shard* first = nullptr;
  for (const Shard& s : shards_) {
    if (s.failure && (first == nullptr || s.failed_at < first->failed_at)) first = &s;
  }
  failed_event_ = first->failed_at;
  merge();
  std::erase_if(races_, [&](const Race& r) { return r.event > *failed_event_; });
  finished_ = true;
  std::rethrow_exception(first->failure);
}

// One detector finds races in event order and, within an event, in byte
// order; each shard's list is in that order too, so a sort by (event,
// byte) interleaves them as one detector would have.
void ShardedChecker::merge() {
  races_.clear();
  for (const Shard& s : shards_) races_.insert(races_.end(), s.detector->races().begin(), s.detector->races().end());
  std::sort(races_.begin(), races_.end(),
            [](const Race& a, const Race& b) { return a.event != b.event ? a.event < b.event : a.addr < b.addr; });
}

void ShardedChecker::run(unsigned shard) {
  for (uint64_t seq = 0;; ++seq) {
    Batch& b = ring_[seq % ring_.size()];
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return published_ > seq || stopping_; });
      if (published_ <= seq) {
        if (finishing_) finish_shard(shard, lock);
        return;
      }
    }
    Shard& s = shards_[shard];
    if (!s.failure) {
      try {
        scan(b, shard);
      } catch (...) {
        s.failure = std::current_exception();
        std::lock_guard lock(mutex_);
        any_failure_ = true;
      }
    }
    {
      std::lock_guard lock(mutex_);
      if (--b.pending == 0) done_.notify_all();
    }
  }
}

// The shard's detector completes its work in flight (a device's last
// batch), outside the lock; a failure there counts as one at the last event.
void ShardedChecker::finish_shard(unsigned shard, std::unique_lock<std::mutex>& lock) {
  Shard& s = shards_[shard];
  if (s.failure) return;
  lock.unlock();
  try {
    s.detector->finish();
  } catch (...) {
    s.failure = std::current_exception();
    s.failed_at = last_index_;
    lock.lock();
    any_failure_ = true;
  }
}

// The batch's events for one shard. The index of an event that throws is
// noted in the catch, off the per-event path.
void ShardedChecker::scan(const Batch& batch, unsigned shard) {
  Shard& s = shards_[shard];
  size_t next_first = 0;
  const size_t n = batch.events.size();
  size_t i = 0;
  try {
    for (; i < n; ++i) scan_event(batch, i, shard, next_first);
  } catch (...) {
    s.failed_at = batch.indices[i];
    throw;
  }
}

void ShardedChecker::scan_event(const Batch& batch, size_t i, unsigned shard, size_t& next_first) {
  Shard& s = shards_[shard];
  Detector& det = *s.detector;
  const unsigned shift = options_.block_shift;
  const unsigned jobs = options_.jobs;
  const Event& e = batch.events[i];
  const uint64_t index = batch.indices[i];
  const bool plain = is_access(e.op);
  if (!plain && !is_atomic(e.op)) {
    det.process(e, index);
    return;
  }
  const uint64_t first_block = e.addr >> shift;
  const uint64_t last_block = (e.addr + e.size - 1) >> shift;
  if (first_block == last_block && shard_of(first_block, jobs) == shard) {
    det.process(e, index);  // the common case: all bytes in one block of ours
    return;
  }
  s.parts.clear();
  for (uint64_t block = first_block;; ++block) {
    if (shard_of(block, jobs) == shard) {
      const uint64_t lo = std::max(e.addr, block << shift);
      const uint64_t hi = std::min(e.addr + e.size - 1, ((block + 1) << shift) - 1);  // inclusive: no overflow
      if (!s.parts.empty() && s.parts.back().addr + s.parts.back().size == lo) {
        s.parts.back().size += hi - lo + 1;
      } else {
        s.parts.push_back({lo, hi - lo + 1});
      }
    }
    if (block == last_block) break;
  }
  if (plain && s.parts.empty()) {
    while (next_first < batch.first_sight.size() && batch.first_sight[next_first] < i) ++next_first;
    if (next_first < batch.first_sight.size() && batch.first_sight[next_first] == i) det.process_parts(e, index, {});
    return;
  }
  det.process_parts(e, index, s.parts);
}

}  // namespace raceaccel
