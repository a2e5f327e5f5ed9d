// Signals: the program's handlers run through a trampoline, and signals
// whose default action ends the process get one of the runtime's own, so
// that buffered accesses are checked and reported before the process dies.
//
// Happens-before, as stock ThreadSanitizer (clang 19) models it, measured
// with the programs of tests/programs: installing a handler releases a
// per-signal sync object, and the handler acquires it when the signal
// arrives asynchronously (sent by another thread or process, or a timer).
// Sending a signal orders nothing; a synchronous signal (raised by the
// thread itself, or a fault) runs its handler in the thread's program order
// with no acquire.
//
// Signal safety: a signal may interrupt the runtime itself (t_in_runtime
// set: inside a buffer append, a drain holding the checker lock, the
// runtime's heap). Its handler is then deferred, as ThreadSanitizer does:
// the trampoline keeps the signal's siginfo and context and returns, and
// the handler runs (traced) when the thread leaves the runtime
// (RuntimeScope). A fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS)
// cannot wait: its handler runs at once, untraced (kUntracedHandler). A
// handler that interrupts the program is traced as usual: the runtime
// allocates only from its own heap (internal_heap.hpp), so it never waits
// for a lock of glibc's malloc that the interrupted program holds.
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"
#include "runtime/signals.hpp"

using namespace raceaccel;
using namespace raceaccel::rt;

namespace {

constexpr int kSignals = 65;  // 1.._NSIG-1 on Linux

// What the program asked for, per signal, while the trampoline is installed.
struct ProgramAction {
  std::atomic<uintptr_t> handler{0};  // sa_handler / sa_sigaction value, or SIG_DFL (0)
  std::atomic<bool> siginfo{false};   // the program's SA_SIGINFO
  std::atomic<bool> ours{false};      // the kernel runs the trampoline for this signal
  sigset_t mask{};                    // blocked while a deferred handler runs (sa_mask, and sig without SA_NODEFER)
};
ProgramAction g_actions[kSignals];
// The per-signal sync objects: their addresses are the ids (never program memory).
char g_signal_sync[kSignals];

bool valid(int sig) { return sig > 0 && sig < kSignals; }

// The signal this thread is sending to itself (raise, pthread_kill of
// itself, kill of its process, tgkill of itself), while it sends it: its
// handler is synchronous.
__thread int t_sending_to_self __attribute__((tls_model("initial-exec"))) = 0;

// Signals whose default action ends the process (with or without a core).
constexpr int kFatalSignals[] = {SIGHUP,  SIGINT,  SIGQUIT,   SIGILL,  SIGTRAP, SIGABRT, SIGBUS,
                                 SIGFPE,  SIGUSR1, SIGSEGV,   SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
                                 SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS};

int real_sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  return RACEACCEL_REAL(sigaction)(sig, act, old);
}

// Default action of a fatal signal: check everything buffered, report,
// finish the recording, then die of the same signal.
[[noreturn]] void die_of(int sig) {
  Runtime* rt = runtime_if_started();
  // Interrupted runtime code may hold the checker's lock: nothing can be
  // checked safely then.
  if (rt != nullptr && t_in_runtime == 0) rt->finalize(128 + sig);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  real_sigaction(sig, &dfl, nullptr);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, sig);
  pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
  syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
  // A signal the kernel delivers on return (a fault) ends the process there.
  syscall(SYS_exit_group, 128 + sig);
  __builtin_unreachable();
}

bool is_fault(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP || sig == SIGSYS;
}

// Runs the program's handler on top of the interrupted code's shadow stack
// (its frames stay: an alternate signal stack must not make them look stale).
void run_handler(int sig, uintptr_t handler, siginfo_t* info, void* context) {
  ThreadState* ts = t_thread;
  uint32_t saved_floor = 0, saved_depth = 0, saved_node = 0;
  if (ts != nullptr) {
    saved_floor = ts->stack_floor;
    saved_depth = ts->depth;
    saved_node = ts->node;
    ts->stack_floor = ts->depth;
  }
  if (g_actions[sig].siginfo.load(std::memory_order_relaxed)) {
    reinterpret_cast<void (*)(int, siginfo_t*, void*)>(handler)(sig, info, context);
  } else {
    reinterpret_cast<void (*)(int)>(handler)(sig);
  }
  if (ts != nullptr) {
    ts->stack_floor = saved_floor;
    ts->depth = saved_depth;
    ts->node = saved_node;
  }
}

void trampoline(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const uintptr_t handler = g_actions[sig].handler.load(std::memory_order_acquire);
  if (handler == reinterpret_cast<uintptr_t>(SIG_IGN)) return;
  const uint8_t saved_state = t_in_runtime;
  ThreadState* ts = t_thread;
  if ((saved_state & kRuntimeCode) != 0 && ts != nullptr && !is_fault(sig)) {
    // Interrupted runtime code: the handler (or the reporting default
    // action) runs when the thread leaves it.
    ts->deferred_info[sig] = *info;
    if (context != nullptr) ts->deferred_context = *static_cast<ucontext_t*>(context);
    ts->deferred_signals.fetch_or(uint64_t{1} << (sig - 1), std::memory_order_relaxed);
    t_signals_deferred = true;
    errno = saved_errno;
    return;
  }
  if (handler == reinterpret_cast<uintptr_t>(SIG_DFL)) die_of(sig);
  const bool synchronous = t_sending_to_self == sig || (is_fault(sig) && info != nullptr && info->si_code > 0);
  if (saved_state == 0) {
    if (!synchronous) acquire(&g_signal_sync[sig]);
  } else {
    t_in_runtime = kUntracedHandler;
  }
  errno = saved_errno;
  run_handler(sig, handler, info, context);
  t_in_runtime = saved_state;
}

uintptr_t handler_of(const struct sigaction& a) {
  return (a.sa_flags & SA_SIGINFO) != 0 ? reinterpret_cast<uintptr_t>(a.sa_sigaction)
                                        : reinterpret_cast<uintptr_t>(a.sa_handler);
}

bool is_fatal(int sig) {
  for (int s : kFatalSignals) {
    if (s == sig) return true;
  }
  return false;
}

}  // namespace

namespace raceaccel::rt {

void install_fatal_signal_handlers() {
  for (int sig : kFatalSignals) {
    struct sigaction current {};
    if (real_sigaction(sig, nullptr, &current) != 0) continue;
    if (handler_of(current) != reinterpret_cast<uintptr_t>(SIG_DFL)) continue;  // the program's choice stands
    struct sigaction ours {};
    ours.sa_sigaction = trampoline;
    ours.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    g_actions[sig].handler.store(reinterpret_cast<uintptr_t>(SIG_DFL), std::memory_order_release);
    g_actions[sig].siginfo.store(false, std::memory_order_relaxed);
    if (real_sigaction(sig, &ours, nullptr) == 0) g_actions[sig].ours.store(true, std::memory_order_relaxed);
  }
}

void run_deferred_signals() {
  ThreadState* ts = t_thread;
  t_signals_deferred = false;
  if (ts == nullptr) return;
  const int saved_errno = errno;
  // Handlers may defer more signals while they run (inside their own
  // runtime calls): loop until none is left.
  while (uint64_t pending = ts->deferred_signals.exchange(0, std::memory_order_relaxed)) {
    t_signals_deferred = false;
    for (int sig = 1; sig < kSignals; ++sig) {
      if ((pending & (uint64_t{1} << (sig - 1))) == 0) continue;
      const uintptr_t handler = g_actions[sig].handler.load(std::memory_order_acquire);
      if (handler == reinterpret_cast<uintptr_t>(SIG_DFL)) die_of(sig);
      if (handler == reinterpret_cast<uintptr_t>(SIG_IGN)) continue;
      // As the kernel would have: the handler's mask is blocked while it runs.
      sigset_t before;
      pthread_sigmask(SIG_BLOCK, &g_actions[sig].mask, &before);
      siginfo_t info = ts->deferred_info[sig];
      ucontext_t context = ts->deferred_context;
      acquire(&g_signal_sync[sig]);
      errno = saved_errno;
      run_handler(sig, handler, &info, &context);
      pthread_sigmask(SIG_SETMASK, &before, nullptr);
    }
  }
  errno = saved_errno;
}

}  // namespace raceaccel::rt

RACEACCEL_EXPORT int sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
  if (!valid(sig) || sig == SIGKILL || sig == SIGSTOP) return real_sigaction(sig, act, old);
  ProgramAction& action = g_actions[sig];
  const uintptr_t previous_handler = action.handler.load(std::memory_order_relaxed);
  const bool previous_siginfo = action.siginfo.load(std::memory_order_relaxed);
  struct sigaction installed {};
  const struct sigaction* to_kernel = act;
  if (act != nullptr) {
    const uintptr_t handler = handler_of(*act);
    // A handler of the program, or the default action of a fatal signal
    // (the runtime reports before the process dies), runs the trampoline.
    const bool trampoline_needed = handler != reinterpret_cast<uintptr_t>(SIG_IGN) &&
                                   (handler != reinterpret_cast<uintptr_t>(SIG_DFL) || is_fatal(sig));
    if (trampoline_needed) {
      if (handler != reinterpret_cast<uintptr_t>(SIG_DFL)) release(&g_signal_sync[sig]);
      action.handler.store(handler, std::memory_order_release);
      action.siginfo.store((act->sa_flags & SA_SIGINFO) != 0, std::memory_order_relaxed);
      action.mask = act->sa_mask;
      if ((act->sa_flags & SA_NODEFER) == 0) sigaddset(&action.mask, sig);
      installed = *act;
      installed.sa_sigaction = trampoline;
      installed.sa_flags |= SA_SIGINFO;
      to_kernel = &installed;
    }
  }
  const int r = real_sigaction(sig, to_kernel, old);
  if (r != 0) return r;
  if (old != nullptr && (old->sa_flags & SA_SIGINFO) != 0 && old->sa_sigaction == trampoline) {
    // Report what the program had, not the trampoline.
    if (previous_siginfo) {
      old->sa_sigaction = reinterpret_cast<void (*)(int, siginfo_t*, void*)>(previous_handler);
    } else {
      old->sa_flags &= ~SA_SIGINFO;
      old->sa_handler = reinterpret_cast<void (*)(int)>(previous_handler);
    }
  }
  if (act != nullptr) action.ours.store(to_kernel == &installed, std::memory_order_relaxed);
  return 0;
}

// signal() has BSD semantics in glibc: the handler stays, interrupted calls restart.
RACEACCEL_EXPORT sighandler_t signal(int sig, sighandler_t handler) {
  struct sigaction act {
  }, old{};
  act.sa_handler = handler;
  act.sa_flags = SA_RESTART;
  sigemptyset(&act.sa_mask);
  if (valid(sig)) sigaddset(&act.sa_mask, sig);
  if (sigaction(sig, &act, &old) != 0) return SIG_ERR;
  return old.sa_handler;
}
RACEACCEL_EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler) { return signal(sig, handler); }

// ---- senders -------------------------------------------------------------------
// Sending orders nothing; a signal a thread sends to itself is delivered
// before the call returns, synchronously.
namespace {
template <typename Send>
int send(int sig, bool to_self, Send&& real_send) {
  if (!to_self || !valid(sig)) return real_send();
  const int saved = t_sending_to_self;
  t_sending_to_self = sig;
  const int r = real_send();
  t_sending_to_self = saved;
  return r;
}
}  // namespace

RACEACCEL_EXPORT int kill(pid_t pid, int sig) {
  return send(sig, pid == getpid() || pid == 0, [&] { return RACEACCEL_REAL(kill)(pid, sig); });
}
RACEACCEL_EXPORT int pthread_kill(pthread_t thread, int sig) {
  return send(sig, pthread_equal(thread, pthread_self()) != 0,
              [&] { return RACEACCEL_REAL(pthread_kill)(thread, sig); });
}
RACEACCEL_EXPORT int raise(int sig) noexcept {
  return send(sig, true, [&] { return RACEACCEL_REAL(raise)(sig); });
}
RACEACCEL_EXPORT int tgkill(pid_t tgid, pid_t tid, int sig) {
  return send(sig, tgid == getpid() && tid == gettid(), [&] { return RACEACCEL_REAL(tgkill)(tgid, tid, sig); });
}
