// A benchmark-only Device that forwards every call to another device and
// counts the calling thread's CPU time spent inside it: with the software
// device, whose kernel model runs in the caller's thread (start() runs the
// batch) and whose buffers copy host memory to its device memory, that is
// the model's own work, so the checker's CPU time less it is the host's
// (bench/host_side_bench.cpp, docs/performance.md "Offload host side").
//
// Not a backend: addresses, registers and buffers are the inner device's,
// so the inner device sees exactly what it would see unwrapped.
#pragma once

#include <ctime>
#include <memory>

#include "driver/device.hpp"

namespace raceaccel::bench {

inline double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// Adds the thread's CPU time from construction to destruction to `total`.
class CpuScope {
 public:
  explicit CpuScope(double& total) : total_(total), start_(thread_cpu_ns()) {}
  ~CpuScope() { total_ += thread_cpu_ns() - start_; }
  CpuScope(const CpuScope&) = delete;
  CpuScope& operator=(const CpuScope&) = delete;

 private:
  double& total_;
  double start_;
};

class CpuTimedBuffer final : public driver::Buffer {
 public:
  CpuTimedBuffer(std::unique_ptr<driver::Buffer> inner, double& total) : inner_(std::move(inner)), total_(total) {}
  uint64_t device_address() const override { return inner_->device_address(); }
  size_t size() const override { return inner_->size(); }
  std::span<std::byte> host() override { return inner_->host(); }
  void to_device(size_t offset, size_t bytes) override {
    CpuScope s(total_);
    inner_->to_device(offset, bytes);
  }
  void from_device(size_t offset, size_t bytes) override {
    CpuScope s(total_);
    inner_->from_device(offset, bytes);
  }

 private:
  std::unique_ptr<driver::Buffer> inner_;
  double& total_;
};

class CpuTimedDevice final : public driver::Device {
 public:
  explicit CpuTimedDevice(driver::Device& inner) : inner_(inner) {}
  std::string_view backend() const override { return inner_.backend(); }
  std::unique_ptr<driver::Buffer> allocate(size_t bytes) override {
    return std::make_unique<CpuTimedBuffer>(inner_.allocate(bytes), cpu_ns_);
  }
  // Register accesses are the host's (a card's are PCIe reads and writes
  // the host waits for); they are counted as host time.
  void write_register(uint32_t offset, uint32_t value) override { inner_.write_register(offset, value); }
  uint32_t read_register(uint32_t offset) override { return inner_.read_register(offset); }
  void start() override {
    CpuScope s(cpu_ns_);
    inner_.start();
  }
  bool wait(std::chrono::milliseconds timeout) override {
    CpuScope s(cpu_ns_);
    return inner_.wait(timeout);
  }
  // The thread's CPU time inside start(), wait() and the buffers' transfers.
  double cpu_ns() const { return cpu_ns_; }
  void reset() { cpu_ns_ = 0; }

 private:
  driver::Device& inner_;
  double cpu_ns_ = 0;
};

}  // namespace raceaccel::bench
