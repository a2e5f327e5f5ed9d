// rac_axil_ctrl under Verilator: the s_axi_control AXI4-Lite register file
// of rac_kernel, driven by the AXI4-Lite master model (sim::AxiLiteMaster:
// seeded idle cycles before AR/AW/W, RREADY/BREADY stalls; it flags a
// response other than OKAY and a response without a request).
//
// Reference model: a map of the argument registers written with byte
// strobes (RegModel), the ap_ctrl_hs bits and the interrupt status as
// docs/kernel-interface.md defines them, the capability constants, 0 for
// unmapped offsets, and 64-bit statistics read consistently low word first.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "Vrac_axil_ctrl.h"
#include "axi_block_bench.hpp"
#include "axil_master_model.hpp"
#include "driver/rac_kernel_regs.hpp"
#include "rtl_harness.hpp"

namespace {

namespace regs = raceaccel::regs;
using raceaccel::sim::AxiLiteMaster;
using raceaccel::sim::AxiLitePins;

struct CtrlBench {
  rac_rtl::Harness<Vrac_axil_ctrl> h;
  std::unique_ptr<AxiLiteMaster> master;

  CtrlBench(uint64_t seed, unsigned idle, unsigned stall)
      : h(::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    AxiLitePins p;
    p.awvalid = &h->awvalid_i;
    p.awready = &h->awready_o;
    p.awaddr = &h->awaddr_i;
    p.wvalid = &h->wvalid_i;
    p.wready = &h->wready_o;
    p.wdata = &h->wdata_i;
    p.wstrb = &h->wstrb_i;
    p.bvalid = &h->bvalid_o;
    p.bready = &h->bready_i;
    p.bresp = &h->bresp_o;
    p.arvalid = &h->arvalid_i;
    p.arready = &h->arready_o;
    p.araddr = &h->araddr_i;
    p.rvalid = &h->rvalid_o;
    p.rready = &h->rready_i;
    p.rresp = &h->rresp_o;
    p.rdata = &h->rdata_o;
    master = std::make_unique<AxiLiteMaster>(p, seed, idle, stall);
    h->take_i = 0;
    h->done_i = 0;
    h.reset();
  }

  void cycle() {
    master->drive();
    h.eval();
    master->sample();
    h.tick();
    h->take_i = 0;
    h->done_i = 0;
  }
  void finish() {
    for (unsigned i = 0; i < 1000 && !master->done(); ++i) cycle();
    ASSERT_TRUE(master->done()) << "AXI4-Lite transaction hung";
  }
  void write(uint32_t addr, uint32_t v, uint8_t strobe = 0xF) {
    master->start_write(addr, v, strobe);
    finish();
  }
  uint32_t read(uint32_t addr) {
    master->start_read(addr);
    finish();
    return master->read_data();
  }
};

// The argument registers with their offsets and the RTL outputs they drive.
const std::map<uint32_t, const char*> kArgs = {
    {regs::kCommands, "commands lo"},  {regs::kCommands + 4, "commands hi"}, {regs::kCommandWords, "words"},
    {regs::kFlags, "flags"},           {regs::kRaces, "races lo"},           {regs::kRaces + 4, "races hi"},
    {regs::kRaceCapacity, "race cap"}, {regs::kEscalations, "esc lo"},       {regs::kEscalations + 4, "esc hi"},
    {regs::kEscCapacity, "esc cap"},   {regs::kBuckets, "buckets lo"},       {regs::kBuckets + 4, "buckets hi"},
    {regs::kBucketBits, "bucket bits"}};

// Random writes with random strobes to every argument, under three timing
// mixes: each reads back as the strobe-merged model value and drives the
// kernel-side output; every response is OKAY.
TEST(AxilCtrl, ArgumentsFollowTheStrobeMergedModel) {
  const unsigned mixes[][2] = {{0, 0}, {30, 30}, {80, 70}};
  unsigned seed = 1;
  for (const auto& mix : mixes) {
    CtrlBench b(seed, mix[0], mix[1]);
    rac_rtl::Coin c(seed++);
    std::map<uint32_t, uint32_t> model;
    for (const auto& [addr, name] : kArgs) model[addr] = 0;
    for (unsigned i = 0; i < 200; ++i) {
      auto it = std::next(kArgs.begin(), static_cast<long>(c.below(kArgs.size())));
      const uint32_t v = static_cast<uint32_t>(c.bits());
      const uint8_t strobe = static_cast<uint8_t>(c.below(16));
      b.write(it->first, v, strobe);
      uint32_t& m = model[it->first];
      for (unsigned byte = 0; byte < 4; ++byte) {
        if (strobe >> byte & 1) m = (m & ~(0xFFu << 8 * byte)) | (v & 0xFFu << 8 * byte);
      }
      const uint32_t probe = std::next(kArgs.begin(), static_cast<long>(c.below(kArgs.size())))->first;
      ASSERT_EQ(b.read(probe), model[probe]) << kArgs.at(probe) << " after write " << i;
    }
    EXPECT_EQ(b.h->commands_o, uint64_t{model[regs::kCommands + 4]} << 32 | model[regs::kCommands]);
    EXPECT_EQ(b.h->command_words_o, model[regs::kCommandWords]);
    EXPECT_EQ(b.h->races_o, uint64_t{model[regs::kRaces + 4]} << 32 | model[regs::kRaces]);
    EXPECT_EQ(b.h->esc_capacity_o, model[regs::kEscCapacity]);
    EXPECT_EQ(b.h->buckets_o, uint64_t{model[regs::kBuckets + 4]} << 32 | model[regs::kBuckets]);
    EXPECT_EQ(b.h->bucket_bits_o, model[regs::kBucketBits]);
    for (const std::string& v : b.master->violations()) ADD_FAILURE() << v;
    EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
  }
}

// Read-only and unmapped offsets: writes change nothing, unmapped reads 0,
// capabilities are the constants; results come from the kernel's inputs.
TEST(AxilCtrl, ReadOnlyUnmappedAndCapabilities) {
  CtrlBench b(9, 25, 25);
  b.h->status_i = regs::kStatusBusError | regs::kStatusBusErrorMeta;
  b.h->words_done_i = 1234;
  b.write(regs::kStatus, 0);
  b.write(0x7F0, 0xFFFFFFFF);
  EXPECT_EQ(b.read(regs::kStatus), regs::kStatusBusError | regs::kStatusBusErrorMeta);
  EXPECT_EQ(b.read(regs::kWordsDone), 1234u);
  EXPECT_EQ(b.read(0x7F0), 0u);
  EXPECT_EQ(b.read(0x50), 0u);
  EXPECT_EQ(b.read(regs::kCapMagic), regs::kMagic);
  EXPECT_EQ(b.read(regs::kCapVersion), regs::kRegMapVersion);
  for (const std::string& v : b.master->violations()) ADD_FAILURE() << v;
  EXPECT_EQ(b.h.errors(), 0);
}

// ap_start set by the host and cleared by take; ap_idle low from take to
// done; ap_done/ap_ready set by done and cleared by the read that sees
// them; ISR bits set by done when enabled, toggled by writes of 1; the
// interrupt is GIE and any ISR bit.
TEST(AxilCtrl, ApCtrlHandshakeAndInterrupts) {
  CtrlBench b(11, 20, 20);
  EXPECT_EQ(b.read(regs::kCtrl), regs::kCtrlIdle);
  b.write(regs::kIer, 3);
  b.write(regs::kGie, 1);
  b.write(regs::kCtrl, regs::kCtrlStart);
  EXPECT_EQ(b.read(regs::kCtrl), regs::kCtrlStart | regs::kCtrlIdle);
  b.h->take_i = 1;
  b.cycle();
  EXPECT_EQ(b.read(regs::kCtrl), 0u);
  EXPECT_FALSE(b.h->interrupt_o);
  b.h->done_i = 1;
  b.cycle();
  b.h.eval();
  EXPECT_TRUE(b.h->interrupt_o);
  EXPECT_EQ(b.read(regs::kIsr), 3u);
  EXPECT_EQ(b.read(regs::kCtrl), regs::kCtrlDone | regs::kCtrlIdle | regs::kCtrlReady);
  EXPECT_EQ(b.read(regs::kCtrl), regs::kCtrlIdle) << "done and ready clear on read";
  b.write(regs::kIsr, 1);
  EXPECT_EQ(b.read(regs::kIsr), 2u);
  b.write(regs::kIsr, 2);
  b.h.eval();
  EXPECT_FALSE(b.h->interrupt_o);
  for (const std::string& v : b.master->violations()) ADD_FAILURE() << v;
  EXPECT_EQ(b.h.errors(), 0);
}

// GIE and IER live in byte 0: a write without byte 0's strobe leaves them
// as they were (found by the mutant campaign: no test wrote them with
// byte 0's strobe off).
TEST(AxilCtrl, GieAndIerFollowByteZerosStrobe) {
  CtrlBench b(12, 10, 10);
  b.write(regs::kIer, 3, 0xE);
  b.write(regs::kGie, 1, 0xE);
  EXPECT_EQ(b.read(regs::kIer), 0u);
  EXPECT_EQ(b.read(regs::kGie), 0u);
  b.write(regs::kIer, 2, 0x1);
  b.write(regs::kGie, 1, 0x1);
  EXPECT_EQ(b.read(regs::kIer), 2u);
  EXPECT_EQ(b.read(regs::kGie), 1u);
  b.write(regs::kIer, 1, 0x2);
  b.write(regs::kGie, 0, 0x8);
  EXPECT_EQ(b.read(regs::kIer), 2u);
  EXPECT_EQ(b.read(regs::kGie), 1u);
  for (const std::string& v : b.master->violations()) ADD_FAILURE() << v;
  EXPECT_EQ(b.h.errors(), 0);
}

// A 64-bit statistic read low word first is one value even when the
// counter carries into the high word between the two reads; a high word
// read without its low word first is the live value.
TEST(AxilCtrl, SixtyFourBitStatisticsAreConsistent) {
  CtrlBench b(13, 30, 30);
  b.h->stat_cycles_i = 0xFFFF'FFF0ull;
  b.h->stat_races_i = 0x7'0000'0001ull;
  EXPECT_EQ(b.read(regs::kStatCycles), 0xFFFF'FFF0u);
  b.h->stat_cycles_i = 0x1'0000'0005ull;  // carried between the reads
  EXPECT_EQ(b.read(regs::kStatCycles + 4), 0u) << "the high word latched with the low word";
  EXPECT_EQ(b.read(regs::kStatRaces + 4), 7u) << "no low word read first: live";
  EXPECT_EQ(b.read(regs::kStatRaces), 1u);
  EXPECT_EQ(b.read(regs::kStatCycles + 4), 1u) << "another statistic's low word moved the latch";
  for (const std::string& v : b.master->violations()) ADD_FAILURE() << v;
  EXPECT_EQ(b.h.errors(), 0);
}

}  // namespace
