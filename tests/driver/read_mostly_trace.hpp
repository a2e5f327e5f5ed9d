// A read-mostly trace for the read-VC pool tests (tests/driver/ and
// tests/kernel/): the case the pool is for.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "core/event.hpp"

namespace raceaccel::test {

// Read-mostly sharing, the case the read-VC pool is for: the main thread
// fills a table of 8-byte words, the workers read whole words (so the bytes
// of a word share one read epoch and READ SHARE can allocate a clock), now
// and then read half a word (a partial read of shared bytes goes to the
// host) or update a word under a lock, with or without holding it.
class ReadMostlyTrace {
 public:
  ReadMostlyTrace(uint64_t seed, uint32_t threads, uint64_t words, uint64_t events, unsigned partial_permille)
      : rng_(seed), threads_(threads), words_(words), events_(events), partial_(partial_permille) {}
  bool next(Event& e) {
    if (pending_.empty()) refill();
    if (pending_.empty()) return false;
    e = pending_.front();
    pending_.erase(pending_.begin());
    return true;
  }

 private:
  static constexpr uint64_t kTable = 0x5000'0000;
  uint64_t pick(uint64_t n) { return rng_() % n; }
  void refill() {
    if (step_ == 0) {
      for (uint64_t w = 0; w < words_; ++w) pending_.push_back(Event::write(0, kTable + 8 * w, 8, 1));
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Fork, 0, t));
    } else if (step_ > events_) {
      if (step_ == events_ + 1) {
        for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Join, 0, t));
      }
      ++step_;
      return;
    } else {
      const auto t = static_cast<ThreadId>(1 + pick(threads_ - 1));
      const uint64_t word = kTable + 8 * pick(words_);
      const uint64_t action = pick(1000);
      if (action < partial_) {
        pending_.push_back(Event::read(t, word + 4 * pick(2), 4, 200 + t));
      } else if (action < 900) {
        pending_.push_back(Event::read(t, word, 8, 100 + t));
      } else if (action < 970) {
        const uint64_t lock = 0x10 + pick(2);
        pending_.push_back(Event::sync(Op::Acquire, t, lock));
        pending_.push_back(Event::read(t, word, 8, 300 + t));
        pending_.push_back(Event::sync(Op::Release, t, lock));
      } else {
        const bool locked = pick(4) != 0;
        if (locked) pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(Event::write(t, word, 8, 400 + t));
        if (locked) pending_.push_back(Event::sync(Op::Release, t, 0x10));
      }
    }
    ++step_;
  }
  std::mt19937_64 rng_;
  uint32_t threads_;
  uint64_t words_, events_, step_ = 0;
  unsigned partial_;
  std::vector<Event> pending_;
};

}  // namespace raceaccel::test
