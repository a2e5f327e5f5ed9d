// Allocation interceptors. Memory comes from glibc's own entry points
// (__libc_malloc & co.), so no lookup is needed even inside the dynamic
// loader. A new block's history is cleared (a buffered Alloc event: the
// memory may have been released in ways the runtime did not see); a freed
// block's history is cleared at once, before the real free, so no reuse of
// the block can be checked against it (docs/runtime.md).
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>

#include "runtime/exported.hpp"
#include "runtime/internal_heap.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_memalign(size_t, size_t);
void* __libc_realloc(void*, size_t);
void __libc_free(void*);
}

using namespace raceaccel;
using namespace raceaccel::rt;

namespace {

// ---- which heap --------------------------------------------------------------
// Runtime code allocates from the runtime's own heap, the program from
// glibc's; a block goes back to the heap whose address range holds it.
void* heap_malloc(size_t size) { return in_runtime_code() ? internal_heap::allocate(size) : __libc_malloc(size); }
void* heap_calloc(size_t n, size_t size) {
  return in_runtime_code() ? internal_heap::allocate_zeroed(n, size) : __libc_calloc(n, size);
}
void* heap_memalign(size_t alignment, size_t size) {
  return in_runtime_code() ? internal_heap::allocate(size, alignment) : __libc_memalign(alignment, size);
}
size_t heap_usable_size(void* block) {
  if (internal_heap::owns(block)) return internal_heap::usable_size(block);
  static std::atomic<decltype(&malloc_usable_size)> real_usable_size{nullptr};
  auto real = real_usable_size.load(std::memory_order_acquire);
  if (real == nullptr) [[unlikely]] {
    RuntimeScope scope;  // the lookup may allocate: not from this very interceptor
    real = RACEACCEL_REAL(malloc_usable_size);
    real_usable_size.store(real, std::memory_order_release);
  }
  return real(block);
}

// A new block of the program: its history is cleared (a buffered Alloc:
// the memory may have been released in ways the runtime did not see), then
// the allocating thread writes it (ThreadSanitizer's model: a use of the
// block by another thread must be ordered after its allocation).
void* allocated(void* p, size_t size, uint64_t pc) {
  if (p == nullptr) return p;
  ThreadState* ts = traced_thread_if_started();
  if (ts == nullptr) return p;
  const size_t usable = heap_usable_size(p);
  {
    RuntimeScope scope;
    runtime_if_started()->heap().add({reinterpret_cast<uint64_t>(p), size, ts->tid, ts->node, pc}, usable);
  }
  append_access(ts, reinterpret_cast<uint64_t>(p), usable, AccessKind::Alloc, pc);
  if (size != 0 && ts->ignore_writes == 0) {
    append_access(ts, reinterpret_cast<uint64_t>(p), size, AccessKind::AllocWrite, pc);
  }
  // Accesses after the Alloc are not covered by those before (its history
  // reset would hide them), in this thread or any other (region_filter.hpp).
  ts->new_region();
  g_forget_epoch.value.fetch_add(1, std::memory_order_seq_cst);
  return p;
}

// Freeing is checked as a write of the whole block (a free concurrent with a
// use is a race), and that write stays the block's history until the memory
// is allocated again (whose Alloc clears it): another thread's access made
// before the free but still in its buffer, or made after it (a use after
// free), is checked later against the free's write and reported when
// nothing orders the two, as ThreadSanitizer keeps a freed block's shadow
// until reuse. Clearing the history at the free lost those races (every
// run; docs/runtime.md, "Memory"). The locks inside the block are
// forgotten (Destroy): their clocks go with their memory. The Destroy's
// drain matters even when the block holds no lock: it checks the free's
// write before the real free hands the memory back, as a release must, so
// that another thread's allocation of it is checked after that write
// (left out for lock-free blocks, the write was checked after the reuse's
// allocation and reported against it: parallel_stress_test, every seed).
// Only blocks whose
// allocation the runtime saw are checked that way: their history is their
// own. A block it never saw (allocated before start-up) is checked as a
// read of `unknown_read` bytes (realloc's copy), if any, and its history
// cleared (Free). Runs in RuntimeScope.
void retire_block(ThreadState* ts, void* p, size_t usable, uint64_t pc, size_t unknown_read) {
  Runtime* rt = runtime_if_started();
  const auto addr = reinterpret_cast<uint64_t>(p);
  const auto size = rt->heap().remove(addr);
  if (size && *size != 0 && ts->ignore_writes == 0) {
    append_access(ts, addr, *size, AccessKind::FreeWrite, pc);
    rt->checker().emit(ts, Event::range(Op::Destroy, ts->tid, addr, usable));
    return;
  }
  if (!size && unknown_read != 0 && ts->ignore_reads == 0) {
    append_access(ts, addr, unknown_read, AccessKind::Read, pc);
  }
  rt->checker().emit(ts, Event::range(Op::Free, ts->tid, addr, usable));
}

void release_block(void* p, uint64_t pc) {
  if (p == nullptr) return;
  if (internal_heap::owns(p)) return internal_heap::release(p);
  if (ThreadState* ts = traced_thread_if_started()) {
    RuntimeScope scope;
    retire_block(ts, p, heap_usable_size(p), pc, 0);
  }
  __libc_free(p);
}

void* aligned(size_t alignment, size_t size, uint64_t pc) {
  return allocated(heap_memalign(alignment, size), size, pc);
}

// realloc as ThreadSanitizer models it, free + allocate: the old block is
// checked as freed (a write of it, which also catches racing reads and
// writes of the old contents) and its history cleared; the new block is
// written by this thread. glibc does the move itself (in place, or mremap
// for large blocks), so no bytes are copied or touched by the runtime.
void* reallocate(void* old, size_t size, uint64_t pc) {
  if (internal_heap::owns(old) || (old == nullptr && in_runtime_code())) return internal_heap::reallocate(old, size);
  if (in_runtime_code()) return __libc_realloc(old, size);  // a glibc block runtime code resizes
  if (old == nullptr) return allocated(__libc_malloc(size), size, pc);
  if (size == 0) {
    release_block(old, pc);
    return nullptr;
  }
  ThreadState* ts = traced_thread_if_started();
  if (ts == nullptr) return __libc_realloc(old, size);
  const size_t old_usable = heap_usable_size(old);
  std::optional<HeapBlock> old_block;
  {
    RuntimeScope scope;
    Runtime* rt = runtime_if_started();
    old_block = rt->heap().containing(reinterpret_cast<uint64_t>(old));
    retire_block(ts, old, old_usable, pc, old_usable < size ? old_usable : size);
  }
  void* fresh = __libc_realloc(old, size);
  if (fresh == nullptr) {
    // The old block lives on, its last write the free's (docs/runtime.md).
    if (old_block && old_block->addr == reinterpret_cast<uint64_t>(old)) {
      RuntimeScope scope;
      runtime_if_started()->heap().add(*old_block, old_usable);
    }
    return nullptr;
  }
  return allocated(fresh, size, pc);
}

// operator new: retries through the new-handler, else throws.
template <typename Allocate>
void* or_throw(Allocate allocate) {
  for (;;) {
    if (void* p = allocate()) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* new_or_throw(size_t size, uint64_t pc) {
  return or_throw([&] { return allocated(heap_malloc(size), size, pc); });
}
void* aligned_new_or_throw(size_t size, std::align_val_t al, uint64_t pc) {
  return or_throw([&] { return aligned(static_cast<size_t>(al), size, pc); });
}

}  // namespace

RACEACCEL_EXPORT void* malloc(size_t size) { return allocated(heap_malloc(size), size, RACEACCEL_CALLER); }
RACEACCEL_EXPORT void* calloc(size_t n, size_t size) {
  return allocated(heap_calloc(n, size), n * size, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void* realloc(void* p, size_t size) { return reallocate(p, size, RACEACCEL_CALLER); }
RACEACCEL_EXPORT void* reallocarray(void* p, size_t n, size_t size) {
  size_t bytes = 0;
  if (__builtin_mul_overflow(n, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return reallocate(p, bytes, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void free(void* p) { release_block(p, RACEACCEL_CALLER); }
RACEACCEL_EXPORT size_t malloc_usable_size(void* p) noexcept { return p == nullptr ? 0 : heap_usable_size(p); }
RACEACCEL_EXPORT void cfree(void* p) { release_block(p, RACEACCEL_CALLER); }
RACEACCEL_EXPORT int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
  void* p = aligned(alignment, size, RACEACCEL_CALLER);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}
RACEACCEL_EXPORT void* aligned_alloc(size_t alignment, size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    errno = EINVAL;
    return nullptr;
  }
  return aligned(alignment, size, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void* memalign(size_t alignment, size_t size) { return aligned(alignment, size, RACEACCEL_CALLER); }
RACEACCEL_EXPORT void* valloc(size_t size) {
  return aligned(static_cast<size_t>(sysconf(_SC_PAGESIZE)), size, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void* pvalloc(size_t size) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return aligned(page, (size + page - 1) / page * page, RACEACCEL_CALLER);
}

// operator new/delete, so that the allocation stack starts at the
// new-expression rather than inside libstdc++.
#define RACEACCEL_NEW_EXPORT __attribute__((visibility("default")))
RACEACCEL_NEW_EXPORT void* operator new(size_t size) { return new_or_throw(size, RACEACCEL_CALLER); }
RACEACCEL_NEW_EXPORT void* operator new[](size_t size) { return new_or_throw(size, RACEACCEL_CALLER); }
RACEACCEL_NEW_EXPORT void* operator new(size_t size, const std::nothrow_t&) noexcept {
  return allocated(heap_malloc(size), size, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  return allocated(heap_malloc(size), size, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void* operator new(size_t size, std::align_val_t al) {
  return aligned_new_or_throw(size, al, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void* operator new[](size_t size, std::align_val_t al) {
  return aligned_new_or_throw(size, al, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void* operator new(size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return aligned(static_cast<size_t>(al), size, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void* operator new[](size_t size, std::align_val_t al, const std::nothrow_t&) noexcept {
  return aligned(static_cast<size_t>(al), size, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void operator delete(void* p) noexcept { release_block(p, RACEACCEL_CALLER); }
RACEACCEL_NEW_EXPORT void operator delete[](void* p) noexcept { release_block(p, RACEACCEL_CALLER); }
RACEACCEL_NEW_EXPORT void operator delete(void* p, size_t) noexcept { release_block(p, RACEACCEL_CALLER); }
RACEACCEL_NEW_EXPORT void operator delete[](void* p, size_t) noexcept { release_block(p, RACEACCEL_CALLER); }
RACEACCEL_NEW_EXPORT void operator delete(void* p, const std::nothrow_t&) noexcept {
  release_block(p, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release_block(p, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void operator delete(void* p, std::align_val_t) noexcept { release_block(p, RACEACCEL_CALLER); }
RACEACCEL_NEW_EXPORT void operator delete[](void* p, std::align_val_t) noexcept { release_block(p, RACEACCEL_CALLER); }
RACEACCEL_NEW_EXPORT void operator delete(void* p, size_t, std::align_val_t) noexcept {
  release_block(p, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  release_block(p, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  release_block(p, RACEACCEL_CALLER);
}
RACEACCEL_NEW_EXPORT void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  release_block(p, RACEACCEL_CALLER);
}
