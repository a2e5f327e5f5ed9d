// `raceaccel sweep`: one command for a co-design experiment (docs/cli.md,
// "sweep"). Every point of a grid of kernel shapes checks every trace
// through the offload engine on the software kernel model (--model fast,
// with its cycle estimate) or on the Verilated kernel of that shape
// (--model verilator, built on demand and cached), and each (point, trace)
// becomes one CSV row of the accelerator's statistics: how many accesses the
// shape decides on chip, why the others went to the host, the kernel's
// cycles, what it costs in command bytes and host time, the card throughput
// that models (offload/card_model.hpp) and, once synthesized, the shape's
// resources. --plot draws them per knob.
#include <fmt/format.h>
#include <sys/stat.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "cli/app.hpp"
#include "cli/backend_check.hpp"
#include "cli/commands.hpp"
#include "cli/error_status.hpp"
#include "cli/output_file.hpp"
#include "cli/progress.hpp"
#include "cli/sweep_grid.hpp"
#include "cli/sweep_plot.hpp"
#include "common/exit_codes.hpp"
#include "driver/rac_kernel_regs.hpp"
#include "driver/registry.hpp"
#include "driver/software/software_device.hpp"
#include "driver/synth/shape_resources.hpp"
#include "offload/card_model.hpp"
#include "offload/offload_checker.hpp"
#include "trace/trace_reader.hpp"

namespace raceaccel {
namespace {

struct SweepOptions {
  std::vector<std::string> grids;
  std::string model = "fast";
  std::string model_cache;           // --model verilator: where built models are kept (empty: the default)
  std::string csv;                   // empty: stdout
  std::string plot;                  // empty: no plot
  std::string resources = "cached";  // cached: from the synthesis cache when there; synth: synthesize what is not; none
  std::string synth_cache;           // empty: the default (shape_resources.hpp)
  uint64_t synth_timeout_s = driver::kDefaultSynthTimeout.count();
  unsigned jobs = 1;
  double host_ns_per_event = 0;  // the host bound of the card model (0: none)
  std::vector<std::string> traces;
};

// The knobs by name, as indices into a SweepPoint.
struct Knob {
  static uint64_t of(const SweepPoint& p, std::string_view name) { return p[sweep_knob_index(name)]; }
};

driver::DeviceOptions device_options_of(const SweepPoint& p) {
  driver::DeviceOptions o;
  o.backend = "software";
  o.software_slots = static_cast<unsigned>(Knob::of(p, "slots"));
  o.software_clock_bits = static_cast<unsigned>(Knob::of(p, "clock_bits"));
  o.software_read_vcs = static_cast<unsigned>(Knob::of(p, "pool"));
  o.software_read_vc_ways = static_cast<unsigned>(Knob::of(p, "pool_ways"));
  o.software_objects = static_cast<unsigned>(Knob::of(p, "objects"));
  // A fixed memory latency without back-pressure: the software model's
  // cycle estimate and the Verilator bus model then time the same memory.
  o.min_latency = o.max_latency = static_cast<unsigned>(Knob::of(p, "latency"));
  o.stall_percent = 0;
  o.idle_percent = 0;
  return o;
}

driver::CacheShape cache_of(const SweepPoint& p) {
  return {static_cast<unsigned>(Knob::of(p, "sets")), static_cast<unsigned>(Knob::of(p, "ways")),
          static_cast<unsigned>(Knob::of(p, "bucket_ways"))};
}

driver::KernelShape kernel_shape_of(const SweepPoint& p) {
  const auto knob = [&](std::string_view name) { return static_cast<unsigned>(Knob::of(p, name)); };
  return {knob("slots"),   knob("clock_bits"), knob("sets"),        knob("ways"),
          knob("objects"), knob("pool"),       knob("bucket_ways"), knob("pool_ways")};
}

offload::OffloadOptions offload_options_of(const SweepPoint& p) {
  offload::OffloadOptions o;
  o.bucket_bits = static_cast<unsigned>(Knob::of(p, "bucket_bits"));
  o.batch_words = Knob::of(p, "batch_words");
  o.reimport = Knob::of(p, "reimport") != 0;
  o.atomics_on_chip = Knob::of(p, "atomics") != 0;
  return o;
}

struct RunResult {
  int status = exit_code::kOk;
  std::string error;
  uint64_t events = 0;
  size_t races = 0;  // per-byte races (the same at every point: the offload path is exact)
  offload::OffloadStats stats;
};

// Shared progress of the runs, read by the main thread for the progress line.
struct Counters {
  std::atomic<uint64_t> events{0}, bytes{0}, runs_done{0};
};

// Opens the device of a point: the fast model, or (--model verilator) the
// Verilated kernel of the point's shape, built before the runs start.
using DeviceMaker = std::function<std::unique_ptr<driver::Device>(const SweepPoint&)>;

RunResult run_one(const SweepPoint& point, const std::string& trace, const DeviceMaker& make_device,
                  Counters& counters) {
  RunResult r;
  try {
    const std::unique_ptr<driver::Device> device = make_device(point);
    offload::OffloadChecker checker(*device, offload_options_of(point));
    std::optional<Failure> failure = failure_of(trace, [&] {
      const std::unique_ptr<TraceReader> reader = open_trace(trace);
      Event e;
      uint64_t counted_bytes = 0;
      while (reader->next(e)) {
        checker.process(e, r.events++);
        if ((r.events & 0xFFFF) == 0) {
          counters.events += 0x10000;
          counters.bytes += reader->bytes_read() - counted_bytes;
          counted_bytes = reader->bytes_read();
        }
      }
      counters.events += r.events & 0xFFFF;
      counters.bytes += reader->bytes_read() - counted_bytes;
      checker.finish();
    });
    if (failure) {
      r.status = failure->status;
      r.error = failure->message;
      return r;
    }
    r.races = checker.races().size();
    r.stats = checker.stats();
  } catch (const driver::DeviceError& err) {
    r.status = device_error_status(err);
    r.error = trace + ": " + err.what();
  } catch (const std::exception& err) {
    r.status = exit_code::kCapacity;  // EX_SOFTWARE: nothing the user could have done
    r.error = trace + ": " + err.what();
  }
  return r;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_header() {
  std::string h = "trace,model";
  for (const SweepKnob& k : sweep_knobs()) {
    if (k.name != "latency") h += fmt::format(",{}", k.name);
  }
  h += ",latency,events,races,accesses,on_chip,on_chip_share,escalations,cycles,cycles_per_event,"
       "command_bytes_per_event,host_ns_per_event";
  for (size_t i = 0; i < offload::kEscalationCauses; ++i) {
    h += fmt::format(",esc_{}", offload::escalation_cause_name(static_cast<offload::EscalationCause>(i)));
  }
  // Added after the escalation columns, so that the earlier ones keep their
  // places.
  h += ",record_bytes_per_event,kernel_bound_events_per_s,pcie_bound_events_per_s,modelled_events_per_s,lut,ff,bram";
  h += ",host_bound_events_per_s,end_to_end_events_per_s";
  return h;
}

double on_chip_share(const offload::OffloadStats& s) {
  return s.access_commands == 0 ? 0.0 : static_cast<double>(s.on_chip()) / static_cast<double>(s.access_commands);
}

std::string csv_row(const std::string& trace, const std::string& model, const SweepPoint& point, const RunResult& r,
                    const std::optional<driver::ShapeResources>& resources, const offload::CardAssumptions& assumed) {
  const offload::OffloadStats& s = r.stats;
  const auto per_event = [&](double v) { return r.events == 0 ? 0.0 : v / static_cast<double>(r.events); };
  std::string row = csv_field(trace) + "," + model;
  const size_t latency = sweep_knob_index("latency");
  for (size_t i = 0; i < point.size(); ++i) {
    if (i != latency) row += fmt::format(",{}", point[i]);
  }
  row += fmt::format(",{},{},{},{},{},{:.6f},{}", point[latency], r.events, r.races, s.access_commands, s.on_chip(),
                     on_chip_share(s), s.escalated_accesses);
  if (s.device.cycles == 0) {
    row += ",,";  // cycles not modelled
  } else {
    row += fmt::format(",{},{:.3f}", s.device.busy_cycles, per_event(static_cast<double>(s.device.busy_cycles)));
  }
  row += fmt::format(",{:.3f},{:.1f}", per_event(static_cast<double>(s.command_words * regs::kCommandBytes)),
                     offload::host_ns_per_event(s));
  for (uint64_t c : s.causes) row += fmt::format(",{}", c);
  const offload::CardThroughput card = offload::card_throughput(s, r.events, assumed);
  const auto rate = [](double v) { return v == 0 ? std::string() : fmt::format("{:.0f}", v); };
  row += fmt::format(",{:.3f},{},{},{}", card.from_card_bytes_per_event, rate(card.kernel_bound), rate(card.pcie_bound),
                     rate(card.modelled()));
  if (resources) {
    row += fmt::format(",{},{},{:g}", resources->lut, resources->ff, resources->bram36);
  } else {
    row += ",,,";  // this shape was never synthesized (sweep --resources synth)
  }
  // End to end only with a host figure: without one it would repeat modelled.
  row += fmt::format(",{},{}", rate(card.host_bound), card.host_bound == 0 ? std::string() : rate(card.end_to_end()));
  return row;
}

PlotRow plot_row(const std::string& trace, const SweepPoint& point, const RunResult& r,
                 const std::optional<driver::ShapeResources>& resources) {
  PlotRow row;
  row.trace = trace;
  row.point = point;
  row.on_chip_share = on_chip_share(r.stats);
  const offload::CardThroughput card = offload::card_throughput(r.stats, r.events);
  const auto known = [](double v) { return v == 0 ? std::nullopt : std::optional(v); };
  if (r.stats.device.busy_cycles != 0 && r.events != 0) {
    row.cycles_per_event = static_cast<double>(r.stats.device.busy_cycles) / static_cast<double>(r.events);
  }
  row.kernel_bound_events_per_s = known(card.kernel_bound);
  row.pcie_bound_events_per_s = known(card.pcie_bound);
  if (resources) {
    row.lut = static_cast<double>(resources->lut);
    row.ff = static_cast<double>(resources->ff);
    row.bram = resources->bram36;
  }
  return row;
}

// Malformed input and I/O failures outrank the rest, as in check.
int worse(int a, int b) {
  const auto rank = [](int s) {
    switch (s) {
      case exit_code::kIo: return 4;
      case exit_code::kMalformed: return 3;
      case exit_code::kOk: return 0;
      default: return 2;
    }
  };
  return rank(a) >= rank(b) ? a : b;
}

uint64_t file_size(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size) : 0;
}

// Runs every (point, trace) on `jobs` threads; results in point-major order.
std::vector<RunResult> run_all(const std::vector<SweepPoint>& points, const std::vector<std::string>& traces,
                               const DeviceMaker& make_device, unsigned jobs) {
  const size_t runs = points.size() * traces.size();
  std::vector<RunResult> results(runs);
  Counters counters;
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::condition_variable all_done;
  const auto worker = [&] {
    for (size_t i; (i = next++) < runs;) {
      results[i] = run_one(points[i / traces.size()], traces[i % traces.size()], make_device, counters);
      std::lock_guard lock(mutex);
      ++counters.runs_done;
      all_done.notify_one();
    }
  };
  uint64_t total_bytes = 0;
  for (const std::string& t : traces) total_bytes += file_size(t) * points.size();
  Progress progress("sweep", total_bytes);
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < std::min<size_t>(jobs, runs); ++j) threads.emplace_back(worker);
  {
    std::unique_lock lock(mutex);
    while (counters.runs_done < runs) {
      all_done.wait_for(lock, std::chrono::milliseconds(250));
      progress.set_label(fmt::format("sweep: {}/{} runs", counters.runs_done.load(), runs));
      progress.show(counters.events, counters.bytes);
    }
  }
  for (std::thread& t : threads) t.join();
  progress.finish();
  return results;
}

int usage_error(const std::string& message) {
  std::cerr << "raceaccel: sweep: " << message << '\n';
  return exit_code::kUsage;
}

bool gridded(const std::vector<Grid>& grids, std::string_view name) {
  return std::any_of(grids.begin(), grids.end(), [&](const Grid& g) { return g.knob == sweep_knob_index(name); });
}

// --model verilator: every distinct shape's model, built (or found in the
// cache) before the runs, one at a time. Returns the exit status on failure.
int verilator_models(const SweepOptions& o, const std::vector<SweepPoint>& points, const std::vector<Grid>& grids,
                     std::map<std::string, driver::DeviceFactory>& models) {
  for (const SweepPoint& p : points) {
    const driver::KernelShape shape = kernel_shape_of(p);
    if (const std::string problem = driver::shape_problem(shape); !problem.empty()) {
      return usage_error(fmt::format("the point {} is not a kernel shape: {}", describe_point(p, grids), problem));
    }
  }
  for (const SweepPoint& p : points) {
    const driver::KernelShape shape = kernel_shape_of(p);
    if (models.count(shape.describe()) != 0) continue;
    try {
      models[shape.describe()] = driver::verilator_shape_factory(
          shape, o.model_cache, [](const std::string& line) { std::cerr << "raceaccel: sweep: " << line << '\n'; });
    } catch (const driver::DeviceError& err) {
      std::cerr << "raceaccel: sweep --model verilator: " << err.what() << '\n';
      return device_error_status(err);
    }
  }
  return exit_code::kOk;
}

// The synthesized resources of every distinct shape of the points, by
// KernelShape::describe(): with --resources synth, shapes not in the cache
// are synthesized first, one at a time; with cached, only those the cache
// holds; with none, nothing. Returns the exit status on failure.
int shape_resources(const SweepOptions& o, const std::vector<SweepPoint>& points,
                    std::map<std::string, driver::ShapeResources>& out) {
  if (o.resources == "none") return exit_code::kOk;
  for (const SweepPoint& p : points) {
    const driver::KernelShape shape = kernel_shape_of(p);
    const std::string name = shape.describe();
    if (out.count(name) != 0) continue;
    if (std::optional<driver::ShapeResources> r = driver::cached_shape_resources(shape, o.synth_cache)) {
      out[name] = *r;
      continue;
    }
    if (o.resources != "synth") continue;
    try {
      out[name] = driver::synthesize_shape_resources(
          shape, o.synth_cache, [](const std::string& line) { std::cerr << "raceaccel: sweep: " << line << '\n'; },
          std::chrono::seconds(o.synth_timeout_s));
    } catch (const driver::DeviceError& err) {
      std::cerr << "raceaccel: sweep --resources synth: " << err.what() << '\n';
      return device_error_status(err);
    }
  }
  return exit_code::kOk;
}

int run_sweep(const SweepOptions& o) {
  std::vector<Grid> grids;
  std::vector<SweepPoint> points;
  try {
    for (const std::string& g : o.grids) grids.push_back(parse_grid(g));
    points = expand_grids(grids);
  } catch (const GridError& err) {
    return usage_error(err.what());
  }
  DeviceMaker make_device;
  std::map<std::string, driver::DeviceFactory> models;
  if (o.model == "verilator") {
    // The Verilated kernel always has a cache: without a gridded one, the
    // Verilator backend's built-in 256 x 4.
    if (!gridded(grids, "sets") && !gridded(grids, "ways")) {
      for (SweepPoint& p : points) {
        p[sweep_knob_index("sets")] = 256;
        p[sweep_knob_index("ways")] = 4;
      }
    }
    if (const int status = verilator_models(o, points, grids, models); status != exit_code::kOk) return status;
    make_device = [&models](const SweepPoint& p) {
      driver::DeviceOptions options = device_options_of(p);
      options.backend = "verilator";
      return models.at(kernel_shape_of(p).describe())(options);
    };
  } else {
    // Every point's shape is checked before anything runs: the device model
    // says which shapes the kernel can have.
    for (const SweepPoint& p : points) {
      try {
        driver::make_software_device(device_options_of(p), cache_of(p));
      } catch (const driver::DeviceError& err) {
        return usage_error(fmt::format("the point {} is not a kernel shape: {}", describe_point(p, grids), err.what()));
      }
    }
    make_device = [](const SweepPoint& p) { return driver::make_software_device(device_options_of(p), cache_of(p)); };
  }
  std::optional<std::string> gnuplot;
  if (!o.plot.empty()) {
    gnuplot = find_gnuplot();
    if (!gnuplot) {
      std::cerr << "raceaccel: sweep: --plot needs gnuplot, which is not on PATH (Debian package gnuplot-nox; "
                   "scripts/install-deps.sh installs it)\n";
      return exit_code::kNoDevice;
    }
    // The plot directory is made before the sweep runs: a long sweep must
    // not end with nowhere to put its plots.
    std::error_code ec;
    std::filesystem::create_directories(o.plot, ec);
    if (ec) {
      std::cerr << "raceaccel: sweep --plot: cannot create " << o.plot << ": " << ec.message() << '\n';
      return exit_code::kIo;
    }
  }
  std::map<std::string, driver::ShapeResources> resources;
  if (const int status = shape_resources(o, points, resources); status != exit_code::kOk) return status;
  const auto resources_of = [&](const SweepPoint& p) -> std::optional<driver::ShapeResources> {
    const auto found = resources.find(kernel_shape_of(p).describe());
    return found == resources.end() ? std::nullopt : std::optional(found->second);
  };
  // Each trace is read once per point, so stdin cannot be one; a trace that
  // cannot be opened fails before the first run, as check would.
  for (const std::string& t : o.traces) {
    if (t == "-") return usage_error("a trace is read once per point: - (stdin) cannot be swept");
    if (auto failure = failure_of(t, [&] { open_trace(t); })) {
      std::cerr << "raceaccel: " << failure->message << '\n';
      return failure->status;
    }
  }
  return exit_status_of(o.csv.empty() ? "-" : o.csv, [&] {
    OutputFile out(o.csv.empty() ? "-" : o.csv);
    const std::vector<RunResult> results = run_all(points, o.traces, make_device, o.jobs);
    int status = exit_code::kOk;
    std::vector<PlotRow> plot_rows;
    offload::CardAssumptions assumed;
    assumed.host_ns_per_event = o.host_ns_per_event;
    out.stream() << csv_header() << '\n';
    for (size_t i = 0; i < results.size(); ++i) {
      const SweepPoint& point = points[i / o.traces.size()];
      const std::string& trace = o.traces[i % o.traces.size()];
      const RunResult& r = results[i];
      if (r.status != exit_code::kOk) {
        std::cerr << fmt::format("raceaccel: sweep: {} at {}: {}\n", trace, describe_point(point, grids), r.error);
        status = worse(status, r.status);
        continue;
      }
      const std::optional<driver::ShapeResources> shape_resources = resources_of(point);
      out.stream() << csv_row(trace, o.model, point, r, shape_resources, assumed) << '\n';
      plot_rows.push_back(plot_row(trace, point, r, shape_resources));
    }
    out.close();
    if (gnuplot) {
      try {
        for (const std::string& svg : plot_sweep(*gnuplot, o.plot, grids, plot_rows)) {
          std::cerr << "raceaccel: sweep: wrote " << svg << '\n';
        }
      } catch (const PlotError& err) {
        std::cerr << "raceaccel: sweep --plot: " << err.what() << '\n';
        status = worse(status, exit_code::kIo);
      }
    }
    return status;
  });
}

}  // namespace

CommandRunner add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* sub = app.add_subcommand(
      "sweep",
      "Check traces on every kernel shape of a grid; one CSV row of accelerator statistics per shape and trace");
  std::string knobs;
  for (const SweepKnob& k : sweep_knobs())
    knobs += fmt::format("\n  {} (default {}): {}", k.name, k.fallback, k.meaning);
  sub->add_option("--grid", o->grids, "NAME=V1,V2,...: values of one knob (repeat for a product):" + knobs)
      ->type_name("NAME=V1,...");
  sub->add_option("--model", o->model,
                  "Kernel model: fast (the software model with its cycle estimate; default) or verilator (the "
                  "Verilated RTL, a model built per shape on first use and cached)")
      ->check(CLI::IsMember({"fast", "verilator"}));
  sub->add_option("--model-cache", o->model_cache,
                  "Where --model verilator keeps built models (default: $RACEACCEL_MODEL_CACHE, else "
                  "$XDG_CACHE_HOME/raceaccel/verilator, else ~/.cache/raceaccel/verilator)")
      ->type_name("DIR");
  sub->add_option("--csv", o->csv, "Write the CSV to FILE (default: stdout)")->type_name("FILE");
  sub->add_option("--plot", o->plot,
                  "Draw the on-chip share, cycles per event, modelled events/s and resources vs each knob as SVG "
                  "into DIR (needs gnuplot)")
      ->type_name("DIR");
  sub->add_option("--resources", o->resources,
                  "LUT/FF/BRAM columns: cached (from earlier synthesis of the shape, if any; default), synth "
                  "(Yosys-synthesize every shape not cached first: minutes per shape) or none")
      ->check(CLI::IsMember({"cached", "synth", "none"}));
  sub->add_option("--synth-cache", o->synth_cache,
                  "Where synthesis reports are kept (default: $RACEACCEL_SYNTH_CACHE, else "
                  "$XDG_CACHE_HOME/raceaccel/synth, else ~/.cache/raceaccel/synth)")
      ->type_name("DIR");
  sub->add_option("--synth-timeout", o->synth_timeout_s,
                  "Seconds one shape's synthesis may take before Yosys is stopped (default 14400: four hours)")
      ->check(unsigned_in(1, 7 * 24 * 3600))
      ->type_name("SECONDS");
  sub->add_option("--host-ns-per-event", o->host_ns_per_event,
                  "One host core's time per event, measured elsewhere (e.g. host_side_bench's host_cpu_ns/event): "
                  "adds its bound and the end-to-end events/s (the lowest of kernel, PCIe and host) to the CSV "
                  "(default: none, columns empty)")
      ->type_name("NS")
      ->check(CLI::Range(0.0, 1e9));
  sub->add_option("--jobs,-j", o->jobs, "Runs in parallel (threads; default 1)")->check(unsigned_in(1, 256));
  sub->add_option("traces", o->traces, "Trace files (STD text or binary, sniffed)")->required();
  return [o] { return run_sweep(*o); };
}

}  // namespace raceaccel
