// The sync-free region filter: the bytes a thread has already read or
// written since its last synchronization event, so that an access they cover
// is decided in the calling thread, without a buffer entry, a lock or a
// detector call (issue 10, items 1 and 3; docs/runtime.md, "Sync-free
// regions").
//
// Why dropping a covered access is exact. Let a1 be an access of thread t
// that was checked, and a2 a later access of t in the same region (no
// synchronization event of t between them) whose bytes a1 covers, a1 being a
// write if a2 is. Any access b of another thread that races with a2 on a
// byte also races with a1 on that byte: b ≺ a1 would give b ≺ a2 (program
// order), and a1 ≺ b needs a release by t after a1, which comes after a2 too
// (there is none in between), so a2 ≺ b. b conflicts with a1 since a1 writes
// whenever a2 does. So every racy byte stays racy; only which of t's
// accesses a report names can change (the first one, as ThreadSanitizer's
// shadow also keeps).
//
// The detector sees a1 and b in a stream, and two events in it can hide a1
// from b: a Free or an Alloc of a1's bytes between them discards a1's
// history. A Free of a block whose allocation the runtime saw is first a
// write of the block (FreeWrite), checked against a1, so the byte is
// reported at the free; but an Alloc is not an access, and neither is the
// Free of an unmapped range or of a block allocated before start-up. Memory
// forgotten that way and then touched again (by t's a2 and by the thread
// that reused it) would lose a2's race. So every Alloc and every Free bumps
// the forget epoch before the memory can be reused, and a thread whose last
// seen epoch differs starts a new region before deciding anything.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/hot_path.hpp"

namespace raceaccel::rt {

// One line (64 aligned bytes) seen in a region: which of its bytes were
// accessed and which written (bit b: byte b of the line). 32 bytes, so the
// table's 1 MiB covers 2 MiB of data (an entry per 8-byte granule covered
// 512 KiB: a 300x300 matrix of doubles, 720 KiB, fell out of it on every
// pass). The region's generation is valid when equal to the thread's.
// No member initializers: ThreadState is default-initialized in zeroed
// mmap'ed memory, and the table's pages must stay untouched until used.
struct alignas(32) RegionEntry {
  uint64_t line;  // address >> 6
  uint64_t generation;
  uint64_t written;
  uint64_t accessed;  // read or written: what covers a read, in one load
};
inline constexpr unsigned kRegionLineShift = 6;
inline constexpr uint32_t kRegionSlots = 1u << 15;
// The young table: a region's first lines go to a table of 64 entries (2 KiB,
// which stays in the L1 cache), and only a region that has met
// RACEACCEL_OPTIONS region_young lines (32 by default) moves them to the
// whole table and goes on there. A short region (a lock held for a few accesses,
// the items between two atomics) touches a few lines, each at a random slot
// of the whole table's 1 MiB, and each first touch of such a slot was a cache
// miss: chase spent 8 % of its CPU time on the one in pthread_mutex_lock's
// check of the mutex (docs/runtime.md, "Sync-free regions").
inline constexpr uint32_t kYoungSlots = 64;
inline constexpr uint32_t kYoungLinesDefault = 32;
// The bits of bytes [offset, offset + n) of a line, 0 < n, offset + n <= 64.
inline uint64_t line_mask(uint64_t offset, uint64_t n) {
  return (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1) << offset;
}
inline constexpr uint64_t kMaxFilteredRange = 512;

// Bumped at every allocation (intercept_malloc.cpp) and every Free the
// checker is given (Checker::emit), see above. On its own cache line:
// threads read it on every access, it is written at allocation rate.
struct alignas(64) ForgetEpoch {
  std::atomic<uint64_t> value{0};
};
extern ForgetEpoch g_forget_epoch RACEACCEL_SHARED_WITH_PROGRAM;

}  // namespace raceaccel::rt
