// The XRT backend. rac_kernel is an XRT-managed (ap_ctrl_hs) kernel, so:
//  - argument registers are kept in a shadow and handed to XRT at start()
//    as run.set_arg(index, …) in the contract's argument order (pointer
//    arguments as the xrt::bo allocated at that address, so XRT knows the
//    buffers a run uses);
//  - start() is run.start(), wait() is run.wait(timeout);
//  - result, statistic and capability registers are read with
//    kernel.read_register, which XRT allows on a kernel opened with
//    exclusive access (this process owns the compute unit).
// Every XRT failure becomes a DeviceError whose message names the
// alternatives (docs/driver.md, "XRT").
#include "driver/xrt/xrt_device.hpp"

#include <fmt/format.h>
#include <xrt/xrt_bo.h>
#include <xrt/xrt_device.h>
#include <xrt/xrt_kernel.h>

#include <experimental/xrt_system.h>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::driver {
namespace {

constexpr int kArgumentCount = 9;

// Argument index of the register at `offset` (the low word for 64-bit
// arguments), and whether offset is its high word; -1 if not an argument.
struct ArgumentSlot {
  int index = -1;
  bool high = false;
  bool pointer = false;
};

ArgumentSlot argument_at(uint32_t offset) {
  int index = 0;
  for (const regs::Register& r : regs::kRegisters) {
    if (r.group != regs::Group::Argument) continue;
    if (offset == r.offset) return {index, false, !r.port.empty()};
    if (r.bits == 64 && offset == r.offset + 4) return {index, true, !r.port.empty()};
    ++index;
  }
  return {};
}

std::string runtime_hint() {
  const char* root = std::getenv("XILINX_XRT");
  if (root == nullptr) {
    return "XILINX_XRT is not set (with Debian's libxrt, point it at a directory whose lib/ links to "
           "/usr/lib/x86_64-linux-gnu; docs/driver.md)";
  }
  return fmt::format("XILINX_XRT={}", root);
}

class XrtDevice;

class XrtBuffer final : public Buffer {
 public:
  XrtBuffer(XrtDevice& device, xrt::bo bo);
  ~XrtBuffer() override;
  XrtBuffer(const XrtBuffer&) = delete;
  XrtBuffer& operator=(const XrtBuffer&) = delete;
  uint64_t device_address() const override { return address_; }
  size_t size() const override { return size_; }
  std::span<std::byte> host() override { return {host_, size_}; }
  void to_device(size_t offset, size_t bytes) override { sync(XCL_BO_SYNC_BO_TO_DEVICE, offset, bytes); }
  void from_device(size_t offset, size_t bytes) override { sync(XCL_BO_SYNC_BO_FROM_DEVICE, offset, bytes); }
  const xrt::bo& bo() const { return bo_; }

 private:
  void sync(xclBOSyncDirection direction, size_t offset, size_t bytes);
  XrtDevice& device_;
  xrt::bo bo_;
  std::byte* host_;
  size_t size_;
  uint64_t address_;
};

class XrtDevice final : public Device {
 public:
  XrtDevice(const DeviceOptions& options, const std::string& alternatives);
  std::string_view backend() const override { return "xrt"; }
  std::unique_ptr<Buffer> allocate(size_t bytes) override;
  void write_register(uint32_t offset, uint32_t value) override;
  uint32_t read_register(uint32_t offset) override;
  void start() override;
  bool wait(std::chrono::milliseconds timeout) override;

  void attach(uint64_t address, XrtBuffer* buffer) { buffers_[address] = buffer; }
  void detach(uint64_t address, const XrtBuffer* buffer) {
    // noop emulation gives every buffer the same address: forget only our own entry.
    auto it = buffers_.find(address);
    if (it != buffers_.end() && it->second == buffer) buffers_.erase(it);
  }

 private:
  // A run that timed out has completed since: the card may take the next one.
  bool finished_late();

  xrt::device device_;
  xrt::uuid uuid_;
  xrt::kernel kernel_;
  xrt::run run_;
  std::array<uint64_t, kArgumentCount> arguments_{};
  std::map<uint64_t, XrtBuffer*> buffers_;
  bool running_ = false;
};

XrtBuffer::XrtBuffer(XrtDevice& device, xrt::bo bo)
    : device_(device), bo_(std::move(bo)), host_(bo_.map<std::byte*>()), size_(bo_.size()), address_(bo_.address()) {
  device_.attach(address_, this);
}

XrtBuffer::~XrtBuffer() { device_.detach(address_, this); }

void XrtBuffer::sync(xclBOSyncDirection direction, size_t offset, size_t bytes) {
  if (offset > size_ || bytes > size_ - offset) {
    throw DeviceError(DeviceErrorKind::Protocol,
                      fmt::format("xrt buffer sync of [{}, +{}) outside a buffer of {} bytes", offset, bytes, size_));
  }
  if (bytes == 0) return;
  try {
    bo_.sync(direction, bytes, offset);
  } catch (const std::exception& e) {
    throw DeviceError(DeviceErrorKind::Protocol, fmt::format("xrt buffer sync failed: {}", e.what()));
  }
}

XrtDevice::XrtDevice(const DeviceOptions& options, const std::string& alternatives) {
  const auto unavailable = [&](const std::string& what) {
    return DeviceError(DeviceErrorKind::Unavailable, fmt::format("xrt: {}; use {}", what, alternatives));
  };
  if (options.xclbin.empty()) {
    throw DeviceError(DeviceErrorKind::BadOptions, "xrt: the xrt backend needs the card image: --xclbin FILE");
  }
  {
    std::ifstream probe(options.xclbin, std::ios::binary);
    if (!probe || std::filesystem::is_directory(options.xclbin)) {
      throw DeviceError(DeviceErrorKind::NoFile, fmt::format("{}: cannot read the card image", options.xclbin));
    }
  }
  try {
    device_ = xrt::device(options.device_index);
  } catch (const std::exception& e) {
    throw unavailable(
        fmt::format("no card at device index {} ({}; {})", options.device_index, e.what(), runtime_hint()));
  }
  try {
    uuid_ = device_.load_xclbin(options.xclbin);
  } catch (const std::exception& e) {
    throw unavailable(fmt::format("cannot load {} on device {} ({})", options.xclbin, options.device_index, e.what()));
  }
  try {
    kernel_ = xrt::kernel(device_, uuid_, std::string(regs::kKernelName), xrt::kernel::cu_access_mode::exclusive);
    run_ = xrt::run(kernel_);
  } catch (const std::exception& e) {
    throw unavailable(fmt::format("{} holds no usable {} kernel ({})", options.xclbin, regs::kKernelName, e.what()));
  }
}

std::unique_ptr<Buffer> XrtDevice::allocate(size_t bytes) {
  // A full memory bank is a failed buffer allocation (an exception whose
  // text varies with XRT's version) or a buffer whose host copy cannot be
  // mapped (XRT's noop emulation does that for sizes the host cannot back):
  // a resource error the user can act on, not a broken contract.
  const auto no_room = [&](const std::string& why) {
    return DeviceError(DeviceErrorKind::OutOfMemory,
                       fmt::format("xrt: no room for a buffer of {} bytes ({}); use smaller batches (--batch-words) "
                                   "or free the card's memory held by other programs",
                                   bytes, why));
  };
  std::unique_ptr<XrtBuffer> buffer;
  try {
    // Every m_axi port of rac_kernel is connected to one bank (the
    // connectivity file), so argument 0's group serves all buffers.
    buffer = std::make_unique<XrtBuffer>(*this, xrt::bo(device_, std::max<size_t>(bytes, 1), kernel_.group_id(0)));
  } catch (const std::exception& e) {
    throw no_room(e.what());
  }
  if (buffer->host().data() == nullptr) throw no_room("its host copy cannot be mapped");
  std::fill(buffer->host().begin(), buffer->host().end(), std::byte{0});
  return buffer;
}

void XrtDevice::write_register(uint32_t offset, uint32_t value) {
  const ArgumentSlot slot = argument_at(offset);
  if (slot.index >= 0) {
    uint64_t& arg = arguments_[static_cast<size_t>(slot.index)];
    arg = slot.high ? (arg & 0xFFFF'FFFFull) | uint64_t{value} << 32 : (arg & ~0xFFFF'FFFFull) | value;
    return;
  }
  if (offset == regs::kCtrl) {
    if (value & regs::kCtrlStart) start();
    return;
  }
  // gie/ier/isr belong to XRT's scheduler; everything else is read-only.
  throw DeviceError(DeviceErrorKind::Protocol,
                    fmt::format("xrt: register {:#x} is not written by the host (XRT manages control)", offset));
}

uint32_t XrtDevice::read_register(uint32_t offset) {
  const ArgumentSlot slot = argument_at(offset);
  if (slot.index >= 0) {
    const uint64_t arg = arguments_[static_cast<size_t>(slot.index)];
    return static_cast<uint32_t>(slot.high ? arg >> 32 : arg);
  }
  try {
    return kernel_.read_register(offset);
  } catch (const std::exception& e) {
    throw DeviceError(DeviceErrorKind::Protocol, fmt::format("xrt: reading register {:#x}: {}", offset, e.what()));
  }
}

void XrtDevice::start() {
  if (running_ && !finished_late()) {
    throw DeviceError(DeviceErrorKind::Timeout,
                      fmt::format("xrt: {} is still running a batch that did not finish in time; the card takes no "
                                  "other batch until it does (reset the card: xbutil reset)",
                                  regs::kKernelName));
  }
  try {
    int index = 0;
    for (const regs::Register& r : regs::kRegisters) {
      if (r.group != regs::Group::Argument) continue;
      const uint64_t value = arguments_[static_cast<size_t>(index)];
      if (!r.port.empty()) {
        auto it = buffers_.find(value);
        if (it != buffers_.end()) {
          run_.set_arg(index, it->second->bo());
        } else {
          run_.set_arg(index, value);  // an address this device did not allocate: passed through as is
        }
      } else {
        run_.set_arg(index, static_cast<uint32_t>(value));
      }
      ++index;
    }
    run_.start();
    running_ = true;
  } catch (const std::exception& e) {
    throw DeviceError(DeviceErrorKind::Protocol, fmt::format("xrt: cannot start {}: {}", regs::kKernelName, e.what()));
  }
}

bool XrtDevice::finished_late() {
  try {
    if (run_.state() != ERT_CMD_STATE_COMPLETED) return false;
  } catch (const std::exception&) {
    return false;
  }
  running_ = false;
  return true;
}

bool XrtDevice::wait(std::chrono::milliseconds timeout) {
  if (!running_) return false;
  ert_cmd_state state{};
  try {
    // XRT treats a zero timeout as "forever": never pass it.
    state = run_.wait(std::max(timeout, std::chrono::milliseconds{1}));
  } catch (const std::exception& e) {
    throw DeviceError(DeviceErrorKind::Protocol, fmt::format("xrt: waiting for {}: {}", regs::kKernelName, e.what()));
  }
  if (state == ERT_CMD_STATE_COMPLETED) {
    running_ = false;
    return true;
  }
  if (state == ERT_CMD_STATE_TIMEOUT || state == ERT_CMD_STATE_RUNNING || state == ERT_CMD_STATE_QUEUED ||
      state == ERT_CMD_STATE_SUBMITTED || state == ERT_CMD_STATE_NEW) {
    return false;
  }
  running_ = false;
  throw DeviceError(DeviceErrorKind::Protocol,
                    fmt::format("xrt: {} run ended in state {}", regs::kKernelName, static_cast<int>(state)));
}

}  // namespace

std::unique_ptr<Device> make_xrt_device(const DeviceOptions& options, const std::string& alternatives) {
  return std::make_unique<XrtDevice>(options, alternatives);
}

std::vector<DeviceInfo> list_xrt_devices() {
  unsigned count = 0;
  try {
    count = xrt::system::enumerate_devices();
  } catch (const std::exception& e) {
    return {{"xrt", "Alveo card through XRT", false, fmt::format("XRT cannot enumerate cards: {}", e.what())}};
  }
  if (count == 0) {
    return {{"xrt", "Alveo card through XRT", false, fmt::format("no card found ({})", runtime_hint())}};
  }
  std::vector<DeviceInfo> out;
  for (unsigned i = 0; i < count; ++i) {
    std::string name = fmt::format("card {}", i);
    try {
      xrt::device device(i);
      name = fmt::format("card {}: {}", i, device.get_info<xrt::info::device::name>());
    } catch (const std::exception& e) {
      name = fmt::format("card {} (name unknown: {})", i, e.what());
    }
    out.push_back({"xrt", name, true, fmt::format("select with --backend xrt --xclbin FILE --device {}", i)});
  }
  return out;
}

}  // namespace raceaccel::driver
