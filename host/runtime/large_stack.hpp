// Runs a function on a big private stack. Reports are written on whatever
// thread found the race, and that thread may have a small stack (128 KiB
// is common) while symbolizing with libdw needs far more. Callers must
// serialize (the reporter runs under the checker lock).
#pragma once

#include <sys/mman.h>
#include <ucontext.h>

#include <cstddef>
#include <cstdint>

namespace raceaccel::rt {

class LargeStack {
 public:
  static constexpr size_t kBytes = size_t{16} << 20;
  ~LargeStack() {
    if (stack_ != nullptr) munmap(stack_, kBytes);
  }
  // Runs fn(arg) on the big stack; falls back to the current stack if the
  // big one cannot be mapped.
  void run(void (*fn)(void*), void* arg) {
    if (stack_ == nullptr) {
      void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p != MAP_FAILED) stack_ = p;
    }
    if (stack_ == nullptr || getcontext(&callee_) != 0) return fn(arg);
    fn_ = fn;
    arg_ = arg;
    callee_.uc_stack.ss_sp = stack_;
    callee_.uc_stack.ss_size = kBytes;
    callee_.uc_link = &caller_;
    // makecontext passes int arguments only: the callee reads `this` from a
    // static slot instead (callers are serialized).
    current_ = this;
    makecontext(&callee_, &LargeStack::entry, 0);
    swapcontext(&caller_, &callee_);
  }

 private:
  static void entry() { current_->fn_(current_->arg_); }
  static inline LargeStack* current_ = nullptr;
  void* stack_ = nullptr;
  void (*fn_)(void*) = nullptr;
  void* arg_ = nullptr;
  ucontext_t caller_{};
  ucontext_t callee_{};
};

}  // namespace raceaccel::rt
