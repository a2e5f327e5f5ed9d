// Process-level interceptors: libc's memcpy/memmove/memset (gcc leaves some
// as library calls), the program's exit status (main's return value and
// exit()), the exits that skip atexit (_exit, _Exit) and exec, which check
// and report what is buffered first, and fork().
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cstdio>

#include "runtime/exported.hpp"
#include "runtime/internal_heap.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

using namespace raceaccel;
using namespace raceaccel::rt;

extern "C" int __libc_start_main(int (*main)(int, char**, char**), int argc, char** argv, void (*init)(),
                                 void (*fini)(), void (*rtld_fini)(), void* stack_end);

namespace {

// Never starts the runtime: libraries' constructors copy memory before it
// exists.
void record_range(const void* p, size_t n, bool write, uint64_t pc) {
  if (n == 0) return;
  ThreadState* ts = traced_thread_if_started();
  if (ts == nullptr || (write ? ts->ignore_writes : ts->ignore_reads) != 0) return;
  append_access(ts, reinterpret_cast<uint64_t>(p), n, write ? AccessKind::Write : AccessKind::Read, pc);
}

int (*g_program_main)(int, char**, char**) = nullptr;

// glibc appends exit handlers (atexit, which calls __cxa_atexit; static
// destructors; on_exit; at_quick_exit) under one lock, which exit and
// quick_exit take to run them: a registration happens before the handler
// runs, in whichever thread exits. One object stands for that lock: every
// registration releases it, the exiting thread acquires it before the
// handlers (exit_handler_registration_clean: a detached thread's data read
// by its handler, or by a function-local static's destructor, was a false
// race). A registration concurrent with the exit itself is not ordered.
char g_exit_handlers;

// Not starting the runtime: libraries' constructors register handlers
// before it exists (and before any second thread could run one).
void handlers_registered() {
  if (ThreadState* ts = traced_thread_if_started(); ts != nullptr && ts->ignore_sync == 0)
    emit_sync(ts, Op::Release, id_of(&g_exit_handlers));
}
void handlers_about_to_run() { acquire(&g_exit_handlers); }

int main_wrapper(int argc, char** argv, char** envp) {
  if (Runtime* rt = runtime()) {  // started by now at the latest
    open_pending_device();
    RuntimeScope scope;
    rt->checker().start_recording();
  }
  const int status = g_program_main(argc, argv, envp);
  note_program_status(status);
  handlers_about_to_run();  // glibc's exit runs them once main returns here
  return status;
}

}  // namespace

RACEACCEL_EXPORT void* memcpy(void* dst, const void* src, size_t n) noexcept {
  record_range(src, n, false, RACEACCEL_CALLER);
  record_range(dst, n, true, RACEACCEL_CALLER);
  return RACEACCEL_REAL(memcpy)(dst, src, n);
}
RACEACCEL_EXPORT void* memmove(void* dst, const void* src, size_t n) noexcept {
  record_range(src, n, false, RACEACCEL_CALLER);
  record_range(dst, n, true, RACEACCEL_CALLER);
  return RACEACCEL_REAL(memmove)(dst, src, n);
}
RACEACCEL_EXPORT void* memset(void* dst, int c, size_t n) noexcept {
  record_range(dst, n, true, RACEACCEL_CALLER);
  return RACEACCEL_REAL(memset)(dst, c, n);
}

RACEACCEL_EXPORT int __libc_start_main(int (*main)(int, char**, char**), int argc, char** argv, void (*init)(),
                                       void (*fini)(), void (*rtld_fini)(), void* stack_end) {
  g_program_main = main;
  return RACEACCEL_REAL(__libc_start_main)(main_wrapper, argc, argv, init, fini, rtld_fini, stack_end);
}

RACEACCEL_EXPORT void exit(int status) noexcept {
  note_program_status(status);
  handlers_about_to_run();
  RACEACCEL_REAL(exit)(status);
  __builtin_unreachable();
}

// _exit skips atexit, where the runtime reports: report here, and as
// ThreadSanitizer does, turn a clean status into exitcode when races were
// reported.
namespace {
[[noreturn]] void finish_and_exit(int status) {
  if (Runtime* rt = runtime_if_started(); rt != nullptr && t_in_runtime == 0) {
    note_program_status(status);
    status = rt->finalize(status);
  }
  exit_process(status);
}

// exec replaces the process image: everything buffered is checked and
// reported first. Checking then stops, also if exec fails and the program
// goes on (docs/runtime.md).
void before_exec() {
  if (Runtime* rt = runtime_if_started(); rt != nullptr && t_in_runtime == 0) {
    rt->finalize(0);
    std::fflush(nullptr);
  }
}

// execl* take their arguments as a list: gathered into an argv, on the stack
// for up to 511 arguments (4 KiB, so that small thread stacks do not
// overflow), else from the runtime's heap (the image is about to be replaced;
// if exec fails the block is freed).
template <typename Exec>
int exec_list(const char* first, va_list ap, bool with_envp, Exec&& exec) {
  size_t count = 1;
  va_list counting;
  va_copy(counting, ap);
  while (va_arg(counting, const char*) != nullptr) ++count;
  va_end(counting);
  constexpr size_t kOnStack = 512;
  const char* on_stack[kOnStack];
  const char** argv = on_stack;
  if (count + 1 > kOnStack) {
    RuntimeScope scope;
    argv = static_cast<const char**>(internal_heap::allocate((count + 1) * sizeof(char*)));
    if (argv == nullptr) {
      errno = ENOMEM;
      return -1;
    }
  }
  argv[0] = first;
  for (size_t i = 1; i <= count; ++i) argv[i] = va_arg(ap, const char*);  // argv[count] is the null
  char* const* envp = with_envp ? va_arg(ap, char* const*) : environ;
  const int r = exec(const_cast<char* const*>(argv), envp);
  if (argv != on_stack) internal_heap::release(argv);
  return r;
}
}  // namespace

RACEACCEL_EXPORT void _exit(int status) { finish_and_exit(status); }
RACEACCEL_EXPORT void _Exit(int status) noexcept { finish_and_exit(status); }

RACEACCEL_EXPORT int execve(const char* path, char* const argv[], char* const envp[]) noexcept {
  before_exec();
  return RACEACCEL_REAL(execve)(path, argv, envp);
}
RACEACCEL_EXPORT int execv(const char* path, char* const argv[]) noexcept {
  before_exec();
  return RACEACCEL_REAL(execv)(path, argv);
}
RACEACCEL_EXPORT int execvp(const char* file, char* const argv[]) noexcept {
  before_exec();
  return RACEACCEL_REAL(execvp)(file, argv);
}
RACEACCEL_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) noexcept {
  before_exec();
  return RACEACCEL_REAL(execvpe)(file, argv, envp);
}
RACEACCEL_EXPORT int fexecve(int fd, char* const argv[], char* const envp[]) noexcept {
  before_exec();
  return RACEACCEL_REAL(fexecve)(fd, argv, envp);
}
// execl, execle, execlp: the list gathered into an argv, then the vector form.
#define RACEACCEL_EXEC_LIST(name, with_envp, exec_vector)                                                           \
  RACEACCEL_EXPORT int name(const char* target, const char* arg, ...) noexcept {                                    \
    va_list ap;                                                                                                     \
    va_start(ap, arg);                                                                                              \
    const int r = exec_list(arg, ap, with_envp,                                                                     \
                            [&](char* const* argv, char* const* envp) { return exec_vector(target, argv, envp); }); \
    va_end(ap);                                                                                                     \
    return r;                                                                                                       \
  }
RACEACCEL_EXEC_LIST(execl, false, execve)
RACEACCEL_EXEC_LIST(execle, true, execve)
RACEACCEL_EXEC_LIST(execlp, false, execvpe)

RACEACCEL_EXPORT int __cxa_atexit(void (*handler)(void*), void* arg, void* dso) noexcept {
  handlers_registered();
  return RACEACCEL_REAL(__cxa_atexit)(handler, arg, dso);
}
RACEACCEL_EXPORT int on_exit(void (*handler)(int, void*), void* arg) noexcept {
  handlers_registered();
  return RACEACCEL_REAL(on_exit)(handler, arg);
}
RACEACCEL_EXPORT int __cxa_at_quick_exit(void (*handler)(void*), void* dso) noexcept {
  handlers_registered();
  return RACEACCEL_REAL(__cxa_at_quick_exit)(handler, dso);
}

// vfork's child shares the parent's memory until it execs or _exits, and
// both of those finalize the runtime (report, stop checking): in a vfork
// child they stopped the parent's checking for good. As ThreadSanitizer
// does, vfork is a fork (a correct vfork child only execs or _exits, which
// a forked child does the same way). vfork_child_exit_race.
RACEACCEL_EXPORT pid_t vfork() noexcept { return fork(); }

// quick_exit runs the at_quick_exit handlers and then glibc's own _exit,
// which no interceptor sees, so neither the _exit interceptor nor the
// atexit handler would report. The status is noted here; the runtime's own
// at_quick_exit handler, registered at start-up and so run last, finalizes
// and exits with it (quick_exit_race).
namespace {
int g_quick_exit_status = 0;
}
RACEACCEL_EXPORT void quick_exit(int status) noexcept {
  g_quick_exit_status = status;
  handlers_about_to_run();
  RACEACCEL_REAL(quick_exit)(status);
  __builtin_unreachable();
}
[[noreturn]] void raceaccel::rt::finish_at_quick_exit() { finish_and_exit(g_quick_exit_status); }

RACEACCEL_EXPORT pid_t fork() noexcept {
  Runtime* rt = runtime_if_started();
  if (rt == nullptr || traced_thread() == nullptr) return RACEACCEL_REAL(fork)();
  RuntimeScope scope;
  rt->before_fork();
  const pid_t pid = RACEACCEL_REAL(fork)();
  if (pid == 0)
    rt->after_fork_child();
  else
    rt->after_fork_parent();
  return pid;
}
