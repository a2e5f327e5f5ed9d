// The intercepted functions' real definitions, looked up once with
// dlsym(RTLD_NEXT) (dlvsym where glibc keeps an old default version).
// RACEACCEL_REAL(name) yields a pointer of the interceptor's own type; the
// cache is a constant-initialized atomic, so lookups never need a guard.
#pragma once

#include <atomic>

namespace raceaccel::rt {

// Aborts with a message when the symbol is missing: continuing would call null.
void* resolve_next(const char* name, const char* version);

}  // namespace raceaccel::rt

#define RACEACCEL_REAL_V(name, version)                  \
  (reinterpret_cast<decltype(&::name)>([]() -> void* {   \
    static std::atomic<void*> slot{nullptr};             \
    void* p = slot.load(std::memory_order_acquire);      \
    if (p == nullptr) {                                  \
      p = ::raceaccel::rt::resolve_next(#name, version); \
      slot.store(p, std::memory_order_release);          \
    }                                                    \
    return p;                                            \
  }()))
#define RACEACCEL_REAL(name) RACEACCEL_REAL_V(name, nullptr)
