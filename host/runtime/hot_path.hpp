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

// What the fast path shares with the runtime: the TLS it reads (t_thread,
// t_in_runtime, t_region), the forget epoch, and the slow paths it calls.
// The callbacks are built twice (host/runtime/CMakeLists.txt): into the
// runtime, and into libraceaccel_rt_fast.a, which raceaccel-cc links into
// every executable, so that the program calls them directly (no PLT stub)
// and reads their TLS at an offset fixed at link time (local-exec: no GOT
// load before the region table's). The program's copy then defines the
// shared state too, and since these symbols have default visibility the
// dynamic linker binds the runtime's references to the program's
// definitions: one instance, whichever code runs (docs/runtime.md, "The
// hot path").
#define RACEACCEL_SHARED_WITH_PROGRAM __attribute__((visibility("default")))
// The layout of that shared state (the TLS variables' types, the exported
// slow paths' signatures): a symbol only the program's copy defines
// (fast_path_state.cpp), whose name changes whenever the layout does, so
// that the runtime refuses a program linked with another version's archive
// (runtime.cpp, check_fast_path_layout) instead of writing past its TLS.
#define RACEACCEL_FAST_PATH_LAYOUT_VERSION 2
#define RACEACCEL_LAYOUT_NAME(v) RACEACCEL_LAYOUT_NAME_(v)
#define RACEACCEL_LAYOUT_NAME_(v) raceaccel_fast_path_layout_##v
#define RACEACCEL_FAST_PATH_LAYOUT RACEACCEL_LAYOUT_NAME(RACEACCEL_FAST_PATH_LAYOUT_VERSION)
#ifdef RACEACCEL_FAST_PATH_IN_PROGRAM
#define RACEACCEL_FAST_PATH_TLS RACEACCEL_SHARED_WITH_PROGRAM __attribute__((tls_model("local-exec")))
#else
// Initial-exec in the runtime: one %fs-relative load after the GOT's offset
// (safe: the runtime is DT_NEEDED, never dlopen'ed).
#define RACEACCEL_FAST_PATH_TLS RACEACCEL_SHARED_WITH_PROGRAM __attribute__((tls_model("initial-exec")))
#endif
