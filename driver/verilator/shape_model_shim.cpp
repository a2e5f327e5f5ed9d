// Compiled at run time, not by the project's build: the entry point of a
// Verilated rac_kernel built for one shape by shape_model.cpp (`raceaccel
// sweep --model verilator`). The shared object holds the model, its own
// Verilator runtime, the bus models of sim/ and VerilatorDevice around
// them; only this function is exported.
#include "Vrac_kernel_shape.h"
#include "driver/verilator/verilator_device_impl.hpp"

extern "C" __attribute__((visibility("default"))) raceaccel::driver::Device* raceaccel_make_shape_device(
    const raceaccel::driver::DeviceOptions* options) {
  return new raceaccel::driver::VerilatorDevice<Vrac_kernel_shape>(*options, "verilator_shape");
}
