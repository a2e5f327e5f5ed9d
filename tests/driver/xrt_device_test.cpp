// The XRT backend without a card (docs/driver.md, "XRT").
//
// XrtNoCard runs with XILINX_XRT pointing at Debian's XRT libraries and no
// emulation: opening must fail with DeviceError(Unavailable) and a message
// naming the alternatives. XrtNoop runs under XCL_EMULATION_MODE=noop with
// the hand-built card image (rac_make_xclbin): XRT's whole host API path
// runs — device, xclbin, exclusive kernel, buffers, run — but no kernel
// computes anything, so these tests check argument marshalling, buffer
// lifetimes and error paths, never results.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "cli/shared_device.hpp"
#include "common/device_status.hpp"
#include "driver/device.hpp"
#include "driver/rac_kernel_regs.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::driver {
namespace {

DeviceOptions xrt_options() {
  DeviceOptions o;
  o.backend = "xrt";
  o.xclbin = RACEACCEL_TEST_XCLBIN;
  return o;
}

DeviceErrorKind open_error(const DeviceOptions& o, std::string& message) {
  try {
    open_device(o);
  } catch (const DeviceError& e) {
    message = e.what();
    return e.kind();
  }
  ADD_FAILURE() << "open_device succeeded";
  return DeviceErrorKind::Protocol;
}

TEST(XrtNoCard, OpenFailsAsUnavailableNamingTheAlternatives) {
  std::string message;
  EXPECT_EQ(open_error(xrt_options(), message), DeviceErrorKind::Unavailable);
  EXPECT_NE(message.find("no card at device index 0"), std::string::npos) << message;
  EXPECT_NE(message.find("--backend software|verilator"), std::string::npos) << message;
}

TEST(XrtNoCard, MissingImageIsAFileErrorBeforeAnyCardIsOpened) {
  DeviceOptions o = xrt_options();
  o.xclbin = "/nonexistent/rac_kernel.xclbin";
  std::string message;
  EXPECT_EQ(open_error(o, message), DeviceErrorKind::NoFile);
  EXPECT_NE(message.find("/nonexistent/rac_kernel.xclbin"), std::string::npos) << message;
}

// The software model, with every batch that never finishes: a stand-in for
// a card whose batch timed out (no XRT run can time out without a card).
class NeverDoneDevice final : public Device {
 public:
  NeverDoneDevice() : inner_(open_device(DeviceOptions{})) {}
  std::string_view backend() const override { return "xrt"; }
  std::unique_ptr<Buffer> allocate(size_t bytes) override { return inner_->allocate(bytes); }
  void write_register(uint32_t offset, uint32_t value) override { inner_->write_register(offset, value); }
  uint32_t read_register(uint32_t offset) override { return inner_->read_register(offset); }
  void start() override { ++starts; }
  bool wait(std::chrono::milliseconds) override { return false; }
  int starts = 0;

 private:
  std::unique_ptr<Device> inner_;
};

// `check --backend` shares one device among its traces. After a batch timed
// out (and may still run on the card), the next trace must not start one.
TEST(XrtNoCard, ADeviceThatTimedOutIsNotUsedForTheNextTrace) {
  auto owned = std::make_unique<NeverDoneDevice>();
  NeverDoneDevice& device = *owned;
  SharedDevice shared(std::move(owned));
  try {
    offload::OffloadOptions o;
    o.timeout = std::chrono::milliseconds(1);
    offload::OffloadChecker checker(*shared.for_next_trace().front(), o);
    checker.process(Event::write(0, 0x1000, 8), 0);
    checker.finish();
    FAIL() << "a batch that never finishes was not noticed";
  } catch (const DeviceError& e) {
    ASSERT_EQ(e.kind(), DeviceErrorKind::Timeout) << e.what();
    EXPECT_FALSE(shared.retired());
    shared.note_failure("first.rtrace", e);
  }
  EXPECT_TRUE(shared.retired());
  const int starts = device.starts;
  EXPECT_EQ(starts, 1);
  try {
    shared.for_next_trace();
    FAIL() << "the timed-out device was handed out again";
  } catch (const DeviceError& e) {
    EXPECT_EQ(e.kind(), DeviceErrorKind::Timeout);
    EXPECT_EQ(device_error_status(e), 70);
    EXPECT_NE(std::string(e.what()).find("the xrt device timed out on first.rtrace and is not used again"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(device.starts, starts);
}

// Other device errors leave the device in use: the next batch starts clean
// (the first launch of every trace clears the device's state).
TEST(XrtNoCard, OtherDeviceErrorsDoNotRetireTheDevice) {
  SharedDevice shared(std::make_unique<NeverDoneDevice>());
  shared.note_failure("a.rtrace", DeviceError(DeviceErrorKind::Protocol, "bad status"));
  EXPECT_FALSE(shared.retired());
  EXPECT_NO_THROW(shared.for_next_trace());
}

TEST(XrtNoCard, DevicesListSaysWhyNone) {
  bool saw_xrt = false;
  for (const DeviceInfo& info : list_devices()) {
    if (info.backend != "xrt") continue;
    saw_xrt = true;
    EXPECT_FALSE(info.available);
    EXPECT_FALSE(info.detail.empty());
  }
  EXPECT_TRUE(saw_xrt);
}

TEST(XrtNoop, OpensTheHandBuiltImage) {
  auto device = open_device(xrt_options());
  EXPECT_EQ(device->backend(), "xrt");
}

TEST(XrtNoop, BuffersMapAndSyncAndOutliveNothing) {
  auto device = open_device(xrt_options());
  for (int round = 0; round < 3; ++round) {  // allocate and free repeatedly: no leak of attachments
    auto a = device->allocate(4096);
    auto b = device->allocate(100);
    ASSERT_EQ(a->size(), 4096u);
    ASSERT_GE(b->size(), 100u);
    std::memset(a->host().data(), 0x5A, a->size());
    a->to_device(0, a->size());
    a->from_device(0, 64);
    EXPECT_EQ(static_cast<unsigned>(a->host()[10]), 0x5Au);  // noop: the host copy is left alone
    EXPECT_THROW(a->to_device(4000, 200), DeviceError);      // outside the buffer
  }
}

TEST(XrtNoop, ArgumentRegistersAreShadowedInContractOrder) {
  auto device = open_device(xrt_options());
  device->write_register64(regs::kCommands, 0x1122'3344'5566'7788ull);
  device->write_register(regs::kCommandWords, 99);
  device->write_register(regs::kBucketBits, 12);
  EXPECT_EQ(device->read_register64(regs::kCommands), 0x1122'3344'5566'7788ull);
  EXPECT_EQ(device->read_register(regs::kCommandWords), 99u);
  EXPECT_EQ(device->read_register(regs::kBucketBits), 12u);
  // Control is XRT's: the host never writes gie/ier/isr or read-only registers.
  EXPECT_THROW(device->write_register(regs::kGie, 1), DeviceError);
  EXPECT_THROW(device->write_register(regs::kStatus, 0), DeviceError);
}

TEST(XrtNoop, ALaunchWithRealBuffersStartsAndCompletes) {
  auto device = open_device(xrt_options());
  auto commands = device->allocate(16 * 16);
  auto races = device->allocate(16 * 64);
  auto escalations = device->allocate(32 * 128);
  auto buckets = device->allocate(4096 * 2);
  device->write_register64(regs::kCommands, commands->device_address());
  device->write_register(regs::kCommandWords, 16);
  device->write_register(regs::kFlags, regs::kFlagClearState);
  device->write_register64(regs::kRaces, races->device_address());
  device->write_register(regs::kRaceCapacity, 16);
  device->write_register64(regs::kEscalations, escalations->device_address());
  device->write_register(regs::kEscCapacity, 32);
  device->write_register64(regs::kBuckets, buckets->device_address());
  device->write_register(regs::kBucketBits, 6);
  device->start();
  EXPECT_TRUE(device->wait(std::chrono::milliseconds(10'000)));
  EXPECT_FALSE(device->wait(std::chrono::milliseconds(1))) << "one launch, one completion";
  // Launch again (back to back) with the same arguments.
  device->start();
  EXPECT_TRUE(device->wait(std::chrono::milliseconds(10'000)));
}

TEST(XrtNoop, TheOffloadEngineStopsWhenRegistersCannotBeRead) {
  // Under noop, XRT refuses register reads ("Operation not permitted"), so
  // the capabilities cannot be read: the engine must stop with a protocol
  // error naming the register, never compute with made-up capabilities.
  auto device = open_device(xrt_options());
  try {
    offload::OffloadChecker checker(*device);
    FAIL() << "constructed without reading the capabilities";
  } catch (const DeviceError& e) {
    EXPECT_EQ(e.kind(), DeviceErrorKind::Protocol);
    EXPECT_NE(std::string(e.what()).find("register 0xe0"), std::string::npos) << e.what();
  }
}

// Card memory that cannot hold a buffer is a resource error with its own
// exit status (71), not a broken contract (70). Under noop, XRT hands out a
// buffer too large for the host without a host mapping: the same error.
TEST(XrtNoop, ABufferTheCardCannotHoldIsOutOfMemory) {
  auto device = open_device(xrt_options());
  try {
    device->allocate(size_t{1} << 50);
    FAIL() << "a 1 PiB buffer was allocated";
  } catch (const DeviceError& e) {
    EXPECT_EQ(e.kind(), DeviceErrorKind::OutOfMemory) << e.what();
    EXPECT_EQ(device_error_status(e), 71);
    EXPECT_NE(std::string(e.what()).find("--batch-words"), std::string::npos) << e.what();
  }
  auto fine = device->allocate(4096);  // the device is still usable
  EXPECT_EQ(fine->size(), 4096u);
}

TEST(XrtNoop, AFileThatIsNotACardImageIsUnavailable) {
  const std::string path = "not_an_xclbin.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out << "this is not an xclbin";
  }
  DeviceOptions o = xrt_options();
  o.xclbin = path;
  std::string message;
  EXPECT_EQ(open_error(o, message), DeviceErrorKind::Unavailable);
  EXPECT_NE(message.find("cannot load not_an_xclbin.bin"), std::string::npos) << message;
  EXPECT_NE(message.find("--backend software|verilator"), std::string::npos) << message;
}

}  // namespace
}  // namespace raceaccel::driver
