// The event model every trace format, detector and backend shares.
//
// One Event is one operation of one thread. Accesses carry a byte address and
// a size; synchronization carries the id of the object it acts on. The
// happens-before each operation creates is specified in docs/event-model.md;
// the golden detector (detect/djit.cpp) is the executable form of that text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace raceaccel {

using ThreadId = uint32_t;

enum class Op : uint8_t {
  Read,           // addr, size, site
  Write,          // addr, size, site
  Acquire,        // obj = lock; exclusive acquire (mutex lock, rwlock write lock)
  Release,        // obj = lock; exclusive release
  AcquireShared,  // obj = lock; rwlock read lock
  ReleaseShared,  // obj = lock; rwlock read unlock
  Fork,           // obj = child thread id
  Join,           // obj = joined thread id
  BarrierEnter,   // obj = barrier; thread arrives at the barrier's current round
  BarrierExit,    // obj = barrier; thread leaves the round it entered
  AtomicLoad,     // addr, size, order
  AtomicStore,    // addr, size, order
  AtomicRmw,      // addr, size, order (fetch_*, exchange, successful CAS)
  Fence,          // order
  Alloc,          // addr, size: fresh memory, no history
  Free,           // addr, size: history of the range is discarded
  Begin,          // transaction begin (STD traces); no effect on happens-before
  End,            // transaction end (STD traces); no effect on happens-before
  Destroy,  // addr, size: the synchronization objects there are destroyed (pthread_*_destroy); memory keeps its history
};
inline constexpr int kOpCount = static_cast<int>(Op::Destroy) + 1;

// C++ memory orders (std::memory_order numbering, as the TSan ABI passes them).
enum class MemoryOrder : uint8_t { Relaxed, Consume, Acquire, Release, AcqRel, SeqCst };
inline constexpr int kMemoryOrderCount = 6;

struct Event {
  Op op = Op::Read;
  MemoryOrder order = MemoryOrder::Relaxed;
  ThreadId tid = 0;
  uint64_t addr = 0;  // byte address (accesses, atomics, alloc/free) or object id (sync, fork/join)
  uint64_t size = 0;  // bytes (accesses, atomics, alloc/free); 0 otherwise
  uint64_t site = 0;  // program location (PC or STD location id)

  bool operator==(const Event&) const = default;

  static Event read(ThreadId t, uint64_t a, uint64_t n, uint64_t s = 0) {
    return {Op::Read, MemoryOrder::Relaxed, t, a, n, s};
  }
  static Event write(ThreadId t, uint64_t a, uint64_t n, uint64_t s = 0) {
    return {Op::Write, MemoryOrder::Relaxed, t, a, n, s};
  }
  static Event sync(Op o, ThreadId t, uint64_t obj, uint64_t s = 0) { return {o, MemoryOrder::Relaxed, t, obj, 0, s}; }
  static Event atomic(Op o, ThreadId t, uint64_t a, uint64_t n, MemoryOrder m, uint64_t s = 0) {
    return {o, m, t, a, n, s};
  }
  static Event fence(ThreadId t, MemoryOrder m, uint64_t s = 0) { return {Op::Fence, m, t, 0, 0, s}; }
  static Event range(Op o, ThreadId t, uint64_t a, uint64_t n, uint64_t s = 0) {
    return {o, MemoryOrder::Relaxed, t, a, n, s};
  }
};

inline bool is_access(Op op) { return op == Op::Read || op == Op::Write; }
inline bool is_atomic(Op op) { return op == Op::AtomicLoad || op == Op::AtomicStore || op == Op::AtomicRmw; }
// Operations whose addr/size describe a byte range.
inline bool has_range(Op op) {
  return is_access(op) || is_atomic(op) || op == Op::Alloc || op == Op::Free || op == Op::Destroy;
}
inline bool has_order(Op op) { return is_atomic(op) || op == Op::Fence; }
// Operations whose addr is a thread id (fork, join).
inline bool targets_thread(Op op) { return op == Op::Fork || op == Op::Join; }
// Operations whose addr is a lock or barrier id.
inline bool targets_sync_object(Op op) {
  return (op >= Op::Acquire && op <= Op::ReleaseShared) || op == Op::BarrierEnter || op == Op::BarrierExit;
}

// The longest byte range one access (read, write, atomic) may cover. Every
// detector's work and memory grow with the bytes an access touches, so a
// trace that claims a larger access is rejected as malformed rather than
// left to exhaust the machine; a producer splits larger ranges into several
// events. Alloc, Free and Destroy may cover any range.
inline constexpr uint64_t kMaxAccessBytes = uint64_t{1} << 24;

// Whether [addr, addr+size) is a valid range for op: not empty, not wrapping
// around 2^64, and for accesses at most kMaxAccessBytes. The one rule every
// reader and writer applies.
inline bool valid_range(Op op, uint64_t addr, uint64_t size) {
  return size != 0 && addr + (size - 1) >= addr &&
         (op == Op::Alloc || op == Op::Free || op == Op::Destroy || size <= kMaxAccessBytes);
}
// Why valid_range() rejects the range ("write of size 0", ...).
std::string range_problem(Op op, uint64_t addr, uint64_t size);

inline bool acquires(MemoryOrder m) {
  return m == MemoryOrder::Consume || m == MemoryOrder::Acquire || m == MemoryOrder::AcqRel || m == MemoryOrder::SeqCst;
}
inline bool releases(MemoryOrder m) {
  return m == MemoryOrder::Release || m == MemoryOrder::AcqRel || m == MemoryOrder::SeqCst;
}

std::string_view op_name(Op op);
std::optional<Op> op_from_name(std::string_view name);
std::string_view order_name(MemoryOrder m);
std::optional<MemoryOrder> order_from_name(std::string_view name);

}  // namespace raceaccel
