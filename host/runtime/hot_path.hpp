// Branch hints and inlining for the runtime's hot paths, defined once. The
// access callbacks follow one shape: an always-inline fast path (the access
// is already covered in the thread's sync-free region: a few loads and
// compares, no call) and out-of-line slow paths (buffering, draining), so
// the fast path compiles into each __tsan_* callback without spilling
// registers for code it rarely runs.
#pragma once

#define RACEACCEL_LIKELY(x) __builtin_expect(!!(x), 1)
#define RACEACCEL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RACEACCEL_ALWAYS_INLINE inline __attribute__((always_inline))
#define RACEACCEL_NOINLINE __attribute__((noinline))
