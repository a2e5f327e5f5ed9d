// The FPGA resources of a kernel shape, from synthesis (`raceaccel sweep
// --resources synth`, docs/cli.md): Yosys's synth_xilinx for UltraScale+
// through scripts/synth_report.sh (a whole-kernel count; `make synth`'s
// per-block report with its depth tool is rtl/synth/) on rac_kernel
// with the shape's parameters, once per shape, kept in a cache (a directory
// per shape named by a hash of the shape, the RTL, the script and the Yosys
// version, as the Verilated models are: driver/shape_cache.hpp).
//
// These are Yosys's counts, not Vivado's: LUTs before Vivado's own
// optimization and packing, carries as CARRY4 (Yosys 0.23 has no CARRY8),
// BRAM as RAMB36 equivalents (docs/hardware.md, "Synthesis estimates").
//
// The cache directory is, first found: the `cache_dir` argument (sweep's
// --synth-cache), $RACEACCEL_SYNTH_CACHE, $XDG_CACHE_HOME/raceaccel/synth,
// ~/.cache/raceaccel/synth.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "driver/kernel_shape.hpp"

namespace raceaccel::driver {

struct ShapeResources {
  uint64_t lut = 0;    // LUT1..LUT6, LUTRAM and SRL
  uint64_t ff = 0;     // every FD* cell
  uint64_t carry = 0;  // CARRY4 cells
  double bram36 = 0;   // RAMB36 + RAMB18 / 2
  uint64_t uram = 0;   // URAM288
  uint64_t dsp = 0;    // DSP48E2
  uint64_t depth = 0;  // longest combinational path in cells (LUT, MUXF and CARRY4 each one)
};

// The shape's resources if the cache holds them; nullopt when it does not,
// or when the key cannot be made here (no source tree, no Yosys). Never
// synthesizes.
std::optional<ShapeResources> cached_shape_resources(const KernelShape& shape, const std::string& cache_dir);

// The card shape takes an hour or more on a 2-core machine: four hours is
// far beyond any shape that finishes.
inline constexpr std::chrono::seconds kDefaultSynthTimeout{4 * 3600};

// The shape's resources, synthesized first if the cache does not hold them
// (minutes for small shapes; the card shape takes an hour or more); `log`
// hears what is being synthesized and how long it took. Throws
// DeviceError(BadOptions) for a shape the RTL cannot take,
// DeviceError(Unavailable) when synthesis is not possible here (no Yosys, no
// source tree), fails (the message names the log) or does not finish within
// `timeout` (then Yosys is stopped; a hung run never blocks a sweep).
ShapeResources synthesize_shape_resources(const KernelShape& shape, const std::string& cache_dir,
                                          const std::function<void(const std::string&)>& log,
                                          std::chrono::seconds timeout = kDefaultSynthTimeout);

// One line of scripts/synth_report.sh ("block params... LUT FF CARRY BRAM
// URAM DSP depth"); nullopt when it is not one.
std::optional<ShapeResources> parse_synth_report_line(const std::string& line);

}  // namespace raceaccel::driver
