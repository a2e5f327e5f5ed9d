// Register-level tests of the Device backends against docs/kernel-interface.md:
// capabilities, control (idle, start, done), status codes, records, state
// across launches, statistics. Typed: every backend must pass the same cases.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>

#include "backends.hpp"
#include "driver/rac_kernel_regs.hpp"
#include "driver/records.hpp"

namespace raceaccel::test {
namespace {

using namespace std::chrono_literals;
using driver::CommandWord;

// Changes to a valid launch's arguments.
struct Overrides {
  int64_t commands_offset = 0;
  int64_t race_capacity = -1, esc_capacity = -1, bucket_bits = -1;
  bool clear = false;
};

// Buffers sized for `capacity` words, commands appended one at a time.
class Harness {
 public:
  explicit Harness(driver::Device& device, uint32_t capacity = 64)
      : caps_(device.capabilities()),
        device_(device),
        shape_{caps_.slots, caps_.clock_bits, caps_.read_vcs},
        capacity_(capacity) {
    commands_ = device.allocate(size_t{capacity} * 16);
    races_ = device.allocate(size_t{capacity} * 64);
    escalations_ = device.allocate(size_t{capacity} * esc_per_word() * caps_.esc_record_bytes);
    buckets_ = device.allocate((size_t{1} << kBucketBits) * regs::kBucketWayBytes *
                               device.read_register(regs::kCapBucketWays));
    std::memset(buckets_->host().data(), 0, buckets_->size());
    buckets_->to_device(0, buckets_->size());
  }
  static constexpr uint32_t kBucketBits = 8;

  void command(const CommandWord& c) {
    driver::encode_command(c, commands_->host().subspan(words_ * 16).first<16>());
    ++words_;
  }
  void access(unsigned op, unsigned slot, uint64_t granule, unsigned mask, bool force = false) {
    CommandWord c;
    c.op = op;
    c.slot = slot;
    c.granule = granule;
    c.mask = mask;
    c.force_sw = force;
    command(c);
  }
  // Slot's row: its own lane = own, every other lane 0 except those given.
  void set_row(unsigned slot, std::vector<uint64_t> lanes) {
    CommandWord c;
    c.op = regs::kOpSetRow;
    c.slot = slot;
    command(c);
    lanes.resize(shape_.slots, 0);
    driver::encode_row(lanes, shape_, commands_->host().subspan(words_ * 16, shape_.row_words() * 16));
    words_ += shape_.row_words();
  }
  // Writes the arguments (defaults: a valid launch of the words so far) and runs it.
  uint32_t launch(const Overrides& o = {}) {
    commands_->to_device(0, size_t{words_} * 16);
    device_.write_register64(regs::kCommands, commands_->device_address() + static_cast<uint64_t>(o.commands_offset));
    device_.write_register(regs::kCommandWords, words_);
    device_.write_register(regs::kFlags, o.clear ? regs::kFlagClearState : 0u);
    device_.write_register64(regs::kRaces, races_->device_address());
    device_.write_register(regs::kRaceCapacity,
                           o.race_capacity >= 0 ? static_cast<uint32_t>(o.race_capacity) : capacity_);
    device_.write_register64(regs::kEscalations, escalations_->device_address());
    device_.write_register(regs::kEscCapacity,
                           o.esc_capacity >= 0 ? static_cast<uint32_t>(o.esc_capacity) : esc_per_word() * capacity_);
    device_.write_register64(regs::kBuckets, buckets_->device_address());
    device_.write_register(regs::kBucketBits, o.bucket_bits >= 0 ? static_cast<uint32_t>(o.bucket_bits) : kBucketBits);
    device_.start();
    EXPECT_TRUE(device_.wait(60s));
    const uint32_t status = device_.read_register(regs::kStatus);
    races_written_ = device_.read_register(regs::kRacesWritten);
    escalations_written_ = device_.read_register(regs::kEscalationsWritten);
    words_done_ = device_.read_register(regs::kWordsDone);
    races_->from_device(0, size_t{races_written_} * 64);
    escalations_->from_device(0, size_t{escalations_written_} * caps_.esc_record_bytes);
    words_ = 0;
    return status;
  }
  driver::RaceRecord race(uint32_t i) { return driver::decode_race(races_->host().subspan(i * 64).first<64>()); }
  driver::EscalationRecord escalation(uint32_t i) {
    const size_t bytes = caps_.esc_record_bytes;
    return driver::decode_escalation(escalations_->host().subspan(i * bytes, bytes));
  }
  driver::Line line_of(const driver::EscalationRecord& r) const { return driver::decode_line(r.line, shape_); }
  // Import-line (op 7): the line, and the read clock when `shared` is not 0.
  void import_line(uint64_t granule, const driver::Line& line, unsigned shared, const std::vector<uint64_t>& clock) {
    CommandWord c;
    c.op = regs::kOpImportLine;
    c.granule = granule;
    c.mask = shared;
    command(c);
    driver::encode_line_words(line, shape_, commands_->host().subspan(words_ * 16, shape_.line_words() * 16));
    words_ += shape_.line_words();
    if (shared != 0) {
      std::vector<uint64_t> lanes = clock;
      lanes.resize(shape_.slots, 0);
      driver::encode_row(lanes, shape_, commands_->host().subspan(words_ * 16, shape_.row_words() * 16));
      words_ += shape_.row_words();
    }
  }
  const driver::LineShape& shape() const { return shape_; }

  uint32_t words() const { return words_; }
  driver::Capabilities caps_;
  uint32_t races_written_ = 0, escalations_written_ = 0, words_done_ = 0;

 private:
  driver::Device& device_;
  driver::LineShape shape_;
  uint32_t capacity_;
  // Escalation records per command word the kernel requires (docs/kernel-interface.md).
  uint32_t esc_per_word() const { return caps_.read_vcs > 0 ? 3 : 2; }
  uint32_t words_ = 0;
  std::unique_ptr<driver::Buffer> commands_, races_, escalations_, buckets_;
};

template <typename Backend>
class DeviceRegisters : public ::testing::Test {
 protected:
  void SetUp() override { device_ = driver::open_device(Backend::options()); }
  // Two threads in slots 0 and 1 with unordered clocks ⟨1,0⟩ and ⟨0,1⟩.
  void two_unordered_threads(Harness& h) {
    h.set_row(0, {1, 0});
    h.set_row(1, {0, 1});
  }
  std::unique_ptr<driver::Device> device_;
};
TYPED_TEST_SUITE(DeviceRegisters, Backends, BackendNames);

TYPED_TEST(DeviceRegisters, CapabilitiesDescribeAKernelWithinTheContract) {
  const driver::Capabilities c = this->device_->capabilities();
  EXPECT_EQ(c.magic, regs::kMagic);
  EXPECT_EQ(c.version, regs::kRegMapVersion);
  EXPECT_GE(c.slots, 1u);
  EXPECT_LE(c.slots, 256u);
  EXPECT_GE(c.clock_bits, 1u);
  EXPECT_LE(c.clock_bits, 32u);
  EXPECT_EQ(c.line_bits, (driver::LineShape{c.slots, c.clock_bits, c.read_vcs}.line_bits()));
  EXPECT_EQ(c.esc_record_bytes, (driver::LineShape{c.slots, c.clock_bits, c.read_vcs}.esc_record_bytes()));
  // Both backends have a sync-object store: 64 entries by default on the
  // software model, 16 in the Verilated kernel; and a read-VC pool of 16.
  EXPECT_EQ(c.objects, std::string(TypeParam::kName) == "software" ? 64u : 16u);
  EXPECT_EQ(c.read_vcs, 16u);
  EXPECT_EQ(c.bucket_ways, 4u) << "version 5: buckets of 4 ways on both backends";
  EXPECT_EQ(c.read_vc_ways, 1u) << "version 6: one read clock per line by default on both backends";
}

// Import-line (op 7) runs only on a kernel whose cap_features says so: the
// software model puts the host's line back (its W and R epochs and, with
// shared bytes, its read clock are checked on chip afterwards); the RTL
// kernel does not have it yet and stops at the word (status 1).
// Every backend executes op 7 (the software model and, since the RTL has
// it, the Verilated kernel: cap_features bit 0 in rac_axil_ctrl).
TYPED_TEST(DeviceRegisters, ImportLineRunsOnEveryBackend) {
  Harness h(*this->device_);
  this->two_unordered_threads(h);
  h.access(regs::kOpWrite, 0, 0x40, 0xFF, /*force=*/true);  // the host owns 0x40 now
  driver::Line line;  // slot 0 wrote bytes 0-3 at 1; slot 0 read bytes 4-7 at 1 (shared: the clock)
  for (unsigned b = 0; b < 4; ++b) line.bytes[b] = {false, 0, 1, 0, 0};
  h.import_line(0x40, line, 0xF0, {1, 0});
  ASSERT_TRUE(h.caps_.imports_lines()) << TypeParam::kName << " must advertise import-line";
  EXPECT_TRUE(h.caps_.features & regs::kFeatureImportLine);
  h.access(regs::kOpWrite, 1, 0x40, 0x11);  // byte 0 races with slot 0's write, byte 4 with its read
  ASSERT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  ASSERT_EQ(h.escalations_written_, 1u) << "only the forced write; the import and the write stay on chip";
  EXPECT_EQ(h.escalation(0).reason, regs::kReasonForced);
  ASSERT_EQ(h.races_written_, 1u);
  const driver::RaceRecord r = h.race(0);
  EXPECT_EQ(r.mask, 0x11u);
  EXPECT_EQ(r.kind[0], 0u);  // write-write
  EXPECT_EQ(r.kind[4], 2u);  // read-write, from the imported clock
  EXPECT_EQ(r.prev_slot[4], 0u);
  EXPECT_EQ(r.prev_clock[4], 1u);
  // A batch that ends inside the import's data words stops there (status 3).
  CommandWord c;
  c.op = regs::kOpImportLine;
  c.granule = 0x50;
  h.command(c);  // no data words
  EXPECT_EQ(h.launch(), regs::kStatusTruncated);
  EXPECT_EQ(h.words_done_, 0u);
}

TYPED_TEST(DeviceRegisters, IdleBeforeAndAfterALaunchAndDoneIsConsumed) {
  const uint32_t before = this->device_->read_register(regs::kCtrl);
  EXPECT_TRUE(before & regs::kCtrlIdle);
  EXPECT_FALSE(before & regs::kCtrlStart);
  Harness h(*this->device_);
  this->two_unordered_threads(h);
  EXPECT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  const uint32_t after = this->device_->read_register(regs::kCtrl);
  EXPECT_TRUE(after & regs::kCtrlIdle);
  EXPECT_FALSE(after & regs::kCtrlStart);
  EXPECT_FALSE(after & regs::kCtrlDone) << "wait() consumes ap_done";
  EXPECT_FALSE(this->device_->wait(1ms)) << "no second completion without a second start";
}

TYPED_TEST(DeviceRegisters, UnorderedWritesGiveOneWriteWriteRecord) {
  Harness h(*this->device_);
  this->two_unordered_threads(h);
  const uint32_t first = h.words();
  h.access(regs::kOpWrite, 0, 0x1000, 0x0F);
  h.access(regs::kOpWrite, 1, 0x1000, 0x3C);  // bytes 2 and 3 overlap
  EXPECT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  EXPECT_EQ(h.words_done_, first + 2);
  ASSERT_EQ(h.races_written_, 1u);
  EXPECT_EQ(h.escalations_written_, 0u);
  const driver::RaceRecord r = h.race(0);
  EXPECT_EQ(r.word, first + 1);
  EXPECT_EQ(r.granule, 0x1000u);
  EXPECT_EQ(r.mask, 0x0Cu);
  for (unsigned b : {2u, 3u}) {
    EXPECT_EQ(r.kind[b], 0u);  // write-write
    EXPECT_EQ(r.prev_slot[b], 0u);
    EXPECT_EQ(r.prev_clock[b], 1u);
  }
}

// Ops 9 and 10 (version 7, cap_features bit 1) on every backend: an atomic
// write checks the last plain write and the plain reads, an atomic read the
// last plain write; neither records anything, so atomic accesses of
// unordered slots never race with each other or with a later plain access
// on chip (the host checks those against its atomic history).
TYPED_TEST(DeviceRegisters, AtomicOpsCheckOnlyThePlainHistoryOnEveryBackend) {
  Harness h(*this->device_);
  ASSERT_TRUE(h.caps_.checks_atomics()) << TypeParam::kName << " must advertise ops 9-10";
  this->two_unordered_threads(h);
  const uint32_t first = h.words();
  h.access(regs::kOpWrite, 0, 0x2000, 0x01);        // byte 0: slot 0's write
  h.access(regs::kOpRead, 0, 0x2000, 0x02);         // byte 1: slot 0's read
  h.access(regs::kOpAtomicWrite, 1, 0x2000, 0x03);  // write-write on 0, read-write on 1
  h.access(regs::kOpAtomicRead, 1, 0x2000, 0x01);   // byte 0 raced already: nothing
  h.access(regs::kOpWrite, 0, 0x2008, 0x01);        //
  h.access(regs::kOpAtomicRead, 1, 0x2008, 0x01);   // write-read
  h.access(regs::kOpAtomicWrite, 1, 0x2010, 0xF0);  // nothing to check, nothing recorded
  h.access(regs::kOpAtomicRead, 0, 0x2010, 0xF0);   // atomic vs atomic: no race
  h.access(regs::kOpWrite, 0, 0x2010, 0xF0);        // the chip holds no atomic history: no race
  ASSERT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  EXPECT_EQ(h.words_done_, first + 9);
  EXPECT_EQ(h.escalations_written_, 0u);
  ASSERT_EQ(h.races_written_, 2u);
  const driver::RaceRecord a = h.race(0);
  EXPECT_EQ(a.word, first + 2);
  EXPECT_EQ(a.mask, 0x03u);
  EXPECT_EQ(a.kind[0], 0u);  // write-write
  EXPECT_EQ(a.kind[1], 2u);  // read-write
  EXPECT_EQ(a.prev_slot[1], 0u);
  EXPECT_EQ(a.prev_clock[1], 1u);
  const driver::RaceRecord b = h.race(1);
  EXPECT_EQ(b.word, first + 5);
  EXPECT_EQ(b.mask, 0x01u);
  EXPECT_EQ(b.kind[0], 1u);  // write-read
  // A forced atomic access escalates with the line, as a forced write does.
  h.access(regs::kOpAtomicWrite, 1, 0x2018, 0x01, /*force=*/true);
  ASSERT_EQ(h.launch(), regs::kStatusOk);
  ASSERT_EQ(h.escalations_written_, 1u);
  EXPECT_EQ(h.escalation(0).reason, regs::kReasonForced);
  // Ops 11-15 stay reserved.
  h.access(11, 0, 0x2020, 0x01);
  EXPECT_EQ(h.launch(), regs::kStatusBadOp);
}

TYPED_TEST(DeviceRegisters, OrderedAccessesRaceNotAndStatePersistsAcrossLaunches) {
  Harness h(*this->device_);
  this->two_unordered_threads(h);
  h.access(regs::kOpWrite, 0, 0x20, 0xFF);
  ASSERT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  EXPECT_EQ(h.races_written_, 0u);
  // Next launch: slot 1 has seen slot 0's write (row ⟨1,1⟩): no race; then
  // slot 0 reads without having seen slot 1's write: a write-read race,
  // found only if the line survived from launch to launch.
  h.set_row(1, {1, 1});
  h.access(regs::kOpWrite, 1, 0x20, 0x01);
  ASSERT_EQ(h.launch(), regs::kStatusOk);
  EXPECT_EQ(h.races_written_, 0u);
  h.access(regs::kOpRead, 0, 0x20, 0x01);
  ASSERT_EQ(h.launch(), regs::kStatusOk);
  ASSERT_EQ(h.races_written_, 1u);
  EXPECT_EQ(h.race(0).kind[0], 1u);  // write-read
  EXPECT_EQ(h.race(0).prev_slot[0], 1u);
  // clear_state forgets every line and row.
  this->two_unordered_threads(h);
  h.access(regs::kOpRead, 0, 0x20, 0x01);
  ASSERT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  EXPECT_EQ(h.races_written_, 0u);
}

TYPED_TEST(DeviceRegisters, ForcedCommandEscalatesWithTheLineAndTheLineStaysWithTheHost) {
  Harness h(*this->device_);
  this->two_unordered_threads(h);
  const uint32_t write_word = h.words();
  h.access(regs::kOpWrite, 0, 0x77, 0x01);
  h.access(regs::kOpRead, 0, 0x77, 0x01, /*force=*/true);
  h.access(regs::kOpWrite, 1, 0x77, 0x01);  // the line is the host's now: escalates, no race record
  ASSERT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  EXPECT_EQ(h.races_written_, 0u);
  ASSERT_EQ(h.escalations_written_, 2u);
  const driver::EscalationRecord forced = h.escalation(0);
  EXPECT_EQ(forced.word, write_word + 1);
  EXPECT_EQ(forced.granule, 0x77u);
  EXPECT_EQ(forced.reason, regs::kReasonForced);
  const driver::Line line = h.line_of(forced);
  EXPECT_FALSE(line.in_software);
  EXPECT_EQ(line.bytes[0].w_slot, 0u);
  EXPECT_EQ(line.bytes[0].w_clock, 1u);
  const driver::EscalationRecord next = h.escalation(1);
  EXPECT_EQ(next.word, write_word + 2);
  EXPECT_EQ(next.reason, regs::kReasonInSoftware);
  // A full free reclaims the granule for the hardware.
  h.access(regs::kOpFree, 0, 0x77, 0xFF);
  h.access(regs::kOpWrite, 0, 0x77, 0x01);
  ASSERT_EQ(h.launch(), regs::kStatusOk);
  ASSERT_EQ(h.escalations_written_, 1u);
  EXPECT_EQ(h.escalation(0).reason, regs::kReasonReclaim);
  EXPECT_EQ(h.races_written_, 0u);
}

// Concurrent reads of byte 0 take a read clock from the pool (no record);
// byte 1 then becomes shared with a different read history, which one
// clock per line cannot hold: READ SHARE goes to the host, with the line
// (shared mask) and its clock.
TYPED_TEST(DeviceRegisters, ConcurrentReadsTakeAPoolClockThenEscalateAsReadShare) {
  Harness h(*this->device_);
  this->two_unordered_threads(h);
  h.access(regs::kOpRead, 0, 0x40, 0x01);
  h.access(regs::kOpRead, 1, 0x40, 0x03);  // byte 0: READ SHARE, allocated; byte 1: R := (1, 1)
  const uint32_t third = h.words();
  h.access(regs::kOpRead, 0, 0x40, 0x02);  // byte 1: a second READ SHARE on the line
  ASSERT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  ASSERT_EQ(h.escalations_written_, 1u);
  const driver::EscalationRecord e = h.escalation(0);
  EXPECT_EQ(e.word, third);
  EXPECT_EQ(e.reason, regs::kReasonReadShare);
  const driver::Line line = h.line_of(e);
  EXPECT_EQ(line.shared, 0x01u);  // the state before the command
  EXPECT_EQ(line.bytes[0].r_clock, 0u) << "a shared byte's reads are the clock's";
  EXPECT_EQ(line.bytes[1].r_slot, 1u);
  EXPECT_EQ(line.bytes[1].r_clock, 1u);
  ASSERT_TRUE(e.read_clock_valid);
  const std::vector<uint64_t> clock = driver::decode_row(e.read_clock, h.shape());
  EXPECT_EQ(clock[0], 1u);
  EXPECT_EQ(clock[1], 1u);
}

TYPED_TEST(DeviceRegisters, ReservedOpStopsTheBatchAtThatWord) {
  Harness h(*this->device_);
  this->two_unordered_threads(h);
  h.access(regs::kOpWrite, 0, 0x10, 0x01);
  h.access(regs::kOpWrite, 1, 0x10, 0x01);  // races: its record is complete
  const uint32_t bad = h.words();
  h.access(11, 0, 0x10, 0x01);  // reserved (9 and 10 are the atomic accesses of version 7)
  h.access(regs::kOpWrite, 1, 0x11, 0x01);
  EXPECT_EQ(h.launch({.clear = true}), regs::kStatusBadOp);
  EXPECT_EQ(h.words_done_, bad);
  EXPECT_EQ(h.races_written_, 1u);
}

TYPED_TEST(DeviceRegisters, SlotBeyondTheCapabilitiesIsABadOp) {
  Harness h(*this->device_);
  ASSERT_LT(h.caps_.slots, 256u) << "with 256 slots every 8-bit slot is valid";
  h.access(regs::kOpRead, h.caps_.slots, 0x10, 0x01);
  EXPECT_EQ(h.launch({.clear = true}), regs::kStatusBadOp);
  EXPECT_EQ(h.words_done_, 0u);
}

TYPED_TEST(DeviceRegisters, BadArgumentsStopBeforeAnyWord) {
  Harness h(*this->device_);
  const auto expect_bad = [&](const Overrides& o, const char* what) {
    h.access(regs::kOpWrite, 0, 0x10, 0x01);
    h.access(regs::kOpWrite, 0, 0x11, 0x01);
    EXPECT_EQ(h.launch(o), regs::kStatusBadArgs) << what;
    EXPECT_EQ(h.words_done_, 0u) << what;
    EXPECT_EQ(h.races_written_ + h.escalations_written_, 0u) << what;
  };
  expect_bad({.race_capacity = 1}, "race capacity below the words");
  expect_bad({.esc_capacity = 3}, "escalation capacity below 2 (3 with a pool) records per word");
  expect_bad({.bucket_bits = 0}, "bucket_bits 0");
  expect_bad({.bucket_bits = 31}, "bucket_bits 31");
  expect_bad({.commands_offset = 8}, "commands not 16-byte aligned");
}

TYPED_TEST(DeviceRegisters, BatchEndingInsideASetRowIsTruncated) {
  Harness h(*this->device_);
  h.set_row(0, {1});
  const uint32_t complete = h.words();
  CommandWord c;
  c.op = regs::kOpSetRow;
  h.command(c);  // a set-row whose data words are missing
  EXPECT_EQ(h.launch({.clear = true}), regs::kStatusTruncated);
  EXPECT_EQ(h.words_done_, complete);
}

TYPED_TEST(DeviceRegisters, StatisticsAreCumulative) {
  Harness h(*this->device_);
  const driver::Statistics before = this->device_->statistics();
  this->two_unordered_threads(h);
  h.access(regs::kOpWrite, 0, 0x500, 0x01);
  h.access(regs::kOpWrite, 1, 0x500, 0x01);
  h.access(regs::kOpFree, 0, 0x500, 0xFF);
  ASSERT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  const driver::Statistics after = this->device_->statistics();
  EXPECT_EQ(after.commands - before.commands, 5u);  // two set-rows, two writes, one free
  EXPECT_EQ(after.accesses - before.accesses, 2u);
  EXPECT_EQ(after.races - before.races, 1u);
  EXPECT_GE(after.cycles, after.busy_cycles);
}

TYPED_TEST(DeviceRegisters, BackToBackLaunchesEachComplete) {
  Harness h(*this->device_);
  this->two_unordered_threads(h);
  ASSERT_EQ(h.launch({.clear = true}), regs::kStatusOk);
  for (uint64_t i = 0; i < 20; ++i) {
    h.access(regs::kOpWrite, i % 2, 0x900 + i, 0xFF);
    ASSERT_EQ(h.launch(), regs::kStatusOk) << "launch " << i;
    EXPECT_EQ(h.words_done_, 1u);
  }
}

}  // namespace
}  // namespace raceaccel::test
