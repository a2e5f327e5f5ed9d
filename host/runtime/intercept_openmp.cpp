// OpenMP through GCC's libgomp: the entry points the compiler calls for
// parallel regions, barriers, critical sections, ordered sections and the
// omp_*_lock API. libgomp synchronizes its team with futexes, which no
// other interceptor sees, so without these every correct parallel loop
// with a reduction was reported as a race (as stock TSan reports it, which
// needs an instrumented LLVM libomp to avoid that).
//
// The happens-before given is the OpenMP memory model's:
// - a parallel region: what the encountering thread did before it happens
//   before every team member's part, and every member's part happens before
//   what the encountering thread does after it (the region's implied
//   barrier); modelled as a release of the region's `start` object by the
//   encountering thread and an acquire of it by each member, then a release
//   of `end` by each member and an acquire of it by the encountering thread
//   (a release joins into a lock's clock, so every member's counts);
// - a barrier (explicit, or implied at the end of a worksharing loop or
//   sections without nowait): one barrier round of the team's `barrier`
//   object, as pthread_barrier_wait;
// - single copyprivate: the executing thread's values, published, happen
//   before the other threads' copies of them;
// - critical (the unnamed one, or each name), the atomic fallback lock,
//   ordered sections (in iteration order: a lock per region) and the
//   omp_*_lock API: a lock's acquire and release.
// The region's objects live in the encountering thread's frame and are
// destroyed when the region ends, so that memory reused later carries no
// clock of theirs. Not modelled: tasks (GOMP_task, taskwait, taskgroup) and
// task reductions (GOMP_parallel_reductions passes libgomp a descriptor
// through the region's data, which a wrapped region would hide), the
// barriers inside single copyprivate (a false race at most), and the
// pre-GCC 4.9 GOMP_parallel_start/end. Ordered sections use one object per
// region, so an ordered loop with nowait followed by another orders their
// sections one after the other (they could only overlap in time).
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#include <atomic>

#include "runtime/exported.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

// libgomp's entry points (libgomp_g.h, GCC 12; not installed as a header)
// and its public lock API (omp.h), declared here with their ABI.
extern "C" {
// omp.h's types, with their sizes (4 and 8 + a pointer's bytes).
struct omp_lock_t {
  alignas(4) unsigned char opaque[4];
};
struct omp_nest_lock_t {
  alignas(sizeof(void*)) unsigned char opaque[8 + sizeof(void*)];
};
void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned flags);
void GOMP_parallel_loop_static(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr,
                               long chunk, unsigned flags);
void GOMP_parallel_loop_dynamic(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr,
                                long chunk, unsigned flags);
void GOMP_parallel_loop_guided(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr,
                               long chunk, unsigned flags);
void GOMP_parallel_loop_nonmonotonic_dynamic(void (*fn)(void*), void* data, unsigned num_threads, long start, long end,
                                             long incr, long chunk, unsigned flags);
void GOMP_parallel_loop_nonmonotonic_guided(void (*fn)(void*), void* data, unsigned num_threads, long start, long end,
                                            long incr, long chunk, unsigned flags);
void GOMP_parallel_loop_runtime(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr,
                                unsigned flags);
void GOMP_parallel_loop_nonmonotonic_runtime(void (*fn)(void*), void* data, unsigned num_threads, long start, long end,
                                             long incr, unsigned flags);
void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*fn)(void*), void* data, unsigned num_threads, long start,
                                                   long end, long incr, unsigned flags);
void GOMP_parallel_sections(void (*fn)(void*), void* data, unsigned num_threads, unsigned count, unsigned flags);
void GOMP_barrier();
bool GOMP_barrier_cancel();
void GOMP_loop_end();
bool GOMP_loop_end_cancel();
void GOMP_sections_end();
bool GOMP_sections_end_cancel();
void GOMP_critical_start();
void GOMP_critical_end();
void GOMP_critical_name_start(void** name);
void GOMP_critical_name_end(void** name);
void GOMP_atomic_start();
void GOMP_atomic_end();
void* GOMP_single_copy_start();
void GOMP_single_copy_end(void* data);
void GOMP_ordered_start();
void GOMP_ordered_end();
void omp_destroy_lock(omp_lock_t* lock);
void omp_destroy_nest_lock(omp_nest_lock_t* lock);
void omp_set_lock(omp_lock_t* lock);
void omp_unset_lock(omp_lock_t* lock);
int omp_test_lock(omp_lock_t* lock);
void omp_set_nest_lock(omp_nest_lock_t* lock);
void omp_unset_nest_lock(omp_nest_lock_t* lock);
int omp_test_nest_lock(omp_nest_lock_t* lock);
}

using namespace raceaccel;
using namespace raceaccel::rt;

// libgomp's `name`: the next definition after the runtime's, or, when
// libgomp was loaded privately (dlopen of a plugin with RTLD_LOCAL, whose
// calls still bind to the runtime's exports), libgomp's own.
#define RACEACCEL_GOMP(name)                           \
  (reinterpret_cast<decltype(&::name)>([]() -> void* { \
    static std::atomic<void*> slot{nullptr};           \
    void* p = slot.load(std::memory_order_acquire);    \
    if (p == nullptr) {                                \
      p = gomp_symbol(#name);                          \
      slot.store(p, std::memory_order_release);        \
    }                                                  \
    return p;                                          \
  }()))

namespace {

void* gomp_symbol(const char* name) {
  if (void* next = dlsym(RTLD_NEXT, name)) return next;
  if (void* gomp = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
    void* own = dlsym(gomp, name);
    dlclose(gomp);
    if (own != nullptr) return own;
  }
  return resolve_next(name, nullptr);  // the runtime's message, and abort
}

// One parallel region, in the encountering thread's frame; each char is a
// synchronization object of its own (its address).
struct ParallelRegion {
  void (*fn)(void*);
  void* data;
  char start, end, barrier, ordered, copied;
};

// The innermost region the thread runs a part of (nested regions nest).
__thread ParallelRegion* t_omp_region __attribute__((tls_model("initial-exec"))) = nullptr;

// The function each team member runs in the region's place.
void run_part(void* p) {
  auto* region = static_cast<ParallelRegion*>(p);
  acquire(&region->start);
  ParallelRegion* const outer = t_omp_region;
  t_omp_region = region;
  region->fn(region->data);
  t_omp_region = outer;
  release(&region->end);
}

// A region around real(run_part, &region), whatever the entry point.
template <typename Real>
auto in_region(void (*fn)(void*), void* data, Real&& real) {
  ParallelRegion region{fn, data, 0, 0, 0, 0, 0};
  release(&region.start);
  auto result = real(run_part, &region);
  acquire(&region.end);
  destroyed(&region, sizeof region);
  return result;
}

// A barrier of the thread's team (none outside a region: a team of one).
template <typename Real>
auto team_barrier(Real&& real) {
  ParallelRegion* const region = t_omp_region;
  ThreadState* ts = region != nullptr ? traced_thread() : nullptr;
  if (ts != nullptr) emit_sync(ts, Op::BarrierEnter, id_of(&region->barrier));
  auto result = real();
  if (ts != nullptr && (ts = traced_thread()) != nullptr) emit_sync(ts, Op::BarrierExit, id_of(&region->barrier));
  return result;
}

// The objects of the unnamed critical section and of the atomic fallback.
char g_unnamed_critical;
char g_atomic_lock;

}  // namespace

// ---- parallel regions -------------------------------------------------------
// `real` returns an int so that one in_region serves the void entry points.
#define RACEACCEL_GOMP_VOID_REGION(name, params, ...)            \
  RACEACCEL_EXPORT void name params {                            \
    in_region(fn, data, [&](void (*part)(void*), void* region) { \
      RACEACCEL_GOMP(name)(part, region, __VA_ARGS__);           \
      return 0;                                                  \
    });                                                          \
  }
#define RACEACCEL_GOMP_LOOP_PARAMS \
  (void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr, long chunk, unsigned flags)
#define RACEACCEL_GOMP_RUNTIME_LOOP_PARAMS \
  (void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr, unsigned flags)

RACEACCEL_GOMP_VOID_REGION(GOMP_parallel, (void (*fn)(void*), void* data, unsigned num_threads, unsigned flags),
                           num_threads, flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_loop_static, RACEACCEL_GOMP_LOOP_PARAMS, num_threads, start, end, incr, chunk,
                           flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_loop_dynamic, RACEACCEL_GOMP_LOOP_PARAMS, num_threads, start, end, incr, chunk,
                           flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_loop_guided, RACEACCEL_GOMP_LOOP_PARAMS, num_threads, start, end, incr, chunk,
                           flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_loop_nonmonotonic_dynamic, RACEACCEL_GOMP_LOOP_PARAMS, num_threads, start, end,
                           incr, chunk, flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_loop_nonmonotonic_guided, RACEACCEL_GOMP_LOOP_PARAMS, num_threads, start, end,
                           incr, chunk, flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_loop_runtime, RACEACCEL_GOMP_RUNTIME_LOOP_PARAMS, num_threads, start, end,
                           incr, flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_loop_nonmonotonic_runtime, RACEACCEL_GOMP_RUNTIME_LOOP_PARAMS, num_threads,
                           start, end, incr, flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_loop_maybe_nonmonotonic_runtime, RACEACCEL_GOMP_RUNTIME_LOOP_PARAMS,
                           num_threads, start, end, incr, flags)
RACEACCEL_GOMP_VOID_REGION(GOMP_parallel_sections,
                           (void (*fn)(void*), void* data, unsigned num_threads, unsigned count, unsigned flags),
                           num_threads, count, flags)

// ---- barriers ------------------------------------------------------------------
RACEACCEL_EXPORT void GOMP_barrier() {
  team_barrier([] {
    RACEACCEL_GOMP(GOMP_barrier)();
    return 0;
  });
}
RACEACCEL_EXPORT void GOMP_loop_end() {
  team_barrier([] {
    RACEACCEL_GOMP(GOMP_loop_end)();
    return 0;
  });
}
RACEACCEL_EXPORT void GOMP_sections_end() {
  team_barrier([] {
    RACEACCEL_GOMP(GOMP_sections_end)();
    return 0;
  });
}
// The cancellable forms return whether the region was cancelled (a
// cancelled thread leaves without meeting the others, and goes to the
// region's end, whose release and acquire order it).
RACEACCEL_EXPORT bool GOMP_barrier_cancel() {
  return team_barrier([] { return RACEACCEL_GOMP(GOMP_barrier_cancel)(); });
}
RACEACCEL_EXPORT bool GOMP_loop_end_cancel() {
  return team_barrier([] { return RACEACCEL_GOMP(GOMP_loop_end_cancel)(); });
}
RACEACCEL_EXPORT bool GOMP_sections_end_cancel() {
  return team_barrier([] { return RACEACCEL_GOMP(GOMP_sections_end_cancel)(); });
}

// ---- critical, atomic, ordered -------------------------------------------------
RACEACCEL_EXPORT void GOMP_critical_start() {
  RACEACCEL_GOMP(GOMP_critical_start)();
  acquire(&g_unnamed_critical);
}
RACEACCEL_EXPORT void GOMP_critical_end() {
  release(&g_unnamed_critical);
  RACEACCEL_GOMP(GOMP_critical_end)();
}
RACEACCEL_EXPORT void GOMP_critical_name_start(void** name) {
  RACEACCEL_GOMP(GOMP_critical_name_start)(name);
  acquire(name);
}
RACEACCEL_EXPORT void GOMP_critical_name_end(void** name) {
  release(name);
  RACEACCEL_GOMP(GOMP_critical_name_end)(name);
}
RACEACCEL_EXPORT void GOMP_atomic_start() {
  RACEACCEL_GOMP(GOMP_atomic_start)();
  acquire(&g_atomic_lock);
}
RACEACCEL_EXPORT void GOMP_atomic_end() {
  release(&g_atomic_lock);
  RACEACCEL_GOMP(GOMP_atomic_end)();
}
// single copyprivate: the thread that ran the single block publishes its
// values (copy_end), the others read them once copy_start returns them.
RACEACCEL_EXPORT void GOMP_single_copy_end(void* data) {
  if (ParallelRegion* region = t_omp_region) release(&region->copied);
  RACEACCEL_GOMP(GOMP_single_copy_end)(data);
}
RACEACCEL_EXPORT void* GOMP_single_copy_start() {
  void* const data = RACEACCEL_GOMP(GOMP_single_copy_start)();
  if (ParallelRegion* region = t_omp_region; region != nullptr && data != nullptr) acquire(&region->copied);
  return data;
}
// Ordered sections run one at a time in iteration order: a lock of the region.
RACEACCEL_EXPORT void GOMP_ordered_start() {
  RACEACCEL_GOMP(GOMP_ordered_start)();
  if (ParallelRegion* region = t_omp_region) acquire(&region->ordered);
}
RACEACCEL_EXPORT void GOMP_ordered_end() {
  if (ParallelRegion* region = t_omp_region) release(&region->ordered);
  RACEACCEL_GOMP(GOMP_ordered_end)();
}

// ---- the lock API ----------------------------------------------------------------
// A nested lock is released by each unset, and the last unset's release
// (the one that frees it) is the one its next owner acquires. A destroyed
// lock's clocks start over, as a destroyed mutex's do.
RACEACCEL_EXPORT void omp_destroy_lock(omp_lock_t* lock) {
  destroyed(lock, sizeof *lock);
  RACEACCEL_GOMP(omp_destroy_lock)(lock);
}
RACEACCEL_EXPORT void omp_destroy_nest_lock(omp_nest_lock_t* lock) {
  destroyed(lock, sizeof *lock);
  RACEACCEL_GOMP(omp_destroy_nest_lock)(lock);
}
namespace {
template <typename Lock, typename Set>
void set_lock(Lock* lock, Set set) {
  set(lock);
  acquire(lock);
}
template <typename Lock, typename Unset>
void unset_lock(Lock* lock, Unset unset) {
  release(lock);
  unset(lock);
}
template <typename Lock, typename Test>
int test_lock(Lock* lock, Test test) {
  const int r = test(lock);
  if (r != 0) acquire(lock);
  return r;
}
}  // namespace
RACEACCEL_EXPORT void omp_set_lock(omp_lock_t* lock) { set_lock(lock, RACEACCEL_GOMP(omp_set_lock)); }
RACEACCEL_EXPORT void omp_unset_lock(omp_lock_t* lock) { unset_lock(lock, RACEACCEL_GOMP(omp_unset_lock)); }
RACEACCEL_EXPORT int omp_test_lock(omp_lock_t* lock) { return test_lock(lock, RACEACCEL_GOMP(omp_test_lock)); }
RACEACCEL_EXPORT void omp_set_nest_lock(omp_nest_lock_t* lock) { set_lock(lock, RACEACCEL_GOMP(omp_set_nest_lock)); }
RACEACCEL_EXPORT void omp_unset_nest_lock(omp_nest_lock_t* lock) {
  unset_lock(lock, RACEACCEL_GOMP(omp_unset_nest_lock));
}
RACEACCEL_EXPORT int omp_test_nest_lock(omp_nest_lock_t* lock) {
  return test_lock(lock, RACEACCEL_GOMP(omp_test_nest_lock));
}
