// `raceaccel gen`: writes a synthetic trace (see gen/generator.hpp).
#include <fmt/format.h>

#include <cstdint>
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/error_status.hpp"
#include "cli/output_file.hpp"
#include "common/exit_codes.hpp"
#include "gen/generator.hpp"
#include "trace/binary_format.hpp"
#include "trace/std_format.hpp"
#include "trace/trace_error.hpp"

namespace raceaccel {
namespace {

struct GenCommandOptions {
  GeneratorOptions gen;
  std::string output = "-";
  std::string format = "binary";
};

int run_gen(GenCommandOptions o) {
  return exit_status_of(o.output, [&] {
    if (o.format == "std") o.gen.std_only = true;
    TraceGenerator generator(o.gen);
    OutputFile out(o.output);
    std::unique_ptr<TraceWriter> writer;
    if (o.format == "std") {
      writer = std::make_unique<StdWriter>(out.stream());
    } else {
      writer = std::make_unique<BinaryWriter>(out.stream());
    }
    Event e;
    while (generator.next(e)) writer->write(e, generator.symbols());
    writer->finish();
    out.close();
    return exit_code::kOk;
  });
}

}  // namespace

CommandRunner add_gen_command(CLI::App& app) {
  auto o = std::make_shared<GenCommandOptions>();
  CLI::App* sub = app.add_subcommand("gen", "Write a synthetic trace for tests and benchmarks");
  // Every number is checked as text (unsigned_in): CLI11 alone would take
  // "-1" for an unsigned option and wrap it, and a seed beyond 2^64 - 1.
  constexpr uint64_t kU32 = UINT32_MAX;
  sub->add_option("-t,--threads", o->gen.threads, "Threads (default 4)")->check(unsigned_in(1, 1u << 20));
  sub->add_option("-n,--events", o->gen.events, "Events (default 10000)")->check(unsigned_in(1, uint64_t{1} << 40));
  sub->add_option("-s,--seed", o->gen.seed, "Random seed (default 1)")->check(unsigned_in(0, UINT64_MAX));
  sub->add_option("--local", o->gen.local_weight, "Weight of thread-local accesses (default 30)")
      ->check(unsigned_in(0, kU32));
  sub->add_option("--locked", o->gen.locked_weight, "Weight of lock-protected accesses (default 35)")
      ->check(unsigned_in(0, kU32));
  sub->add_option("--shared", o->gen.shared_weight, "Weight of read-shared accesses (default 15)")
      ->check(unsigned_in(0, kU32));
  sub->add_option("--racy", o->gen.racy_weight, "Weight of unsynchronized accesses (default 5)")
      ->check(unsigned_in(0, kU32));
  sub->add_option("--extras", o->gen.extras_weight,
                  "Weight of rwlocks, atomics, fences, barriers, alloc/free (default 15; binary only)")
      ->check(unsigned_in(0, kU32));
  sub->add_option("--mistakes", o->gen.mistake_percent,
                  "Percent of critical-section accesses without the lock (default 1)")
      ->check(unsigned_in(0, 100));
  sub->add_option("--locks", o->gen.locks, "Number of mutexes (default 8)")->check(unsigned_in(1, 1u << 20));
  sub->add_option("-o,--output", o->output, "Output file (default stdout)");
  sub->add_option("--format", o->format, "binary (default) or std (only r/w/acq/rel/fork/join, named variables)")
      ->check(CLI::IsMember({"binary", "std"}));
  // The generator draws from the 32-bit sum of the weights: a sum that
  // wraps would silently change the mix. Checked at parse time (a usage error).
  sub->callback([o] {
    const GeneratorOptions& g = o->gen;
    const uint64_t sum = uint64_t{g.local_weight} + g.locked_weight + g.shared_weight + g.racy_weight +
                         (o->format == "std" ? 0 : g.extras_weight);
    if (sum > UINT32_MAX) {
      throw CLI::ValidationError("--local, --locked, --shared, --racy, --extras",
                                 fmt::format("the weights add up to {}, more than {}", sum, UINT32_MAX));
    }
  });
  return [o] { return run_gen(*o); };
}

}  // namespace raceaccel
