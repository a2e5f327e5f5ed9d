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
  if (ThreadState* ts = traced_thread()) ++ts->ignore_reads;
}
RACEACCEL_EXPORT void AnnotateIgnoreReadsEnd(const char*, int) {
  if (ThreadState* ts = traced_thread(); ts != nullptr && ts->ignore_reads != 0) --ts->ignore_reads;
}
RACEACCEL_EXPORT void AnnotateIgnoreWritesBegin(const char*, int) {
  if (ThreadState* ts = traced_thread()) ++ts->ignore_writes;
}
RACEACCEL_EXPORT void AnnotateIgnoreWritesEnd(const char*, int) {
  if (ThreadState* ts = traced_thread(); ts != nullptr && ts->ignore_writes != 0) --ts->ignore_writes;
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
RACEACCEL_EXPORT void AnnotateRWLockDestroy(const char*, int, const volatile void*) {}
RACEACCEL_EXPORT void AnnotateRWLockAcquired(const char*, int, const volatile void* lock, long is_w) {
  acquire(lock, is_w != 0 ? Op::Acquire : Op::AcquireShared);
}
RACEACCEL_EXPORT void AnnotateRWLockReleased(const char*, int, const volatile void* lock, long is_w) {
  release(lock, is_w != 0 ? Op::Release : Op::ReleaseShared);
}
RACEACCEL_EXPORT int RunningOnValgrind() { return 0; }

// ---- __tsan_mutex_* (custom mutexes) ---------------------------------------
namespace {
constexpr unsigned kMutexReadLock = 1u << 3;
constexpr unsigned kMutexTryLockFailed = 1u << 5;
}  // namespace
RACEACCEL_EXPORT void __tsan_mutex_create(void*, unsigned) {}
RACEACCEL_EXPORT void __tsan_mutex_destroy(void*, unsigned) {}
RACEACCEL_EXPORT void __tsan_mutex_pre_lock(void*, unsigned) {}
RACEACCEL_EXPORT void __tsan_mutex_post_lock(void* m, unsigned flags, int) {
  if ((flags & kMutexTryLockFailed) == 0) acquire(m, (flags & kMutexReadLock) != 0 ? Op::AcquireShared : Op::Acquire);
}
RACEACCEL_EXPORT int __tsan_mutex_pre_unlock(void* m, unsigned flags) {
  release(m, (flags & kMutexReadLock) != 0 ? Op::ReleaseShared : Op::Release);
  return 0;
}
RACEACCEL_EXPORT void __tsan_mutex_post_unlock(void*, unsigned) {}
RACEACCEL_EXPORT void __tsan_mutex_pre_signal(void*, unsigned) {}
RACEACCEL_EXPORT void __tsan_mutex_post_signal(void*, unsigned) {}
RACEACCEL_EXPORT void __tsan_mutex_pre_divert(void*, unsigned) {}
RACEACCEL_EXPORT void __tsan_mutex_post_divert(void*, unsigned) {}

// ---- test barrier ------------------------------------------------------------
// The 64-bit word holds the participant count (high half) and the number of
// arrivals so far (low half, also the futex word). Waiting is done with
// uninstrumented atomics and futexes, so it creates no happens-before; the
// waiting thread's buffered accesses are checked first, so that a race the
// barrier exposes is reported before the program goes on.
RACEACCEL_EXPORT void __tsan_testonly_barrier_init(uint64_t* barrier, unsigned count) {
  __atomic_store_n(barrier, static_cast<uint64_t>(count) << 32, __ATOMIC_RELEASE);
}

RACEACCEL_EXPORT void __tsan_testonly_barrier_wait(uint64_t* barrier) {
  if (ThreadState* ts = traced_thread()) {
    RuntimeScope scope;
    runtime_if_started()->checker().drain(ts);
  }
  const uint64_t before = __atomic_fetch_add(barrier, 1, __ATOMIC_RELAXED);
  const uint32_t count = static_cast<uint32_t>(before >> 32);
  if (count == 0) return;
  const uint32_t arrived = static_cast<uint32_t>(before);
  const uint32_t round_end = (arrived / count + 1) * count;
  auto* word = reinterpret_cast<uint32_t*>(barrier);  // little-endian: the low half
  if (arrived + 1 == round_end) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
    return;
  }
  for (;;) {
    const uint32_t now = __atomic_load_n(word, __ATOMIC_RELAXED);
    if (static_cast<int32_t>(now - round_end) >= 0) return;
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, now, nullptr, nullptr, 0);
  }
}
