// Synchronization interceptors. Acquires are emitted after the real
// operation succeeds, releases before the real operation: the stream then
// orders every release before the acquire that observes it.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

using namespace raceaccel;
using namespace raceaccel::rt;

namespace {

// glibc keeps a recursive mutex's depth in __count: only the outermost lock
// and unlock are synchronization.
bool nested(const pthread_mutex_t* m) {
  return (m->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE_NP && m->__data.__count > 1;
}
bool locked(int r) { return r == 0 || r == EOWNERDEAD; }

// The calling thread's kernel id, as glibc records it in the mutexes and
// rwlocks it owns: the attached thread's cached one. A system call per
// unlock made a recursive mutex's lock/unlock pair 2.8x slower, and every
// rwlock unlock paid one (lock-heavy code 2.4x TSan's CPU).
pid_t own_os_tid() {
  const ThreadState* ts = traced_thread_if_started();
  return ts != nullptr && ts->os_tid != 0 ? ts->os_tid : static_cast<pid_t>(syscall(SYS_gettid));
}

// glibc checks the owner of error-checking, recursive and robust mutexes
// at unlock (and at a condition wait, which unlocks): a thread that does
// not hold one gets EPERM and nothing is unlocked. Its release must not be
// emitted then: it would order its earlier accesses before the holder's
// next critical section, hiding races (errcheck_unlock_not_owner_race). The
// release still precedes the real unlock when it does happen. Other kinds
// do not check: unlocking them unowned is undefined, and they unlock.
bool unlock_fails_with_eperm(const pthread_mutex_t* m) {
  constexpr int kRobust = 16;                 // PTHREAD_MUTEX_ROBUST_NORMAL_NP
  constexpr unsigned kTidMask = 0x3fffffffu;  // FUTEX_TID_MASK: the owner-died bits aside
  const int kind = m->__data.__kind;
  const bool checked =
      (kind & 3) == PTHREAD_MUTEX_RECURSIVE_NP || (kind & 3) == PTHREAD_MUTEX_ERRORCHECK_NP || (kind & kRobust) != 0;
  if (!checked) return false;
  const auto owner = static_cast<unsigned>(__atomic_load_n(&m->__data.__owner, __ATOMIC_RELAXED)) & kTidMask;
  return owner != static_cast<unsigned>(own_os_tid());
}

// Synchronization objects are memory too: init and destroy write the whole
// object, every operation reads it, so using an object concurrently with its
// initialization or destruction is reported as a race on the object. A lock
// operation reads the object after its acquire and an unlock before its
// release: those reads are then inside the critical section, totally ordered
// by the lock, so the detectors keep one read epoch for a lock word instead
// of a read vector clock of all its users (and the offload engine keeps it on
// chip; issue 11 item 3). A failed trylock's read stays unordered, as it is.
// The read covers the object's first 8 bytes (all of a 4-byte spinlock): one
// whole 8-byte granule of the shadow. A 1-byte read split that granule into
// eight byte cells in a separate pool, an extra cache miss at every lock
// operation and 256 bytes per lock (chase, a lock per node: 465 -> 363 ms
// of CPU, median of 7, same run). Every byte read is the object's own, so
// it only adds races of the object's memory with its use, which the 1-byte
// read reported for byte 0.
#define RACEACCEL_OBJECT_WRITE(o) record_access(id_of(o), sizeof(*(o)), true, RACEACCEL_CALLER)
#define RACEACCEL_OBJECT_READ(o) record_access(id_of(o), sizeof(*(o)) < 8 ? sizeof(*(o)) : 8, false, RACEACCEL_CALLER)

// glibc records the writer's kernel tid in a write-locked rwlock (0 while
// it is read-locked: a reader's unlock needs no id at all).
bool write_locked_by_me(const pthread_rwlock_t* rw) {
  const int writer = __atomic_load_n(&rw->__data.__cur_writer, __ATOMIC_RELAXED);
  return writer != 0 && writer == own_os_tid();
}

}  // namespace

// ---- mutexes ------------------------------------------------------------
RACEACCEL_EXPORT int pthread_mutex_lock(pthread_mutex_t* m) {
  prefetch_lock(m);
  const int r = RACEACCEL_REAL(pthread_mutex_lock)(m);
  if (locked(r) && !nested(m)) acquire(m);
  RACEACCEL_OBJECT_READ(m);
  return r;
}
RACEACCEL_EXPORT int pthread_mutex_trylock(pthread_mutex_t* m) {
  prefetch_lock(m);
  const int r = RACEACCEL_REAL(pthread_mutex_trylock)(m);
  if (locked(r) && !nested(m)) acquire(m);
  RACEACCEL_OBJECT_READ(m);
  return r;
}
RACEACCEL_EXPORT int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* t) {
  const int r = RACEACCEL_REAL(pthread_mutex_timedlock)(m, t);
  if (locked(r) && !nested(m)) acquire(m);
  RACEACCEL_OBJECT_READ(m);
  return r;
}
RACEACCEL_EXPORT int pthread_mutex_clocklock(pthread_mutex_t* m, clockid_t c, const struct timespec* t) {
  const int r = RACEACCEL_REAL(pthread_mutex_clocklock)(m, c, t);
  if (locked(r) && !nested(m)) acquire(m);
  RACEACCEL_OBJECT_READ(m);
  return r;
}
RACEACCEL_EXPORT int pthread_mutex_unlock(pthread_mutex_t* m) {
  RACEACCEL_OBJECT_READ(m);
  if (!nested(m) && !unlock_fails_with_eperm(m)) release(m);
  return RACEACCEL_REAL(pthread_mutex_unlock)(m);
}

RACEACCEL_EXPORT int pthread_mutex_init(pthread_mutex_t* m, const pthread_mutexattr_t* a) {
  RACEACCEL_OBJECT_WRITE(m);
  return RACEACCEL_REAL(pthread_mutex_init)(m, a);
}
RACEACCEL_EXPORT int pthread_mutex_destroy(pthread_mutex_t* m) {
  RACEACCEL_OBJECT_WRITE(m);
  destroyed(m, sizeof(*m));
  return RACEACCEL_REAL(pthread_mutex_destroy)(m);
}

// ---- rwlocks -------------------------------------------------------------
RACEACCEL_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t* rw) {
  const int r = RACEACCEL_REAL(pthread_rwlock_rdlock)(rw);
  if (r == 0) acquire(rw, Op::AcquireShared);
  RACEACCEL_OBJECT_READ(rw);
  return r;
}
RACEACCEL_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t* rw) {
  const int r = RACEACCEL_REAL(pthread_rwlock_tryrdlock)(rw);
  if (r == 0) acquire(rw, Op::AcquireShared);
  RACEACCEL_OBJECT_READ(rw);
  return r;
}
RACEACCEL_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t* rw, const struct timespec* t) {
  const int r = RACEACCEL_REAL(pthread_rwlock_timedrdlock)(rw, t);
  if (r == 0) acquire(rw, Op::AcquireShared);
  RACEACCEL_OBJECT_READ(rw);
  return r;
}
RACEACCEL_EXPORT int pthread_rwlock_clockrdlock(pthread_rwlock_t* rw, clockid_t c, const struct timespec* t) {
  const int r = RACEACCEL_REAL(pthread_rwlock_clockrdlock)(rw, c, t);
  if (r == 0) acquire(rw, Op::AcquireShared);
  RACEACCEL_OBJECT_READ(rw);
  return r;
}
RACEACCEL_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t* rw) {
  const int r = RACEACCEL_REAL(pthread_rwlock_wrlock)(rw);
  if (r == 0) acquire(rw);
  RACEACCEL_OBJECT_READ(rw);
  return r;
}
RACEACCEL_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t* rw) {
  const int r = RACEACCEL_REAL(pthread_rwlock_trywrlock)(rw);
  if (r == 0) acquire(rw);
  RACEACCEL_OBJECT_READ(rw);
  return r;
}
RACEACCEL_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t* rw, const struct timespec* t) {
  const int r = RACEACCEL_REAL(pthread_rwlock_timedwrlock)(rw, t);
  if (r == 0) acquire(rw);
  RACEACCEL_OBJECT_READ(rw);
  return r;
}
RACEACCEL_EXPORT int pthread_rwlock_clockwrlock(pthread_rwlock_t* rw, clockid_t c, const struct timespec* t) {
  const int r = RACEACCEL_REAL(pthread_rwlock_clockwrlock)(rw, c, t);
  if (r == 0) acquire(rw);
  RACEACCEL_OBJECT_READ(rw);
  return r;
}
RACEACCEL_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t* rw) {
  RACEACCEL_OBJECT_READ(rw);
  release(rw, write_locked_by_me(rw) ? Op::Release : Op::ReleaseShared);
  return RACEACCEL_REAL(pthread_rwlock_unlock)(rw);
}

RACEACCEL_EXPORT int pthread_rwlock_init(pthread_rwlock_t* rw, const pthread_rwlockattr_t* a) {
  RACEACCEL_OBJECT_WRITE(rw);
  return RACEACCEL_REAL(pthread_rwlock_init)(rw, a);
}
RACEACCEL_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t* rw) {
  RACEACCEL_OBJECT_WRITE(rw);
  destroyed(rw, sizeof(*rw));
  return RACEACCEL_REAL(pthread_rwlock_destroy)(rw);
}

// ---- spinlocks -----------------------------------------------------------
RACEACCEL_EXPORT int pthread_spin_lock(pthread_spinlock_t* s) {
  const int r = RACEACCEL_REAL(pthread_spin_lock)(s);
  if (r == 0) acquire(const_cast<const int*>(s));
  RACEACCEL_OBJECT_READ(s);
  return r;
}
RACEACCEL_EXPORT int pthread_spin_trylock(pthread_spinlock_t* s) {
  const int r = RACEACCEL_REAL(pthread_spin_trylock)(s);
  if (r == 0) acquire(const_cast<const int*>(s));
  RACEACCEL_OBJECT_READ(s);
  return r;
}
RACEACCEL_EXPORT int pthread_spin_unlock(pthread_spinlock_t* s) {
  RACEACCEL_OBJECT_READ(s);
  release(const_cast<const int*>(s));
  return RACEACCEL_REAL(pthread_spin_unlock)(s);
}

RACEACCEL_EXPORT int pthread_spin_init(pthread_spinlock_t* s, int shared) {
  RACEACCEL_OBJECT_WRITE(s);
  return RACEACCEL_REAL(pthread_spin_init)(s, shared);
}
RACEACCEL_EXPORT int pthread_spin_destroy(pthread_spinlock_t* s) {
  RACEACCEL_OBJECT_WRITE(s);
  destroyed(s, sizeof(*s));
  return RACEACCEL_REAL(pthread_spin_destroy)(s);
}

// ---- condition variables -------------------------------------------------
// A wait releases the mutex and reacquires it. Signal and broadcast create no
// happens-before of their own: the waiter is ordered after the signaller only
// through the mutex, as in the C++ memory model and ThreadSanitizer (a
// waiter may wake spuriously, so a program that relies on the signal alone
// is racy).
#define RACEACCEL_COND_VERSION "GLIBC_2.3.2"
namespace {
// The acquire of the mutex at the end of a wait, also when the wait does
// not return: a thread cancelled in it (pthread_cancel) gets the mutex back
// from glibc and unwinds through its cleanup handlers, which run with the
// mutex held (and usually unlock it). The destructor runs in that unwinding
// as on a normal return; without it, the handlers' accesses under the
// mutex raced with the previous holder's (cond_wait_cancelled_clean).
class ReacquireAfterWait {
 public:
  explicit ReacquireAfterWait(pthread_mutex_t* m) : m_(m) {}
  ~ReacquireAfterWait() { acquire(m_); }
  ReacquireAfterWait(const ReacquireAfterWait&) = delete;
  ReacquireAfterWait& operator=(const ReacquireAfterWait&) = delete;

 private:
  pthread_mutex_t* m_;
};
}  // namespace

RACEACCEL_EXPORT int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
  RACEACCEL_OBJECT_READ(c);
  if (unlock_fails_with_eperm(m))
    return RACEACCEL_REAL_V(pthread_cond_wait, RACEACCEL_COND_VERSION)(c, m);  // no unlock, no wait
  release(m);
  ReacquireAfterWait reacquire(m);
  return RACEACCEL_REAL_V(pthread_cond_wait, RACEACCEL_COND_VERSION)(c, m);
}
RACEACCEL_EXPORT int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m, const struct timespec* t) {
  RACEACCEL_OBJECT_READ(c);
  if (unlock_fails_with_eperm(m))
    return RACEACCEL_REAL_V(pthread_cond_timedwait, RACEACCEL_COND_VERSION)(c, m, t);  // no unlock, no wait
  release(m);
  ReacquireAfterWait reacquire(m);
  return RACEACCEL_REAL_V(pthread_cond_timedwait, RACEACCEL_COND_VERSION)(c, m, t);
}
RACEACCEL_EXPORT int pthread_cond_clockwait(pthread_cond_t* c, pthread_mutex_t* m, clockid_t clock,
                                            const struct timespec* t) {
  RACEACCEL_OBJECT_READ(c);
  if (unlock_fails_with_eperm(m)) return RACEACCEL_REAL(pthread_cond_clockwait)(c, m, clock, t);  // no unlock, no wait
  release(m);
  ReacquireAfterWait reacquire(m);
  return RACEACCEL_REAL(pthread_cond_clockwait)(c, m, clock, t);
}
RACEACCEL_EXPORT int pthread_cond_signal(pthread_cond_t* c) {
  RACEACCEL_OBJECT_READ(c);
  return RACEACCEL_REAL_V(pthread_cond_signal, RACEACCEL_COND_VERSION)(c);
}
RACEACCEL_EXPORT int pthread_cond_broadcast(pthread_cond_t* c) {
  RACEACCEL_OBJECT_READ(c);
  return RACEACCEL_REAL_V(pthread_cond_broadcast, RACEACCEL_COND_VERSION)(c);
}
// Interposed so that all cond functions come from the same (new) version.
RACEACCEL_EXPORT int pthread_cond_init(pthread_cond_t* c, const pthread_condattr_t* a) {
  RACEACCEL_OBJECT_WRITE(c);
  return RACEACCEL_REAL_V(pthread_cond_init, RACEACCEL_COND_VERSION)(c, a);
}
RACEACCEL_EXPORT int pthread_cond_destroy(pthread_cond_t* c) {
  RACEACCEL_OBJECT_WRITE(c);
  return RACEACCEL_REAL_V(pthread_cond_destroy, RACEACCEL_COND_VERSION)(c);
}

// ---- barriers: one happens-before round per barrier round ------------------
RACEACCEL_EXPORT int pthread_barrier_wait(pthread_barrier_t* b) {
  RACEACCEL_OBJECT_READ(b);
  ThreadState* ts = traced_thread();
  if (ts != nullptr) emit_sync(ts, Op::BarrierEnter, id_of(b));
  const int r = RACEACCEL_REAL(pthread_barrier_wait)(b);
  if (ts != nullptr && (ts = traced_thread()) != nullptr) emit_sync(ts, Op::BarrierExit, id_of(b));
  // The wait reads the barrier on its way out too (as in ThreadSanitizer):
  // destroying it while another thread may still be leaving the wait is a
  // race (POSIX leaves it undefined).
  RACEACCEL_OBJECT_READ(b);
  return r;
}

RACEACCEL_EXPORT int pthread_barrier_init(pthread_barrier_t* b, const pthread_barrierattr_t* a, unsigned count) {
  RACEACCEL_OBJECT_WRITE(b);
  return RACEACCEL_REAL(pthread_barrier_init)(b, a, count);
}
RACEACCEL_EXPORT int pthread_barrier_destroy(pthread_barrier_t* b) {
  RACEACCEL_OBJECT_WRITE(b);
  return RACEACCEL_REAL(pthread_barrier_destroy)(b);
}

// ---- semaphores ------------------------------------------------------------
RACEACCEL_EXPORT int sem_post(sem_t* s) {
  RACEACCEL_OBJECT_READ(s);
  release(s);
  return RACEACCEL_REAL(sem_post)(s);
}
RACEACCEL_EXPORT int sem_wait(sem_t* s) {
  const int r = RACEACCEL_REAL(sem_wait)(s);
  if (r == 0) acquire(s);
  RACEACCEL_OBJECT_READ(s);
  return r;
}
RACEACCEL_EXPORT int sem_trywait(sem_t* s) {
  const int r = RACEACCEL_REAL(sem_trywait)(s);
  if (r == 0) acquire(s);
  RACEACCEL_OBJECT_READ(s);
  return r;
}
RACEACCEL_EXPORT int sem_timedwait(sem_t* s, const struct timespec* t) {
  const int r = RACEACCEL_REAL(sem_timedwait)(s, t);
  if (r == 0) acquire(s);
  RACEACCEL_OBJECT_READ(s);
  return r;
}
RACEACCEL_EXPORT int sem_clockwait(sem_t* s, clockid_t c, const struct timespec* t) {
  const int r = RACEACCEL_REAL(sem_clockwait)(s, c, t);
  if (r == 0) acquire(s);
  RACEACCEL_OBJECT_READ(s);
  return r;
}

RACEACCEL_EXPORT int sem_init(sem_t* s, int shared, unsigned value) {
  RACEACCEL_OBJECT_WRITE(s);
  return RACEACCEL_REAL(sem_init)(s, shared, value);
}
RACEACCEL_EXPORT int sem_destroy(sem_t* s) {
  RACEACCEL_OBJECT_WRITE(s);
  return RACEACCEL_REAL(sem_destroy)(s);
}

// ---- stdio stream locks ------------------------------------------------------
// flockfile is a (recursive) lock of the stream: what one holder did is
// ordered before the next holder.
RACEACCEL_EXPORT void flockfile(FILE* f) noexcept {
  RACEACCEL_REAL(flockfile)(f);
  acquire(f);
}
RACEACCEL_EXPORT int ftrylockfile(FILE* f) noexcept {
  const int r = RACEACCEL_REAL(ftrylockfile)(f);
  if (r == 0) acquire(f);
  return r;
}
RACEACCEL_EXPORT void funlockfile(FILE* f) noexcept {
  release(f);
  RACEACCEL_REAL(funlockfile)(f);
}

// ---- pthread_once ----------------------------------------------------------
// The init routine's effects happen before every return from pthread_once.
// pthread_once passes no argument, so the routine travels in TLS (saved and
// restored around nested calls).
namespace {
__thread void (*t_once_routine)() __attribute__((tls_model("initial-exec"))) = nullptr;
__thread pthread_once_t* t_once_control __attribute__((tls_model("initial-exec"))) = nullptr;

void once_trampoline() {
  void (*routine)() = t_once_routine;
  pthread_once_t* control = t_once_control;
  routine();
  release(control);
}
}  // namespace

RACEACCEL_EXPORT int pthread_once(pthread_once_t* control, void (*routine)()) {
  if (traced_thread() == nullptr) return RACEACCEL_REAL(pthread_once)(control, routine);
  void (*saved_routine)() = t_once_routine;
  pthread_once_t* saved_control = t_once_control;
  t_once_routine = routine;
  t_once_control = control;
  const int r = RACEACCEL_REAL(pthread_once)(control, once_trampoline);
  t_once_routine = saved_routine;
  t_once_control = saved_control;
  if (r == 0) acquire(control);
  return r;
}

// ---- C++ function-local statics ---------------------------------------------
// The compiler's inline fast path reads the guard's first byte with an
// instrumented acquire load; so release is modelled as a release store to
// that byte (performed atomically with the real release), and a slow-path
// answer as an acquire load of it: "already initialized" (0), and also
// "initialize it" (1), which follows an earlier attempt's abort when the
// initialization threw: the abort is a release store too, so the retry is
// ordered after the failed attempt's writes, as libstdc++ orders it (its
// abort exchanges the guard word with release semantics; stock TSan models
// no abort and reports the retry: static_local_retry_after_throw_clean).
extern "C" int __cxa_guard_acquire(int64_t* guard);
extern "C" void __cxa_guard_release(int64_t* guard);
extern "C" void __cxa_guard_abort(int64_t* guard);

RACEACCEL_EXPORT int __cxa_guard_acquire(int64_t* guard) {
  const int r = RACEACCEL_REAL(__cxa_guard_acquire)(guard);
  if (r == 0 || r == 1) {
    if (ThreadState* ts = traced_thread()) {
      emit_event(ts, Event::atomic(Op::AtomicLoad, ts->tid, id_of(guard), 1, MemoryOrder::Acquire));
    }
  }
  return r;
}

namespace {
// The real release or abort (real, looked up before the checker lock is
// taken: dlsym takes the loader's lock) done together with its release
// store on the guard byte, so that no acquire load of the byte is checked
// between them.
void release_guard(int64_t* guard, void (*real)(int64_t*)) {
  ThreadState* ts = traced_thread();
  if (ts == nullptr) return real(guard);
  RuntimeScope scope;
  runtime_if_started()->checker().emit_with(ts, id_of(guard), [&] {
    real(guard);
    return std::pair{0, Event::atomic(Op::AtomicStore, ts->tid, id_of(guard), 1, MemoryOrder::Release)};
  });
}
}  // namespace

RACEACCEL_EXPORT void __cxa_guard_release(int64_t* guard) { release_guard(guard, RACEACCEL_REAL(__cxa_guard_release)); }

RACEACCEL_EXPORT void __cxa_guard_abort(int64_t* guard) { release_guard(guard, RACEACCEL_REAL(__cxa_guard_abort)); }
