// VerilatorDevice<Model>: the Device interface over KernelSim<Model>. A
// template so that tests can run the same backend on other kernel
// configurations (tests/kernel/); make_verilator_device uses the built-in
// one.
#pragma once

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <string>

#include "driver/device.hpp"
#include "driver/rac_kernel_regs.hpp"
#include "driver/verilator/verilator_buffer.hpp"
#include "kernel_sim.hpp"

namespace raceaccel::driver {

template <typename Model>
class VerilatorDevice final : public Device {
 public:
  explicit VerilatorDevice(const DeviceOptions& options, const std::string& trace_tag = "verilator")
      : sim_(sim_options(options, trace_tag)) {}

  std::string_view backend() const override { return "verilator"; }

  std::unique_ptr<Buffer> allocate(size_t bytes) override {
    constexpr uint64_t kPage = 4096;
    const uint64_t address = next_address_;
    // A guard page between buffers: an overrun never lands in another buffer.
    next_address_ += (std::max<uint64_t>(bytes, 1) + kPage - 1) / kPage * kPage + kPage;
    return std::make_unique<VerilatorBuffer>(sim_.memory(), address, bytes);
  }

  void write_register(uint32_t offset, uint32_t value) override {
    sim_.write_register(offset, value);
    check_bus();
  }
  uint32_t read_register(uint32_t offset) override {
    const uint32_t value = sim_.read_register(offset);
    check_bus();
    return value;
  }
  void start() override { write_register(regs::kCtrl, regs::kCtrlStart); }

  // Polls ctrl (each poll is a bus read, which clears ap_done when it is
  // seen) every kPollCycles cycles of simulated time.
  bool wait(std::chrono::milliseconds timeout) override {
    constexpr uint64_t kPollCycles = 64;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      if (read_register(regs::kCtrl) & regs::kCtrlDone) return true;
      if (std::chrono::steady_clock::now() > deadline) return false;
      sim_.run(kPollCycles);
    }
  }

  sim::KernelSim<Model>& sim() { return sim_; }

 private:
  static sim::KernelSimOptions sim_options(const DeviceOptions& o, const std::string& tag) {
    sim::KernelSimOptions s;
    s.timing.seed = o.seed;
    s.timing.max_latency = o.max_latency;
    s.timing.min_latency = o.min_latency;
    s.timing.stall_percent = o.stall_percent;
    s.idle_percent = o.idle_percent;
    s.trace_tag = tag;
    return s;
  }
  // A bus protocol violation or a failed RTL assertion breaks the contract.
  void check_bus() {
    const auto v = sim_.violations();
    if (!v.empty()) {
      throw DeviceError(DeviceErrorKind::Protocol,
                        fmt::format("verilator device: {} (and {} more)", v.front(), v.size() - 1));
    }
  }

  sim::KernelSim<Model> sim_;
  uint64_t next_address_ = 0x40'0000'0000;
};

}  // namespace raceaccel::driver
