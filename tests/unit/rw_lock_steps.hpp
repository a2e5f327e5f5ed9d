// A reader-writer lock for the random traces of the FastTrack unit tests:
// per thread nothing held, the lock shared, or the lock exclusive, and the
// lock is only taken as a real reader-writer lock allows. When a thread can
// take it in neither way it takes a private lock instead, which only ticks
// its own clock.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/event.hpp"

namespace raceaccel::test {

template <size_t kThreads>
class RwLockSteps {
 public:
  explicit RwLockSteps(uint64_t lock) : lock_(lock) {}

  // Thread t's next lock event. wants_exclusive() is asked only when the
  // lock is free (so that a trace's random draws stay where they were).
  template <typename Choice>
  Event next(ThreadId t, Choice&& wants_exclusive) {
    if (held_[t] == kShared) {
      held_[t] = kNone;
      --readers_;
      return Event::sync(Op::ReleaseShared, t, lock_);
    }
    if (held_[t] == kExclusive) {
      held_[t] = kNone;
      writer_ = false;
      return Event::sync(Op::Release, t, lock_);
    }
    if (!writer_ && readers_ == 0 && wants_exclusive()) {
      held_[t] = kExclusive;
      writer_ = true;
      return Event::sync(Op::Acquire, t, lock_);
    }
    if (!writer_) {
      held_[t] = kShared;
      ++readers_;
      return Event::sync(Op::AcquireShared, t, lock_);
    }
    return Event::sync(Op::Acquire, t, 100 + t);  // the private lock
  }

 private:
  enum Held : uint8_t { kNone, kShared, kExclusive };
  uint64_t lock_;
  std::array<Held, kThreads> held_{};
  int readers_ = 0;
  bool writer_ = false;
};

}  // namespace raceaccel::test
