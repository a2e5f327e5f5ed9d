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
