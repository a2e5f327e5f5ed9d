// Random traces of thousands of short-lived threads, for the slot-recycling
// tests (docs/driver.md, "Slots and their recycling"). Only reads, writes,
// lock acquire/release, fork and join, so the Verilated engine harness can
// run them too.
//
// Thread 0 (main) and up to `live` workers at a time. Workers are forked by
// main or by another worker, act a few times (critical sections, racy
// accesses to a small shared region, private data, data main wrote before
// the fork) and end. An ended worker is joined by main, joined by another
// live worker (main then does not know its end), or left unjoined for a
// while (joined by main later). Near the end (the last fifth of the forks,
// as these take a slot for good) a few workers are never joined and a few
// joined ones act again or are joined twice. The racy region moves every
// few hundred steps, so races (first per byte) happen all along. Main writes data, joins and
// forks, so handoffs through join-then-fork are frequent.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "core/event.hpp"

namespace raceaccel::test {

struct ShortLivedOptions {
  uint64_t seed = 1;
  uint32_t threads = 2000;  // workers forked in all
  uint32_t live = 6;        // workers alive at once, at most
  uint32_t locks = 3;
  uint32_t join_by_other_percent = 15;  // of ended workers: joined by a live worker, not main
  uint32_t unjoined_percent = 15;       // of ended workers: left unjoined (joined later by main)
  uint32_t never_joined = 3;            // ended workers never joined, near the end
  uint32_t revives = 3;                 // joined workers that act again (or are joined again), near the end
  uint32_t worker_fork_percent = 25;    // of forks: by a live worker, not main
};

class ShortLivedTrace {
 public:
  explicit ShortLivedTrace(const ShortLivedOptions& o) : o_(o), rng_(o.seed) {}

  bool next(Event& e) {
    while (queue_.empty()) {
      if (!step()) return false;
    }
    e = queue_.front();
    queue_.pop_front();
    return true;
  }

 private:
  static constexpr uint64_t kRacy = 0x10000, kLocked = 0x20000, kPublished = 0x30000, kPrivate = 0x100000;
  struct Worker {
    ThreadId tid;
    uint32_t actions_left;
  };

  uint64_t rand(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  bool chance(uint32_t percent) { return rand(100) < percent; }
  void emit(const Event& e) { queue_.push_back(e); }
  uint64_t site() { return 1 + rand(40); }

  // One access or critical section of `t`.
  void act(ThreadId t) {
    switch (rand(5)) {
      case 0: {
        const uint64_t lock = rand(o_.locks);
        emit(Event::sync(Op::Acquire, t, lock));
        const uint64_t addr = kLocked + lock * 8 + rand(2) * 4;
        emit(chance(50) ? Event::write(t, addr, 1 + rand(4), site()) : Event::read(t, addr, 1 + rand(4), site()));
        emit(Event::sync(Op::Release, t, lock));
        break;
      }
      case 1:
      case 2: {
        const uint64_t addr = kRacy + (steps_ / 400) * 32 + rand(24);
        emit(chance(40) ? Event::write(t, addr, 1 + rand(2), site()) : Event::read(t, addr, 1 + rand(2), site()));
        break;
      }
      case 3: emit(Event::read(t, kPublished + rand(16), 1, site())); break;
      default: emit(Event::write(t, kPrivate + uint64_t{t} * 8, 8, site())); break;
    }
  }

  void end_worker(size_t i) {
    const ThreadId t = live_[i].tid;
    live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
    if (late() && never_joined_ < o_.never_joined && chance(20)) {
      ++never_joined_;
      return;
    }
    if (chance(o_.unjoined_percent)) {
      unjoined_.push_back(t);
      return;
    }
    if (!live_.empty() && chance(o_.join_by_other_percent)) {
      emit(Event::sync(Op::Join, live_[rand(live_.size())].tid, t));
    } else {
      emit(Event::sync(Op::Join, 0, t));
    }
    joined_.push_back(t);
    if (joined_.size() > 16) joined_.erase(joined_.begin());
  }

  bool late() const { return forked_ >= o_.threads - o_.threads / 5; }

  bool step() {
    ++steps_;
    if (forked_ == o_.threads && live_.empty() && unjoined_.empty()) return false;
    if (!unjoined_.empty() && chance(5)) {  // main joins a worker that ended a while ago
      const size_t i = rand(unjoined_.size());
      emit(Event::sync(Op::Join, 0, unjoined_[i]));
      unjoined_.erase(unjoined_.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
    if (!joined_.empty() && late() && revived_ < o_.revives && chance(1)) {
      ++revived_;
      const ThreadId t = joined_[rand(joined_.size())];
      if (chance(50)) {
        act(t);
      } else {
        emit(Event::sync(Op::Join, 0, t));
      }
      return true;
    }
    if (forked_ < o_.threads && live_.size() < o_.live && chance(40)) {
      const ThreadId parent = live_.empty() || !chance(o_.worker_fork_percent) ? 0 : live_[rand(live_.size())].tid;
      if (parent == 0 && chance(50)) emit(Event::write(0, kPublished + rand(16), 1, site()));
      const ThreadId child = next_tid_++;
      ++forked_;
      emit(Event::sync(Op::Fork, parent, child));
      live_.push_back({child, static_cast<uint32_t>(1 + rand(6))});
      return true;
    }
    if (live_.empty() || chance(5)) {
      act(0);
      return true;
    }
    const size_t i = rand(live_.size());
    act(live_[i].tid);
    if (--live_[i].actions_left == 0) end_worker(i);
    return true;
  }

  ShortLivedOptions o_;
  std::mt19937_64 rng_;
  std::deque<Event> queue_;
  std::vector<Worker> live_;
  std::vector<ThreadId> joined_;    // recently joined workers
  std::vector<ThreadId> unjoined_;  // ended, to be joined by main later
  ThreadId next_tid_ = 1;
  uint32_t forked_ = 0, never_joined_ = 0, revived_ = 0;
  uint64_t steps_ = 0;
};

}  // namespace raceaccel::test
