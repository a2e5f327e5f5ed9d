// `raceaccel sweep --plot DIR`: the on-chip share against each gridded knob,
// drawn by gnuplot as SVG (docs/cli.md). gnuplot is looked for on PATH
// before the sweep runs, so that a missing gnuplot (exit 69) costs nothing.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/sweep_grid.hpp"

namespace raceaccel {

// One CSV row's worth of what the plot needs.
struct PlotRow {
  std::string trace;
  SweepPoint point;
  double on_chip_share = 0;
};

// gnuplot's path on PATH, or nullopt.
std::optional<std::string> find_gnuplot();

// gnuplot failed or a file in DIR could not be written: the message says which.
class PlotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// For each grid with at least two values: DIR/on_chip_share_vs_KNOB.{dat,gp,svg},
// one line per trace and setting of the other gridded knobs. Returns the SVG paths.
std::vector<std::string> plot_on_chip_share(const std::string& gnuplot, const std::string& dir,
                                            const std::vector<Grid>& grids, const std::vector<PlotRow>& rows);

}  // namespace raceaccel
