// C11 threads (<threads.h>). glibc implements them on its internal pthread
// functions, which a program's calls do not reach through the interposable
// pthread names: without these interceptors a thread made by thrd_create
// had no creator (a thread of its own, unordered with what its creator did
// before) and mtx_lock, cnd_wait, thrd_join and call_once ordered nothing,
// so every C11 program reported false races (stock TSan 19 crashes on them).
//
// glibc's mtx_t, cnd_t and once_flag are its pthread_mutex_t, pthread_cond_t
// and pthread_once_t, and each C11 function is the pthread function of the
// same operation with its error code mapped (glibc's thrd_err_map). So each
// one here goes through the pthread interceptor of that operation, which
// calls the same real function glibc's C11 one calls, and maps the code.
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <threads.h>

#include "runtime/exported.hpp"

static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t) && alignof(mtx_t) == alignof(pthread_mutex_t));
static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t) && alignof(cnd_t) == alignof(pthread_cond_t));
static_assert(sizeof(once_flag) == sizeof(pthread_once_t));
static_assert(sizeof(thrd_t) == sizeof(pthread_t));

extern "C" void* __libc_malloc(size_t);
extern "C" void __libc_free(void*);

namespace {

pthread_mutex_t* as_pthread(mtx_t* m) { return reinterpret_cast<pthread_mutex_t*>(m); }
pthread_cond_t* as_pthread(cnd_t* c) { return reinterpret_cast<pthread_cond_t*>(c); }

// glibc's thrd_err_map.
int thrd_status(int pthread_error) {
  switch (pthread_error) {
    case 0: return thrd_success;
    case ENOMEM: return thrd_nomem;
    case ETIMEDOUT: return thrd_timedout;
    case EBUSY: return thrd_busy;
    default: return thrd_error;
  }
}

// A C11 start routine returns an int; the pthread interceptor's thread
// returns a pointer, which thrd_join turns back into the int.
struct C11Start {
  thrd_start_t routine;
  void* arg;
};
void* c11_start(void* p) {
  const C11Start start = *static_cast<C11Start*>(p);
  __libc_free(p);
  return reinterpret_cast<void*>(static_cast<intptr_t>(start.routine(start.arg)));
}

}  // namespace

// ---- threads ---------------------------------------------------------------
RACEACCEL_EXPORT int thrd_create(thrd_t* thread, thrd_start_t routine, void* arg) {
  auto* start = static_cast<C11Start*>(__libc_malloc(sizeof(C11Start)));
  if (start == nullptr) return thrd_nomem;
  *start = {routine, arg};
  const int r = pthread_create(reinterpret_cast<pthread_t*>(thread), nullptr, c11_start, start);
  if (r != 0) __libc_free(start);
  return thrd_status(r);
}
RACEACCEL_EXPORT int thrd_join(thrd_t thread, int* result) {
  void* value = nullptr;
  const int r = pthread_join(static_cast<pthread_t>(thread), &value);
  if (r == 0 && result != nullptr) *result = static_cast<int>(reinterpret_cast<intptr_t>(value));
  return thrd_status(r);
}
RACEACCEL_EXPORT int thrd_detach(thrd_t thread) { return thrd_status(pthread_detach(static_cast<pthread_t>(thread))); }

// ---- mutexes ---------------------------------------------------------------
RACEACCEL_EXPORT int mtx_init(mtx_t* m, int type) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  if ((type & mtx_recursive) != 0) pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  const int r = pthread_mutex_init(as_pthread(m), &attr);
  pthread_mutexattr_destroy(&attr);
  return thrd_status(r);
}
RACEACCEL_EXPORT void mtx_destroy(mtx_t* m) { pthread_mutex_destroy(as_pthread(m)); }
RACEACCEL_EXPORT int mtx_lock(mtx_t* m) { return thrd_status(pthread_mutex_lock(as_pthread(m))); }
RACEACCEL_EXPORT int mtx_trylock(mtx_t* m) { return thrd_status(pthread_mutex_trylock(as_pthread(m))); }
RACEACCEL_EXPORT int mtx_timedlock(mtx_t* __restrict m, const struct timespec* __restrict t) {
  return thrd_status(pthread_mutex_timedlock(as_pthread(m), t));
}
RACEACCEL_EXPORT int mtx_unlock(mtx_t* m) { return thrd_status(pthread_mutex_unlock(as_pthread(m))); }

// ---- condition variables ---------------------------------------------------
RACEACCEL_EXPORT int cnd_init(cnd_t* c) { return thrd_status(pthread_cond_init(as_pthread(c), nullptr)); }
RACEACCEL_EXPORT void cnd_destroy(cnd_t* c) { pthread_cond_destroy(as_pthread(c)); }
RACEACCEL_EXPORT int cnd_signal(cnd_t* c) { return thrd_status(pthread_cond_signal(as_pthread(c))); }
RACEACCEL_EXPORT int cnd_broadcast(cnd_t* c) { return thrd_status(pthread_cond_broadcast(as_pthread(c))); }
RACEACCEL_EXPORT int cnd_wait(cnd_t* c, mtx_t* m) {
  return thrd_status(pthread_cond_wait(as_pthread(c), as_pthread(m)));
}
RACEACCEL_EXPORT int cnd_timedwait(cnd_t* __restrict c, mtx_t* __restrict m, const struct timespec* __restrict t) {
  return thrd_status(pthread_cond_timedwait(as_pthread(c), as_pthread(m), t));
}

// ---- call_once ---------------------------------------------------------------
RACEACCEL_EXPORT void call_once(once_flag* flag, void (*routine)()) {
  pthread_once(reinterpret_cast<pthread_once_t*>(flag), routine);
}
