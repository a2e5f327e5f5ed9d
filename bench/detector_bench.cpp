// Throughput of the detectors and the trace readers on generated traces,
// in events per second. Traces are generated once, outside the timed loop.
#include <benchmark/benchmark.h>

#include <map>
#include <sstream>

#include "detect/detector.hpp"
#include "gen/generator.hpp"
#include "trace/binary_format.hpp"
#include "trace/std_format.hpp"

namespace raceaccel {
namespace {

// A hit-dominated mix (thread-local and lock-protected) and a sharing-heavy one.
GeneratorOptions mix(int kind, uint32_t threads) {
  GeneratorOptions o;
  o.threads = threads;
  o.events = 1'000'000;
  o.seed = 11;
  if (kind == 1) {
    o.local_weight = 10;
    o.locked_weight = 20;
    o.shared_weight = 40;
    o.racy_weight = 10;
    o.extras_weight = 20;
  }
  return o;
}

const std::vector<Event>& trace(int kind, uint32_t threads) {
  static std::map<std::pair<int, uint32_t>, std::vector<Event>> cache;
  auto& events = cache[{kind, threads}];
  if (events.empty()) {
    TraceGenerator g(mix(kind, threads));
    Event e;
    while (g.next(e)) events.push_back(e);
  }
  return events;
}

void run_detector(benchmark::State& state, const char* name) {
  const auto& events = trace(static_cast<int>(state.range(0)), static_cast<uint32_t>(state.range(1)));
  for (auto _ : state) {
    auto detector = make_detector(name);
    uint64_t i = 0;
    for (const Event& e : events) detector->process(e, i++);
    benchmark::DoNotOptimize(detector->races().size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events.size()));
}

void BM_FastTrack(benchmark::State& state) { run_detector(state, "fasttrack"); }
void BM_Djit(benchmark::State& state) { run_detector(state, "djit"); }
BENCHMARK(BM_FastTrack)->ArgsProduct({{0, 1}, {4, 64}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Djit)->ArgsProduct({{0, 1}, {4, 64}})->Unit(benchmark::kMillisecond);

// Program-like access patterns (the kernels of bench/programs), to measure
// the shadow representation rather than synchronization: thread 0 fills an
// array of 4-byte elements and forks two threads, which then either read it
// at pseudo-random indices (lookup: read-shared 4-byte halves everywhere) or
// each rewrite and reread their own half sequentially (sort-like).
const std::vector<Event>& pattern_trace(int kind) {
  static std::map<int, std::vector<Event>> cache;
  auto& events = cache[kind];
  if (!events.empty()) return events;
  constexpr uint64_t kBase = 0x7f0000000000, kElements = 65536, kAccesses = 1'000'000;
  for (uint64_t i = 0; i < kElements; ++i) events.push_back(Event::write(0, kBase + 4 * i, 4, 1));
  events.push_back(Event::sync(Op::Fork, 0, 1));
  events.push_back(Event::sync(Op::Fork, 0, 2));
  uint64_t state = 0x2545f4914f6cdd1dull;
  for (uint64_t n = 0; n < kAccesses; ++n) {
    const ThreadId t = 1 + static_cast<ThreadId>((n / 1024) % 2);  // runtime-sized batches per thread
    if (kind == 0) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      events.push_back(Event::read(t, kBase + 4 * ((state >> 33) % kElements), 4, 2));
    } else {
      const uint64_t i = (t - 1) * (kElements / 2) + (n / 2) % (kElements / 2);
      events.push_back(n % 2 == 0 ? Event::write(t, kBase + 4 * i, 4, 3) : Event::read(t, kBase + 4 * i, 4, 4));
    }
  }
  return events;
}

void BM_FastTrackPattern(benchmark::State& state) {
  const auto& events = pattern_trace(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto detector = make_detector("fasttrack");
    uint64_t i = 0;
    for (const Event& e : events) detector->process(e, i++);
    benchmark::DoNotOptimize(detector->races().size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events.size()));
}
BENCHMARK(BM_FastTrackPattern)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Distinct accesses of whole granules, as the runtime hands them over once
// its per-thread filter drops repeats within a sync-free region: thread 0
// writes an array of doubles, then two threads pass over it again and again,
// each pass in a new epoch (a private lock's release between passes), so no
// access is a same-epoch no-op. Both threads read the shared array (its cells
// become read-shared) and read-modify-write their own half of a second one.
// kind 0: 16-byte accesses (vectorized code such as bench/programs/matmul);
// kind 1: 256-byte ranges (a filter's coalesced range); kind 2: 1-byte reads
// of the shared array (a byte-wise scan) and 8-byte writes.
const std::vector<Event>& granule_trace(int kind) {
  static std::map<int, std::vector<Event>> cache;
  auto& events = cache[kind];
  if (!events.empty()) return events;
  constexpr uint64_t kShared = 0x7f0000000000, kOwn = 0x7f1000000000, kBytes = 256 * 1024;
  constexpr uint64_t kPasses = 8;
  for (uint64_t a = 0; a < kBytes; a += 8) events.push_back(Event::write(0, kShared + a, 8, 1));
  events.push_back(Event::sync(Op::Fork, 0, 1));
  events.push_back(Event::sync(Op::Fork, 0, 2));
  const uint64_t step = kind == 0 ? 16 : kind == 1 ? 256 : 8;
  for (uint64_t pass = 0; pass < kPasses; ++pass) {
    for (ThreadId t = 1; t <= 2; ++t) {
      const uint64_t own = kOwn + (t - 1) * (kBytes / 2);
      for (uint64_t a = 0; a < kBytes; a += step) {
        if (kind == 2) {
          for (uint64_t b = 0; b < 8; ++b) events.push_back(Event::read(t, kShared + a + b, 1, 2));
        } else {
          events.push_back(Event::read(t, kShared + a, step, 2));
        }
        const uint64_t mine = own + (a / 2) / step * step;  // each own location twice a pass: read, write
        if (a % (2 * step) == 0) {
          events.push_back(Event::read(t, mine, step, 3));
        } else {
          events.push_back(Event::write(t, mine, step, 4));
        }
      }
      events.push_back(Event::sync(Op::Acquire, t, 100 + t));
      events.push_back(Event::sync(Op::Release, t, 100 + t));
    }
  }
  return events;
}

void BM_FastTrackGranules(benchmark::State& state) {
  const auto& events = granule_trace(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto detector = make_detector("fasttrack");
    uint64_t i = 0;
    for (const Event& e : events) detector->process(e, i++);
    benchmark::DoNotOptimize(detector->races().size());
  }
  uint64_t bytes = 0;
  for (const Event& e : events) bytes += e.op == Op::Read || e.op == Op::Write ? e.size : 0;
  // Items are granules (8 bytes) accessed.
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * (bytes / 8)));
}
BENCHMARK(BM_FastTrackGranules)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// A large heap block's life as the runtime records it (alloc, the
// allocator's write, a read of half, the free's write, free; 16 MiB events),
// 256 MiB at a page-aligned address + 16: uniform shadow pages make each
// whole page one check. Items are pages of the block.
void BM_FastTrackLargeBlock(benchmark::State& state) {
  constexpr uint64_t kBase = 0x7f0000000000 + 16, kSize = uint64_t{256} << 20;
  std::vector<Event> events = {Event::range(Op::Alloc, 0, kBase, kSize)};
  for (uint64_t a = 0; a < kSize; a += kMaxAccessBytes)
    events.push_back(Event::write(0, kBase + a, kMaxAccessBytes, 1));
  for (uint64_t a = 0; a < kSize / 2; a += kMaxAccessBytes)
    events.push_back(Event::read(0, kBase + a, kMaxAccessBytes, 2));
  for (uint64_t a = 0; a < kSize; a += kMaxAccessBytes)
    events.push_back(Event::write(0, kBase + a, kMaxAccessBytes, 3));
  events.push_back(Event::range(Op::Free, 0, kBase, kSize));
  for (auto _ : state) {
    auto detector = make_detector("fasttrack");
    uint64_t i = 0;
    for (const Event& e : events) detector->process(e, i++);
    benchmark::DoNotOptimize(detector->races().size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * (kSize >> 12)));
}
BENCHMARK(BM_FastTrackLargeBlock)->Unit(benchmark::kMillisecond);

void BM_BinaryRead(benchmark::State& state) {
  const auto& events = trace(0, 8);
  std::ostringstream out;
  BinaryWriterOptions wo;
  wo.compress = state.range(0) != 0;
  BinaryWriter writer(out, wo);
  SymbolTable symbols;
  for (const Event& e : events) writer.write(e, symbols);
  writer.finish();
  const std::string bytes = out.str();
  for (auto _ : state) {
    BinaryReader reader(Input::from_memory(bytes, "bench"));
    Event e;
    uint64_t n = 0;
    while (reader.next(e)) ++n;
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events.size()));
  state.counters["bytes_per_event"] = static_cast<double>(bytes.size()) / static_cast<double>(events.size());
}
BENCHMARK(BM_BinaryRead)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_StdRead(benchmark::State& state) {
  GeneratorOptions o = mix(0, 8);
  o.std_only = true;
  TraceGenerator g(o);
  std::ostringstream out;
  StdWriter writer(out);
  Event e;
  while (g.next(e)) writer.write(e, g.symbols());
  const std::string text = out.str();
  for (auto _ : state) {
    StdReader reader(Input::from_memory(text, "bench"));
    uint64_t n = 0;
    while (reader.next(e)) ++n;
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * o.events));
}
BENCHMARK(BM_StdRead)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace raceaccel

BENCHMARK_MAIN();
