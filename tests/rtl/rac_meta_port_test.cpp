// rac_meta_port under Verilator: the check engine's backing store on
// m_axi_meta, the metadata bucket table of docs/kernel-interface.md.
// Built once per parameter set (BucketWays, LineW; tests/rtl/CMakeLists.txt),
// every test against the AXI memory model (seeded latency, stalls on
// AR/R/AW/W/B, the AXI rules checked) with seeded SPILL_READY stalls and
// gaps between the engine's requests on the bench's side.
//
// Reference model (TableModel below): the table as bytes in C++, changed by
// the rules the block must follow — fill: the way holding g, else
// INSOFTWARE when g's filter bit is set, else zero; write-back: g's way,
// else the first empty way for a nonzero line, else (zero line) nothing,
// else a spill record and g's filter bit. After every request the bench
// compares the fill data, the spill record and, once the port is idle (a
// bucket write is posted: acknowledged before its B response), the whole
// table. Miss-ahead hints (granules of coming fills, as rac_miss_ahead
// sends them) make the port read buckets ahead, several reads in flight;
// the fills it answers from them must be the model's too, whatever
// write-backs came in between.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "Vrac_meta_port.h"
#include "axi_block_bench.hpp"
#include "driver/records.hpp"
#include "rtl_harness.hpp"
#include "sparse_memory.hpp"

namespace {

using raceaccel::sim::AxiMasterPins;
using raceaccel::sim::AxiSlaveModel;
using raceaccel::sim::BusTiming;
using raceaccel::sim::SparseMemory;

constexpr unsigned kWays = MP_BUCKET_WAYS;
constexpr unsigned kLineW = MP_LINE_W;
constexpr unsigned kLineWords = (kLineW + 31) / 32;
constexpr unsigned kWayBytes = 128;
using Line = std::vector<uint32_t>;  // kLineWords little-endian words, bits above kLineW zero

Line random_line(rac_rtl::Coin& c) {
  Line l(kLineWords);
  for (auto& w : l) w = static_cast<uint32_t>(c.bits());
  if (kLineW % 32 != 0) l.back() &= (1u << (kLineW % 32)) - 1;
  return l;
}
bool is_zero(const Line& l) {
  for (uint32_t w : l) {
    if (w != 0) return false;
  }
  return true;
}

// The bucket table as the contract defines it, over a byte image.
class TableModel {
 public:
  TableModel(uint64_t base, unsigned bucket_bits)
      : base_(base), bits_(bucket_bits), bytes_((size_t{1} << bucket_bits) * kWays * kWayBytes) {}

  std::optional<Line> spill;  // the spill record the last write-back made

  Line fill(uint64_t g) {
    const size_t b = bucket(g);
    if (auto w = way_of(b, g)) return line_at(b, *w);
    Line l(kLineWords, 0);
    if (filter(b) >> raceaccel::driver::bucket_filter_bit(g) & 1) l[0] = 1;  // INSOFTWARE: the host may own g
    return l;
  }
  void write_back(uint64_t g, const Line& line) {
    spill.reset();
    const size_t b = bucket(g);
    std::optional<unsigned> w = way_of(b, g);
    if (!w && !is_zero(line)) w = empty_way(b);
    if (w) {
      set_u64(way(b, *w), is_zero(line) ? 0 : g + 1);
      std::memset(&bytes_[way(b, *w) + 24], 0, kWayBytes - 24);
      for (unsigned i = 0; i < kLineWords; ++i) std::memcpy(&bytes_[way(b, *w) + 24 + 4 * i], &line[i], 4);
      return;
    }
    if (is_zero(line)) return;
    spill = line;
    set_u64(way(b, 0) + 8, filter(b) | uint64_t{1} << raceaccel::driver::bucket_filter_bit(g));
  }
  const std::vector<std::byte>& bytes() const { return bytes_; }
  uint64_t base() const { return base_; }
  uint64_t bucket_address(uint64_t g) const { return base_ + way(bucket(g), 0); }

 private:
  size_t bucket(uint64_t g) const { return raceaccel::driver::bucket_of(g, bits_); }
  size_t way(size_t b, unsigned w) const { return (b * kWays + w) * kWayBytes; }
  uint64_t u64(size_t at) const {
    uint64_t v;
    std::memcpy(&v, &bytes_[at], 8);
    return v;
  }
  void set_u64(size_t at, uint64_t v) { std::memcpy(&bytes_[at], &v, 8); }
  uint64_t filter(size_t b) const { return u64(way(b, 0) + 8); }
  std::optional<unsigned> way_of(size_t b, uint64_t g) const {
    for (unsigned w = 0; w < kWays; ++w) {
      if (u64(way(b, w)) == g + 1) return w;
    }
    return std::nullopt;
  }
  std::optional<unsigned> empty_way(size_t b) const {
    for (unsigned w = 0; w < kWays; ++w) {
      if (u64(way(b, w)) == 0) return w;
    }
    return std::nullopt;
  }
  Line line_at(size_t b, unsigned w) const {
    Line l(kLineWords);
    for (unsigned i = 0; i < kLineWords; ++i) std::memcpy(&l[i], &bytes_[way(b, w) + 24 + 4 * i], 4);
    if (kLineW % 32 != 0) l.back() &= (1u << (kLineW % 32)) - 1;
    return l;
  }

  uint64_t base_;
  unsigned bits_;
  std::vector<std::byte> bytes_;
};

struct MetaBench {
  rac_rtl::Harness<Vrac_meta_port> h;
  SparseMemory memory;
  std::unique_ptr<AxiSlaveModel> slave;
  rac_rtl::Coin coin;
  unsigned bus_errors = 0;
  unsigned spill_stall;
  std::vector<std::pair<uint64_t, uint32_t>> hints;  // (granule, seq) still to send, one per cycle at most
  unsigned reads_in_flight = 0, max_reads_in_flight = 0;

  MetaBench(const BusTiming& t, uint64_t seed, uint64_t base, unsigned bucket_bits, unsigned spill_stall_percent)
      : h(::testing::UnitTest::GetInstance()->current_test_info()->name()),
        coin(seed),
        spill_stall(spill_stall_percent) {
    AxiMasterPins pins;
    RAC_BLOCK_BIND_READ(pins, h.dut());
    RAC_BLOCK_BIND_WRITE(pins, h.dut());
    slave = std::make_unique<AxiSlaveModel>("m_axi_meta", pins, memory, t);
    h->base_i = base;
    h->bucket_bits_i = bucket_bits;
    h->req_valid_i = 0;
    h->spill_ready_i = 0;
    h->hint_valid_i = 0;
    h->flush_i = 0;
    h->passed_seq_i = 0;
    // The host zeroes the table before the first batch.
    std::vector<std::byte> zero((size_t{1} << bucket_bits) * kWays * kWayBytes);
    memory.write(base, zero);
    h.reset();
  }

  struct Outcome {
    Line data;                  // fill: the line returned
    std::optional<Line> spill;  // write-back: the spill record's line
    uint64_t spill_granule = 0, spill_seq = 0;
  };

  // One engine request, from offer to acknowledgement (gaps before it).
  // nullopt on a hang.
  std::optional<Outcome> request(bool write, uint64_t g, const Line& line, uint32_t seq) {
    while (coin(30)) cycle();
    h->passed_seq_i = seq > 2 ? seq - 2 : 0;  // as the kernel: the engine is past the commands before
    h->req_valid_i = 1;
    h->req_write_i = write;
    h->req_granule_i = g;
    h->req_seq_i = seq;
    for (unsigned i = 0; i < kLineWords; ++i) h->req_data_i.data()[i] = line[i];
    Outcome out;
    for (unsigned i = 0; i < 100'000; ++i) {
      h->spill_ready_i = !coin(spill_stall);
      h.eval();
      const bool taken = h->req_valid_i && h->req_ready_o;
      if (h->spill_valid_o && h->spill_ready_i) {
        Line s(kLineWords);
        for (unsigned k = 0; k < kLineWords; ++k) s[k] = h->spill_line_o.data()[k];
        out.spill = s;
        out.spill_granule = h->spill_granule_o;
        out.spill_seq = h->spill_seq_o;
      }
      const bool acked = write ? h->wack_o : h->rsp_valid_o;
      if (acked && !write) {
        out.data.resize(kLineWords);
        for (unsigned k = 0; k < kLineWords; ++k) out.data[k] = h->rsp_data_o.data()[k];
      }
      cycle();
      if (taken) h->req_valid_i = 0;
      if (acked) {
        h->spill_ready_i = 0;
        return out;
      }
    }
    return std::nullopt;
  }

  void cycle() {
    h->hint_valid_i = 0;
    if (!hints.empty() && coin(50)) {
      h->hint_valid_i = 1;
      h->hint_granule_i = hints.front().first;
      h->hint_seq_i = hints.front().second;
      hints.erase(hints.begin());
    }
    slave->drive();
    h.eval();
    if (h->arvalid_o && h->arready_i) ++reads_in_flight;
    if (h->rvalid_i && h->rready_o && h->rlast_i) --reads_in_flight;
    max_reads_in_flight = std::max(max_reads_in_flight, reads_in_flight);
    slave->sample(h.cycles());
    if (h->bus_error_o) ++bus_errors;
    h.tick();
  }
  // Until nothing is owed on the bus (a posted bucket write has landed).
  bool settle() {
    for (unsigned i = 0; i < 100'000; ++i) {
      h.eval();
      if (h->idle_o) return true;
      cycle();
    }
    return false;
  }

  std::vector<std::byte> table(const TableModel& m) const {
    std::vector<std::byte> out(m.bytes().size());
    memory.read(m.base(), out);
    return out;
  }
};

// Random fills and write-backs (zero and nonzero lines) of a few dozen
// granules over 2 and 8 buckets, so ways fill up, granules spill and come
// back through the filter; three bus timings. After each request the fill
// data, the spill record and the whole table match the reference model.
// One request of the engine's, checked against the table model: a
// write-back's spill (its line, granule and seq) or a fill's line; counts
// both.
struct Tally {
  unsigned spills = 0, fills = 0;
};
void request_and_check(MetaBench& b, TableModel& model, bool write, uint64_t g, const Line& line, uint32_t seq,
                       Tally& tally) {
  const auto got = b.request(write, g, line, seq);
  ASSERT_TRUE(got.has_value()) << "meta port hung on request " << seq;
  if (write) {
    model.write_back(g, line);
    ASSERT_EQ(got->spill.has_value(), model.spill.has_value()) << "request " << seq;
    if (model.spill) {
      ++tally.spills;
      EXPECT_EQ(got->spill, model.spill);
      EXPECT_EQ(got->spill_granule, g);
      EXPECT_EQ(got->spill_seq, seq);
    }
  } else {
    ++tally.fills;
    ASSERT_FALSE(got->spill.has_value());
    ASSERT_EQ(got->data, model.fill(g)) << "fill of request " << seq;
  }
}

TEST(MetaPort, FillsWriteBacksAndSpillsMatchTheTableModel) {
  const BusTiming timings[] = {rac_rtl::timing(1, 0, 1), rac_rtl::timing(2, 30, 8), rac_rtl::timing(3, 70, 20)};
  unsigned t = 0;
  for (const BusTiming& timing : timings) {
    for (const unsigned bucket_bits : {1u, 3u}) {
      SCOPED_TRACE("timing " + std::to_string(t) + " bucket_bits " + std::to_string(bucket_bits));
      const uint64_t base = 0x3'0000'0000ull;
      MetaBench b(timing, 10 * t + bucket_bits, base, bucket_bits, t * 30);
      TableModel model(base, bucket_bits);
      rac_rtl::Coin c(77 + t);
      std::vector<uint64_t> granules;
      for (unsigned i = 0; i < 24; ++i) granules.push_back(c.bits() >> 3);  // 61-bit granules
      Tally tally;
      for (uint32_t seq = 0; seq < 300; ++seq) {
        const uint64_t g = granules[c.below(granules.size())];
        const bool write = c(55);
        const Line line = c(20) ? Line(kLineWords, 0) : random_line(c);
        ASSERT_NO_FATAL_FAILURE(request_and_check(b, model, write, g, line, seq, tally));
        ASSERT_TRUE(b.settle()) << "not idle after request " << seq;
        ASSERT_EQ(b.table(model), model.bytes()) << "table after request " << seq;
      }
      EXPECT_EQ(b.h->stat_spills_o, tally.spills);
      if (bucket_bits == 1) {
        EXPECT_GT(tally.spills, 0u) << "the test should reach spills";
      }
      for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
      EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
      EXPECT_EQ(b.bus_errors, 0u);
    }
    ++t;
  }
}

// Miss-ahead: before each request the bench hints the granules of the next
// few fills (with their request numbers, as the kernel does with command
// indices), so the port holds several bucket reads in flight on one ID and
// answers fills from them, while write-backs (55 % of requests, over 2 and
// 8 buckets) keep landing in buckets it has read or is reading. Every fill
// must still be the model's (a read that a write-back overtook is dropped
// and done again), the table must match, and the prefetch must be used.
TEST(MetaPort, HintedFillsMatchTheTableModelWithSeveralReadsInFlight) {
  const BusTiming timings[] = {rac_rtl::timing(4, 0, 1), rac_rtl::timing(5, 20, 60)};
  unsigned t = 0, most_in_flight = 0;
  for (const BusTiming& timing : timings) {
    for (const unsigned bucket_bits : {1u, 3u}) {
      SCOPED_TRACE("timing " + std::to_string(t) + " bucket_bits " + std::to_string(bucket_bits));
      const uint64_t base = 0x4'0000'0000ull;
      MetaBench b(timing, 100 + 10 * t + bucket_bits, base, bucket_bits, 10);
      TableModel model(base, bucket_bits);
      rac_rtl::Coin c(300 + t);
      std::vector<uint64_t> granules;
      for (unsigned i = 0; i < 24; ++i) granules.push_back(c.bits() >> 3);
      struct Req {
        bool write;
        uint64_t g;
        Line line;
      };
      std::vector<Req> reqs;
      for (unsigned i = 0; i < 400; ++i) {
        const bool write = c(45);
        reqs.push_back({write, granules[c.below(granules.size())], c(20) ? Line(kLineWords, 0) : random_line(c)});
      }
      unsigned fills = 0;
      for (uint32_t seq = 0; seq < reqs.size(); ++seq) {
        for (uint32_t ahead = seq; ahead < std::min<size_t>(reqs.size(), seq + 6); ++ahead) {
          if (ahead >= seq + 5 || seq == 0) {  // each fill hinted once, five requests ahead
            if (!reqs[ahead].write) b.hints.emplace_back(reqs[ahead].g, ahead);
          }
        }
        const Req& r = reqs[seq];
        const auto got = b.request(r.write, r.g, r.line, seq);
        ASSERT_TRUE(got.has_value()) << "meta port hung on request " << seq;
        if (r.write) {
          model.write_back(r.g, r.line);
          ASSERT_EQ(got->spill.has_value(), model.spill.has_value()) << "request " << seq;
          if (model.spill) {
            EXPECT_EQ(got->spill, model.spill);
          }
        } else {
          ++fills;
          ASSERT_EQ(got->data, model.fill(r.g)) << "fill of request " << seq;
        }
      }
      b.hints.clear();
      ASSERT_TRUE(b.settle());
      EXPECT_EQ(b.table(model), model.bytes());
      EXPECT_GT(b.h->stat_prefetch_hits_o, fills / 4) << "fills answered from a miss-ahead read";
      EXPECT_GE(b.max_reads_in_flight, 2u) << "bucket reads in flight together";
      most_in_flight = std::max(most_in_flight, b.max_reads_in_flight);
      for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
      EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
    }
    ++t;
  }
  EXPECT_GE(most_in_flight, 3u) << "several bucket reads in flight";
}

// Carries (the port adds in chunks, rtl/rac_meta_port.sv): a table that
// straddles 2^40 (the base's bits 13-39 all ones, so a bucket's address
// carries through every chunk of the address add) and granules whose + 1
// carries across the key counter's 16-bit chunks (low 16, 32 or 48 bits all
// ones, and the largest granule). Fills and write-backs, hinted as above:
// the fills, spills and the table must be the model's (and the port's
// assertions compare its chunked address with the sum, its hash round with
// the register map's).
TEST(MetaPort, CarriesInBucketAddressesAndKeysMatchTheTableModel) {
  const uint64_t base = 0xFF'FFFF'E000ull;
  const unsigned bucket_bits = 7;
  MetaBench b(rac_rtl::timing(6, 20, 8), 700, base, bucket_bits, 10);
  TableModel model(base, bucket_bits);
  rac_rtl::Coin c(701);
  std::vector<uint64_t> granules;
  for (const uint64_t low : {0xFFFFull, 0xFFFF'FFFFull, 0xFFFF'FFFF'FFFFull}) {
    for (unsigned i = 0; i < 4; ++i) granules.push_back((c.bits() >> 3) | low);
  }
  granules.push_back((uint64_t{1} << 61) - 1);  // key 2^61
  for (unsigned i = 0; i < 11; ++i) granules.push_back(c.bits() >> 3);
  unsigned above = 0;  // granules whose bucket's address carried into bit 40
  for (const uint64_t g : granules) above += model.bucket_address(g) >= (uint64_t{1} << 40);
  EXPECT_GE(above, 4u) << "buckets above 2^40";
  EXPECT_LT(above, granules.size()) << "buckets below 2^40";
  Tally tally;
  std::vector<std::pair<bool, uint64_t>> reqs;
  for (unsigned i = 0; i < 300; ++i) reqs.emplace_back(c(45), granules[c.below(granules.size())]);
  for (uint32_t seq = 0; seq < reqs.size(); ++seq) {
    for (uint32_t ahead = seq; ahead < std::min<size_t>(reqs.size(), seq + 6); ++ahead) {
      if ((ahead >= seq + 5 || seq == 0) && !reqs[ahead].first) b.hints.emplace_back(reqs[ahead].second, ahead);
    }
    const auto [write, g] = reqs[seq];
    const Line line = c(20) ? Line(kLineWords, 0) : random_line(c);
    ASSERT_NO_FATAL_FAILURE(request_and_check(b, model, write, g, line, seq, tally));
  }
  b.hints.clear();
  ASSERT_TRUE(b.settle());
  EXPECT_EQ(b.table(model), model.bytes());
  EXPECT_EQ(b.h->stat_spills_o, tally.spills);
  EXPECT_GT(b.h->stat_prefetch_hits_o, tally.fills / 4) << "fills answered from a miss-ahead read";
  for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
  EXPECT_EQ(b.h.errors(), 0) << "RTL assertions";
  EXPECT_EQ(b.bus_errors, 0u);
}

// Error responses: a fill from a failing bucket returns the zero line, a
// write-back whose bucket read fails writes and spills nothing, a failing
// bucket write is reported; every request is acknowledged (the engine never
// waits forever) and bus_error_o counts each failed burst's beats or
// response.
TEST(MetaPort, ErrorResponsesAreReportedAndEveryRequestCompletes) {
  for (const uint8_t resp : {uint8_t{2}, uint8_t{3}}) {
    const uint64_t base = 0x6'0000'0000ull;
    MetaBench b(rac_rtl::timing(40 + resp, 30, 8), resp, base, 1, 20);
    TableModel model(base, 1);
    rac_rtl::Coin c(resp);
    const uint64_t g = 12345;
    const Line line = random_line(c);
    ASSERT_TRUE(b.request(true, g, line, 1).has_value());
    model.write_back(g, line);
    ASSERT_TRUE(b.settle());
    ASSERT_EQ(b.table(model), model.bytes());

    // Every bucket fails from now on.
    b.slave->fail_range(base, base + 2 * kWays * kWayBytes, resp);
    const auto fill = b.request(false, g, line, 2);
    ASSERT_TRUE(fill.has_value()) << "fill hung";
    EXPECT_EQ(fill->data, Line(kLineWords, 0)) << "nothing from a failed read";
    EXPECT_EQ(b.bus_errors, 2 * kWays) << "one per beat of the bucket";
    const uint64_t writes_before = b.slave->stats().write_bursts;
    const auto wb = b.request(true, g + 1, random_line(c), 3);
    ASSERT_TRUE(wb.has_value()) << "write-back hung";
    EXPECT_FALSE(wb->spill.has_value());
    EXPECT_EQ(b.slave->stats().write_bursts, writes_before) << "no bucket write after a failed bucket read";
    ASSERT_TRUE(b.settle());
    EXPECT_EQ(b.bus_errors, 4 * kWays) << "the write-back's bucket read failed too";
    EXPECT_EQ(b.table(model), model.bytes()) << "a failed bucket read writes nothing";
    for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
    EXPECT_EQ(b.h.errors(), 0);
  }
}

// A bucket write answered with SLVERR/DECERR (its read was fine): one
// bus_error_o, the write-back is still acknowledged, and the table keeps
// what it had (the failed write did not land).
TEST(MetaPort, FailedBucketWriteIsReportedAndAcknowledged) {
  for (const uint8_t resp : {uint8_t{2}, uint8_t{3}}) {
    const uint64_t base = 0x6'1000'0000ull;
    MetaBench b(rac_rtl::timing(50 + resp, 30, 8), resp, base, 1, 20);
    TableModel model(base, 1);
    rac_rtl::Coin c(resp + 10);
    b.slave->fail_range(base, base + 2 * kWays * kWayBytes, resp, AxiSlaveModel::FailOn::Writes);
    const auto wb = b.request(true, 777, random_line(c), 1);
    ASSERT_TRUE(wb.has_value()) << "write-back hung on a failed B response";
    ASSERT_TRUE(b.settle());
    EXPECT_EQ(b.bus_errors, 1u);
    EXPECT_EQ(b.table(model), model.bytes()) << "the failed write did not land";
    const auto fill = b.request(false, 777, Line(kLineWords, 0), 2);
    ASSERT_TRUE(fill.has_value());
    EXPECT_EQ(fill->data, Line(kLineWords, 0)) << "the table still has no line for the granule";
    EXPECT_EQ(b.bus_errors, 1u);
    for (const std::string& v : b.slave->violations()) ADD_FAILURE() << v;
    EXPECT_EQ(b.h.errors(), 0);
  }
}

}  // namespace
