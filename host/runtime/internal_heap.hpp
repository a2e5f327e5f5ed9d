// The runtime's own heap. Everything the runtime allocates while it runs
// (RuntimeScope: detector state, call-stack trie, reports, libdw's
// symbolization) comes from here, never from the program's allocator, so
// that no runtime path can wait for a lock the program holds: a signal
// handler that interrupts glibc's malloc (holding its arena lock) may enter
// the runtime, and the runtime must then not call that same malloc
// (docs/runtime.md, "Signals").
//
// Memory comes from large address-space reservations (mmap, MAP_NORESERVE),
// so whether a pointer is the runtime's is one range compare: free(),
// realloc() and malloc_usable_size() of the program dispatch on it. Blocks
// are of size classes (16 B .. 1 TiB, four classes per power of two); small
// ones are carved from 1 MiB slabs, blocks of 1 MiB and more are runs of
// whole MiB returned to the kernel (MADV_DONTNEED) when freed. One lock per
// class; the fork interceptor holds them all across fork().
#pragma once

#include <cstddef>

namespace raceaccel::rt::internal_heap {

// nullptr when the address space or memory is exhausted.
void* allocate(size_t size, size_t alignment = 16);
void* allocate_zeroed(size_t count, size_t size);
void release(void* p);
void* reallocate(void* p, size_t size);
size_t usable_size(const void* p);
// Whether p points into the runtime's heap (any byte of a block).
bool owns(const void* p);

void lock_for_fork();
void unlock_after_fork();

}  // namespace raceaccel::rt::internal_heap
