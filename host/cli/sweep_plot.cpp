#include "cli/sweep_plot.hpp"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>
#include <vector>

extern char** environ;

namespace raceaccel {
namespace {

// Quoted for gnuplot's single-quoted strings (no escapes inside: '' is a quote).
std::string gp_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw PlotError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
}

void run_gnuplot(const std::string& gnuplot, const std::string& script) {
  const char* argv[] = {gnuplot.c_str(), script.c_str(), nullptr};
  pid_t pid = 0;
  const int err = posix_spawn(&pid, gnuplot.c_str(), nullptr, nullptr, const_cast<char**>(argv), environ);
  if (err != 0) throw PlotError(fmt::format("cannot run {}: {}", gnuplot, std::strerror(err)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw PlotError(fmt::format("{} failed on {} (its messages are above)", gnuplot, script));
  }
}

}  // namespace

std::optional<std::string> find_gnuplot() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  std::string_view rest = path;
  while (true) {
    const size_t colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/gnuplot";
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    if (colon == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(colon + 1);
  }
}

namespace {

// One line per series of a plot: its name in the legend (after the
// series') and the value a row gives it.
struct Line {
  std::string_view name;
  std::optional<double> (*value)(const PlotRow&);
};

// What one plot shows against a knob.
struct Metric {
  std::string_view stem;  // METRIC of METRIC_vs_KNOB
  std::string_view title;
  std::string_view ylabel;
  std::vector<Line> lines;
  bool per_trace;          // false: the value is the shape's (resources), one series per setting of the other knobs
  std::string_view range;  // gnuplot's yrange, "" to let it choose
  bool log_y;
};

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> all = {
      {"on_chip_share",
       "on-chip share",
       "share of accesses decided on chip",
       {{"", [](const PlotRow& r) -> std::optional<double> { return r.on_chip_share; }}},
       true,
       "[0:1]",
       false},
      {"cycles_per_event",
       "kernel cycles per event",
       "busy cycles per event",
       {{"", [](const PlotRow& r) { return r.cycles_per_event; }}},
       true,
       "",
       true},  // log scale: a trace that misses at every access is 100 times the others
      {"events_per_s",
       "modelled card events/s (300 MHz; PCIe 9 GB/s in, 12 GB/s out)",
       "events per second",
       {{" kernel-bound", [](const PlotRow& r) { return r.kernel_bound_events_per_s; }},
        {" PCIe-bound", [](const PlotRow& r) { return r.pcie_bound_events_per_s; }}},
       true,
       "",
       true},
      {"resources",
       "resources (Yosys synth_xilinx, xcup)",
       "cells",
       {{" LUT", [](const PlotRow& r) { return r.lut; }},
        {" FF", [](const PlotRow& r) { return r.ff; }},
        {" BRAM36", [](const PlotRow& r) { return r.bram; }}},
       false,
       "",
       true},
  };
  return all;
}

// metric against grid x, or "" when no row has a value for it.
std::string plot_metric(const std::string& gnuplot, const std::string& dir, const std::vector<Grid>& grids,
                        const std::vector<PlotRow>& rows, const Grid& x, const Metric& m) {
  const std::string knob(sweep_knobs()[x.knob].name);
  // One series per trace (unless the metric is the shape's) and setting of
  // the other gridded knobs, in the order the rows came (the sweep's
  // order), points sorted by the knob. Knobs gridded with one value are the
  // same in every series: they go into the title, so that the legend stays
  // short enough to leave room for the plot.
  std::map<std::string, std::map<uint64_t, double>> series;
  std::vector<std::string> order;
  std::string fixed;
  for (const Grid& g : grids) {
    if (g.values.size() == 1)
      fixed += fmt::format("{}{}={}", fixed.empty() ? "" : " ", sweep_knobs()[g.knob].name, g.values.front());
  }
  for (const PlotRow& r : rows) {
    std::string label = m.per_trace ? std::filesystem::path(r.trace).filename().string() : std::string();
    for (const Grid& g : grids) {
      if (g.knob != x.knob && g.values.size() > 1) {
        label += fmt::format("{}{}={}", label.empty() ? "" : " ", sweep_knobs()[g.knob].name, r.point[g.knob]);
      }
    }
    for (const Line& line : m.lines) {
      const std::optional<double> v = line.value(r);
      if (!v) continue;
      const std::string name = label + std::string(line.name);
      if (series.count(name) == 0) order.push_back(name);
      series[name][r.point[x.knob]] = *v;
    }
  }
  if (order.empty()) return "";
  const std::string stem = fmt::format("{}/{}_vs_{}", dir, m.stem, knob);
  std::string data, plot;
  for (size_t i = 0; i < order.size(); ++i) {
    data += fmt::format("# {}\n", order[i]);
    for (const auto& [value, y] : series[order[i]]) data += fmt::format("{} {:.6g}\n", value, y);
    data += "\n\n";  // gnuplot's index separator
    plot += fmt::format("{}{} index {} using 1:2 with linespoints title {}", i == 0 ? "plot " : ", \\\n     ",
                        gp_quote(stem + ".dat"), i, gp_quote(order[i].empty() ? std::string(m.title) : order[i]));
  }
  write_file(stem + ".dat", data);
  const bool log_x = x.values.size() > 2 && std::all_of(x.values.begin(), x.values.end(),
                                                        [](uint64_t v) { return v != 0 && (v & (v - 1)) == 0; });
  // noenhanced: knob names such as bucket_bits are text, not subscripts;
  // the legend below the plot, which keeps the plot's full width.
  const std::string script = fmt::format(
      "set terminal svg size 800,600 dynamic background '#ffffff' noenhanced\n"
      "set output {}\n"
      "set title {}\n"
      "set xlabel {}\n"
      "set ylabel {}\n"
      "{}{}{}"
      "set key below\n"
      "set grid\n"
      "{}\n",
      gp_quote(stem + ".svg"),
      gp_quote(fmt::format("{} vs {}{}", m.title, knob, fixed.empty() ? "" : " (" + fixed + ")")), gp_quote(knob),
      gp_quote(std::string(m.ylabel)), m.range.empty() ? "" : fmt::format("set yrange {}\n", m.range),
      log_x ? "set logscale x 2\n" : "", m.log_y ? "set logscale y 10\n" : "", plot);
  write_file(stem + ".gp", script);
  run_gnuplot(gnuplot, stem + ".gp");
  return stem + ".svg";
}

}  // namespace

std::vector<std::string> plot_sweep(const std::string& gnuplot, const std::string& dir, const std::vector<Grid>& grids,
                                    const std::vector<PlotRow>& rows) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw PlotError(fmt::format("cannot create {}: {}", dir, ec.message()));
  std::vector<std::string> written;
  for (const Grid& x : grids) {
    if (x.values.size() < 2) continue;
    for (const Metric& m : metrics()) {
      if (std::string svg = plot_metric(gnuplot, dir, grids, rows, x, m); !svg.empty()) written.push_back(svg);
    }
  }
  return written;
}

}  // namespace raceaccel
