// Notifications glibc runs in threads of its own (SIGEV_THREAD): POSIX
// timers (timer_create) and message-queue notification (mq_notify). glibc
// starts those threads with its internal pthread_create, which no
// interceptor sees, so the runtime met the notification function's thread
// as a foreign thread, unordered with what the program did before it armed
// the notification: every datum the program set up for the callback was a
// false race (stock TSan 19 crashes on these threads).
//
// The program's function and value are replaced by a trampoline and a
// thunk that holds them. Arming the notification releases the thunk (an
// object of the runtime's own, so no program object's clocks change):
// timer_create and each timer_settime, mq_notify. The trampoline, first
// thing in glibc's thread, acquires it and then calls the program's
// function. That is the real order: a timer fires only after it was created
// and set, a queue notifies only after mq_notify registered. Nothing orders
// two callbacks of one timer with each other (glibc runs each in a thread
// of its own), and nothing here says they are.
//
// A timer's thunk is never freed: a callback may still be starting when
// timer_delete returns. An mq_notify registration notifies at most once, so
// its trampoline retires the thunk (its clocks forgotten, then freed) once
// it has acquired it; a registration removed without notifying leaks one.
#include <mqueue.h>
#include <signal.h>
#include <time.h>

#include <cstdlib>

#include "runtime/exported.hpp"
#include "runtime/internal_mutex.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

extern "C" void* __libc_malloc(size_t);
extern "C" void __libc_free(void*);

namespace raceaccel::rt {
namespace {

struct NotifyThunk {
  void (*function)(union sigval);
  union sigval value;
  bool once;                    // mq_notify: the trampoline retires it
  timer_t timer{};              // timers: the timer it notifies for, to find it at timer_settime
  NotifyThunk* next = nullptr;  // timers: the list of live timers' thunks
};

InternalMutex g_timers_mu;
NotifyThunk* g_timers = nullptr;  // the thunks of timers not deleted

// The thunk's clocks forgotten (its memory may become another thunk), then freed.
void retire(NotifyThunk* thunk) {
  destroyed(thunk, sizeof(NotifyThunk));
  __libc_free(thunk);
}

void notify_trampoline(union sigval v) {
  auto* thunk = static_cast<NotifyThunk*>(v.sival_ptr);
  const NotifyThunk copy = *thunk;
  acquire(thunk);  // attaches glibc's thread (a foreign thread) first
  if (copy.once) retire(thunk);
  copy.function(copy.value);
}

// A thunk for sevp's function and value, and sevp with the trampoline in
// their place; nullptr (and sevp unchanged) when sevp asks for no thread or
// the runtime is not running.
NotifyThunk* wrap(const struct sigevent* sevp, struct sigevent& wrapped, bool once) {
  if (sevp == nullptr || sevp->sigev_notify != SIGEV_THREAD || runtime_if_started() == nullptr) return nullptr;
  void* memory = __libc_malloc(sizeof(NotifyThunk));
  if (memory == nullptr) return nullptr;
  auto* thunk = new (memory) NotifyThunk{sevp->sigev_notify_function, sevp->sigev_value, once};
  wrapped = *sevp;
  wrapped.sigev_notify_function = notify_trampoline;
  wrapped.sigev_value.sival_ptr = thunk;
  return thunk;
}

NotifyThunk* find_timer(timer_t timer) {
  InternalLock lock(g_timers_mu);
  for (NotifyThunk* t = g_timers; t != nullptr; t = t->next) {
    if (t->timer == timer) return t;
  }
  return nullptr;
}

}  // namespace
}  // namespace raceaccel::rt

using namespace raceaccel::rt;

RACEACCEL_EXPORT int timer_create(clockid_t clock, struct sigevent* sevp, timer_t* timer) {
  struct sigevent wrapped;
  NotifyThunk* thunk = wrap(sevp, wrapped, false);
  if (thunk == nullptr) return RACEACCEL_REAL(timer_create)(clock, sevp, timer);
  release(thunk);
  const int result = RACEACCEL_REAL(timer_create)(clock, &wrapped, timer);
  if (result != 0) {
    retire(thunk);  // never armed: no thread can have it
    return result;
  }
  thunk->timer = *timer;
  InternalLock lock(g_timers_mu);
  thunk->next = g_timers;
  g_timers = thunk;
  return result;
}

RACEACCEL_EXPORT int timer_settime(timer_t timer, int flags, const struct itimerspec* value, struct itimerspec* old) {
  if (NotifyThunk* thunk = find_timer(timer)) release(thunk);
  return RACEACCEL_REAL(timer_settime)(timer, flags, value, old);
}

RACEACCEL_EXPORT int timer_delete(timer_t timer) {
  {
    InternalLock lock(g_timers_mu);
    for (NotifyThunk** link = &g_timers; *link != nullptr; link = &(*link)->next) {
      if ((*link)->timer == timer) {
        *link = (*link)->next;  // kept (leaked): a callback may still be starting
        break;
      }
    }
  }
  return RACEACCEL_REAL(timer_delete)(timer);
}

RACEACCEL_EXPORT int mq_notify(mqd_t queue, const struct sigevent* sevp) {
  struct sigevent wrapped;
  NotifyThunk* thunk = wrap(sevp, wrapped, true);
  if (thunk == nullptr) return RACEACCEL_REAL(mq_notify)(queue, sevp);
  release(thunk);
  const int result = RACEACCEL_REAL(mq_notify)(queue, &wrapped);
  if (result != 0) retire(thunk);  // not registered: no thread can have it
  return result;
}
