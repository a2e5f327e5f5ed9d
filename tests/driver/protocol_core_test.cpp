// The protocol core (host/offload/protocol_core.hpp) on scripted transports,
// without any device: a transport that decides nothing on chip — every
// access escalated with a fresh line, every full free a reclaim — turns the
// core into a pure host checker, which must equal DJIT+ whether records
// come back at once (as from the cycle-level engine) or a batch at a time
// (as from a Device). And records that break the contract are Protocol
// errors.
#include <gtest/gtest.h>

#include <deque>
#include <string>

#include "../common/race_keys.hpp"
#include "detect/djit.hpp"
#include "driver/device.hpp"
#include "driver/rac_kernel_regs.hpp"
#include "gen/generator.hpp"
#include "offload/protocol_core.hpp"

namespace raceaccel::offload {
namespace {

// Answers every read, write and free with the record an engine that keeps
// nothing would write: accesses forced to the host with an all-zero (fresh)
// line, full frees a reclaim, partial frees an in-software escalation.
class EscalateEverything final : public Transport {
 public:
  // batch = 0: records at once, inside send(); otherwise after every
  // `batch` commands and on flush().
  explicit EscalateEverything(size_t batch) : batch_(batch) {}
  void connect(RecordSink& sink) override { sink_ = &sink; }
  std::string_view name() const override { return "scripted transport"; }
  void send(const driver::CommandWord& word, uint64_t number, std::span<const uint64_t>) override {
    ++commands_;
    next_ = number + 1;
    if (word.op <= regs::kOpFree) {
      driver::EscalationRecord r;
      r.word = number;
      r.granule = word.granule;
      r.reason = word.op == regs::kOpFree ? (word.mask == 0xFF ? regs::kReasonReclaim : regs::kReasonInSoftware)
                                          : regs::kReasonForced;
      pending_.push_back(r);
    }
    if (batch_ == 0 || ++in_batch_ >= batch_) flush();
  }
  void flush() override {
    while (!pending_.empty()) {
      sink_->on_escalation(pending_.front());
      pending_.pop_front();
    }
    in_batch_ = 0;
    ++answers_;
    sink_->answered(next_);
  }
  uint64_t commands() const { return commands_; }
  uint64_t answers() const { return answers_; }

 private:
  size_t batch_;
  size_t in_batch_ = 0;
  RecordSink* sink_ = nullptr;
  std::deque<driver::EscalationRecord> pending_;
  uint64_t next_ = 0, commands_ = 0, answers_ = 0;
};

TEST(ProtocolCore, HostOnlyAnswersEqualDjitWhateverTheRecordTiming) {
  uint64_t races = 0, atomic_races = 0;
  for (const size_t batch : {size_t{0}, size_t{1}, size_t{37}, size_t{4096}}) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      GeneratorOptions g;
      g.seed = seed * 101 + batch;
      g.threads = 2 + static_cast<uint32_t>(seed % 7);
      g.events = 3000;
      g.atomic_mixing = seed % 2 == 0;
      TraceGenerator generator(g);
      DjitDetector golden;
      EscalateEverything transport(batch);
      // 4 slots: threads beyond them are slotless, as on a small device.
      ProtocolCore core(transport, driver::LineShape{4, 16, 0}, 2);
      Event e;
      for (uint64_t index = 0; generator.next(e); ++index) {
        golden.process(e, index);
        core.process(e, index);
      }
      core.finish();
      ASSERT_EQ(test::race_keys(golden.races()), test::race_keys(core.races()))
          << "seed " << g.seed << ", records every " << batch << " commands";
      // Earlier writes are unique: their thread, clock and site must agree too.
      std::vector<Race> expected = golden.races(), actual = core.races();
      const auto by_key = [](const Race& a, const Race& b) {
        return std::tie(a.addr, a.event) < std::tie(b.addr, b.event);
      };
      std::sort(expected.begin(), expected.end(), by_key);
      std::sort(actual.begin(), actual.end(), by_key);
      for (size_t i = 0; i < expected.size(); ++i) {
        if (expected[i].kind == RaceKind::ReadWrite) continue;
        EXPECT_EQ(expected[i].prev_tid, actual[i].prev_tid) << "byte " << expected[i].addr;
        EXPECT_EQ(expected[i].prev_site, actual[i].prev_site) << "byte " << expected[i].addr;
        EXPECT_EQ(expected[i].prev_atomic, actual[i].prev_atomic) << "byte " << expected[i].addr;
      }
      races += expected.size();
      for (const Race& r : expected) atomic_races += r.atomic || r.prev_atomic ? 1 : 0;
      EXPECT_EQ(core.stats().device_races, 0u);
      EXPECT_GT(core.stats().escalations, 0u);
      if (batch != 0) {
        EXPECT_GT(transport.answers(), transport.commands() / (batch + 1));
      }
    }
  }
  EXPECT_GT(races, 100u);
  EXPECT_GT(atomic_races, 0u);
}

// A transport that delivers whatever record the test scripts, at once.
class Scripted final : public Transport {
 public:
  void connect(RecordSink& sink) override { sink_ = &sink; }
  std::string_view name() const override { return "scripted transport"; }
  void send(const driver::CommandWord&, uint64_t number, std::span<const uint64_t>) override { last_ = number; }
  void flush() override { sink_->answered(last_ + 1); }
  RecordSink* sink_ = nullptr;
  uint64_t last_ = 0;
};

std::string protocol_error_of(const std::function<void(Scripted&, ProtocolCore&)>& script) {
  Scripted transport;
  ProtocolCore core(transport, driver::LineShape{4, 16, 0}, 0);
  core.process(Event::write(0, 0x100, 8), 0);  // command 0 (after thread 0's set-row, if any)
  try {
    script(transport, core);
  } catch (const driver::DeviceError& err) {
    EXPECT_EQ(err.kind(), driver::DeviceErrorKind::Protocol);
    return err.what();
  }
  return "";
}

TEST(ProtocolCore, RecordsThatBreakTheContractAreProtocolErrors) {
  // A record for a command never sent.
  EXPECT_NE(protocol_error_of([](Scripted& t, ProtocolCore&) {
              driver::EscalationRecord r;
              r.word = t.last_ + 5;
              r.reason = regs::kReasonForced;
              t.sink_->on_escalation(r);
            }).find("escalation record for command"),
            std::string::npos);
  // An escalation naming another granule than its command's.
  EXPECT_NE(protocol_error_of([](Scripted& t, ProtocolCore&) {
              driver::EscalationRecord r;
              r.word = t.last_;
              r.granule = 0x999;
              r.reason = regs::kReasonForced;
              t.sink_->on_escalation(r);
            }).find("not its command's"),
            std::string::npos);
  // A race record for a command already answered.
  EXPECT_NE(protocol_error_of([](Scripted& t, ProtocolCore& core) {
              core.finish();
              driver::RaceRecord r;
              r.word = t.last_;
              r.granule = 0x100 >> 3;
              r.mask = 1;
              t.sink_->on_race(r);
            }).find("race record for command"),
            std::string::npos);
  // An unknown reason; the message names the transport.
  const std::string unknown = protocol_error_of([](Scripted& t, ProtocolCore&) {
    driver::EscalationRecord r;
    r.word = t.last_;
    r.granule = 0x100 >> 3;
    r.reason = 7;
    t.sink_->on_escalation(r);
  });
  EXPECT_NE(unknown.find("scripted transport: escalation reason 7"), std::string::npos) << unknown;
}

}  // namespace
}  // namespace raceaccel::offload
