// rac_record_writer under Verilator: the m_axi write master of the race and
// escalation records. Built once per record size (RecBytes 64: one beat;
// 192: the escalation record with an 8 x 32 read clock, three beats that
// can cross 4 KB; 1152: the largest, 18 beats; tests/rtl/CMakeLists.txt),
// every test against the AXI memory model (seeded latency, AWREADY/WREADY
// stalls, BVALID gaps; the AW/W rules and WLAST checked) with seeded
// REC_VALID gaps on the bench's side.
//
// Reference model: record n of a batch lands whole at base + n * RecBytes,
// count_o counts the records taken, and idle_o rises only when every burst
// has its B response (so the records are in memory).
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "Vrac_record_writer.h"
#include "axi_block_bench.hpp"
#include "rtl_harness.hpp"
#include "sparse_memory.hpp"

namespace {

using raceaccel::sim::AxiMasterPins;
using raceaccel::sim::AxiSlaveModel;
using raceaccel::sim::BusTiming;
using raceaccel::sim::SparseMemory;

constexpr unsigned kRecBytes = WR_REC_BYTES;
constexpr unsigned kBeats = kRecBytes / 64;
using Record = std::vector<std::byte>;

struct WriterBench {
  rac_rtl::Harness<Vrac_record_writer> h;
  SparseMemory memory;
  std::unique_ptr<AxiSlaveModel> slave;
  rac_rtl::Coin coin;
  unsigned bus_errors = 0;

  WriterBench(const BusTiming& t, uint64_t seed)
      : h(::testing::UnitTest::GetInstance()->current_test_info()->name()), coin(seed) {
    AxiMasterPins pins;
    RAC_BLOCK_BIND_WRITE(pins, h.dut());
    slave = std::make_unique<AxiSlaveModel>("m_axi_rec", pins, memory, t);
    h->start_i = 0;
    h->rec_valid_i = 0;
    h.reset();
  }

  void cycle() {
    slave->drive();
    h.eval();
    slave->sample(h.cycles());
    if (h->bus_error_o) ++bus_errors;
    h.tick();
    h->start_i = 0;
  }

  void start(uint64_t base, uint32_t capacity) {
    h->start_i = 1;
    h->base_i = base;
    h->capacity_i = capacity;
    cycle();
  }

  // Offers the records with REC_VALID gaps (valid held, data unchanged,
  // until taken), then waits for idle; false on a hang.
  bool write(const std::vector<Record>& records, unsigned gap_percent, uint64_t limit = 500'000) {
    size_t next = 0;
    for (uint64_t i = 0; i < limit; ++i) {
      if (!h->rec_valid_i && next < records.size() && !coin(gap_percent)) {
        h->rec_valid_i = 1;
        std::memcpy(h->rec_data_i.data(), records[next].data(), kRecBytes);
      }
      h.eval();
      const bool taken = h->rec_valid_i && h->rec_ready_o;
      cycle();
      if (taken) {
        h->rec_valid_i = 0;
        ++next;
      }
      h.eval();
      if (next == records.size() && h->idle_o && !slave->busy()) return true;
    }
    return false;
  }
};

std::vector<Record> random_records(size_t n, uint64_t seed) {
  rac_rtl::Coin c(seed);
  std::vector<Record> out(n, Record(kRecBytes));
  for (Record& r : out) {
    for (auto& b : r) b = static_cast<std::byte>(c.bits());
  }
  return out;
}

Record at(const SparseMemory& m, uint64_t addr) {
  Record r(kRecBytes);
  m.read(addr, r);
  return r;
}

// Batches that start at a page boundary and just before one (several-beat
// records then cross 4 KB and are split), under three bus timings and
// three REC_VALID gap rates: every record lands whole at its place, count
// and idle are right, no AXI rule is broken.
TEST(RecordWriter, WritesEveryRecordInPlaceUnderIdleAndBackPressure) {
  const BusTiming timings[] = {rac_rtl::timing(1, 0, 1), rac_rtl::timing(2, 30, 8), rac_rtl::timing(3, 75, 24)};
  const unsigned gaps[] = {0, 40, 90};
  for (unsigned t = 0; t < 3; ++t) {
    WriterBench b(timings[t], 50 + t);
    uint64_t bursts = 0;
    for (const uint64_t base : {0x7'0000'0000ull, 0x7'0000'1000ull - 64, 0x7'0002'0000ull - 64 * (kBeats + 1)}) {
      SCOPED_TRACE("base " + std::to_string(base % 4096) + " timing " + std::to_string(t));
      const size_t n = 40;
      const std::vector<Record> records = random_records(n, base + t);
      b.start(base, static_cast<uint32_t>(n));
      ASSERT_TRUE(b.write(records, gaps[t])) << "writer hung";
      EXPECT_EQ(b.h->count_o, n);
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(at(b.memory, base + kRecBytes * i), records[i]) << "record " << i;
      // One burst per record, or one per beat where the record crosses 4 KB.
      for (size_t i = 0; i < n; ++i) {
        const uint64_t a = base + kRecBytes * i;
        bursts += (a % 4096) + kRecBytes > 4096 ? kBeats : 1;
      }
      EXPECT_EQ(b.slave->stats().write_bursts, bursts);
    }
    for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
    EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
    EXPECT_EQ(b.bus_errors, 0u);
  }
}

// A new batch restarts the count and the address.
TEST(RecordWriter, StartRestartsCountAndAddress) {
  WriterBench b(rac_rtl::timing(7, 20, 5), 7);
  const std::vector<Record> first = random_records(5, 1), second = random_records(3, 2);
  b.start(0x10000, 8);
  ASSERT_TRUE(b.write(first, 20));
  b.start(0x20000, 8);
  ASSERT_TRUE(b.write(second, 20));
  EXPECT_EQ(b.h->count_o, 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(at(b.memory, 0x20000 + kRecBytes * i), second[i]);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(at(b.memory, 0x10000 + kRecBytes * i), first[i]);
  for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
}

// The writer keeps a record's address as a 4 KB page (a counter whose
// carries between its 16-bit chunks are registered) and a 12-bit offset:
// batches whose records end exactly at a page's end (the next starts a
// page), and whose pages carry into the counter's second, third and fourth
// chunk (addresses 2^28, 2^44, 2^60) and across 2^32. Each batch is
// checked record by record, and no record lands anywhere else: a wrong page
// would leave its place empty.
TEST(RecordWriter, PageAndHighAddressCarries) {
  WriterBench b(rac_rtl::timing(11, 25, 6), 11);
  const size_t n = 24;
  // Record 9 ends exactly at the end of the page (and of the chunk); the
  // ones after it start the next page.
  const uint64_t bases[] = {(1ull << 28) - kRecBytes * 10, (1ull << 32) - kRecBytes * 10, (1ull << 44) - kRecBytes * 10,
                            (1ull << 60) - kRecBytes * 10,
                            // a page end inside the batch that is not a chunk's
                            0x3'0000'5000ull - kRecBytes * 10,
                            // a start 64 bytes before the chunk's end: a
                            // several-beat record crosses it split
                            (1ull << 44) - 64};
  for (const uint64_t base : bases) {
    SCOPED_TRACE("base " + std::to_string(base));
    const std::vector<Record> records = random_records(n, base);
    b.start(base, static_cast<uint32_t>(n));
    ASSERT_TRUE(b.write(records, 30)) << "writer hung";
    EXPECT_EQ(b.h->count_o, n);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(at(b.memory, base + kRecBytes * i), records[i]) << "record " << i;
  }
  // No record landed anywhere else: the memory's 4 KB pages are exactly the
  // ones the batches cover.
  std::set<uint64_t> pages;
  for (const uint64_t base : bases) {
    for (uint64_t a = base; a < base + n * kRecBytes; a += 64) pages.insert(a / 4096);
  }
  EXPECT_EQ(b.memory.pages(), pages.size());
  for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
  EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
}

// SLVERR and DECERR B responses: bus_error_o once per failed burst, the
// writer keeps taking and writing the other records (the engine drains,
// the batch ends cleanly), and idle_o still waits for every response.
TEST(RecordWriter, ErrorResponsesAreReportedAndTheWriterNeverHangs) {
  for (const uint8_t resp : {uint8_t{2}, uint8_t{3}}) {
    WriterBench b(rac_rtl::timing(30 + resp, 35, 10), resp);
    const uint64_t base = 0x5'0000;
    const size_t n = 20;
    b.slave->fail_range(base + kRecBytes * 3, base + kRecBytes * 5, resp);  // records 3 and 4
    const std::vector<Record> records = random_records(n, resp);
    b.start(base, static_cast<uint32_t>(n));
    ASSERT_TRUE(b.write(records, 30)) << "writer hung after an error response";
    EXPECT_EQ(b.h->count_o, n);
    EXPECT_EQ(b.bus_errors, b.slave->stats().error_bursts);
    EXPECT_GE(b.bus_errors, 2u);
    for (size_t i = 0; i < n; ++i) {
      if (i == 3 || i == 4) continue;
      EXPECT_EQ(at(b.memory, base + kRecBytes * i), records[i]) << "record " << i;
    }
    for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
    EXPECT_EQ(b.h.errors(), 0);
  }
}

}  // namespace
