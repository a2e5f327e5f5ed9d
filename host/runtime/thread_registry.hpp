// What reports say about threads: ids, names, who created them where, their
// stack and TLS ranges, whether they finished; and the pthread_t → ThreadId
// map that pthread_join needs. Thread ids are never reused (the detectors
// take up to 2^24 of them); the per-thread record is small.
#pragma once

#include <pthread.h>
#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "runtime/internal_mutex.hpp"

namespace raceaccel::rt {

struct ThreadInfo {
  ThreadId parent = 0;
  // Where pthread_create was called: an unwound stack (return addresses),
  // since thread creation often goes through uninstrumented code
  // (std::thread in libstdc++), which the shadow stack cannot see.
  std::vector<uint64_t> create_stack;
  pid_t os_tid = 0;
  bool finished = false;
  bool joined = false;                  // a join took its id (the joiner holds its clocks)
  uint64_t finished_at = ~uint64_t{0};  // events recorded when it finished (record=)
  std::string name;
  uint64_t stack_lo = 0, stack_hi = 0;  // the whole stack mapping (includes static TLS on non-main threads)
  uint64_t tls_lo = 0, tls_hi = 0;      // static TLS block
};

struct MemoryOwner {
  ThreadId tid;
  bool tls;  // thread-local storage rather than stack
};

class ThreadRegistry {
 public:
  ThreadId create(ThreadId parent, std::vector<uint64_t> create_stack);  // a new id, created by parent
  ThreadId create_foreign();                                             // a thread not started through pthread_create
  void started(ThreadId tid, pid_t os_tid, uint64_t stack_lo, uint64_t stack_hi, uint64_t tls_lo, uint64_t tls_hi);
  // recorded: how many events the recording holds now (record=), else 0.
  void finished(ThreadId tid, uint64_t recorded);
  void set_name(ThreadId tid, std::string name);
  std::optional<ThreadInfo> info(ThreadId tid);
  std::vector<ThreadInfo> all();                       // by ThreadId
  std::optional<MemoryOwner> owner_of(uint64_t addr);  // whose stack or TLS holds addr (running threads first)
  uint32_t count();

  void remember(pthread_t handle, ThreadId tid);
  std::optional<ThreadId> take(pthread_t handle);  // join: the id, forgotten
  // Threads that finished and that no join took: detached ones, and
  // joinable ones not joined yet (a forked child orders its thread after them).
  std::vector<ThreadId> finished_unjoined();
  void forget(pthread_t handle);  // detach

  void lock_for_fork() { mu_.lock(); }
  void unlock_after_fork() { mu_.unlock(); }

 private:
  InternalMutex mu_;
  std::deque<ThreadInfo> threads_;  // by ThreadId
  std::unordered_map<pthread_t, ThreadId> handles_;
};

}  // namespace raceaccel::rt
