#include "runtime/runtime.hpp"

#include "common/exit_codes.hpp"
#include "detect/fasttrack.hpp"
#include "runtime/device_backend.hpp"
#include "runtime/fd_table.hpp"
#include "runtime/internal_heap.hpp"
#include "runtime/sampling.hpp"
#include "runtime/signals.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <new>

// ThreadSanitizer's hook for suppressions built into the program: a
// function the program may define, returning suppressions in the file's
// format. A weak reference, so that a program without it links and runs
// (the address is then null); the linker exports the program's definition
// for it, since this shared object refers to it.
extern "C" const char* __tsan_default_suppressions() __attribute__((weak));

namespace raceaccel::rt {

__thread bool t_thread_done __attribute__((tls_model("initial-exec"))) = false;
// t_thread, t_in_runtime, t_region, t_signals_deferred: fast_path_state.cpp.

namespace {

// The runtime's global state: the object, its start-up state, the TLS key
// whose destructor tears threads down, and the program's exit status.
std::atomic<int> g_state{0};  // 0: not started, 1: starting, 2: running
Runtime* g_runtime = nullptr;
pthread_key_t g_thread_key;
std::atomic<int> g_program_status{0};

void write_stderr(std::string_view s) { (void)!write(2, s.data(), s.size()); }

[[noreturn]] void startup_failure(const std::string& message, int status) {
  write_stderr("raceaccel: " + message + "\n");
  exit_process(status);
}

// The program's built-in suppressions (__tsan_default_suppressions), after
// those of a suppressions= file, as TSan takes both.
void add_default_suppressions(RuntimeOptions& o) {
  if (__tsan_default_suppressions == nullptr) return;
  const char* text = __tsan_default_suppressions();
  if (text == nullptr || *text == '\0') return;
  try {
    o.suppressions.append(Suppressions::parse(text, "__tsan_default_suppressions"));
  } catch (const SuppressionError& err) {
    startup_failure(std::string("__tsan_default_suppressions() is malformed: ") + err.what(), exit_code::kUsage);
  }
}

// A device backend is opened by the library's constructor (after the
// libraries it depends on, XRT's among them, are initialized), not here: the
// runtime may start from an interceptor inside another library's static
// initializer.
PendingDeviceBackend* g_pending_device = nullptr;

std::unique_ptr<Detector> make_backend(const RuntimeOptions& o) {
  if (o.backend == "djit") return make_detector("djit");
  if (!is_device_backend(o.backend)) {
    auto fasttrack = std::make_unique<FastTrackDetector>();
    fasttrack->set_slot_reuse(o.reuse_slots);
    fasttrack->set_max_runs(o.shadow_runs);
    return fasttrack;
  }
  auto pending = std::make_unique<PendingDeviceBackend>(o);
  g_pending_device = pending.get();
  return pending;
}

// Parallel checking is FastTrack's (sharded_fasttrack.hpp); the golden
// detector and the device backends check one event at a time.
std::unique_ptr<Checker> make_checker(const RuntimeOptions& o, Reporter& reporter) {
  if (o.parallel && !is_device_backend(o.backend) && o.backend != "djit")
    return std::make_unique<Checker>(std::make_unique<ShardedFastTrack>(o.reuse_slots, o.shadow_runs), reporter);
  return std::make_unique<Checker>(make_backend(o), reporter);
}

void thread_key_destructor(void* p) {
  auto* ts = static_cast<ThreadState*>(p);
  // Other keys' destructors (and C++ thread_local destructors) may still run
  // instrumented code: stay attached for every destructor round but the last.
  if (++ts->destructor_rounds < PTHREAD_DESTRUCTOR_ITERATIONS) {
    pthread_setspecific(g_thread_key, ts);
    return;
  }
  if (Runtime* rt = runtime_if_started()) {
    // Signals wait until the state is gone: one that interrupted the
    // teardown would be deferred into the state it destroys, and never
    // handled. After it they are handled untraced (t_thread_done).
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    rt->detach_thread(ts);
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
  }
}

void at_exit() {
  Runtime* rt = runtime_if_started();
  if (rt == nullptr) return;
  const int program = g_program_status.load();
  const int status = rt->finalize(program);
  if (status != program) {
    std::fflush(nullptr);
    exit_process(status);
  }
}

uint64_t thread_pointer() {
  uint64_t tp = 0;
  asm("mov %%fs:0, %0" : "=r"(tp));
  return tp;
}

// Size of the static TLS area below the thread pointer (x86-64 variant II).
uint64_t static_tls_size() {
  using Info = void (*)(size_t*, size_t*);
  static std::atomic<uint64_t> cached{0};
  if (uint64_t c = cached.load(std::memory_order_relaxed)) return c;
  size_t size = 0, align = 0;
  if (auto info = reinterpret_cast<Info>(dlsym(RTLD_DEFAULT, "_dl_get_tls_static_info"))) info(&size, &align);
  if (size == 0) size = 4096;
  cached.store(size, std::memory_order_relaxed);
  return size;
}

}  // namespace
}  // namespace raceaccel::rt

// Defined by a program linked with this version's libraceaccel_rt_fast.a
// (hot_path.hpp); weak, so that the runtime links and runs without it.
extern "C" __attribute__((weak)) const unsigned RACEACCEL_FAST_PATH_LAYOUT;

namespace raceaccel::rt {
namespace {

// A program linked with the callbacks defines the fast path's shared state,
// and the runtime's references bind to it (hot_path.hpp): the forget epoch
// then lies in the program. With another version's archive its TLS has
// another layout, which the runtime would write past: it stops the program
// before main instead (status 2, as a bad option).
void check_fast_path_layout() {
  Dl_info epoch{}, runtime{};
  if (dladdr(&g_forget_epoch, &epoch) == 0 ||
      dladdr(reinterpret_cast<const void*>(&check_fast_path_layout), &runtime) == 0 ||
      epoch.dli_fbase == runtime.dli_fbase || &RACEACCEL_FAST_PATH_LAYOUT != nullptr)
    return;
  startup_failure(fmt::format("{} was linked with the access callbacks (libraceaccel_rt_fast.a) of another raceaccel "
                              "version than this runtime ({}); relink it with this version's raceaccel-cc",
                              epoch.dli_fname != nullptr ? epoch.dli_fname : "the program",
                              runtime.dli_fname != nullptr ? runtime.dli_fname : "libraceaccel_rt.so"),
                  exit_code::kUsage);
}

Runtime* start_runtime() {
  int expected = 0;
  if (!g_state.compare_exchange_strong(expected, 1)) {
    if (t_in_runtime) return nullptr;
    while (g_state.load(std::memory_order_acquire) != 2) sched_yield();
    return g_runtime;
  }
  RuntimeScope scope;
  check_fast_path_layout();
  const char* env = getenv("RACEACCEL_OPTIONS");
  ParsedOptions parsed = parse_runtime_options(env != nullptr ? env : "");
  if (!parsed.error.empty()) startup_failure(parsed.error, exit_code::kUsage);
  add_default_suppressions(parsed.options);
  auto* rt = new Runtime(parsed.options);
  if (!parsed.options.record.empty()) {
    std::string error;
    if (!rt->checker().record_to(parsed.options.record, error)) startup_failure("record=" + error, exit_code::kIo);
  }
  pthread_key_create(&g_thread_key, thread_key_destructor);
  g_runtime = rt;
  g_state.store(2, std::memory_order_release);
  rt->attach_thread(rt->threads().create_foreign());
  atexit(at_exit);
  at_quick_exit(finish_at_quick_exit);
  install_fatal_signal_handlers();
  if (parsed.options.verbosity >= 2) {
    rt->reporter().message(
        fmt::format("raceaccel: runtime started (pid={}, backend={})\n", getpid(), parsed.options.backend));
  }
  return rt;
}

}  // namespace

Runtime* runtime() { return g_state.load(std::memory_order_acquire) == 2 ? g_runtime : start_runtime(); }

Runtime* runtime_if_started() { return g_state.load(std::memory_order_acquire) == 2 ? g_runtime : nullptr; }

void note_program_status(int status) { g_program_status.store(status); }

void exit_process(int status) {
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

void open_pending_device() {
  Runtime* rt = runtime_if_started();
  if (rt == nullptr || g_pending_device == nullptr || g_pending_device->opened()) return;
  RuntimeScope scope;
  DeviceBackendResult result;
  rt->checker().with_lock([&] { result = g_pending_device->open(); });
  if (!result.error.empty()) startup_failure(result.error, result.status);
}

uint32_t enter_uncached_call_site(ThreadState* ts, uint64_t pc, ThreadState::TrieCacheEntry& c) {
  if (RACEACCEL_UNLIKELY(t_in_runtime != 0)) return ts->node;
  RuntimeScope scope;
  const uint32_t child = runtime_if_started()->stacks().child(ts->node, pc);
  c = {pc, ts->node, child};
  return child;
}

ThreadState* attach_slow(bool may_start) {
  if (t_thread_done || t_in_runtime) return nullptr;
  Runtime* rt = may_start ? runtime() : runtime_if_started();
  if (rt == nullptr) return nullptr;
  if (t_thread != nullptr) return t_thread;  // start-up attached this thread
  RuntimeScope scope;
  return rt->attach_thread(rt->threads().create_foreign());
}

void prefetch_lock(const volatile void* object) {
  if (Runtime* rt = runtime_if_started(); rt != nullptr && t_thread != nullptr)
    rt->checker().prefetch_lock(id_of(object));
}

void emit_event(ThreadState* ts, const Event& e) {
  RuntimeScope scope;
  runtime_if_started()->checker().emit(ts, e);
}

namespace {
inline void arm_stream_if_on(ThreadState* ts, uint32_t run) {
  if (RACEACCEL_LIKELY(ts->inline_runs)) arm_stream(ts, run);
}
}  // namespace

void record_unfiltered(ThreadState* ts, uint64_t addr, uint64_t size, bool write, uint64_t pc, uint64_t covered) {
  // covered_in_line counted a new line (every access with one comes here).
  if (RACEACCEL_UNLIKELY(t_region.young_left <= 0)) ts->leave_young_table();
  const AccessKind kind = write ? AccessKind::Write : AccessKind::Read;
  if (RACEACCEL_UNLIKELY(needs_split(size))) return append_slow(ts, addr, size, kind, pc);
  // A filtered access reaches here only while recording: kept for the
  // recording, not checked.
  const bool filtered = covered == size;
  const uint32_t size_kind = pack_size_kind(static_cast<uint32_t>(size), kind) | (filtered ? kRecordOnly : 0);
  // A loop's streams of accesses first, before the prologue of the general
  // path (append_plain): the two runs the thread extended last. Each run
  // extended here is armed for the inline fast path (extend_stream), which
  // then extends it without this call: from its second access on, so that
  // the runs most regions start and never extend (a node's fields under
  // its lock) cost no arming.
  if (RACEACCEL_LIKELY(!filtered && ts->coalesce && !ts->record_filtered)) {
    RuntimeScope scope;
    // One stream whose accesses are all uncovered (a byte-wise scan): the
    // latest run, with lead 0 known to the compiler.
    if (covered == 0 && extend_recent_run(ts, ts->recent_runs[0], addr, size_kind, pc, 0)) {
      ts->count_absorbed();
      return arm_stream_if_on(ts, ts->recent_runs[0]);
    }
    // Then a second stream (a stencil's stores between its loads), and
    // half-covered 16-byte accesses.
    const auto lead = static_cast<uint32_t>(covered);
    if (lead != 0 && extend_recent_run(ts, ts->recent_runs[0], addr, size_kind, pc, lead)) {
      ts->count_absorbed();
      return arm_stream_if_on(ts, ts->recent_runs[0]);
    }
    if (const uint32_t other = ts->recent_runs[1]; extend_recent_run(ts, other, addr, size_kind, pc, lead)) {
      ts->note_recent_run(other);
      ts->count_absorbed();
      return arm_stream_if_on(ts, other);
    }
    if (const uint32_t run = append_plain(ts, addr, size_kind, pc, static_cast<uint32_t>(covered)); run != kNoRun)
      arm_stream_if_on(ts, run);
    return;
  }
  append_plain(ts, addr, size_kind, pc, filtered ? 0 : static_cast<uint32_t>(covered));
}

void arm_stream(ThreadState* ts, uint32_t run) {
  BufferedEvent& e = ts->buffer[run];
  StreamTail* slot = nullptr;
  for (StreamTail& s : t_region.streams) {
    if (s.length == &e.length) slot = &s;
  }
  RunPattern* pattern = (e.pc & kPatternPc) != 0 ? &ts->patterns[e.pc & (kPatternSlots - 1)] : nullptr;
  if (pattern != nullptr && pattern->units < kMaxRunPeriod) {
    // A pattern still learning its period: the slow path extends it (the
    // slot holding it, if one does, is stale).
    if (slot != nullptr) slot->end = 0;
    return;
  }
  if (slot == nullptr) {
    slot = &t_region.streams[t_region.stream_victim];
    t_region.stream_victim ^= 1;
  }
  StreamTail& s = *slot;
  const uint32_t size = unpack_size(e.size_kind);
  if (pattern == nullptr) {
    s.expect[0] = {e.pc, e.lead, 0};
    s.phase = 0;
    s.pattern_phase = &s.own_phase;
  } else {
    // Per phase, the access that continues the run starts a unit at that
    // phase (its pc and offset) and must match the fixed pattern for each of
    // its units (run_takes).
    const RunPattern& p = *pattern;
    const uint32_t unit = pattern_unit(size);
    for (uint32_t phase = 0; phase < p.period; ++phase) {
      const uint64_t pc = p.pcs[phase];
      const uint32_t lead = p.offsets[phase];
      uint32_t next = phase;
      bool takes = whole_units(size, lead) && lead < size;
      for (uint32_t offset = lead; takes && offset < size; offset += unit) {
        takes = p.pcs[next] == pc && p.offsets[next] == offset;
        next = next + 1 == p.period ? 0 : next + 1;
      }
      s.expect[phase] = {pc, takes ? lead : kNoStreamLead, next};
    }
    s.phase = p.phase;
    s.pattern_phase = &pattern->phase;
  }
  s.length = &e.length;
  s.size_kind = e.size_kind;
  s.node = e.node;
  s.limit = e.addr + kMaxRunLength;
  s.end = e.addr + e.length;
}
void stream_signals_deferred(bool extended, uint64_t addr, uint64_t size, bool write, uint64_t pc, uint64_t covered) {
  // Not extended: record_unfiltered buffers the access first (its covered
  // prefix is the region's before the handler, which may start a new one),
  // and its RuntimeScope runs the handler as it ends.
  if (!extended) return record_unfiltered(t_thread, addr, size, write, pc, covered);
  run_deferred_signals();
}

void record_access_outside(uint64_t addr, uint64_t size, bool write, uint64_t pc) {
  if (ThreadState* ts = traced_thread()) record_access_full(ts, addr, size, write, pc);
}

void record_access_full(ThreadState* ts, uint64_t addr, uint64_t size, bool write, uint64_t pc) {
  if (RACEACCEL_UNLIKELY((write ? ts->ignore_writes : ts->ignore_reads) != 0)) return;
  uint64_t covered = 0;
  if (RACEACCEL_LIKELY(ts->region_filter) && size - 1 < kMaxFilteredRange) {
    covered = covered_prefix(ts, addr, size, write);
    if (RACEACCEL_UNLIKELY(t_region.fast_epoch != ts->forget_epoch_seen))  // a new forget epoch, or the fast path off
      t_region.fast_epoch = ts->fast_path_allowed() ? ts->forget_epoch_seen : RegionView::kFastPathOff;
    if (RACEACCEL_LIKELY(covered == size && !ts->record_filtered)) return;
  }
  record_unfiltered(ts, addr, size, write, pc, covered);
}

bool seen_in_region_range(uint64_t addr, uint64_t size, bool write) {
  // Every line is tested (and marked), so that a repeat of the whole
  // range is covered next time even when this one was not.
  bool seen = true;
  const uint64_t end = addr + size;
  for (uint64_t a = addr; a < end;) {
    const uint64_t next = std::min((a | 63) + 1, end);
    const uint64_t mask = line_mask(a & 63, next - a);
    seen &= covered_in_line(a >> kRegionLineShift, mask, write) == mask;
    a = next;
  }
  return seen;
}

namespace {
// Adds the units of one access (made at pc, its first unit `lead` bytes into
// it) to pattern p: all of them or, when one is off a fixed pattern, none.
// Within the literal prefix a unit off the pattern makes the whole prefix
// the period.
// Only a unit past the literal prefix can be refused, so the prefix entries
// are written in place and the counters committed at the end: entries at
// or past p.units are read only after a later call has written them again
// (a unit's expected entry is below its count), so those a refused call
// left behind are never seen. (Copying the 88-byte pattern in and out, as
// the all-or-nothing rule first did, was a tenth of a ring's CPU time.)
bool add_units(RunPattern& p, uint64_t pc, uint32_t lead, uint32_t size, uint32_t unit) {
  uint32_t period = p.period, phase = p.phase, units = p.units;
  for (uint32_t offset = lead; offset < size; offset += unit) {
    const bool expected = p.pcs[phase] == pc && p.offsets[phase] == offset;
    if (units >= kMaxRunPeriod) {
      if (!expected) return false;
    } else {
      if (!expected) {
        period = units + 1;  // the prefix so far is the period
        phase = units;       // so the next unit is the period's first
      }
      p.pcs[units] = pc;
      p.offsets[units] = static_cast<uint8_t>(offset);
    }
    ++units;
    if (++phase == period) phase = 0;  // phase stays units % period
  }
  p.period = period;
  p.phase = phase;
  p.units = units;
  return true;
}
}  // namespace

bool extend_run_pattern(ThreadState* ts, BufferedEvent& e, uint64_t pc, uint32_t lead) {
  const uint32_t size = unpack_size(e.size_kind);
  const uint32_t unit = pattern_unit(size);
  if (!whole_units(size, lead)) return false;
  if ((e.pc & kPatternPc) == 0) {
    // One pc so far: the run becomes a pattern whose first units all come
    // from accesses at it, each adding (size - e.lead) / unit units.
    const uint32_t per_access = (size - e.lead) / unit;
    const uint32_t units = e.length / unit;
    if (!whole_units(size, e.lead) || units >= kMaxRunPeriod || ts->patterns_used == kPatternSlots) return false;
    RunPattern& p = ts->patterns[ts->patterns_used];
    for (uint32_t k = 0; k < units; ++k) {
      p.pcs[k] = e.pc;
      p.offsets[k] = static_cast<uint8_t>(e.lead + k % per_access * unit);
    }
    p.units = units;
    p.period = per_access;
    p.phase = units % per_access;
    if (!add_units(p, pc, lead, size, unit)) return false;
    e.pc = kPatternPc | ts->patterns_used++;
    return true;
  }
  return add_units(ts->patterns[e.pc & (kPatternSlots - 1)], pc, lead, size, unit);
}

void append_slow(ThreadState* ts, uint64_t addr, uint64_t size, AccessKind kind, uint64_t pc) {
  constexpr uint64_t kChunk = uint64_t{1} << 24;
  while (size != 0) {
    const uint64_t n = size < kChunk ? size : kChunk;
    append_access(ts, addr, n, kind, pc);
    addr += n;
    size -= n;
  }
}

Runtime::Runtime(const RuntimeOptions& options)
    : options_(options), reporter_(options_, stacks_, threads_, heap_), checker_(make_checker(options_, reporter_)) {
  if (options_.sample < 1.0) checker_->sample_with(make_sampler(options_, heap_));
  if (options_.verbosity >= 3) checker_->keep_racy_bytes();
  if (!options_.record.empty()) {
    reporter_.set_event_clock(checker_->recorded_events_counter());
    checker_->describe_program_with([this](ProgramInfo& info) { describe_program(info); });
  }
  OwnerLock::enable_bias();
}

void Runtime::describe_program(ProgramInfo& info) {
  info.pid = getpid();
  info.runtime_module = reporter_.runtime_module();
  const DescriptorTableLayout fds = descriptor_table_layout();
  info.fd_table_base = fds.base;
  info.fd_entry_bytes = fds.entry_bytes;
  info.fd_count = fds.count;
  info.modules = Symbolizer().loaded_modules();
  info.nodes = stacks_.nodes();
  const std::vector<ThreadInfo> threads = threads_.all();
  for (size_t tid = 0; tid < threads.size(); ++tid) {
    const ThreadInfo& t = threads[tid];
    ProgramThread p;
    p.tid = static_cast<ThreadId>(tid);
    p.parent = t.parent;
    p.create_stack = t.create_stack;
    p.os_tid = t.os_tid;
    p.name = t.name;
    p.stack_lo = t.stack_lo;
    p.stack_hi = t.stack_hi;
    p.tls_lo = t.tls_lo;
    p.tls_hi = t.tls_hi;
    p.finished_at = t.finished ? t.finished_at : kNeverFinished;
    info.threads.push_back(std::move(p));
  }
  info.benign = reporter_.benign_ranges();
}

ThreadState* Runtime::attach_thread(ThreadId tid) {
  RuntimeScope scope;
  const ThreadStatePool::Block block = state_pool_.take(sizeof(ThreadState));
  void* mem = block.memory;
  if (mem == nullptr) {
    reporter_.message("raceaccel: out of memory for a thread's state; its events are not checked\n");
    t_thread_done = true;
    return nullptr;
  }
  auto* ts = new (mem) ThreadState;
  ts->tid = tid;
  ts->region_filter = options_.region_filter;
  ts->coalesce = options_.coalesce;
  ts->inline_runs = options_.inline_runs;
  ts->record_filtered = !options_.record.empty();
  // Buffered loads are checked at the next drain: only the parallel
  // checker's drain checks them without their clock work (tsan_atomics.cpp).
  ts->own_loads = options_.own_loads && checker_->parallel();
  ts->young_limit = options_.region_young;
  t_region.generation = block.generation;  // above every entry a kept block's table holds
  ts->new_region();                        // sets up the region table
  ts->forget_epoch_seen = g_forget_epoch.value.load(std::memory_order_seq_cst);
  uint64_t lo = 0, hi = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      lo = reinterpret_cast<uint64_t>(addr);
      hi = lo + size;
    }
    pthread_attr_destroy(&attr);
  }
  const uint64_t tp = thread_pointer();
  const uint64_t tls_size = static_tls_size();
  ts->os_tid = gettid();
  threads_.started(tid, ts->os_tid, lo, hi, tp - tls_size, tp);
  checker_->link(ts);
  t_thread = ts;
  pthread_setspecific(g_thread_key, ts);
  if (tid != 0) {
    // A new thread may run on the stack (and static TLS) of a finished one
    // that was never joined: that memory's history is not this thread's.
    if (hi > lo) checker_->emit(ts, Event::range(Op::Free, tid, lo, hi - lo));
    if (tp - tls_size < lo || tp > hi) checker_->emit(ts, Event::range(Op::Free, tid, tp - tls_size, tls_size));
  }
  return ts;
}

void Runtime::detach_thread(ThreadState* ts) {
  RuntimeScope scope;
  checker_->unlink(ts);
  threads_.finished(ts->tid, checker_->recorded_events());
  t_thread = nullptr;
  const uint64_t last_generation = t_region.generation;
  t_region = RegionView{};  // its tables go with ts
  t_thread_done = true;
  pthread_setspecific(g_thread_key, nullptr);
  // Everything but the region table is cleared for the next thread
  // (thread_state_pool.hpp), which starts above this thread's generation.
  const size_t before_table = static_cast<size_t>(reinterpret_cast<char*>(ts->region) - reinterpret_cast<char*>(ts));
  ts->~ThreadState();
  state_pool_.give(ts, sizeof(ThreadState), before_table, last_generation);
}

int Runtime::finalize(int program_status) {
  RuntimeScope scope;
  const pid_t self = gettid();
  pid_t finalizer = 0;
  if (!finalizer_.compare_exchange_strong(finalizer, self)) {
    // Another thread is finalizing (an exit, or a fatal signal's default
    // action): this one must not end the process before those reports are
    // out (a thread that faulted while main's exit was reporting cut the
    // reports short, and an exit racing with a finalizing fault exited 0).
    // A fault inside the finalization itself (this thread) does not wait.
    if (finalizer != self) wait_until_finalized();
    return exit_status(program_status);
  }
  checker_->drain_all_and_stop();
  nlohmann::json accelerator = nullptr;
  if (g_pending_device != nullptr) checker_->with_lock([&] { accelerator = g_pending_device->accelerator_json(); });
  reporter_.print_summary(accelerator);
  const std::string record_error = checker_->finish_recording();
  if (!record_error.empty()) {
    record_failed_.store(true, std::memory_order_relaxed);
    reporter_.message(fmt::format("raceaccel: record={}: {}\n", options_.record, record_error));
  }
  if (options_.verbosity >= 1) {
    const CheckerStats s = checker_->stats();
    reporter_.message(fmt::format(
        "raceaccel: {} events checked ({} accesses, {} buffer drains), {} accesses decided by the region filter, {} "
        "accesses coalesced into runs ({} by the callbacks), {} threads{}, {} per-byte races, {} reports\n",
        s.events, s.accesses, s.drains, s.filtered, s.absorbed, s.streamed, threads_.count(),
        s.clock_slots == 0 ? std::string() : fmt::format(" ({} clock slots)", s.clock_slots), s.races,
        reporter_.reports()));
    if (options_.sample < 1.0) reporter_.message(sampling_statistics(options_.sample, s.accesses, s.dropped));
  }
  if (options_.verbosity >= 2) {
    reporter_.message(fmt::format("raceaccel: {} call-stack nodes, {} code sites (instruction, access size)\n",
                                  stacks_.size(), checker_->stats().sites));
  }
  if (options_.verbosity >= 3) {
    std::string line = "raceaccel: racy bytes:";
    for (const auto& [addr, size] : checker_->racy_ranges()) line += fmt::format(" {:#x}+{}", addr, size);
    reporter_.message(line + "\n");
  }
  finalized_.store(true, std::memory_order_release);
  return exit_status(program_status);
}

int Runtime::exit_status(int program_status) {
  if (program_status != 0) return program_status;
  if (record_failed_.load(std::memory_order_relaxed) || reporter_.sarif_failed()) return exit_code::kIo;
  if (checker_->failed()) return exit_code::kCapacity;
  if (reporter_.reports() > 0) return options_.exitcode;
  return program_status;
}

// Bounded: the finalizing thread never waits for this one (a thread in
// runtime code does not finalize from a signal, so it holds none of the
// runtime's locks here), but a finalization stuck in the kernel must not
// hang the process.
void Runtime::wait_until_finalized() {
  constexpr int kMaxWaitMs = 30 * 1000;
  const struct timespec one_ms = {0, 1000 * 1000};
  for (int waited = 0; waited < kMaxWaitMs && !finalized_.load(std::memory_order_acquire); ++waited)
    nanosleep(&one_ms, nullptr);
}

void Runtime::before_fork() {
  checker_->lock_for_fork();
  stacks_.mutex().lock();
  threads_.lock_for_fork();
  heap_.lock_for_fork();
  internal_heap::lock_for_fork();
  state_pool_.lock_for_fork();
}

void Runtime::after_fork_parent() {
  state_pool_.unlock_after_fork();
  internal_heap::unlock_after_fork();
  heap_.unlock_after_fork();
  threads_.unlock_after_fork();
  stacks_.mutex().unlock();
  checker_->unlock_after_fork();
}

void Runtime::after_fork_child() {
  state_pool_.unlock_after_fork();
  internal_heap::unlock_after_fork();
  heap_.unlock_after_fork();
  threads_.unlock_after_fork();
  stacks_.mutex().unlock();
  if (ThreadState* self = t_thread) {
    self->os_tid = gettid();  // the child is a new kernel thread
    checker_->adopt_after_fork_child(self, threads_.finished_unjoined());
    self->new_region();  // the joins of the parent's other threads are its synchronization
    reporter_.after_fork_child();
  }
  checker_->unlock_after_fork();
  if (ThreadState* self = t_thread) {
    if (auto info = threads_.info(self->tid)) {
      threads_.started(self->tid, self->os_tid, info->stack_lo, info->stack_hi, info->tls_lo, info->tls_hi);
    }
  }
}

}  // namespace raceaccel::rt

// The library's constructor: start before the program's own constructors.
__attribute__((constructor(101))) static void raceaccel_runtime_constructor() {
  raceaccel::rt::runtime();
  raceaccel::rt::open_pending_device();
}
