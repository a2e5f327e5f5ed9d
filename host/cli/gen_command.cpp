// `raceaccel gen`: writes a synthetic trace (see gen/generator.hpp).
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/error_status.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output_file.hpp"
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
  sub->add_option("-t,--threads", o->gen.threads, "Threads (default 4)")->check(CLI::Range(1u, 1u << 20));
  sub->add_option("-n,--events", o->gen.events, "Events (default 10000)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  sub->add_option("-s,--seed", o->gen.seed, "Random seed (default 1)");
  sub->add_option("--local", o->gen.local_weight, "Weight of thread-local accesses (default 30)");
  sub->add_option("--locked", o->gen.locked_weight, "Weight of lock-protected accesses (default 35)");
  sub->add_option("--shared", o->gen.shared_weight, "Weight of read-shared accesses (default 15)");
  sub->add_option("--racy", o->gen.racy_weight, "Weight of unsynchronized accesses (default 5)");
  sub->add_option("--extras", o->gen.extras_weight,
                  "Weight of rwlocks, atomics, fences, barriers, alloc/free (default 15; binary only)");
  sub->add_option("--mistakes", o->gen.mistake_percent,
                  "Percent of critical-section accesses without the lock (default 1)")
      ->check(CLI::Range(0u, 100u));
  sub->add_option("--locks", o->gen.locks, "Number of mutexes (default 8)")->check(CLI::Range(1u, 1u << 20));
  sub->add_option("-o,--output", o->output, "Output file (default stdout)");
  sub->add_option("--format", o->format, "binary (default) or std (only r/w/acq/rel/fork/join, named variables)")
      ->check(CLI::IsMember({"binary", "std"}));
  return [o] { return run_gen(*o); };
}

}  // namespace raceaccel
