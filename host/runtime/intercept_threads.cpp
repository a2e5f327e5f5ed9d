// Thread interceptors: create (the child's start routine is wrapped so its
// state exists before its first event), join, detach. Happens-before:
// Fork before the real create, Join after the real join returns.
#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

extern "C" void* __libc_malloc(size_t);
extern "C" void __libc_free(void*);

namespace raceaccel::rt {
namespace {

struct ThreadStart {
  void* (*routine)(void*);
  void* arg;
  ThreadId tid;
  sigset_t mask;  // the creator's signal mask, which the child starts with
};

// The child starts with every signal blocked (pthread_create below): a
// handler that ran before attach_thread would find no state and give the
// thread a second identity, unordered with its own accesses (false races
// on its thread-local data). Signals sent meanwhile stay pending and are
// handled here, by the attached thread, once its mask is the creator's.
void* thread_trampoline(void* p) {
  const ThreadStart start = *static_cast<ThreadStart*>(p);
  __libc_free(p);
  if (Runtime* rt = runtime_if_started()) rt->attach_thread(start.tid);
  pthread_sigmask(SIG_SETMASK, &start.mask, nullptr);
  void* result = start.routine(start.arg);
  // No tail call: the start routine must return into the runtime, whose
  // frames reports leave out, rather than into libc.
  asm volatile("" ::: "memory");
  return result;
}

// glibc carves every thread's static TLS out of its stack and rejects a
// stack too small to hold it (EINVAL). The runtime's own static TLS (about
// 36 KiB, most of it thread_local buffers of the Verilator runtime the
// simulated device backend links) made stacks of PTHREAD_STACK_MIN (16 KiB)
// and 32 KiB fail that would run under ThreadSanitizer
// (small_stack_threads_race). Such a create is tried once more with the
// stack larger by kTlsAllowance, unless the program placed the stack itself
// (pthread_attr_setstack: its size cannot change). The attributes are copied
// as they are (glibc's attribute extension, if any, is shared, not freed).
constexpr size_t kTlsAllowance = 64 * 1024;

int create_with_room_for_tls(pthread_t* thread, const pthread_attr_t* attr, void* start) {
  int result = RACEACCEL_REAL(pthread_create)(thread, attr, thread_trampoline, start);
  if (result != EINVAL || attr == nullptr) return result;
  // glibc's getstack gives the stack's end (the address set, or null)
  // minus its size: with no stack set that wraps around to 0 when the size
  // is added back. (getstackaddr would say it directly, but it is
  // deprecated and every link of the runtime would warn.)
  void* stack = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(attr, &stack, &size) != 0 || reinterpret_cast<uintptr_t>(stack) + size != 0) return result;
  pthread_attr_t larger = *attr;
  if (pthread_attr_setstacksize(&larger, size + kTlsAllowance) != 0) return result;
  return RACEACCEL_REAL(pthread_create)(thread, &larger, thread_trampoline, start);
}

void joined(pthread_t thread) {
  ThreadState* ts = traced_thread();
  if (ts == nullptr) return;
  std::optional<ThreadId> child;
  {
    RuntimeScope scope;
    child = runtime_if_started()->threads().take(thread);
  }
  if (child) emit_sync(ts, Op::Join, *child);
}

}  // namespace
}  // namespace raceaccel::rt

using namespace raceaccel;
using namespace raceaccel::rt;

RACEACCEL_EXPORT int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*routine)(void*), void* arg) {
  ThreadState* ts = traced_thread();
  if (ts == nullptr) return RACEACCEL_REAL(pthread_create)(thread, attr, routine, arg);
  RuntimeScope scope;
  void* unwound[64];
  const int depth = backtrace(unwound, 64);
  std::vector<uint64_t> create_stack;
  for (int i = 1; i < depth; ++i) create_stack.push_back(reinterpret_cast<uint64_t>(unwound[i]));
  Runtime* rt = runtime_if_started();
  auto* start = static_cast<ThreadStart*>(__libc_malloc(sizeof(ThreadStart)));
  if (start == nullptr) return EAGAIN;
  const ThreadId child = rt->threads().create(ts->tid, std::move(create_stack));
  *start = {routine, arg, child, {}};
  rt->checker().emit(ts, Event::sync(Op::Fork, ts->tid, child));
  int detach_state = PTHREAD_CREATE_JOINABLE;
  if (attr != nullptr) pthread_attr_getdetachstate(attr, &detach_state);
  // Every signal blocked across the real create, so that the child inherits
  // that mask until its trampoline attached it (glibc blocks them around
  // the clone itself, so the caller's window grows only by the call).
  // The child may free start before the call returns: the caller's mask
  // is restored from a copy of its own.
  // A mask set on the attributes (pthread_attr_setsigmask_np) is the one
  // glibc starts the child with instead: it is the one to restore (and
  // then the child is not blocked until it is attached).
  sigset_t all, caller_mask;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &caller_mask);
  if (attr == nullptr || pthread_attr_getsigmask_np(attr, &start->mask) != 0) start->mask = caller_mask;
  const int result = create_with_room_for_tls(thread, attr, start);
  pthread_sigmask(SIG_SETMASK, &caller_mask, nullptr);
  if (result != 0) {
    __libc_free(start);
    rt->threads().finished(child, rt->checker().recorded_events());
  } else if (detach_state == PTHREAD_CREATE_JOINABLE) {
    rt->threads().remember(*thread, child);
  }
  return result;
}

RACEACCEL_EXPORT int pthread_join(pthread_t thread, void** result) {
  const int r = RACEACCEL_REAL(pthread_join)(thread, result);
  if (r == 0) joined(thread);
  return r;
}

RACEACCEL_EXPORT int pthread_tryjoin_np(pthread_t thread, void** result) {
  const int r = RACEACCEL_REAL(pthread_tryjoin_np)(thread, result);
  if (r == 0) joined(thread);
  return r;
}

RACEACCEL_EXPORT int pthread_timedjoin_np(pthread_t thread, void** result, const struct timespec* abstime) {
  const int r = RACEACCEL_REAL(pthread_timedjoin_np)(thread, result, abstime);
  if (r == 0) joined(thread);
  return r;
}

RACEACCEL_EXPORT int pthread_clockjoin_np(pthread_t thread, void** result, clockid_t clock,
                                          const struct timespec* abstime) {
  const int r = RACEACCEL_REAL(pthread_clockjoin_np)(thread, result, clock, abstime);
  if (r == 0) joined(thread);
  return r;
}

RACEACCEL_EXPORT int pthread_detach(pthread_t thread) {
  const int r = RACEACCEL_REAL(pthread_detach)(thread);
  if (r == 0 && !t_in_runtime) {
    if (Runtime* rt = runtime_if_started()) {
      RuntimeScope scope;
      rt->threads().forget(thread);
    }
  }
  return r;
}
