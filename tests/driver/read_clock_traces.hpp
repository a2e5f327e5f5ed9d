// Traces for several read clocks per line (tests/driver/ and tests/kernel/):
// words read field by field (FieldReadTrace) and words whose clock is
// spilled and then read again concurrently (SpillRoundsTrace, partial
// clocks).
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/event.hpp"

namespace raceaccel::test {

// Workers read a few 8-byte words field by field: each read is 1, 2, 4 or 8
// aligned bytes of a word, so the bytes of one word are read by different
// reader sets (one clock per field) and whole-word reads after field reads
// span several clocks; some reads are partial reads of a field a clock
// covers. Now and then a write (under a lock or not, whole word or field)
// or a free of a field ends sharing, and locked reads order readers.
class FieldReadTrace {
 public:
  FieldReadTrace(uint64_t seed, uint32_t threads, uint64_t words, uint64_t events)
      : rng_(seed), threads_(threads), words_(words), events_(events) {}
  bool next(Event& e) {
    while (pending_.empty() && step_ <= events_ + 1) refill();
    if (pending_.empty()) return false;
    e = pending_.front();
    pending_.erase(pending_.begin());
    return true;
  }

 private:
  static constexpr uint64_t kTable = 0x7000'0000;
  uint64_t pick(uint64_t n) { return rng_() % n; }
  // An aligned field of 1, 2, 4 or 8 bytes in a random word.
  std::pair<uint64_t, uint64_t> field() {
    const uint64_t size = uint64_t{1} << pick(4);
    return {kTable + 8 * pick(words_) + size * pick(8 / size), size};
  }
  void refill() {
    if (step_ == 0) {
      for (uint64_t w = 0; w < words_; ++w) pending_.push_back(Event::write(0, kTable + 8 * w, 8, 1));
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Fork, 0, t));
    } else if (step_ == events_ + 1) {
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Join, 0, t));
    } else {
      const auto t = static_cast<ThreadId>(1 + pick(threads_ - 1));
      const auto [addr, size] = field();
      const uint64_t action = pick(1000);
      if (action < 820) {
        pending_.push_back(Event::read(t, addr, size, 100 + t));
      } else if (action < 900) {
        pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(Event::read(t, addr, size, 200 + t));
        pending_.push_back(Event::sync(Op::Release, t, 0x10));
      } else if (action < 985) {
        const bool locked = pick(3) != 0;
        if (locked) pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(Event::write(t, addr, size, 300 + t));
        if (locked) pending_.push_back(Event::sync(Op::Release, t, 0x10));
      } else {
        pending_.push_back(Event::sync(Op::Acquire, t, 0x10));
        pending_.push_back(Event::range(Op::Free, t, addr, size, 400 + t));
        pending_.push_back(Event::write(t, addr, size, 500 + t));
        pending_.push_back(Event::sync(Op::Release, t, 0x10));
      }
    }
    ++step_;
  }
  std::mt19937_64 rng_;
  uint32_t threads_;
  uint64_t words_, events_, step_ = 0;
  std::vector<Event> pending_;
};

// Spill rounds (partial clocks): two threads read a word concurrently (a
// clock), filler reads evict its line (the clock goes to the host, reason
// 5), two other threads read it concurrently (a partial clock) and release
// a lock, more filler evicts it again (reason 6), and a writer, usually
// under the lock, writes a field of it: ordered after the second readers
// and concurrent with the first, so the race is only in the host's joined
// clock.
class SpillRoundsTrace {
 public:
  SpillRoundsTrace(uint64_t seed, uint32_t threads, uint64_t rounds) : rng_(seed), threads_(threads), rounds_(rounds) {}
  bool next(Event& e) {
    while (pending_.empty() && round_ <= rounds_ + 1) refill();
    if (pending_.empty()) return false;
    e = pending_.front();
    pending_.erase(pending_.begin());
    return true;
  }

 private:
  static constexpr uint64_t kWords = 0x7100'0000, kFiller = 0x7200'0000, kLock = 0x20;
  uint64_t pick(uint64_t n) { return rng_() % n; }
  ThreadId worker() { return static_cast<ThreadId>(1 + pick(threads_ - 1)); }
  std::pair<ThreadId, ThreadId> two() {
    const ThreadId a = worker();
    ThreadId b = worker();
    while (b == a) b = worker();
    return {a, b};
  }
  void filler() {
    const ThreadId t = worker();
    const uint64_t n = pick(3) == 0 ? 0 : 6 + pick(12);  // sometimes none: the line stays
    for (uint64_t i = 0; i < n; ++i) pending_.push_back(Event::read(t, kFiller + 8 * pick(64), 8, 600 + t));
  }
  void refill() {
    if (round_ == 0) {
      for (uint64_t w = 0; w < rounds_; ++w) pending_.push_back(Event::write(0, kWords + 8 * w, 8, 1));
      for (uint64_t w = 0; w < 64; ++w) pending_.push_back(Event::write(0, kFiller + 8 * w, 8, 2));
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Fork, 0, t));
    } else if (round_ == rounds_ + 1) {
      for (ThreadId t = 1; t < threads_; ++t) pending_.push_back(Event::sync(Op::Join, 0, t));
    } else {
      const uint64_t word = kWords + 8 * (round_ - 1);
      const auto [a, b] = two();
      pending_.push_back(Event::read(a, word, 8, 100 + a));
      pending_.push_back(Event::read(b, word, 8, 100 + b));
      filler();
      const auto [c, d] = two();
      for (const ThreadId t : {c, d}) pending_.push_back(Event::read(t, word, 8, 200 + t));
      for (const ThreadId t : {c, d}) {
        pending_.push_back(Event::sync(Op::Acquire, t, kLock));
        pending_.push_back(Event::sync(Op::Release, t, kLock));
      }
      filler();
      const ThreadId w = worker();
      const uint64_t size = uint64_t{1} << pick(4);
      const bool locked = pick(4) != 0;
      if (locked) pending_.push_back(Event::sync(Op::Acquire, w, kLock));
      pending_.push_back(Event::write(w, word + size * pick(8 / size), size, 300 + w));
      if (locked) pending_.push_back(Event::sync(Op::Release, w, kLock));
    }
    ++round_;
  }
  std::mt19937_64 rng_;
  uint32_t threads_;
  uint64_t rounds_, round_ = 0;
  std::vector<Event> pending_;
};

}  // namespace raceaccel::test
