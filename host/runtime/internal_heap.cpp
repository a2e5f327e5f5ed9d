#include "runtime/internal_heap.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "runtime/internal_mutex.hpp"

namespace raceaccel::rt::internal_heap {
namespace {

// ---- size classes -----------------------------------------------------------
// Classes 0..3: 16, 32, 48, 64 bytes. Then four per power of two: group g
// covers (64·2^g, 128·2^g] in steps of 16·2^g, so a block wastes at most a
// fifth of itself, and every size is a multiple of 16 (malloc's alignment).
constexpr unsigned kGroups = 35;  // up to 2^40 bytes
constexpr unsigned kClasses = 4 + 4 * kGroups;
constexpr uint64_t kMiB = uint64_t{1} << 20;

constexpr uint64_t class_size(unsigned c) {
  if (c < 4) return 16 * (c + 1);
  const unsigned g = (c - 4) / 4, j = (c - 4) % 4;
  return (uint64_t{64} << g) + (j + 1) * (uint64_t{16} << g);
}

unsigned class_of(uint64_t size) {
  if (size <= 64) return size == 0 ? 0 : static_cast<unsigned>((size + 15) / 16 - 1);
  const unsigned top = 63 - static_cast<unsigned>(__builtin_clzll(size - 1));  // 2^top < size <= 2^(top+1)
  const unsigned g = top - 6;
  const uint64_t base = uint64_t{64} << g, step = uint64_t{16} << g;
  return 4 + 4 * g + static_cast<unsigned>((size - base - 1) / step);
}

// Blocks up to half a slab are carved from 1 MiB slabs; larger ones are
// runs of whole MiB of their own.
constexpr uint64_t kSlabBytes = kMiB;
constexpr bool is_small(unsigned c) { return class_size(c) <= kSlabBytes / 2; }
constexpr uint64_t run_bytes(unsigned c) { return (class_size(c) + kMiB - 1) / kMiB * kMiB; }

// ---- regions ------------------------------------------------------------------
// A region is reserved address space; its first MiB holds the map of what
// each of its MiB is: 0 unused, c+1 a slab or the first MiB of a run of class
// c, kContinuation a later MiB of a run.
constexpr uint64_t kRegionBytes = uint64_t{64} << 30;
constexpr uint64_t kRegionMiBs = kRegionBytes / kMiB;
constexpr unsigned kMaxRegions = 256;
constexpr uint8_t kContinuation = 255;
static_assert(kClasses < kContinuation);
static_assert(kRegionMiBs <= kMiB);  // the map fits in the first MiB

struct Region {
  uint8_t* base;
  uint64_t next_mib;  // bump pointer, in MiB from base (guarded by g_region_mu)
  uint8_t* map() const { return base; }
};

constinit Region g_regions[kMaxRegions] = {};
constinit std::atomic<unsigned> g_region_count{0};
constinit InternalMutex g_region_mu;

// Which region holds p, or nullptr.
Region* region_of(const void* p) {
  const auto addr = reinterpret_cast<uintptr_t>(p);
  const unsigned n = g_region_count.load(std::memory_order_acquire);
  for (unsigned i = 0; i < n; ++i) {
    const auto base = reinterpret_cast<uintptr_t>(g_regions[i].base);
    if (addr - base < kRegionBytes) return &g_regions[i];
  }
  return nullptr;
}

// mibs contiguous MiB for class c, marked in their region's map.
uint8_t* take_mibs(uint64_t mibs, unsigned c) {
  InternalLock lock(g_region_mu);
  unsigned n = g_region_count.load(std::memory_order_relaxed);
  Region* r = n == 0 ? nullptr : &g_regions[n - 1];
  if (r == nullptr || r->next_mib + mibs > kRegionMiBs) {
    if (n == kMaxRegions || mibs + 1 > kRegionMiBs) return nullptr;
    // The system call itself: the mmap interceptor would record the mapping.
    void* p = reinterpret_cast<void*>(syscall(SYS_mmap, nullptr, kRegionBytes, PROT_READ | PROT_WRITE,
                                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (p == MAP_FAILED) return nullptr;
    g_regions[n] = {static_cast<uint8_t*>(p), 1};
    g_region_count.store(n + 1, std::memory_order_release);
    r = &g_regions[n];
  }
  const uint64_t first = r->next_mib;
  r->next_mib += mibs;
  r->map()[first] = static_cast<uint8_t>(c + 1);
  for (uint64_t i = 1; i < mibs; ++i) r->map()[first + i] = kContinuation;
  return r->base + first * kMiB;
}

// ---- classes ---------------------------------------------------------------------
struct FreeBlock {
  FreeBlock* next;
};
struct SizeClass {
  InternalMutex mu;
  FreeBlock* free = nullptr;
  uint8_t* bump = nullptr;  // small classes: the rest of the current slab
  uint8_t* bump_end = nullptr;
};
constinit SizeClass g_classes[kClasses] = {};

void* take_block(unsigned c) {
  SizeClass& sc = g_classes[c];
  InternalLock lock(sc.mu);
  if (FreeBlock* b = sc.free) {
    sc.free = b->next;
    return b;
  }
  if (!is_small(c)) return take_mibs(run_bytes(c) / kMiB, c);
  const uint64_t size = class_size(c);
  if (sc.bump == nullptr || sc.bump + size > sc.bump_end) {
    uint8_t* slab = take_mibs(1, c);
    if (slab == nullptr) return nullptr;
    sc.bump = slab;
    sc.bump_end = slab + kSlabBytes;
  }
  void* p = sc.bump;
  sc.bump += size;
  return p;
}

struct BlockInfo {
  uint8_t* start;
  unsigned size_class;
};

// The block that contains p (p may point inside it: aligned allocations).
BlockInfo block_of(const Region& r, const void* p) {
  const auto* addr = static_cast<const uint8_t*>(p);
  uint64_t mib = static_cast<uint64_t>(addr - r.base) / kMiB;
  while (r.map()[mib] == kContinuation) --mib;
  const unsigned c = r.map()[mib] - 1u;
  uint8_t* first = r.base + mib * kMiB;
  if (!is_small(c)) return {first, c};
  const uint64_t size = class_size(c);
  return {first + static_cast<uint64_t>(addr - first) / size * size, c};
}

}  // namespace

void* allocate(size_t size, size_t alignment) {
  if (alignment < 16) alignment = 16;
  if (size > (uint64_t{1} << 40) || alignment > kMiB) return nullptr;
  const uint64_t padded = alignment == 16 ? size : size + alignment;
  auto* p = static_cast<uint8_t*>(take_block(class_of(padded)));
  if (p == nullptr || alignment == 16) return p;
  const auto addr = reinterpret_cast<uintptr_t>(p);
  return p + ((alignment - addr % alignment) % alignment);
}

void* allocate_zeroed(size_t count, size_t size) {
  size_t bytes = 0;
  if (__builtin_mul_overflow(count, size, &bytes)) return nullptr;
  void* p = allocate(bytes);
  if (p != nullptr) std::memset(p, 0, bytes);
  return p;
}

void release(void* p) {
  const Region* r = region_of(p);
  if (r == nullptr) return;
  const BlockInfo b = block_of(*r, p);
  if (!is_small(b.size_class)) {
    // Give the pages back; the run keeps its address space for the next
    // block of its class.
    madvise(b.start, run_bytes(b.size_class), MADV_DONTNEED);
  }
  SizeClass& sc = g_classes[b.size_class];
  InternalLock lock(sc.mu);
  auto* block = reinterpret_cast<FreeBlock*>(b.start);
  block->next = sc.free;
  sc.free = block;
}

size_t usable_size(const void* p) {
  const Region* r = region_of(p);
  if (r == nullptr) return 0;
  const BlockInfo b = block_of(*r, p);
  return static_cast<size_t>(b.start + class_size(b.size_class) - static_cast<const uint8_t*>(p));
}

void* reallocate(void* p, size_t size) {
  if (p == nullptr) return allocate(size);
  const size_t old = usable_size(p);
  if (size <= old && size >= old / 2) return p;
  void* fresh = allocate(size);
  if (fresh == nullptr) return nullptr;
  std::memcpy(fresh, p, old < size ? old : size);
  release(p);
  return fresh;
}

bool owns(const void* p) { return region_of(p) != nullptr; }

void lock_for_fork() {
  for (SizeClass& sc : g_classes) sc.mu.lock();
  g_region_mu.lock();
}

void unlock_after_fork() {
  g_region_mu.unlock();
  for (SizeClass& sc : g_classes) sc.mu.unlock();
}

}  // namespace raceaccel::rt::internal_heap
