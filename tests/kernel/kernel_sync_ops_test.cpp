// The sync-object ops of the kernel contract (docs/kernel-interface.md:
// 4 acquire, 5 release, 6 load-object; cap_objects): directed tests of
// their effect, of the object-index rule, of a truncated load-object and of
// clear_state zeroing the store, and random command batches that must give
// byte-identical records, statuses and counters on the Verilated kernel and
// on the software model (driver/software/).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "Vrac_kernel_default.h"
#include "Vrac_kernel_tiny.h"
#include "Vrac_kernel_tiny_pool.h"
#include "Vrac_kernel_tiny_ways4.h"
#include "driver/device.hpp"
#include "driver/software/software_device.hpp"
#include "kernel_harness.hpp"

namespace raceaccel::kernel_test {
namespace {

using Kernel = sim::KernelSim<Vrac_kernel_default>;
const driver::LineShape kShape{.slots = 8, .clock_bits = 32};
constexpr unsigned kObjects = 16;  // the built-in model's store
constexpr unsigned kReadVcs = 16;  // and its read-VC pool (rac_kernel's default)

sim::KernelSimOptions options(uint64_t seed, unsigned stall = 20) {
  sim::KernelSimOptions o;
  o.timing.seed = seed;
  o.timing.max_latency = 8;
  o.timing.stall_percent = stall;
  o.idle_percent = 10;
  o.trace_tag = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return o;
}

std::vector<uint64_t> row(std::initializer_list<std::pair<unsigned, uint64_t>> lanes) {
  std::vector<uint64_t> out(kShape.slots, 0);
  for (const auto& [lane, clock] : lanes) out[lane] = clock;
  return out;
}

uint32_t load_object(Batch& b, uint64_t object, std::span<const uint64_t> lanes) {
  const uint32_t index = b.add({.op = regs::kOpLoadObject, .slot = 0, .granule = object});
  std::vector<std::byte> data(16 * kShape.row_words());
  driver::encode_row(lanes, kShape, data);
  for (size_t w = 0; w < kShape.row_words(); ++w) b.raw(std::span<const std::byte, 16>(data.data() + 16 * w, 16));
  return index;
}
// Op 7: `line` goes back on chip with `shared` as its shared bytes and, when
// they are not zero, `clock` as their read clock (in the line format of a
// kernel with `read_vcs` pool entries).
uint32_t import_line(Batch& b, uint64_t granule, const driver::Line& line, unsigned shared,
                     std::span<const uint64_t> clock, unsigned read_vcs) {
  const driver::LineShape shape{kShape.slots, kShape.clock_bits, read_vcs};
  const uint32_t index = b.add({.op = regs::kOpImportLine, .slot = 0, .mask = shared, .granule = granule});
  std::vector<std::byte> data(16 * shape.line_words());
  driver::encode_line_words(line, shape, data);
  if (shared != 0) {
    std::vector<std::byte> row(16 * shape.row_words());
    driver::encode_row(clock, shape, row);
    data.insert(data.end(), row.begin(), row.end());
  }
  for (size_t w = 0; w < data.size() / 16; ++w) b.raw(std::span<const std::byte, 16>(data.data() + 16 * w, 16));
  return index;
}

// Op 8 (a kernel with several read clocks per line): right behind the op 7
// of `granule`, its bytes `mask` (not shared yet) read `clock`.
uint32_t import_read_clock(Batch& b, uint64_t granule, unsigned mask, std::span<const uint64_t> clock) {
  const uint32_t index = b.add({.op = regs::kOpImportReadClock, .slot = 0, .mask = mask, .granule = granule});
  std::vector<std::byte> row(16 * kShape.row_words());
  driver::encode_row(clock, kShape, row);
  for (size_t w = 0; w < kShape.row_words(); ++w) b.raw(std::span<const std::byte, 16>(row.data() + 16 * w, 16));
  return index;
}

uint32_t acquire(Batch& b, unsigned slot, uint64_t object) {
  return b.add({.op = regs::kOpAcquire, .slot = slot, .granule = object});
}
uint32_t release(Batch& b, unsigned slot, uint64_t object) {
  return b.add({.op = regs::kOpRelease, .slot = slot, .granule = object});
}

// The software model in the kernel's shape, with `objects` sync objects
// and a read-VC pool of `read_vcs` clocks in sets of `ways`; with a cache
// shape it emits the eviction spills of a kernel of that shape.
std::unique_ptr<driver::Device> software_model(unsigned objects, unsigned read_vcs = kReadVcs,
                                               driver::CacheShape cache = {}, unsigned ways = 1) {
  driver::DeviceOptions o;
  o.backend = "software";
  o.software_slots = kShape.slots;
  o.software_clock_bits = kShape.clock_bits;
  o.software_objects = objects;
  o.software_read_vcs = read_vcs;
  o.software_read_vc_ways = ways;
  if (cache.sets != 0) return driver::make_software_device(o, cache);
  return driver::open_device(o);
}

// A zeroed bucket table of 2^bucket_bits buckets for the device's bucket shape.
std::unique_ptr<driver::Buffer> bucket_table(driver::Device& d, unsigned bucket_bits) {
  auto buckets = d.allocate((size_t{regs::kBucketWayBytes} * d.read_register(regs::kCapBucketWays)) << bucket_bits);
  std::fill(buckets->host().begin(), buckets->host().end(), std::byte{0});
  buckets->to_device(0, buckets->size());
  return buckets;
}

// The same batch through the Device interface (the software model). Its
// bucket table is `table` (kept from launch to launch, as the kernel's; the
// host zeroes it with clear_state) or, without one, a fresh 1,024-bucket one.
// `esc_capacity` 0: the contract's minimum.
BatchResult run_on_device(driver::Device& d, const Batch& batch, uint32_t flags, driver::Buffer* table = nullptr,
                          unsigned bucket_bits = 10, uint32_t esc_capacity = 0) {
  const uint32_t n = batch.words();
  auto commands = d.allocate(size_t{n} * 16);
  auto races = d.allocate(size_t{n} * 64);
  const size_t record_bytes = d.read_register(regs::kCapEscRecordBytes);
  const uint32_t per_word = esc_records_per_word(d);
  auto escs = d.allocate(size_t{per_word} * n * record_bytes);
  std::unique_ptr<driver::Buffer> fresh;
  if (table == nullptr || (flags & regs::kFlagClearState) != 0) {
    fresh = bucket_table(d, bucket_bits);
    if (table != nullptr) {
      std::fill(table->host().begin(), table->host().end(), std::byte{0});
      table->to_device(0, table->size());
    }
  }
  driver::Buffer* buckets = table != nullptr ? table : fresh.get();
  std::copy(batch.bytes().begin(), batch.bytes().end(), commands->host().begin());
  commands->to_device(0, commands->size());
  d.write_register64(regs::kCommands, commands->device_address());
  d.write_register(regs::kCommandWords, n);
  d.write_register(regs::kFlags, flags);
  d.write_register64(regs::kRaces, races->device_address());
  d.write_register(regs::kRaceCapacity, n);
  d.write_register64(regs::kEscalations, escs->device_address());
  d.write_register(regs::kEscCapacity, esc_capacity != 0 ? esc_capacity : per_word * n);
  d.write_register64(regs::kBuckets, buckets->device_address());
  d.write_register(regs::kBucketBits, bucket_bits);
  d.start();
  EXPECT_TRUE(d.wait(std::chrono::milliseconds(10'000)));
  BatchResult r;
  r.status = d.read_register(regs::kStatus);
  r.words_done = d.read_register(regs::kWordsDone);
  const uint32_t nr = d.read_register(regs::kRacesWritten), ne = d.read_register(regs::kEscalationsWritten);
  races->from_device(0, races->size());
  escs->from_device(0, escs->size());
  for (uint32_t i = 0; i < nr; ++i) r.races.push_back(driver::decode_race(races->host().subspan(64 * i).first<64>()));
  for (uint32_t i = 0; i < ne; ++i) {
    r.escalations.push_back(driver::decode_escalation(escs->host().subspan(record_bytes * i, record_bytes)));
  }
  return r;
}

void expect_same(const BatchResult& kernel, const BatchResult& model, const std::string& what) {
  EXPECT_EQ(kernel.status, model.status) << what;
  EXPECT_EQ(kernel.words_done, model.words_done) << what;
  EXPECT_EQ(kernel.races, model.races) << what;
  ASSERT_EQ(kernel.escalations.size(), model.escalations.size()) << what;
  for (size_t i = 0; i < kernel.escalations.size(); ++i) {
    const EscalationRecord &a = kernel.escalations[i], &b = model.escalations[i];
    EXPECT_EQ(std::tie(a.word, a.granule, a.reason), std::tie(b.word, b.granule, b.reason)) << what << " esc " << i;
    EXPECT_TRUE(a.line == b.line) << what << " esc " << i << ": lines differ";
    EXPECT_EQ(a.read_clock_valid, b.read_clock_valid) << what << " esc " << i;
    EXPECT_EQ(a.clock_mask, b.clock_mask) << what << " esc " << i << ": the bytes of the read clock";
    EXPECT_TRUE(a.read_clock == b.read_clock) << what << " esc " << i << ": read clocks differ";
  }
}

TEST(KernelSyncOps, CapObjectsPerConfiguration) {
  Kernel k(options(1));
  EXPECT_EQ(k.read_register(regs::kCapObjects), kObjects);
  sim::KernelSim<Vrac_kernel_tiny> tiny(options(2));
  EXPECT_EQ(tiny.read_register(regs::kCapObjects), 2u);
  EXPECT_EQ(k.read_register(regs::kCapReadVcs), kReadVcs);
  EXPECT_EQ(k.read_register(regs::kCapEscRecordBytes), 192u);  // 128 + one beat for 8 x 32-bit lanes
  EXPECT_EQ(tiny.read_register(regs::kCapReadVcs), 0u);
  EXPECT_EQ(tiny.read_register(regs::kCapEscRecordBytes), 128u);
  sim::KernelSim<Vrac_kernel_tiny_pool> pool(options(3));
  EXPECT_EQ(pool.read_register(regs::kCapReadVcs), 2u);
  EXPECT_EQ(k.read_register(regs::kCapReadVcWays), 1u) << "the built-in kernel keeps one clock per line";
  EXPECT_EQ(pool.read_register(regs::kCapReadVcWays), 2u) << "the RTL advertises its ReadVcWays";
  sim::KernelSim<Vrac_kernel_tiny_ways4> ways4(options(4));
  EXPECT_EQ(ways4.read_register(regs::kCapReadVcs), 8u);
  EXPECT_EQ(ways4.read_register(regs::kCapReadVcWays), 4u);
  EXPECT_EQ(pool.read_register(regs::kCapLineBits), 1u + 8 * 71 + 8);
  expect_clean(k);
  expect_clean(tiny);
  expect_clean(pool);
}

// Release joins the row into the object and ticks the releaser; acquire
// joins the object into the acquirer's row; load-object replaces it.
TEST(KernelSyncOps, ReleaseAcquireAndLoadHandClocksOver) {
  Kernel k(options(3));
  Batch b(kShape);
  b.set_row(0, row({{0, 3}}));
  b.set_row(1, row({{1, 1}}));
  b.set_row(2, row({{2, 1}}));
  const uint64_t g = 0x5000, g2 = 0x5001, g3 = 0x5002;
  b.access(regs::kOpWrite, 0, g, 0xFF);                         // W = 0@3
  release(b, 0, 5);                                             // V5 = {0:3}; slot 0 → 4
  b.access(regs::kOpWrite, 0, g2, 0xFF);                        // W = 0@4: after the release
  acquire(b, 1, 5);                                             // slot 1 = {0:3, 1:1}
  b.access(regs::kOpWrite, 1, g, 0xFF);                         // ordered: no race
  const uint32_t racy = b.access(regs::kOpWrite, 1, g2, 0x0F);  // 0@4 not ⊑ 3: race, prev clock 4
  load_object(b, 9, row({{0, 4}}));
  acquire(b, 2, 9);
  b.access(regs::kOpWrite, 2, g2, 0xF0);  // ordered by the loaded clock
  b.access(regs::kOpWrite, 0, g3, 0x01);  // W = 0@4
  acquire(b, 2, 5);                       // V5 is {0:3}: joining it changes nothing
  b.access(regs::kOpWrite, 2, g3, 0x01);  // ordered (0@4 ⊑ slot 2's {0:4})
  const BatchResult r = run_batch(k, b, Buffers{});
  ASSERT_EQ(r.status, regs::kStatusOk);
  EXPECT_EQ(r.words_done, b.words());
  ASSERT_EQ(r.races.size(), 1u);
  EXPECT_EQ(r.races[0].word, racy);
  EXPECT_EQ(r.races[0].mask, 0x0Fu);
  EXPECT_EQ(r.races[0].prev_slot[0], 0u);
  EXPECT_EQ(r.races[0].prev_clock[0], 4u) << "release ticks the releaser";
  EXPECT_TRUE(r.escalations.empty());
  // Every command counts once (set-rows and load-objects with their data words as one).
  EXPECT_EQ(k.read_register(regs::kStatCommands), 15u);
  EXPECT_EQ(k.read_register(regs::kStatAccesses), 7u) << "sync ops are not accesses";
  expect_clean(k);

  auto model = software_model(kObjects);
  expect_same(r, run_on_device(*model, b, regs::kFlagClearState), "directed hand-over");
  EXPECT_EQ(model->statistics().commands, 15u);
  EXPECT_EQ(model->statistics().accesses, 7u);
}

// An object index outside the store (the whole 64-bit granule field counts)
// stops the batch at that word with status 1; for a load-object, before
// its data words.
TEST(KernelSyncOps, BadObjectIndexStopsTheFeedAtThatWord) {
  struct Case {
    unsigned op;
    uint64_t object;
  };
  const Case cases[] = {{regs::kOpAcquire, kObjects},
                        {regs::kOpRelease, kObjects + 3},
                        {regs::kOpLoadObject, kObjects},
                        {regs::kOpAcquire, (uint64_t{1} << 63) | 1},  // low bits in range: the field is not truncated
                        {regs::kOpRelease, uint64_t{1} << 32},
                        {regs::kOpLoadObject, (uint64_t{1} << 61) | 2}};
  auto model = software_model(kObjects);
  uint64_t seed = 10;
  for (const Case& c : cases) {
    const std::string what = "op " + std::to_string(c.op) + " object " + std::to_string(c.object);
    Kernel k(options(seed++));
    Batch b(kShape);
    b.set_row(0, row({{0, 1}}));
    b.set_row(1, row({{1, 1}}));
    b.access(regs::kOpWrite, 0, 40, 0xFF);
    const uint32_t racy = b.access(regs::kOpWrite, 1, 40, 0x01);
    uint32_t bad = 0;
    if (c.op == regs::kOpLoadObject) {
      bad = b.add({.op = c.op, .slot = 0, .granule = c.object});
      b.set_row(1, row({{0, 9}}));  // would-be data words
    } else {
      bad = b.add({.op = c.op, .slot = 1, .granule = c.object});
    }
    b.access(regs::kOpWrite, 1, 40, 0x02);  // would race, never executed
    const BatchResult r = run_batch(k, b, Buffers{});
    EXPECT_EQ(r.status, regs::kStatusBadOp) << what;
    EXPECT_EQ(r.words_done, bad) << what;
    ASSERT_EQ(r.races.size(), 1u) << what;
    EXPECT_EQ(r.races[0].word, racy) << what;
    expect_clean(k);
    expect_same(r, run_on_device(*model, b, regs::kFlagClearState), what);
  }
}

// The capacity rule with W read-clock ways: esc_capacity must hold 2W + 1
// records per command word (status 2 below that), on the RTL and on the
// software model alike (which checked 3 per word before).
TEST(KernelSyncOps, EscalationCapacityGrowsWithReadClockWays) {
  Batch b(kShape);
  b.set_row(0, row({{0, 1}}));
  b.access(regs::kOpRead, 0, 0x100, 0xFF);
  const uint32_t n = b.words();
  for (const uint32_t capacity : {3 * n, 5 * n - 1, 5 * n}) {
    sim::KernelSim<Vrac_kernel_tiny_pool> k(options(40));
    Buffers buffers;
    k.memory().write(buffers.commands, b.bytes());
    write_arguments(k, buffers, n, 0, n, capacity);
    k.write_register(regs::kCtrl, regs::kCtrlStart);
    wait_done(k);
    const uint32_t want = capacity < 5 * n ? regs::kStatusBadArgs : regs::kStatusOk;
    EXPECT_EQ(k.read_register(regs::kStatus), want) << "2 ways, capacity " << capacity << " for " << n << " words";
    auto model = software_model(2, 2, {2, 2, 1}, 2);
    const BatchResult m = run_on_device(*model, b, 0, nullptr, 10, capacity);
    EXPECT_EQ(m.status, want) << "the software model, capacity " << capacity;
    expect_clean(k);
  }
}

// Op 8 is a command only with several ways and some bytes: on the
// one-way built-in kernel it is reserved, with a zero mask it is bad, and
// both stop the batch at that word (status 1), on the RTL and on the model.
TEST(KernelSyncOps, ImportReadClockNeedsWaysAndBytes) {
  const std::vector<uint64_t> clock = row({{1, 3}});
  for (const bool one_way : {true, false}) {
    Batch b(kShape);
    b.access(regs::kOpWrite, 0, 0x100, 0xFF);
    const uint32_t bad = import_read_clock(b, 0x100, one_way ? 0x0F : 0x00, clock);
    b.access(regs::kOpWrite, 0, 0x101, 0xFF);
    BatchResult r, m;
    if (one_way) {
      Kernel k(options(50));
      r = run_batch(k, b, Buffers{});
      expect_clean(k);
      m = run_on_device(*software_model(kObjects), b, 0);
    } else {
      sim::KernelSim<Vrac_kernel_tiny_pool> k(options(51));
      r = run_batch(k, b, Buffers{});
      expect_clean(k);
      m = run_on_device(*software_model(2, 2, {2, 2, 1}, 2), b, 0);
    }
    const std::string what = one_way ? "one way" : "two ways, mask 0";
    EXPECT_EQ(r.status, regs::kStatusBadOp) << what;
    EXPECT_EQ(r.words_done, bad) << what;
    expect_same(r, m, what);
  }
}

TEST(KernelSyncOps, TruncatedLoadObjectEndsWithStatus3) {
  Kernel k(options(20));
  Batch b(kShape);
  b.access(regs::kOpWrite, 0, 1, 0xFF);
  const uint32_t load = load_object(b, 3, row({{0, 5}}));
  ASSERT_EQ(kShape.row_words(), 2u);
  Buffers buffers;
  k.memory().write(buffers.commands, b.bytes());
  for (uint32_t cut = load + 1; cut <= load + 2; ++cut) {  // the word alone, and with one data word
    write_arguments(k, buffers, cut, 0, cut, 3 * cut);
    k.write_register(regs::kCtrl, regs::kCtrlStart);
    wait_done(k);
    EXPECT_EQ(k.read_register(regs::kStatus), regs::kStatusTruncated) << "batch of " << cut << " words";
    EXPECT_EQ(k.read_register(regs::kWordsDone), load);
  }
  expect_clean(k);
  auto model = software_model(kObjects);
  Batch cut(kShape);
  cut.access(regs::kOpWrite, 0, 1, 0xFF);
  cut.add({.op = regs::kOpLoadObject, .slot = 0, .granule = 3});
  const BatchResult r = run_on_device(*model, cut, 0);
  EXPECT_EQ(r.status, regs::kStatusTruncated);
  EXPECT_EQ(r.words_done, 1u);
}

// After reset and after clear_state every object is the zero clock (the
// kernel zeroes the store with load-objects of its own, which the
// statistics do not count), so an acquire of an unloaded object changes
// nothing.
TEST(KernelSyncOps, ClearStateZeroesRowsAndObjects) {
  Kernel k(options(30));
  auto model = software_model(kObjects);
  const auto batch = [](bool load) {
    Batch b(kShape);
    b.set_row(0, row({{0, 5}}));
    b.set_row(1, row({{1, 1}}));
    b.access(regs::kOpWrite, 0, 0x77, 0xFF);
    if (load) load_object(b, 3, row({{0, 5}}));
    acquire(b, 1, 3);
    b.access(regs::kOpWrite, 1, 0x77, 0xFF);  // ordered only if object 3 holds {0:5}
    return b;
  };
  const uint64_t commands_before = k.read_register(regs::kStatCommands);
  EXPECT_EQ(commands_before, 0u) << "the zeroing after reset is not counted";
  const BatchResult fresh = run_batch(k, batch(false), Buffers{});
  EXPECT_EQ(fresh.races.size(), 1u) << "object 3 is zero after reset";
  const BatchResult loaded = run_batch(k, batch(true), Buffers{}, regs::kFlagClearState);
  EXPECT_TRUE(loaded.races.empty());
  const BatchResult cleared = run_batch(k, batch(false), Buffers{}, regs::kFlagClearState);
  EXPECT_EQ(cleared.races.size(), 1u) << "clear_state zeroes object 3 again";
  EXPECT_EQ(k.read_register(regs::kStatCommands), 5u + 6u + 5u);
  expect_clean(k);
  expect_same(fresh, run_on_device(*model, batch(false), 0), "fresh");
  expect_same(loaded, run_on_device(*model, batch(true), regs::kFlagClearState), "loaded");
  expect_same(cleared, run_on_device(*model, batch(false), regs::kFlagClearState), "cleared");
}

// Random batches of every op on few granules, slots and objects (ticks kept
// far below 2^32, as the host guarantees), several launches sharing state:
// the kernel and the software model must write the same bytes. Imports
// (op 7) carry random lines — raced flags, W and R epochs, an INSOFTWARE
// bit the kernel must clear, shared bytes with a clock when there is a
// pool — so every field the import writes is compared through the records
// of the accesses after it.
// With a pool, the reads are often by several slots of one word in the
// same epoch pattern, so READ SHARE allocates; the counts say how often the
// pool's records (clock carried, clock spilled) occurred. With several
// ways (`ways`, the model's cap_read_vc_ways) an import is followed by up
// to ways - 1 op 8s giving further bytes their own clocks, and the counts
// include records that name some of their line's shared bytes (byte 18)
// and spills of partial clocks (reason 6).
struct PoolCounts {
  uint64_t with_clock = 0, clock_spills = 0, imports = 0, spills = 0, atomics = 0;
  uint64_t clock_imports = 0, masked_records = 0, partial_spills = 0;
};
template <typename Model>
void random_batches_match(unsigned objects, unsigned read_vcs, driver::CacheShape cache, uint64_t seed0, int launches,
                          PoolCounts& counts, unsigned bucket_bits = 10, unsigned ways = 1) {
  for (uint64_t seed = seed0; seed < seed0 + 3; ++seed) {
    sim::KernelSim<Model> k(options(seed, 30));
    auto model = software_model(objects, read_vcs, cache, ways);
    ASSERT_EQ(k.read_register(regs::kCapReadVcWays), ways);
    ASSERT_EQ(model->read_register(regs::kCapReadVcWays), ways);
    auto table = bucket_table(*model, bucket_bits);
    Buffers buffers;
    buffers.bucket_bits = bucket_bits;
    ASSERT_EQ(k.read_register(regs::kCapBucketWays), model->read_register(regs::kCapBucketWays));
    std::mt19937_64 rng(seed);
    const auto pick = [&](uint64_t n) { return rng() % n; };
    for (int launch = 0; launch < launches; ++launch) {
      Batch b(kShape);
      const int commands = 20 + static_cast<int>(pick(60));
      for (int i = 0; i < commands; ++i) {
        const auto slot = static_cast<unsigned>(pick(kShape.slots));
        const uint64_t object = pick(objects);
        switch (pick(12)) {
          case 0: {
            std::vector<uint64_t> lanes(kShape.slots);
            for (auto& l : lanes) l = pick(6);
            b.set_row(slot, lanes);
            break;
          }
          case 1: {
            std::vector<uint64_t> lanes(kShape.slots);
            for (auto& l : lanes) l = pick(6);
            load_object(b, object, lanes);
            break;
          }
          case 2: acquire(b, slot, object); break;
          case 3: release(b, slot, object); break;
          case 4:
            b.access(regs::kOpFree, slot, 0x100 + pick(8), static_cast<unsigned>(pick(256)), pick(10) == 0);
            break;
          case 5: {
            driver::Line line;
            line.in_software = pick(2) != 0;
            for (driver::ByteState& st : line.bytes) {
              st.raced = pick(8) == 0;
              st.w_slot = static_cast<uint32_t>(pick(kShape.slots));
              st.w_clock = static_cast<uint32_t>(pick(6));
              st.r_slot = static_cast<uint32_t>(pick(kShape.slots));
              st.r_clock = static_cast<uint32_t>(pick(6));
            }
            const unsigned shared = read_vcs > 0 && pick(2) != 0 ? static_cast<unsigned>(1 + pick(255)) : 0u;
            line.shared = read_vcs > 0 ? static_cast<unsigned>(pick(256)) : 0u;  // ignored: the mask decides
            std::vector<uint64_t> clock(kShape.slots);
            for (auto& l : clock) l = pick(6);
            const uint64_t granule = 0x100 + pick(8);
            import_line(b, granule, line, shared, clock, read_vcs);
            ++counts.imports;
            // Further clocks for bytes not shared yet, each in a way of its own.
            unsigned free_bytes = ~shared & 0xFFu;
            for (unsigned c = shared != 0 ? 1 : 0; ways > 1 && c < ways && free_bytes != 0 && pick(2) != 0; ++c) {
              const unsigned mask = free_bytes & static_cast<unsigned>(1 + pick(255));
              if (mask == 0) continue;
              free_bytes &= ~mask;
              for (auto& l : clock) l = pick(6);
              import_read_clock(b, granule, mask, clock);
              ++counts.clock_imports;
            }
            break;
          }
          case 6:  // ops 9-10: the access part of an atomic operation
            b.access(pick(2) != 0 ? regs::kOpAtomicWrite : regs::kOpAtomicRead, slot, 0x100 + pick(8),
                     static_cast<unsigned>(1 + pick(255)), pick(20) == 0);
            ++counts.atomics;
            break;
          default:
            b.access(pick(2) != 0 ? regs::kOpWrite : regs::kOpRead, slot, 0x100 + pick(8),
                     static_cast<unsigned>(1 + pick(255)), pick(20) == 0);
        }
      }
      const uint32_t flags = launch % 4 == 3 ? regs::kFlagClearState : 0u;
      if (flags != 0) {  // the host zeroes the bucket table with clear_state
        k.memory().write(buffers.buckets,
                         std::vector<std::byte>((size_t{regs::kBucketWayBytes} * k.read_register(regs::kCapBucketWays))
                                                << buffers.bucket_bits));
      }
      const BatchResult r = run_batch(k, b, buffers, flags);
      const std::string what = "seed " + std::to_string(seed) + " launch " + std::to_string(launch);
      ASSERT_EQ(r.status, regs::kStatusOk) << what;
      expect_same(r, run_on_device(*model, b, flags, table.get(), bucket_bits), what);
      if (::testing::Test::HasFailure()) return;
      for (const EscalationRecord& e : r.escalations) {
        const bool clock_spill = e.reason == regs::kReasonReadVcSpill || e.reason == regs::kReasonPartialReadVcSpill;
        counts.with_clock += e.read_clock_valid && !clock_spill;
        counts.clock_spills += clock_spill;
        counts.partial_spills += e.reason == regs::kReasonPartialReadVcSpill;
        counts.masked_records += e.clock_mask != 0;
      }
    }
    EXPECT_GT(model->statistics().races, 0u) << "the batches must race for agreement to mean something";
    EXPECT_GT(model->statistics().escalations, 0u);
    EXPECT_EQ(k.read_register(regs::kStatCommands), model->statistics().commands);
    EXPECT_EQ(k.read_register(regs::kStatAccesses), model->statistics().accesses);
    EXPECT_EQ(k.read_register(regs::kStatRaces), model->statistics().races);
    EXPECT_EQ(k.read_register(regs::kStatEscalations), model->statistics().escalations);
    EXPECT_EQ(k.read_register(regs::kStatSpills), model->statistics().spills);
    counts.spills += model->statistics().spills;
    if (cache.sets != 0) {
      EXPECT_EQ(k.read_register(regs::kStatMisses), model->statistics().misses);
      EXPECT_EQ(k.read_register(regs::kStatWritebacks), model->statistics().writebacks);
    }
    expect_clean(k);
  }
}

TEST(KernelSyncOps, RandomBatchesMatchTheSoftwareModel) {
  PoolCounts c;
  random_batches_match<Vrac_kernel_default>(kObjects, kReadVcs, {256, 4}, 100, 12, c);
  EXPECT_GT(c.with_clock, 0u) << "escalations must carry read clocks from the pool";
  EXPECT_GT(c.imports, 100u);
  EXPECT_GT(c.atomics, 100u) << "ops 9-10 must be compared too";
}

TEST(KernelSyncOps, RandomBatchesMatchOnTwoObjectsAndATinyCache) {
  PoolCounts c;
  random_batches_match<Vrac_kernel_tiny>(2, 0, {2, 2}, 200, 12, c);
  EXPECT_EQ(c.with_clock + c.clock_spills, 0u) << "no pool, no read clocks";
}

// A 2-entry pool (one set of 2 ways) on the 2 x 2 cache: entries are
// taken from each other (read-clock spills, LASTWRITE lines), a line holds
// up to two clocks (splits, partial clocks, op 8) and pool lines are
// evicted and filled back from the bucket table.
TEST(KernelSyncOps, RandomBatchesMatchWithATwoEntryPool) {
  PoolCounts c;
  random_batches_match<Vrac_kernel_tiny_pool>(2, 2, {2, 2, 1}, 300, 40, c, 10, 2);
  EXPECT_GT(c.with_clock, 0u);
  EXPECT_GT(c.imports, 100u);
  EXPECT_GT(c.clock_spills, 0u) << "allocations must take entries from other granules";
  EXPECT_GT(c.atomics, 100u);
  EXPECT_GT(c.clock_imports, 20u) << "op 8 must be compared too";
  EXPECT_GT(c.masked_records, 0u) << "records must name the bytes of their clock";
  std::printf("  %llu clock spills (%llu partial), %llu records naming bytes, %llu op 8s\n",
              static_cast<unsigned long long>(c.clock_spills), static_cast<unsigned long long>(c.partial_spills),
              static_cast<unsigned long long>(c.masked_records), static_cast<unsigned long long>(c.clock_imports));
}

// Two pool sets of 4 ways (8 entries) on the 2 x 2 cache: up to four read
// clocks per line, and the round-robin choice among several other
// granules' entries.
TEST(KernelSyncOps, RandomBatchesMatchWithFourWays) {
  PoolCounts c;
  random_batches_match<Vrac_kernel_tiny_ways4>(2, 8, {2, 2, 2}, 350, 40, c, 10, 4);
  EXPECT_GT(c.with_clock, 0u);
  EXPECT_GT(c.clock_spills, 0u);
  EXPECT_GT(c.clock_imports, 20u);
  EXPECT_GT(c.masked_records, 0u);
  std::printf("  %llu clock spills (%llu partial), %llu records naming bytes, %llu op 8s\n",
              static_cast<unsigned long long>(c.clock_spills), static_cast<unsigned long long>(c.partial_spills),
              static_cast<unsigned long long>(c.masked_records), static_cast<unsigned long long>(c.clock_imports));
}

// Tiny bucket tables (2 and 4 buckets of the models' 4 and 1 ways) under
// the 2 x 2 cache: write-backs fill every way and spill, the spill filters
// fill up, fills of spilled granules come back as placeholders and lines
// the host imports are written back into freed or found ways. The records,
// spills, misses and write-backs must be the software model's byte for
// byte (its bucket table follows the same rules).
TEST(KernelSyncOps, RandomBatchesMatchOnTinyBucketTables) {
  PoolCounts four_ways, one_way;
  random_batches_match<Vrac_kernel_tiny>(2, 0, {2, 2}, 400, 12, four_ways, 1);  // 8 entries for 8 granules
  for (unsigned bits : {1u, 2u})
    random_batches_match<Vrac_kernel_tiny_pool>(2, 2, {2, 2, 1}, 500 + 10 * bits, 12, one_way, bits, 2);
  EXPECT_GT(four_ways.spills, 0u) << "4 ways";
  EXPECT_GT(one_way.spills, 0u) << "1 way";
  std::printf("  %llu spills (2 buckets of 4 ways), %llu (2 and 4 buckets of 1 way)\n",
              static_cast<unsigned long long>(four_ways.spills), static_cast<unsigned long long>(one_way.spills));
}

}  // namespace
}  // namespace raceaccel::kernel_test
