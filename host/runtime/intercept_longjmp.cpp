// longjmp and siglongjmp leave functions without their __tsan_func_exit:
// the shadow call stack drops the frames deeper than the jump's target at
// once, so reports made right after the jump name the right stack.
#include <setjmp.h>

#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

namespace {

// The stack pointer a jmp_buf restores. glibc on x86-64 keeps it at slot 6,
// mangled with the thread's pointer guard (%fs:0x30): rotated left by 17
// bits after an xor.
uint64_t target_sp(const struct __jmp_buf_tag* env) {
  uint64_t guard = 0;
  asm("mov %%fs:0x30, %0" : "=r"(guard));
  const auto mangled = static_cast<uint64_t>(env->__jmpbuf[6]);
  return ((mangled >> 17) | (mangled << 47)) ^ guard;
}

// Drops the shadow-stack frames the jump leaves.
void before_jump(const struct __jmp_buf_tag* env) {
  if (raceaccel::rt::ThreadState* ts = raceaccel::rt::t_thread) {
    ts->stack_floor = 0;  // a jump out of a signal handler leaves it
    ts->drop_stale_frames(target_sp(env), false);
  }
}

}  // namespace

RACEACCEL_EXPORT void longjmp(struct __jmp_buf_tag env[1], int value) {
  before_jump(env);
  RACEACCEL_REAL(longjmp)(env, value);
  __builtin_unreachable();
}
RACEACCEL_EXPORT void _longjmp(struct __jmp_buf_tag env[1], int value) {
  before_jump(env);
  RACEACCEL_REAL(_longjmp)(env, value);
  __builtin_unreachable();
}
RACEACCEL_EXPORT void siglongjmp(struct __jmp_buf_tag env[1], int value) {
  before_jump(env);
  RACEACCEL_REAL(siglongjmp)(env, value);
  __builtin_unreachable();
}
extern "C" void __longjmp_chk(struct __jmp_buf_tag env[1], int value);
RACEACCEL_EXPORT void __longjmp_chk(struct __jmp_buf_tag env[1], int value) {
  before_jump(env);
  RACEACCEL_REAL(__longjmp_chk)(env, value);
  __builtin_unreachable();
}
