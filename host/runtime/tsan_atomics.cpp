// The compiler's atomic callbacks for 8..128-bit locations. Each performs the
// real operation and hands its event to the detector under the checker lock
// (Checker::emit_with), so the detector sees the operations on a location in
// the order they took effect. Loads and read-modify-writes are performed
// sequentially consistent (a valid execution of any weaker order; on x86 it
// costs nothing more), stores at release unless the program asked for
// seq_cst (a seq_cst store is a locked exchange, a release store a plain
// one); the event carries the program's order, which is what happens-before
// depends on.
#include <atomic>
#include <cstdint>
#include <utility>

#include "runtime/exported.hpp"
#include "runtime/runtime.hpp"
#include "runtime/sharded_fasttrack.hpp"

namespace raceaccel::rt {
namespace {

MemoryOrder order_of(int mo) {
  const int m = mo & 0xff;  // gcc may add HLE flags in the upper bits
  return m >= 0 && m <= 5 ? static_cast<MemoryOrder>(m) : MemoryOrder::SeqCst;
}

// Lock-free builtins up to 64 bits. 128-bit locations are only ever
// touched through these callbacks (under the checker lock), so plain
// accesses under that lock are atomic with respect to each other.
template <typename T>
struct Cell {
  static T load(volatile T* a) { return __atomic_load_n(a, __ATOMIC_SEQ_CST); }
  static void store(volatile T* a, T v, bool seq_cst) {
    if (seq_cst) {
      __atomic_store_n(a, v, __ATOMIC_SEQ_CST);
    } else {
      __atomic_store_n(a, v, __ATOMIC_RELEASE);
    }
  }
  static bool cas(volatile T* a, T* expected, T desired) {
    return __atomic_compare_exchange_n(a, expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  }
};
template <>
struct Cell<__int128> {
  using T = __int128;
  static T load(volatile T* a) { return *a; }
  static void store(volatile T* a, T v, bool) { *a = v; }
  static bool cas(volatile T* a, T* expected, T desired) {
    if (*a == *expected) {
      *a = desired;
      return true;
    }
    *expected = *a;
    return false;
  }
};

// ---- Repeated loads ---------------------------------------------------------
// A thread spinning on a flag loads it again and again with nothing new to
// learn. Such a load is decided without the checker's lock when all of this
// holds since the thread's previous load of the same location (same size
// and order), which the detector did check:
//  - no synchronization event of the thread (its region generation is the
//    same: the previous load started that region), so its clock has not
//    changed;
//  - no store to the location (its store version is the same), so the
//    location's release clock is the one the previous load joined;
//  - no Free or allocation anywhere (the forget epoch is the same).
// Then the detector would do nothing with the repeat: the acquire joins a
// clock the thread already holds (a relaxed load adds the same clock to the
// pending set a later acquire fence applies), and the atomic read it
// records is covered by the previous load's (region_filter.hpp: an access
// racing with the repeat races with the previous load, since the thread made
// no release in between). Stores bump the version under the checker lock
// *before* they write, and the repeat reads the value before it reads the
// version, so a repeat that sees a new value sees a new version and takes
// the slow path (docs/runtime.md, "Repeated atomic loads").
std::atomic<uint32_t> g_store_versions[4096];

std::atomic<uint32_t>& store_version(uint64_t addr) { return g_store_versions[(addr >> 3) % 4096]; }

// ---- Loads of a clock the thread holds --------------------------------------
// A thread that loads a location whose clock it already holds (it stored
// there last: an SPSC ring's own index, a flag it set; or it acquired the
// location's clock with an earlier load) needs none of the load's clock
// work, so with parallel checking the load is buffered like a plain access
// (runtime.hpp, append_atomic_load) and checked at the thread's next drain
// as the atomic read it is, under the shard lock that drain takes anyway.
// The thread remembers a few such locations (ThreadState::held_clocks),
// each under the location's lock: right after its atomic store (not a
// read-modify-write), and right after its checked acquire load. A load of
// one (same size) is buffered when, since then:
//  - no store or read-modify-write to it by anyone (its store version is
//    the one seen then; a colliding location's stores only make the
//    version differ, which takes the slow path);
//  - no Free or allocation anywhere (the forget epoch is the same).
// Then the location's clock is the one it was then: C_t at a release store,
// the thread's release-fence clock at a relaxed one, or the clock an
// acquire load joined into C_t — all below the thread's clock now (its
// clocks only grow). So an acquire would join nothing new, and a relaxed
// load's pending clock (for a later acquire fence) adds nothing either: the
// load's only effect is its check as an atomic read, against plain writes,
// and its entry in the location's read history. Buffered, that check runs
// with the thread's clock of the load (every synchronization event of the
// thread drains its buffer first), in the thread's program order, and a
// race between it and another thread's plain write is found by whichever of
// the two is checked second, as for buffered plain accesses
// (docs/runtime.md, "Loads of a clock the thread holds"). A read-modify-
// write joins its own clock into the location's (a release sequence), which
// may hold other threads' clocks: it does not count as the thread's store.
// Not while recording (ts->own_loads is off): the recording must order the
// load where it took effect.

// The thread's memo of addr, if it has one of this size and the forget
// epoch has not moved since.
template <typename T>
RACEACCEL_ALWAYS_INLINE const ThreadState::HeldClock* held_clock_of(const ThreadState* ts, uint64_t addr) {
  for (const ThreadState::HeldClock& m : ts->held_clocks) {
    if (m.addr == addr) {
      const bool valid = m.size == sizeof(T) && m.forget_epoch == g_forget_epoch.value.load(std::memory_order_seq_cst);
      return valid ? &m : nullptr;
    }
  }
  return nullptr;
}

// After a store of ts to addr (after its version bump) or a checked acquire
// load, under the location's lock: no other store to it comes between (a
// colliding location's may, which only makes a later compare fail).
template <typename T>
void remember_held_clock(ThreadState* ts, uint64_t addr) {
  // A location across a shard block boundary (an unaligned atomic) is left
  // to the slow path, which checks it in its first byte's shard: its
  // buffered load would be checked block by block.
  if ((addr & (ShardedFastTrack::kBlockBytes - 1)) + sizeof(T) > ShardedFastTrack::kBlockBytes) return;
  ThreadState::HeldClock* slot = nullptr;
  for (ThreadState::HeldClock& m : ts->held_clocks) {
    if (m.addr == addr) slot = &m;
  }
  if (slot == nullptr) {
    slot = &ts->held_clocks[ts->next_held_clock];
    ts->next_held_clock = (ts->next_held_clock + 1) % ThreadState::kHeldClocks;
  }
  *slot = {addr, g_forget_epoch.value.load(std::memory_order_seq_cst),
           store_version(addr).load(std::memory_order_seq_cst), static_cast<uint8_t>(sizeof(T))};
}

// Runs op (returning {result, op kind, order}) with its event, or just op
// when the thread is not traced. The detector checks the event itself as an
// atomic access (a load reads, a store writes, a read-modify-write does
// both): atomic accesses race only with plain ones (docs/event-model.md).
// The event carries the access's site, so reports show its stack.
// on_checked(ts) runs under the checker lock right after a checked
// operation (never for one that is not checked).
template <typename T, typename Op, typename OnChecked>
auto atomic_op(volatile T* a, uint64_t pc, Op&& op, OnChecked&& on_checked) {
  ThreadState* ts = traced_thread();
  const uint64_t addr = reinterpret_cast<uint64_t>(a);
  // Untraced, or inside AnnotateIgnoreSync / a custom mutex's own code: the
  // operation creates no happens-before and is not checked.
  if (ts == nullptr || ts->ignore_sync != 0) return std::get<0>(op());
  RuntimeScope scope;
  Checker& checker = runtime_if_started()->checker();
  return checker.emit_with(ts, addr, [&] {
    auto [result, kind, order] = op();
    on_checked(ts);
    const uint64_t site = checker.site_locked(ts, pc, pack_size_kind(sizeof(T), AccessKind::Atomic));
    return std::pair{result, Event::atomic(kind, ts->tid, addr, sizeof(T), order, site)};
  });
}

template <typename T, typename Op>
auto atomic_op(volatile T* a, uint64_t pc, Op&& op) {
  return atomic_op(a, pc, std::forward<Op>(op), [](ThreadState*) {});
}

template <typename T>
bool memo_matches(const ThreadState* ts, uint64_t addr, MemoryOrder order) {
  const ThreadState::AtomicLoadMemo& m = ts->load_memo;
  return m.addr == addr && m.size == sizeof(T) && m.order == static_cast<uint8_t>(order) &&
         m.generation == t_region.generation && m.forget_epoch == g_forget_epoch.value.load(std::memory_order_seq_cst);
}

// While recording, a repeat is decided under the checker lock: lock-free, a
// store could take effect (and be recorded) between the repeat's load and
// its record, and the recording would order the repeat after a store whose
// value it did not read.
template <typename T>
T record_repeated_load(ThreadState* ts, volatile T* a, MemoryOrder order, uint64_t pc) {
  const uint64_t addr = reinterpret_cast<uint64_t>(a);
  RuntimeScope scope;
  Checker& checker = runtime_if_started()->checker();
  return checker.record_repeat_or_check(ts, addr, [&] {
    const T value = Cell<T>::load(a);
    const bool repeat = store_version(addr).load(std::memory_order_seq_cst) == ts->load_memo.version;
    if (repeat) count_decided(1);
    const uint64_t site = checker.site_locked(ts, pc, pack_size_kind(sizeof(T), AccessKind::Atomic));
    return std::tuple{value, repeat, Event::atomic(Op::AtomicLoad, ts->tid, addr, sizeof(T), order, site)};
  });
}

// A load checked under its location's lock (the slow path).
template <typename T>
T load_checked(volatile T* a, uint64_t addr, MemoryOrder order, uint64_t pc) {
  return atomic_op(
      a, pc,
      [&] {
        return std::tuple{Cell<T>::load(a), Op::AtomicLoad, order};
      },
      [&](ThreadState* ts) {
        // After an acquire, the location's clock is below the thread's.
        if (sizeof(T) <= 8 && ts->own_loads && acquires(order)) remember_held_clock<T>(ts, addr);
        // Under the checker lock, after the load's region began: its memo.
        ts->load_memo = {addr,
                         t_region.generation,
                         g_forget_epoch.value.load(std::memory_order_seq_cst),
                         store_version(addr).load(std::memory_order_seq_cst),
                         static_cast<uint8_t>(sizeof(T)),
                         static_cast<uint8_t>(order)};
      });
}

// While recording, a load of a held clock is recorded under the lock, where
// it took effect, and its check is still buffered (so the differential
// tests, which compare a live run with its recording, test the deferred
// check). A load that finds the clock no longer held is checked as usual:
// a second load, the one the program gets; the first one had no effect.
template <typename T>
T record_held_load(ThreadState* ts, volatile T* a, MemoryOrder order, uint64_t pc, uint32_t version) {
  const uint64_t addr = reinterpret_cast<uint64_t>(a);
  {
    RuntimeScope scope;
    Checker& checker = runtime_if_started()->checker();
    const auto [value, held] = checker.record_held_load([&] {
      const T loaded = Cell<T>::load(a);
      const bool still = store_version(addr).load(std::memory_order_seq_cst) == version;
      const uint64_t site = checker.site_locked(ts, pc, pack_size_kind(sizeof(T), AccessKind::Atomic));
      return std::tuple{loaded, still, Event::atomic(Op::AtomicLoad, ts->tid, addr, sizeof(T), order, site)};
    });
    if (held) {
      append_atomic_load(ts, addr, sizeof(T), order, pc);
      return value;
    }
  }
  return load_checked(a, addr, order, pc);
}

template <typename T>
T load(volatile T* a, int mo, uint64_t pc) {
  const uint64_t addr = reinterpret_cast<uint64_t>(a);
  const MemoryOrder order = order_of(mo);
  if constexpr (sizeof(T) <= 8) {
    ThreadState* ts = t_thread;
    if (RACEACCEL_LIKELY(ts != nullptr && t_in_runtime == 0) && ts->ignore_sync == 0) {
      if (ts->region_filter && memo_matches<T>(ts, addr, order)) {
        if (RACEACCEL_UNLIKELY(ts->record_filtered)) return record_repeated_load(ts, a, order, pc);
        const T value = Cell<T>::load(a);
        if (RACEACCEL_LIKELY(store_version(addr).load(std::memory_order_seq_cst) == ts->load_memo.version)) {
          count_decided(1);
          return value;
        }
      } else if (const ThreadState::HeldClock* held = ts->own_loads ? held_clock_of<T>(ts, addr) : nullptr) {
        if (RACEACCEL_UNLIKELY(ts->record_filtered)) return record_held_load(ts, a, order, pc, held->version);
        // A signal handler's store must not come between the load and its
        // entry (it would be checked first, and tick the thread's clock).
        RuntimeScope scope;
        const T value = Cell<T>::load(a);
        if (RACEACCEL_LIKELY(store_version(addr).load(std::memory_order_seq_cst) == held->version)) {
          append_atomic_load(ts, addr, sizeof(T), order, pc);
          return value;
        }
      }
    }
  }
  return load_checked(a, addr, order, pc);
}

template <typename T>
void store(volatile T* a, T v, int mo, uint64_t pc) {
  const uint64_t addr = reinterpret_cast<uint64_t>(a);
  atomic_op(
      a, pc,
      [&] {
        store_version(addr).fetch_add(1, std::memory_order_seq_cst);
        const MemoryOrder order = order_of(mo);
        Cell<T>::store(a, v, order == MemoryOrder::SeqCst);  // release keeps the version bump before it
        return std::tuple{0, Op::AtomicStore, order};
      },
      [&](ThreadState* ts) {
        if (sizeof(T) <= 8 && ts->own_loads) remember_held_clock<T>(ts, addr);
      });
}

// Read-modify-write through a CAS loop: one implementation for every
// operation and width, performed while the detector's lock is held.
template <typename T, typename F>
T rmw(volatile T* a, int mo, uint64_t pc, F&& update) {
  return atomic_op(a, pc, [&] {
    store_version(reinterpret_cast<uint64_t>(a)).fetch_add(1, std::memory_order_seq_cst);
    T old = Cell<T>::load(a);
    while (!Cell<T>::cas(a, &old, update(old))) {
    }
    return std::tuple{old, Op::AtomicRmw, order_of(mo)};
  });
}

template <typename T>
bool compare_exchange(volatile T* a, T* expected, T desired, int mo, int fail_mo, uint64_t pc) {
  return atomic_op(a, pc, [&] {
    store_version(reinterpret_cast<uint64_t>(a)).fetch_add(1, std::memory_order_seq_cst);  // before it may write
    const bool ok = Cell<T>::cas(a, expected, desired);
    return std::tuple{ok, ok ? Op::AtomicRmw : Op::AtomicLoad, order_of(ok ? mo : fail_mo)};
  });
}

}  // namespace
}  // namespace raceaccel::rt

// clang-format off
#define RACEACCEL_ATOMIC_CALLBACKS(bits, T)                                                                      \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_load(const volatile T* a, int mo) {                                    \
    return raceaccel::rt::load(const_cast<volatile T*>(a), mo, RACEACCEL_CALLER);                                                  \
  }                                                                                                              \
  RACEACCEL_EXPORT void __tsan_atomic##bits##_store(volatile T* a, T v, int mo) { raceaccel::rt::store(a, v, mo, RACEACCEL_CALLER); } \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_exchange(volatile T* a, T v, int mo) {                                 \
    return raceaccel::rt::rmw(a, mo, RACEACCEL_CALLER, [v](T) { return v; });                                                      \
  }                                                                                                              \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_fetch_add(volatile T* a, T v, int mo) {                                \
    return raceaccel::rt::rmw(a, mo, RACEACCEL_CALLER, [v](T o) { return static_cast<T>(o + v); });                                \
  }                                                                                                              \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_fetch_sub(volatile T* a, T v, int mo) {                                \
    return raceaccel::rt::rmw(a, mo, RACEACCEL_CALLER, [v](T o) { return static_cast<T>(o - v); });                                \
  }                                                                                                              \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_fetch_and(volatile T* a, T v, int mo) {                                \
    return raceaccel::rt::rmw(a, mo, RACEACCEL_CALLER, [v](T o) { return static_cast<T>(o & v); });                                \
  }                                                                                                              \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_fetch_or(volatile T* a, T v, int mo) {                                 \
    return raceaccel::rt::rmw(a, mo, RACEACCEL_CALLER, [v](T o) { return static_cast<T>(o | v); });                                \
  }                                                                                                              \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_fetch_xor(volatile T* a, T v, int mo) {                                \
    return raceaccel::rt::rmw(a, mo, RACEACCEL_CALLER, [v](T o) { return static_cast<T>(o ^ v); });                                \
  }                                                                                                              \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_fetch_nand(volatile T* a, T v, int mo) {                               \
    return raceaccel::rt::rmw(a, mo, RACEACCEL_CALLER, [v](T o) { return static_cast<T>(~(o & v)); });                             \
  }                                                                                                              \
  RACEACCEL_EXPORT int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int mo, int fmo) { \
    return raceaccel::rt::compare_exchange(a, c, v, mo, fmo, RACEACCEL_CALLER);                                                    \
  }                                                                                                              \
  RACEACCEL_EXPORT int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int mo, int fmo) {   \
    return raceaccel::rt::compare_exchange(a, c, v, mo, fmo, RACEACCEL_CALLER);                                                    \
  }                                                                                                              \
  RACEACCEL_EXPORT T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int mo, int fmo) {       \
    raceaccel::rt::compare_exchange(a, &c, v, mo, fmo, RACEACCEL_CALLER);                                                          \
    return c;                                                                                                    \
  }
// clang-format on

RACEACCEL_ATOMIC_CALLBACKS(8, char)
RACEACCEL_ATOMIC_CALLBACKS(16, short)
RACEACCEL_ATOMIC_CALLBACKS(32, int)
RACEACCEL_ATOMIC_CALLBACKS(64, long)
RACEACCEL_ATOMIC_CALLBACKS(128, __int128)

RACEACCEL_EXPORT void __tsan_atomic_thread_fence(int mo) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  const raceaccel::MemoryOrder order = raceaccel::rt::order_of(mo);
  if (order == raceaccel::MemoryOrder::Relaxed) return;  // no effect on happens-before
  if (auto* ts = raceaccel::rt::traced_thread(); ts != nullptr && ts->ignore_sync == 0) {
    raceaccel::rt::emit_event(ts, raceaccel::Event::fence(ts->tid, order));
  }
}

RACEACCEL_EXPORT void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
