// The device layer: one interface over every place the checks can run — the
// software model, the Verilator-simulated kernel and an Alveo card through
// XRT — so that the offload engine (host/offload/) treats them the same.
//
// A Device is rac_kernel seen from the host (docs/kernel-interface.md): an
// s_axi_control register file plus device memory. Every register access goes
// through write_register/read_register; buffers are device memory with a host
// staging copy moved explicitly, as on a card. Backends are chosen by name
// with open_device (docs/driver.md).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::driver {

// Why a device could not be opened or used. The CLI maps kinds to exit
// statuses (docs/cli.md): UnknownBackend and BadOptions → 2, Unavailable → 69, NoFile → 74,
// Timeout and Protocol → 70, OutOfMemory → 71.
enum class DeviceErrorKind {
  UnknownBackend,  // no backend of that name is built in
  BadOptions,      // options the backend cannot use (no --xclbin for xrt, a shape beyond the kernel limits)
  Unavailable,     // the backend is built but cannot run here (no card, no XRT runtime, bad xclbin)
  NoFile,          // a file the backend needs (the xclbin) cannot be read
  Timeout,         // a batch did not finish in time
  Protocol,        // the device broke the contract (bad status, impossible record, wrong magic)
  OutOfMemory,     // the device's memory cannot hold a buffer (batches too large, memory held by others)
};

class DeviceError : public std::runtime_error {
 public:
  DeviceError(DeviceErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  DeviceErrorKind kind() const { return kind_; }

 private:
  DeviceErrorKind kind_;
};

// Device memory with a host staging copy of the same size. host() is the
// staging copy; to_device/from_device move a byte range between the two.
// device_address() is what the kernel's pointer arguments take; it is 4 KB
// aligned (the strictest alignment the contract asks for: the bucket table).
// A Buffer must not outlive the Device that allocated it.
class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual uint64_t device_address() const = 0;
  virtual size_t size() const = 0;
  virtual std::span<std::byte> host() = 0;
  virtual void to_device(size_t offset, size_t bytes) = 0;
  virtual void from_device(size_t offset, size_t bytes) = 0;
};

// The cap_* registers.
struct Capabilities {
  uint32_t magic = 0;
  uint32_t version = 0;
  uint32_t slots = 0;       // hardware thread slots
  uint32_t clock_bits = 0;  // bits per clock lane
  uint32_t sets = 0;        // metadata cache sets (0: the backend has no cache)
  uint32_t ways = 0;
  uint32_t line_bits = 0;         // bits of one line record
  uint32_t objects = 0;           // entries of the sync-object store (ops 4–6 name them 0..objects-1)
  uint32_t read_vcs = 0;          // entries of the read-VC pool (0: none)
  uint32_t esc_record_bytes = 0;  // bytes per escalation record
  uint32_t features = 0;          // optional commands (regs::kFeature*: bit 0 import-line, op 7; bit 1 ops 9-10)
  uint32_t bucket_ways = 0;       // ways per metadata bucket (a bucket is bucket_ways × 128 bytes)
  uint32_t read_vc_ways = 0;      // ways of the read-VC pool: read clocks a line may hold (1: one per line)
  bool imports_lines() const { return (features & regs::kFeatureImportLine) != 0; }
  // Ops 9 and 10: the chip checks atomic accesses against plain history.
  bool checks_atomics() const { return (features & regs::kFeatureAtomicAccess) != 0; }
};

// The stat_* registers (cumulative since the device was opened).
struct Statistics {
  uint64_t cycles = 0, busy_cycles = 0, commands = 0, accesses = 0, misses = 0, writebacks = 0, escalations = 0,
           spills = 0, races = 0;
};

// Each 64-bit stat_* register and the Statistics field it holds: the one map
// that Device::statistics reads through and the software model latches into.
struct StatisticRegister {
  uint32_t offset;
  uint64_t Statistics::*field;
};
std::span<const StatisticRegister> statistic_registers();

struct DeviceOptions {
  std::string backend = "software";  // "software", "verilator" or "xrt" (backend_names())
  // xrt
  std::string xclbin;         // path of the card image
  unsigned device_index = 0;  // which card
  // verilator: the AXI memory model and the control-bus master (seeded)
  uint64_t seed = 1;
  unsigned max_latency = 8;     // cycles before a read response, drawn in [min, max]
  unsigned min_latency = 1;     // min = max and stall_percent 0: a fixed latency (cycle measurements)
  unsigned stall_percent = 10;  // chance per cycle that a channel is not ready
  unsigned idle_percent = 5;    // chance per cycle that the master inserts an idle cycle
  // software: the shape of the modelled kernel (the contract's limits apply:
  // slots ≤ 256, clock_bits ≤ 32, objects ≤ 65536). Small values exercise
  // forced escalation, the clock-overflow fallback and sync-object reloads
  // (0 objects: every synchronization goes as set-row).
  unsigned software_slots = 64;
  unsigned software_clock_bits = 32;
  unsigned software_objects = 64;
  unsigned software_read_vcs = 16;     // read-VC pool entries (0 or a power of two ≤ 65536)
  unsigned software_read_vc_ways = 1;  // pool ways = read clocks per line (a power of two ≤ 8 and ≤ the entries)
  // Ops 9 and 10 (atomic accesses checked on chip, cap_features bit 1); off
  // models a kernel without them (a version-6 RTL): the host then checks
  // every atomic access itself.
  bool software_atomic_access = true;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string_view backend() const = 0;
  // Device memory of at least `bytes` bytes, host copy zeroed (device copy
  // unspecified until to_device).
  virtual std::unique_ptr<Buffer> allocate(size_t bytes) = 0;
  // The one path for s_axi_control registers (32-bit, byte offsets of
  // driver/rac_kernel_regs.hpp). Reading ctrl clears ap_done/ap_ready, as
  // on the kernel.
  virtual void write_register(uint32_t offset, uint32_t value) = 0;
  virtual uint32_t read_register(uint32_t offset) = 0;
  // Sets ap_start for the arguments written so far.
  virtual void start() = 0;
  // Waits until the batch is done (ap_done seen, and consumed). Returns
  // false if it is not done within `timeout`; the batch may still finish.
  virtual bool wait(std::chrono::milliseconds timeout) = 0;

  // Built on the register path.
  void write_register64(uint32_t offset, uint64_t value);
  uint64_t read_register64(uint32_t offset);
  Capabilities capabilities();  // throws DeviceError(Protocol) if cap_magic is wrong
  Statistics statistics();
};

// One row of `raceaccel devices`.
struct DeviceInfo {
  std::string backend;
  std::string name;  // e.g. "software model (64 slots, 32-bit clocks)" or a card's name
  bool available = false;
  std::string detail;  // why not, or how to select it
};

// The backends built into this binary, in preference order.
std::vector<std::string> backend_names();
// Opens options.backend; throws DeviceError naming the alternatives.
std::unique_ptr<Device> open_device(const DeviceOptions& options);
// What every built-in backend offers here (XRT: each card, or why none).
std::vector<DeviceInfo> list_devices();

}  // namespace raceaccel::driver
