// `raceaccel stats`: what a trace contains.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <iostream>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "cli/commands.hpp"
#include "cli/error_status.hpp"
#include "cli/json_output.hpp"
#include "common/exit_codes.hpp"
#include "trace/trace_error.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel {
namespace {

struct StatsOptions {
  std::string trace;
  bool json = false;
};

int run_stats(const StatsOptions& o) {
  return exit_status_of(o.trace, [&] {
    auto reader = open_trace(o.trace);
    std::array<uint64_t, kOpCount> per_op{};
    std::unordered_set<ThreadId> threads;
    std::unordered_set<uint64_t> locks, barriers;
    // Distinct bytes accessed, as a byte mask per 8-byte granule: an eighth of
    // the memory of a set of bytes, and one map operation per granule.
    std::unordered_map<uint64_t, uint8_t> granules;
    uint64_t events = 0, accessed_bytes = 0;
    Event e;
    while (reader->next(e)) {
      ++events;
      ++per_op[static_cast<size_t>(e.op)];
      threads.insert(e.tid);
      if (targets_thread(e.op)) threads.insert(static_cast<ThreadId>(e.addr));
      if (e.op == Op::BarrierEnter || e.op == Op::BarrierExit) {
        barriers.insert(e.addr);
      } else if (targets_sync_object(e.op)) {
        locks.insert(e.addr);
      }
      if (is_access(e.op)) {
        accessed_bytes += e.size;
        for (uint64_t a = e.addr, left = e.size; left > 0;) {
          const unsigned offset = a & 7;
          const uint64_t n = std::min<uint64_t>(8 - offset, left);
          granules[a >> 3] |= static_cast<uint8_t>(((1u << n) - 1) << offset);
          a += n;
          left -= n;
        }
      }
    }
    uint64_t locations = 0;
    for (const auto& [granule, mask] : granules) locations += static_cast<uint64_t>(std::popcount(mask));
    if (o.json) {
      nlohmann::json mix = nlohmann::json::object();
      for (int i = 0; i < kOpCount; ++i) {
        if (per_op[i] > 0) mix[std::string(op_name(static_cast<Op>(i)))] = per_op[i];
      }
      nlohmann::json doc = {
          {"file", o.trace},        {"format", reader->format() == TraceFormat::Std ? "std" : "binary"},
          {"events", events},       {"threads", threads.size()},
          {"locks", locks.size()},  {"barriers", barriers.size()},
          {"locations", locations}, {"accessed_bytes", accessed_bytes},
          {"operations", mix}};
      print_json(std::cout, std::move(doc));
    } else {
      std::cout << fmt::format(
          "trace      {}\nevents     {}\nthreads    {}\nlocks      {}\nbarriers   {}\n"
          "locations  {} bytes\n",
          o.trace, events, threads.size(), locks.size(), barriers.size(), locations);
      std::cout << "operations\n";
      for (int i = 0; i < kOpCount; ++i) {
        if (per_op[i] == 0) continue;
        std::cout << fmt::format("  {:<15} {:>12}  {:5.1f}%\n", op_name(static_cast<Op>(i)), per_op[i],
                                 100.0 * static_cast<double>(per_op[i]) / static_cast<double>(events));
      }
    }
    return exit_code::kOk;
  });
}

}  // namespace

CommandRunner add_stats_command(CLI::App& app) {
  auto o = std::make_shared<StatsOptions>();
  CLI::App* sub = app.add_subcommand("stats", "Count events, threads, locks, locations and the operation mix");
  sub->add_option("trace", o->trace, "Trace file; - reads stdin")->required();
  sub->add_flag("--json", o->json, "Print JSON");
  return [o] { return run_stats(*o); };
}

}  // namespace raceaccel
