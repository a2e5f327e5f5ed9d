// The Verilator backend: rac_kernel simulated cycle by cycle behind AXI bus
// models (sim/kernel_sim.hpp). Every register access goes through the
// AXI4-Lite master model; buffers live in the AXI memory model, at 4 KB
// aligned addresses above 4 GB (so the high words of pointer arguments
// matter). DeviceOptions: seed, max_latency and stall_percent set the
// memory model's latency and back-pressure on every m_axi channel,
// idle_percent the control master's idle cycles. RACEACCEL_FST=<file>
// writes a waveform ("{}" in <file> becomes "verilator").
//
// The built-in model's configuration (docs/hardware.md, "Kernel"):
// 8 slots, 32-bit clocks, 256 sets x 4 ways, 16 sync objects.
#pragma once

#include <memory>

#include "driver/device.hpp"

namespace raceaccel::driver {

std::unique_ptr<Device> make_verilator_device(const DeviceOptions& options);

}  // namespace raceaccel::driver
