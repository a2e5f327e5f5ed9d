// Dynamic annotations (the Valgrind/ThreadSanitizer API programs and
// libraries such as libarcher call), __tsan_acquire/__tsan_release, the
// custom-mutex annotations, and the test barrier of ThreadSanitizer's test
// suite, which orders execution without creating happens-before.
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "common/exit_codes.hpp"
#include "runtime/exported.hpp"
#include "runtime/runtime.hpp"

using namespace raceaccel;
using namespace raceaccel::rt;

namespace {

void benign(const volatile void* addr, uint64_t size) {
  if (t_in_runtime) return;
  if (Runtime* rt = runtime()) {
    RuntimeScope scope;
    rt->reporter().add_benign(id_of(addr), size);
  }
}

}  // namespace

RACEACCEL_EXPORT void AnnotateHappensBefore(const char*, int, const volatile void* addr) { release(addr); }
RACEACCEL_EXPORT void AnnotateHappensAfter(const char*, int, const volatile void* addr) { acquire(addr); }
RACEACCEL_EXPORT void WTFAnnotateHappensBefore(const char*, int, const volatile void* addr) { release(addr); }
RACEACCEL_EXPORT void WTFAnnotateHappensAfter(const char*, int, const volatile void* addr) { acquire(addr); }
RACEACCEL_EXPORT void __tsan_release(void* addr) { release(addr); }
RACEACCEL_EXPORT void __tsan_acquire(void* addr) { acquire(addr); }

RACEACCEL_EXPORT void AnnotateBenignRaceSized(const char*, int, const volatile void* addr, size_t size, const char*) {
  benign(addr, size);
}
RACEACCEL_EXPORT void WTFAnnotateBenignRaceSized(const char*, int, const volatile void* addr, size_t size,
                                                 const char*) {
  benign(addr, size);
}
RACEACCEL_EXPORT void AnnotateBenignRace(const char*, int, const volatile void* addr, const char*) { benign(addr, 1); }

RACEACCEL_EXPORT void AnnotateIgnoreReadsBegin(const char*, int) {
  if (ThreadState* ts = traced_thread()) ts->ignore_begin(true, false);
}
RACEACCEL_EXPORT void AnnotateIgnoreReadsEnd(const char*, int) {
  if (ThreadState* ts = traced_thread(); ts != nullptr && ts->ignore_reads != 0) --ts->ignore_reads;
}
RACEACCEL_EXPORT void AnnotateIgnoreWritesBegin(const char*, int) {
  if (ThreadState* ts = traced_thread()) ts->ignore_begin(false, true);
}
RACEACCEL_EXPORT void AnnotateIgnoreWritesEnd(const char*, int) {
  if (ThreadState* ts = traced_thread(); ts != nullptr && ts->ignore_writes != 0) --ts->ignore_writes;
}

// Synchronization of the thread between Begin and End is not observed (its
// acquires and releases on locks and annotated addresses are dropped).
RACEACCEL_EXPORT void AnnotateIgnoreSyncBegin(const char*, int) {
  if (ThreadState* ts = traced_thread()) ++ts->ignore_sync;
}
RACEACCEL_EXPORT void AnnotateIgnoreSyncEnd(const char*, int) {
  if (ThreadState* ts = traced_thread(); ts != nullptr && ts->ignore_sync != 0) --ts->ignore_sync;
}

RACEACCEL_EXPORT void AnnotateThreadName(const char*, int, const char* name) {
  ThreadState* ts = traced_thread();
  if (ts == nullptr || name == nullptr) return;
  RuntimeScope scope;
  runtime_if_started()->threads().set_name(ts->tid, name);
}

// Fresh memory with no history (custom allocators).
RACEACCEL_EXPORT void AnnotateNewMemory(const char*, int, const volatile void* addr, size_t size) {
  if (ThreadState* ts = traced_thread(); ts != nullptr && size != 0) {
    emit_event(ts, Event::range(Op::Free, ts->tid, id_of(addr), size));
  }
}

RACEACCEL_EXPORT void AnnotateRWLockCreate(const char*, int, const volatile void*) {}
RACEACCEL_EXPORT void AnnotateRWLockCreateStatic(const char*, int, const volatile void*) {}
RACEACCEL_EXPORT void AnnotateRWLockDestroy(const char*, int, const volatile void* lock) { destroyed(lock, 1); }
RACEACCEL_EXPORT void AnnotateRWLockAcquired(const char*, int, const volatile void* lock, long is_w) {
  acquire(lock, is_w != 0 ? Op::Acquire : Op::AcquireShared);
}
RACEACCEL_EXPORT void AnnotateRWLockReleased(const char*, int, const volatile void* lock, long is_w) {
  release(lock, is_w != 0 ? Op::Release : Op::ReleaseShared);
}
RACEACCEL_EXPORT int RunningOnValgrind() { return 0; }

// ---- __tsan_mutex_* (custom mutexes) ---------------------------------------
// A mutex the program implements itself (with atomics, futexes, ...) and
// annotates. Between pre_ and post_ of lock, unlock and signal the thread
// runs the mutex's own code: its accesses and synchronization (the atomics
// the lock is made of) are ignored, as in ThreadSanitizer, so the mutex
// orders exactly as a mutex does (acquire at post_lock, release at
// pre_unlock; a read lock on the shared side) and not through whatever
// orders its implementation happens to use. pre_/post_divert bracket
// program code the mutex calls out to (a callback) in the middle.
namespace {
constexpr unsigned kMutexReadLock = 1u << 3;
constexpr unsigned kMutexTryLockFailed = 1u << 5;

void ignore_mutex_internals_begin() {
  if (ThreadState* ts = traced_thread()) {
    ts->ignore_begin(true, true);
    ++ts->ignore_sync;
  }
}
void ignore_mutex_internals_end() {
  if (ThreadState* ts = traced_thread()) {
    if (ts->ignore_reads != 0) --ts->ignore_reads;
    if (ts->ignore_writes != 0) --ts->ignore_writes;
    if (ts->ignore_sync != 0) --ts->ignore_sync;
  }
}
}  // namespace

RACEACCEL_EXPORT void __tsan_mutex_create(void*, unsigned) {}
RACEACCEL_EXPORT void __tsan_mutex_destroy(void* m, unsigned) { destroyed(m, 1); }
RACEACCEL_EXPORT void __tsan_mutex_pre_lock(void*, unsigned) { ignore_mutex_internals_begin(); }
RACEACCEL_EXPORT void __tsan_mutex_post_lock(void* m, unsigned flags, int) {
  ignore_mutex_internals_end();
  if ((flags & kMutexTryLockFailed) == 0) acquire(m, (flags & kMutexReadLock) != 0 ? Op::AcquireShared : Op::Acquire);
}
RACEACCEL_EXPORT int __tsan_mutex_pre_unlock(void* m, unsigned flags) {
  release(m, (flags & kMutexReadLock) != 0 ? Op::ReleaseShared : Op::Release);
  ignore_mutex_internals_begin();
  return 0;
}
RACEACCEL_EXPORT void __tsan_mutex_post_unlock(void*, unsigned) { ignore_mutex_internals_end(); }
RACEACCEL_EXPORT void __tsan_mutex_pre_signal(void*, unsigned) { ignore_mutex_internals_begin(); }
RACEACCEL_EXPORT void __tsan_mutex_post_signal(void*, unsigned) { ignore_mutex_internals_end(); }
RACEACCEL_EXPORT void __tsan_mutex_pre_divert(void*, unsigned) { ignore_mutex_internals_end(); }
RACEACCEL_EXPORT void __tsan_mutex_post_divert(void*, unsigned) { ignore_mutex_internals_begin(); }

// ---- sanitizer_common's unaligned accesses ------------------------------------------
// A checked access of 2, 4 or 8 bytes at any alignment that also performs the
// load or store (memcpy of a constant size compiles to one move).
#define RACEACCEL_UNALIGNED(bits)                                                      \
  RACEACCEL_EXPORT uint##bits##_t __sanitizer_unaligned_load##bits(const void* p) {    \
    record_access(id_of(p), bits / 8, false, RACEACCEL_CALLER);                        \
    uint##bits##_t v;                                                                  \
    __builtin_memcpy(&v, p, sizeof v);                                                 \
    return v;                                                                          \
  }                                                                                    \
  RACEACCEL_EXPORT void __sanitizer_unaligned_store##bits(void* p, uint##bits##_t v) { \
    record_access(id_of(p), bits / 8, true, RACEACCEL_CALLER);                         \
    __builtin_memcpy(p, &v, sizeof v);                                                 \
  }
RACEACCEL_UNALIGNED(16)
RACEACCEL_UNALIGNED(32)
RACEACCEL_UNALIGNED(64)
#undef RACEACCEL_UNALIGNED

// The depth of the calling thread's shadow call stack (ThreadSanitizer's
// test-only query; frames beyond the kept ones count too).
RACEACCEL_EXPORT uintptr_t __tsan_testonly_shadow_stack_current_size() {
  ThreadState* ts = traced_thread();
  return ts != nullptr ? ts->depth : 0;
}

// ---- test barrier ------------------------------------------------------------
// ThreadSanitizer's test header declares the barrier as `unsigned`: one
// 32-bit word, so the runtime may use no more. Our encoding inside it:
// bits 0..9 the participant count (below 1024, as TSan allows), bits 10..19
// the arrivals in the current round, bits 20..31 the round number. The last
// arrival of a round resets the arrivals and bumps the round in one CAS, so
// rounds can go on for ever (a waiter only needs the round to change, and
// 4096 rounds cannot pass without it). Waiting uses uninstrumented atomics
// and a futex on the word: no happens-before. The waiting thread's buffered
// accesses are checked first, so a race the barrier exposes is reported
// before the program goes on.
namespace {
constexpr uint32_t kCountMask = 0x3ff;
constexpr uint32_t kArrivalShift = 10;
constexpr uint32_t kArrivalMask = 0x3ff;
constexpr uint32_t kRoundShift = 20;
}  // namespace

RACEACCEL_EXPORT void __tsan_testonly_barrier_init(uint32_t* barrier, unsigned count) {
  if (count == 0 || count > kCountMask) {  // the count field would wrap: the barrier would not wait
    static constexpr char kMessage[] = "raceaccel: __tsan_testonly_barrier_init: count must be 1..1023\n";
    (void)!write(2, kMessage, sizeof kMessage - 1);
    exit_process(exit_code::kUsage);
  }
  __atomic_store_n(barrier, count, __ATOMIC_RELEASE);
}

RACEACCEL_EXPORT void __tsan_testonly_barrier_wait(uint32_t* barrier) {
  if (ThreadState* ts = traced_thread()) {
    RuntimeScope scope;
    runtime_if_started()->checker().drain(ts);
  }
  uint32_t old = __atomic_load_n(barrier, __ATOMIC_RELAXED);
  uint32_t next = 0;
  bool last = false;
  do {
    const uint32_t count = old & kCountMask;
    if (count == 0) return;
    const uint32_t arrived = ((old >> kArrivalShift) & kArrivalMask) + 1;
    last = arrived >= count;
    next = last ? (((old >> kRoundShift) + 1) << kRoundShift) | count
                : (old & ~(kArrivalMask << kArrivalShift)) | (arrived << kArrivalShift);
  } while (!__atomic_compare_exchange_n(barrier, &old, next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  if (last) {
    syscall(SYS_futex, barrier, FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
    return;
  }
  const uint32_t round = old >> kRoundShift;
  for (;;) {
    const uint32_t now = __atomic_load_n(barrier, __ATOMIC_RELAXED);
    if ((now >> kRoundShift) != round) return;
    syscall(SYS_futex, barrier, FUTEX_WAIT_PRIVATE, now, nullptr, nullptr, 0);
  }
}
