// The offload engine against a device that breaks the contract: every
// violation must stop the check with a DeviceError of the right kind (the
// CLI exits 70), never produce a report from garbage.
#include <gtest/gtest.h>

#include <functional>
#include <new>

#include "driver/rac_kernel_regs.hpp"
#include "gen/generator.hpp"
#include "offload/offload_checker.hpp"

namespace raceaccel::test {
namespace {

// The software device with a fault injected into what the host reads back.
class FaultyDevice final : public driver::Device {
 public:
  using Fault = std::function<uint32_t(uint32_t offset, uint32_t value)>;
  explicit FaultyDevice(Fault fault, bool never_done = false)
      : inner_(driver::open_device(driver::DeviceOptions{})), fault_(std::move(fault)), never_done_(never_done) {}
  std::string_view backend() const override { return "faulty"; }
  std::unique_ptr<driver::Buffer> allocate(size_t bytes) override { return inner_->allocate(bytes); }
  void write_register(uint32_t offset, uint32_t value) override { inner_->write_register(offset, value); }
  uint32_t read_register(uint32_t offset) override { return fault_(offset, inner_->read_register(offset)); }
  void start() override { inner_->start(); }
  bool wait(std::chrono::milliseconds timeout) override { return !never_done_ && inner_->wait(timeout); }

 private:
  std::unique_ptr<driver::Device> inner_;
  Fault fault_;
  bool never_done_;
};

driver::DeviceErrorKind run_until_error(driver::Device& device, std::string& message) {
  GeneratorOptions g;
  g.threads = 6;
  g.events = 3000;
  g.racy_weight = 10;
  TraceGenerator generator(g);
  try {
    offload::OffloadOptions o;
    o.batch_words = 512;
    o.timeout = std::chrono::milliseconds(10);
    offload::OffloadChecker checker(device, o);
    Event e;
    uint64_t index = 0;
    while (generator.next(e)) checker.process(e, index++);
    checker.finish();
  } catch (const driver::DeviceError& err) {
    message = err.what();
    return err.kind();
  }
  ADD_FAILURE() << "the faulty device was not noticed";
  return driver::DeviceErrorKind::UnknownBackend;
}

TEST(OffloadErrors, HealthyWrapperRaisesNothing) {
  // The control: without a fault the wrapper is the software device.
  FaultyDevice device([](uint32_t, uint32_t v) { return v; });
  GeneratorOptions g;
  g.threads = 6;
  g.events = 3000;
  TraceGenerator generator(g);
  offload::OffloadChecker checker(device);
  Event e;
  uint64_t index = 0;
  while (generator.next(e)) checker.process(e, index++);
  EXPECT_NO_THROW(checker.finish());
}

TEST(OffloadErrors, WrongMagicIsAProtocolError) {
  FaultyDevice device([](uint32_t offset, uint32_t v) { return offset == regs::kCapMagic ? 0xDEADu : v; });
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Protocol);
  EXPECT_NE(message.find("cap_magic"), std::string::npos) << message;
}

TEST(OffloadErrors, LineWidthThatDoesNotMatchTheShapeIsAProtocolError) {
  FaultyDevice device([](uint32_t offset, uint32_t v) { return offset == regs::kCapLineBits ? v + 1 : v; });
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Protocol);
  EXPECT_NE(message.find("cap_line_bits"), std::string::npos) << message;
}

TEST(OffloadErrors, ASyncObjectStoreBeyondTheContractIsAProtocolError) {
  FaultyDevice device([](uint32_t offset, uint32_t v) { return offset == regs::kCapObjects ? 0xFFFF'FFFFu : v; });
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Protocol);
  EXPECT_NE(message.find("sync objects"), std::string::npos) << message;
}

TEST(OffloadErrors, NoSyncObjectStoreMeansSetRowsOnly) {
  // cap_objects 0 is within the contract: every synchronization as set-row.
  FaultyDevice device([](uint32_t offset, uint32_t v) { return offset == regs::kCapObjects ? 0u : v; });
  GeneratorOptions g;
  g.threads = 6;
  g.events = 3000;
  TraceGenerator generator(g);
  offload::OffloadChecker checker(device);
  Event e;
  uint64_t index = 0;
  while (generator.next(e)) checker.process(e, index++);
  EXPECT_NO_THROW(checker.finish());
  const offload::OffloadStats s = checker.stats();
  EXPECT_EQ(s.sync_commands + s.object_loads, 0u);
  EXPECT_GT(s.set_rows, 0u);
}

TEST(OffloadErrors, NonzeroStatusIsAProtocolError) {
  FaultyDevice device([](uint32_t offset, uint32_t v) { return offset == regs::kStatus ? regs::kStatusBadOp : v; });
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Protocol);
  EXPECT_NE(message.find("status 1"), std::string::npos) << message;
}

TEST(OffloadErrors, BusErrorStatusNamesThePortsAndIsAProtocolError) {
  // status_bus_error with the m_axi_cmd and m_axi_meta bits: the message
  // says it is the device's memory and which ports (exit 70 in the CLI).
  FaultyDevice device([](uint32_t offset, uint32_t v) {
    return offset == regs::kStatus ? regs::kStatusBusError | regs::kStatusBusErrorCmd | regs::kStatusBusErrorMeta : v;
  });
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Protocol);
  EXPECT_NE(message.find("device memory error"), std::string::npos) << message;
  EXPECT_NE(message.find("m_axi_cmd, m_axi_meta"), std::string::npos) << message;
  EXPECT_NE(message.find("SLVERR/DECERR"), std::string::npos) << message;
}

TEST(OffloadErrors, ShortBatchIsAProtocolError) {
  FaultyDevice device([](uint32_t offset, uint32_t v) { return offset == regs::kWordsDone && v > 0 ? v - 1 : v; });
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Protocol);
}

TEST(OffloadErrors, MoreRecordsThanTheCapacityRuleAllowsIsAProtocolError) {
  FaultyDevice device([](uint32_t offset, uint32_t v) { return offset == regs::kRacesWritten ? 1u << 20 : v; });
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Protocol);
}

TEST(OffloadErrors, ARecordForASetRowIsAProtocolError) {
  // One extra escalation record, read from a zeroed slot of the first
  // batch's buffer: it names word 0, the first set-row, not an access.
  FaultyDevice device([](uint32_t offset, uint32_t v) { return offset == regs::kEscalationsWritten ? v + 1 : v; });
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Protocol);
}

// The software device with a host that cannot allocate more than `limit` bytes at once.
class SmallMemoryDevice final : public driver::Device {
 public:
  explicit SmallMemoryDevice(size_t limit) : inner_(driver::open_device(driver::DeviceOptions{})), limit_(limit) {}
  std::string_view backend() const override { return "small-memory"; }
  std::unique_ptr<driver::Buffer> allocate(size_t bytes) override {
    if (bytes > limit_) throw std::bad_alloc();
    return inner_->allocate(bytes);
  }
  void write_register(uint32_t offset, uint32_t value) override { inner_->write_register(offset, value); }
  uint32_t read_register(uint32_t offset) override { return inner_->read_register(offset); }
  void start() override { inner_->start(); }
  bool wait(std::chrono::milliseconds timeout) override { return inner_->wait(timeout); }

 private:
  std::unique_ptr<driver::Device> inner_;
  size_t limit_;
};

TEST(OffloadErrors, BatchBuffersTooLargeForTheHostAreABadOption) {
  SmallMemoryDevice device(size_t{1} << 20);
  offload::OffloadOptions o;
  o.batch_words = size_t{1} << 20;  // 16 MB of command words alone
  try {
    offload::OffloadChecker checker(device, o);
    ADD_FAILURE() << "buffers larger than the host allows were allocated";
  } catch (const driver::DeviceError& err) {
    EXPECT_EQ(err.kind(), driver::DeviceErrorKind::BadOptions);
    EXPECT_NE(std::string(err.what()).find("smaller batches"), std::string::npos) << err.what();
  }
}

TEST(OffloadErrors, ABatchThatNeverFinishesIsATimeout) {
  FaultyDevice device([](uint32_t, uint32_t v) { return v; }, /*never_done=*/true);
  std::string message;
  EXPECT_EQ(run_until_error(device, message), driver::DeviceErrorKind::Timeout);
  EXPECT_NE(message.find("did not finish"), std::string::npos) << message;
}

}  // namespace
}  // namespace raceaccel::test
