// Macros shared by every file that defines functions the program calls
// instead of libc's or the compiler's (interceptors and __tsan_* callbacks).
#pragma once

// A symbol the dynamic linker binds the program's calls to.
#define RACEACCEL_EXPORT extern "C" __attribute__((visibility("default")))
// The program's call site of the current interceptor or callback.
#define RACEACCEL_CALLER reinterpret_cast<uint64_t>(__builtin_return_address(0))
// A pointer argument as the address the runtime records.
#define RACEACCEL_ADDR(p) reinterpret_cast<uint64_t>(p)
