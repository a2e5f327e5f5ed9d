// Checking one trace on several cores (`check --jobs N`; docs/detectors.md,
// "Sharded checking"). Memory is cut into blocks of 2^block_shift bytes and
// each block belongs to one of N shards; each shard is a detector of its own
// (FastTrack or DJIT+) on a thread of its own. Every shard replays every
// synchronization event — locks, fork/join, barriers, fences, the acquire
// and release halves of every atomic, Alloc/Free, the first sight of every
// thread — so all shards keep the same thread, lock and atomic clocks as one
// detector would; each checks only the bytes of its own blocks (an access
// across blocks is cut at block edges). A byte's verdict depends only on the
// clocks and on the accesses to that byte, so each byte gets the verdict one
// detector gives it; the races of all shards, sorted by (event, byte), are
// then exactly one detector's list.
//
// The caller's thread is the reader: process() copies events into a batch
// of a small ring (bounded memory: `batches` × `batch_events` events); the
// workers each scan every batch, read-only, and the batch is reused once all
// of them are done with it.
//
// The shards may also be given whole (any shardable Detector): the offload
// engine's multi-device checking (offload/multi_device_checker.hpp) runs one
// OffloadChecker per device under this same rule, each on its own worker
// thread, as a multi-card host would drive its cards.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "detect/detector.hpp"

namespace raceaccel {

class ShardedChecker final : public Detector {
 public:
  struct Options {
    unsigned jobs = 2;           // shards, one thread each
    unsigned block_shift = 12;   // blocks of 4 KiB, FastTrack's shadow page
    size_t batch_events = 8192;  // events per batch
    size_t batches = 4;          // batches in the ring
  };
  static constexpr unsigned kMaxJobs = 1024;
  // `detector` names a shardable detector (make_detector); throws
  // std::invalid_argument otherwise, or for jobs outside [1, kMaxJobs] or a
  // block smaller than 8 bytes (FastTrack's granule).
  ShardedChecker(std::string_view detector, const Options& options);
  // The given detectors as the shards (options.jobs is ignored: one shard
  // per detector); throws std::invalid_argument if one is not shardable().
  ShardedChecker(std::vector<std::unique_ptr<Detector>> shards, const Options& options);
  ~ShardedChecker() override;
  ShardedChecker(const ShardedChecker&) = delete;
  ShardedChecker& operator=(const ShardedChecker&) = delete;

  std::string_view name() const override { return name_; }
  // Buffers the event. A shard's failure (a CapacityError) is thrown from a
  // later process() or from finish(), once every shard has stopped; races()
  // then holds the races up to the failing event, as one detector's would.
  void process(const Event& event, uint64_t index) override;
  // Checks what is buffered, finishes every shard's detector on its own
  // thread (a device's last batch) and merges their races.
  void finish() override;
  // Final after finish() (or after a shard's failure was thrown).
  const std::vector<Race>& races() const override { return races_; }
  // The index of the event a shard failed at, once that failure was thrown.
  std::optional<uint64_t> failed_event() const { return failed_event_; }
  unsigned jobs() const { return options_.jobs; }
  // Shard i's detector (its races, statistics); not to be fed directly.
  Detector& shard(unsigned i) { return *shards_.at(i).detector; }

  // Which shard owns the block (address >> block_shift).
  static unsigned shard_of(uint64_t block, unsigned jobs) {
    // A multiplicative hash spreads strided blocks (one page per thread);
    // its high 32 bits scaled to [0, jobs) by a multiply, not a division.
    return static_cast<unsigned>((((block * 0x9E3779B97F4A7C15ull) >> 32) * jobs) >> 32);
  }

 private:
  struct Batch {
    std::vector<Event> events;
    std::vector<uint64_t> indices;
    // Positions of plain accesses by a thread seen for the first time: the
    // shards that do not own their bytes still create the thread's slot
    // there, so that slots (which decide which earlier access a race names)
    // are numbered alike in every shard.
    std::vector<uint32_t> first_sight;
    unsigned pending = 0;  // shards still scanning it; guarded by mutex_
  };
  struct Shard {
    std::unique_ptr<Detector> detector;
    std::vector<ByteRange> parts;  // scratch
    std::exception_ptr failure;
    uint64_t failed_at = 0;
  };

  void start();  // the ring and the workers, once the shards exist
  void publish();
  void wait_idle();
  void stop();
  void merge();
  void rethrow_failure();
  void run(unsigned shard);
  void finish_shard(unsigned shard, std::unique_lock<std::mutex>& lock);
  void scan(const Batch& batch, unsigned shard);
  [[gnu::always_inline]] inline void scan_event(const Batch& batch, size_t i, unsigned shard, size_t& next_first);

  std::string name_;
  Options options_;
  std::vector<Batch> ring_;
  std::vector<Shard> shards_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable work_;       // a batch was published, or stop
  std::condition_variable done_;       // a batch was released by every shard
  uint64_t published_ = 0;             // batches handed to the shards; guarded by mutex_
  bool stopping_ = false;              // guarded by mutex_
  bool any_failure_ = false;           // guarded by mutex_
  bool finishing_ = false;             // workers finish their detectors as they stop; guarded by mutex_
  uint64_t last_index_ = 0;            // of the last event process() took (reader only)
  uint64_t filling_ = 0;               // the batch being filled (reader only)
  Batch* fill_ = nullptr;              // ring_[filling_ % ring_.size()]
  std::unordered_set<ThreadId> seen_;  // threads seen in plain accesses (reader only)
  ThreadId last_tid_ = 0;
  bool have_last_tid_ = false;
  bool finished_ = false;
  std::optional<uint64_t> failed_event_;
  std::vector<Race> races_;
};

}  // namespace raceaccel
