// Process-level interceptors: libc's memcpy/memmove/memset (gcc leaves some
// as library calls), the program's exit status (main's return value and
// exit()), and fork().
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/exported.hpp"
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

int main_wrapper(int argc, char** argv, char** envp) {
  if (Runtime* rt = runtime()) {  // started by now at the latest
    RuntimeScope scope;
    rt->checker().start_recording();
  }
  const int status = g_program_main(argc, argv, envp);
  note_program_status(status);
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
  RACEACCEL_REAL(exit)(status);
  __builtin_unreachable();
}

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
