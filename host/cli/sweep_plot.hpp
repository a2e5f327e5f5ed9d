// `raceaccel sweep --plot DIR`: what a co-design study reads off a sweep,
// against each gridded knob, drawn by gnuplot as SVG (docs/cli.md): the
// on-chip share, the kernel's cycles per event, the modelled card's events
// per second (kernel-bound and PCIe-bound) and, where known, the shape's
// resources. gnuplot is looked for on PATH before the sweep runs, so that a
// missing gnuplot (exit 69) costs nothing.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/sweep_grid.hpp"

namespace raceaccel {

// One CSV row's worth of what the plots need; a metric that is not known
// (cycles of a model without them, resources of a shape never synthesized)
// is nullopt and leaves its point out.
struct PlotRow {
  std::string trace;
  SweepPoint point;
  double on_chip_share = 0;
  std::optional<double> cycles_per_event;
  std::optional<double> kernel_bound_events_per_s, pcie_bound_events_per_s;
  std::optional<double> lut, ff, bram;
};

// gnuplot's path on PATH, or nullopt.
std::optional<std::string> find_gnuplot();

// gnuplot failed or a file in DIR could not be written: the message says which.
class PlotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// For each grid with at least two values, DIR/METRIC_vs_KNOB.{dat,gp,svg}
// for the metrics rows carry: on_chip_share, cycles_per_event, events_per_s
// (kernel- and PCIe-bound, two lines per series) and resources (LUT, FF,
// BRAM of each shape: the same for every trace, so one series per setting
// of the other knobs). One line per trace and setting of the other gridded
// knobs. Returns the SVG paths.
std::vector<std::string> plot_sweep(const std::string& gnuplot, const std::string& dir, const std::vector<Grid>& grids,
                                    const std::vector<PlotRow>& rows);

}  // namespace raceaccel
