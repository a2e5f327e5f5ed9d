#include "driver/software/software_kernel.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::driver {
namespace {

constexpr unsigned kFullMask = 0xFF;

bool aligned(uint64_t address, uint64_t alignment) { return address % alignment == 0; }

}  // namespace

SoftwareKernel::SoftwareKernel(const LineShape& shape, unsigned objects, CacheShape cache, bool atomics)
    : shape_(shape), atomics_(atomics), objects_(objects, std::vector<uint32_t>(shape.slots, 0)), cache_(cache) {
  reset_state();
}

// As the kernel after reset or clear_state: rows and objects zero, no history.
void SoftwareKernel::reset_state() {
  rows_.assign(shape_.slots, std::vector<uint32_t>(shape_.slots, 0));
  for (auto& object : objects_) std::fill(object.begin(), object.end(), 0);
  lines_.clear();
  pool_.assign(shape_.read_vcs, ReadClock{false, 0, std::vector<uint32_t>(shape_.slots, 0), 0});
  pool_round_robin_.assign(shape_.read_vcs / shape_.read_vc_ways, 0);
  // clear_state resets the engine: the cache is swept and the round-robin
  // pointers restart.
  cache_tags_.assign(cache_.sets, std::vector<uint64_t>(cache_.ways, 0));  // the init sweep
  round_robin_.assign(cache_.sets, 0);
  dirty_.clear();
}

std::span<std::byte> SoftwareKernel::bucket(uint64_t granule) {
  const size_t bytes = size_t{cache_.bucket_ways} * regs::kBucketWayBytes;
  return buckets_.subspan(bucket_of(granule, bucket_bits_) * bytes, bytes);
}

// The meta port's fill: the way holding the granule, else (its filter bit
// set: the host may own it) the INSOFTWARE placeholder, else the zero line.
Line SoftwareKernel::fill(uint64_t granule) {
  const std::span<std::byte> b = bucket(granule);
  for (unsigned w = 0; w < cache_.bucket_ways; ++w) {
    const auto way = b.subspan(size_t{w} * regs::kBucketWayBytes, regs::kBucketWayBytes);
    if (get_bits(way, 0, 64) == granule + 1) return decode_line(way.subspan<24, kLineBytes>(), shape_);
  }
  Line line;
  line.in_software = ((get_bits(b, 64, 64) >> bucket_filter_bit(granule)) & 1u) != 0;
  return line;
}

// The meta port's write-back: the granule's own way, else (a line with
// history) the first empty way takes key and line — a zero line empties
// the granule's way or is dropped — else a spill record and the filter bit.
KernelCycles::WriteBack SoftwareKernel::write_back(uint64_t granule, uint64_t word, Output& out) {
  ++stats_.writebacks;
  const auto found = lines_.find(granule);
  const Line line = found == lines_.end() ? Line{} : found->second;
  const bool zero = line == Line{};
  const std::span<std::byte> b = bucket(granule);
  std::span<std::byte> target;
  for (unsigned w = 0; w < cache_.bucket_ways && target.empty(); ++w) {
    const auto way = b.subspan(size_t{w} * regs::kBucketWayBytes, regs::kBucketWayBytes);
    if (get_bits(way, 0, 64) == granule + 1) target = way;
  }
  for (unsigned w = 0; w < cache_.bucket_ways && target.empty() && !zero; ++w) {
    const auto way = b.subspan(size_t{w} * regs::kBucketWayBytes, regs::kBucketWayBytes);
    if (get_bits(way, 0, 64) == 0) target = way;
  }
  if (!target.empty()) {
    set_bits(target, 0, 64, zero ? 0 : granule + 1);
    encode_line(line, shape_, target.subspan<24, kLineBytes>());
    return KernelCycles::WriteBack::Store;
  }
  if (zero) return KernelCycles::WriteBack::Nothing;
  ++stats_.spills;
  escalate(word, granule, regs::kReasonSpill, line, nullptr, out);
  const uint64_t filter = get_bits(b, 64, 64), bit = uint64_t{1} << bucket_filter_bit(granule);
  set_bits(b, 64, 64, filter | bit);
  // The meta port writes the filter only when the bit was clear.
  return (filter & bit) != 0 ? KernelCycles::WriteBack::Spill : KernelCycles::WriteBack::SpillAndFilter;
}

// The engine's set_of for a 61-bit granule in `sets` sets: the low bits
// XORed with the tag folded to log2(sets) bits, bit-reversed.
uint64_t SoftwareKernel::set_of(uint64_t granule, unsigned sets) const {
  constexpr unsigned kGranuleBits = 61;
  const unsigned set_bits = static_cast<unsigned>(std::bit_width(sets) - 1);
  if (set_bits == 0) return 0;
  const uint64_t tag = granule >> set_bits;
  uint64_t fold = 0;
  for (unsigned i = 0; i < kGranuleBits - set_bits; ++i) fold ^= ((tag >> i) & 1u) << (set_bits - 1 - i % set_bits);
  return (granule & (uint64_t{sets} - 1)) ^ fold;
}

// The engine's rvc_of: the low log2(read_vcs) bits of the granule's set
// (without a modelled cache, of its set in a cache of read_vcs sets). With
// several ways: the pool set, the low log2(read_vcs / ways) bits, so the
// victim of a cache miss still maps to the missing command's pool set.
size_t SoftwareKernel::pool_index(uint64_t granule) const {
  const unsigned pool_sets = shape_.read_vcs / shape_.read_vc_ways;
  if (pool_sets <= 1) return 0;
  const unsigned sets = cache_.sets > 0 ? cache_.sets : pool_sets;
  return static_cast<size_t>(set_of(granule, sets) & (pool_sets - 1));
}

// ---- several read clocks per line (read_vc_ways > 1) -------------------------
//
// Invariant: the entries of a granule lie in its pool set, cover disjoint
// subsets of its line's shared bytes, and each holds the read clock of the
// bytes it covers. A shared byte without an entry is LASTWRITE (its clock
// went to the host in a reason-5 record that named the byte).

std::span<SoftwareKernel::ReadClock> SoftwareKernel::pool_set(uint64_t granule) {
  return std::span<ReadClock>(pool_).subspan(pool_index(granule) * shape_.read_vc_ways, shape_.read_vc_ways);
}

SoftwareKernel::ReadClock* SoftwareKernel::clock_of(uint64_t granule, unsigned byte) {
  for (ReadClock& e : pool_set(granule)) {
    if (e.valid && e.granule == granule && ((e.mask >> byte) & 1u)) return &e;
  }
  return nullptr;
}

// A new entry for `granule` needs a way that does not hold one of its own
// clocks (a line never displaces itself).
bool SoftwareKernel::can_take_way(uint64_t granule) {
  const auto set = pool_set(granule);
  return std::any_of(set.begin(), set.end(), [&](const ReadClock& e) { return !e.valid || e.granule != granule; });
}

// The lowest free way, else the set's round-robin victim among the other
// granules' entries, whose clock goes to the host first (reason 5, with the
// bytes it covered: those bytes of that line are LASTWRITE from now on).
SoftwareKernel::ReadClock& SoftwareKernel::take_way(uint64_t granule, uint64_t word, Output& out) {
  const auto set = pool_set(granule);
  for (ReadClock& e : set) {
    if (!e.valid) return e;
  }
  unsigned& next = pool_round_robin_[pool_index(granule)];
  for (unsigned i = 0; i < shape_.read_vc_ways; ++i) {
    ReadClock& e = set[(next + i) % shape_.read_vc_ways];
    if (e.granule == granule) continue;
    next = (next + i + 1) % shape_.read_vc_ways;
    escalate(word, e.granule, spill_reason(e), Line{}, &e, out);
    e.valid = false;
    return e;
  }
  throw std::logic_error("software kernel: no way for a new read clock (can_take_way was not asked)");
}

unsigned SoftwareKernel::spill_reason(const ReadClock& e) {
  return e.partial ? regs::kReasonPartialReadVcSpill : regs::kReasonReadVcSpill;
}

// Every clock of `granule` but `keep` leaves the pool in a reason-5 record
// (reason 6 for a partial clock).
void SoftwareKernel::spill_clocks(uint64_t granule, uint64_t word, Output& out, const ReadClock* keep) {
  for (ReadClock& e : pool_set(granule)) {
    if (!e.valid || e.granule != granule || &e == keep) continue;
    escalate(word, granule, spill_reason(e), Line{}, &e, out);
    e.valid = false;
  }
}

// The cache lookup of an access (S1): on a miss the victim is the lowest
// free way, else the set's round-robin choice. A victim whose clock is in
// the pool spills it to the host first (reason 5, line zero) and frees the
// entry; its line keeps its shared mask (LASTWRITE when it returns).
void SoftwareKernel::look_up(uint64_t granule, uint64_t word, Output& out) {
  if (cache_.sets == 0) return;
  std::vector<uint64_t>& ways = cache_tags_[set_of(granule, cache_.sets)];
  if (std::find(ways.begin(), ways.end(), granule + 1) != ways.end()) return;
  ++stats_.misses;
  bool dirty = false;
  bool shared_victim = false;  // (the engine's S1EvSpill, for the cycle model)
  KernelCycles::WriteBack how = KernelCycles::WriteBack::Nothing;
  uint64_t wb_bucket = 0;
  const auto free_way = std::find(ways.begin(), ways.end(), uint64_t{0});
  size_t victim = 0;
  if (free_way != ways.end()) {
    victim = static_cast<size_t>(free_way - ways.begin());
  } else {
    unsigned& next = round_robin_[set_of(granule, cache_.sets)];
    victim = next;
    next = (next + 1) % cache_.ways;
    const uint64_t leaving = ways[victim] - 1;
    const auto line = lines_.find(leaving);
    shared_victim = shape_.read_vcs > 0 && line != lines_.end() && line->second.shared != 0;
    if (multi()) {
      spill_clocks(leaving, word, out);  // all of them: a clock is in the pool only while its line is cached
    } else if (!pool_.empty() && line != lines_.end() && line->second.shared != 0) {
      ReadClock& entry = pool_[pool_index(leaving)];
      if (entry.valid && entry.granule == leaving) {
        escalate(word, leaving, regs::kReasonReadVcSpill, Line{}, &entry, out);
        entry.valid = false;
      }
    }
    dirty = dirty_[leaving];
    if (dirty) how = write_back(leaving, word, out);
    if (dirty) wb_bucket = bucket_of(leaving, bucket_bits_);
    dirty_.erase(leaving);
    lines_.erase(leaving);
  }
  if (cycles_) cycles_->miss(dirty, how, wb_bucket, static_cast<unsigned>(victim), shared_victim);
  ways[victim] = granule + 1;
  dirty_[granule] = false;
  const Line filled = fill(granule);
  if (filled == Line{}) {
    lines_.erase(granule);
  } else {
    lines_[granule] = filled;
  }
}

// C_slot := C_slot ⊔ V[obj]
void SoftwareKernel::acquire(const CommandWord& c) {
  const std::vector<uint32_t>& object = objects_[c.granule];
  std::vector<uint32_t>& row = rows_[c.slot];
  for (unsigned lane = 0; lane < shape_.slots; ++lane) row[lane] = std::max(row[lane], object[lane]);
}

// V[obj] := V[obj] ⊔ C_slot; C_slot[slot] += 1 — in clock_bits bits, as the
// engine's adder: the lane wraps to 0 if the host breaks its promise never
// to send a release whose tick would outgrow the width.
void SoftwareKernel::release(const CommandWord& c) {
  std::vector<uint32_t>& object = objects_[c.granule];
  std::vector<uint32_t>& row = rows_[c.slot];
  for (unsigned lane = 0; lane < shape_.slots; ++lane) object[lane] = std::max(object[lane], row[lane]);
  row[c.slot] = static_cast<uint32_t>((uint64_t{row[c.slot]} + 1) & shape_.max_clock());
}

bool SoftwareKernel::covers(unsigned slot, uint32_t epoch_slot, uint32_t epoch_clock) const {
  return epoch_clock <= rows_[slot][epoch_slot];
}

bool SoftwareKernel::arguments_valid(const BatchArguments& a, SoftwareMemory& memory, std::span<std::byte>& commands,
                                     Output& out) const {
  // Escalation records one command can make: its own, the bucket spill of
  // the line its miss evicts and, with a pool, that line's read clocks and
  // its own line's other clocks (or one displaced clock): 2W + 1 with W
  // ways (3 with one), as the kernel checks.
  const uint64_t records_per_word = shape_.esc_records_per_word();
  if (a.race_capacity < a.command_words || a.esc_capacity < records_per_word * a.command_words) return false;
  if (a.bucket_bits < 1 || a.bucket_bits > 30) return false;
  if (!aligned(a.commands, regs::kCommandBytes) || !aligned(a.races, 64) || !aligned(a.escalations, 64) ||
      !aligned(a.buckets, 4096)) {
    return false;
  }
  // The model is stricter than a card: every range must lie inside a buffer.
  commands = memory.device_range(a.commands, uint64_t{a.command_words} * regs::kCommandBytes);
  out.races = memory.device_range(a.races, uint64_t{a.race_capacity} * regs::kRaceRecordBytes);
  out.escalations = memory.device_range(a.escalations, uint64_t{a.esc_capacity} * shape_.esc_record_bytes());
  const auto buckets = memory.device_range(a.buckets, bucket_table_bytes(a.bucket_bits));
  const auto missing = [](std::span<std::byte> s, uint64_t want) { return want != 0 && s.empty(); };
  return !missing(commands, a.command_words) && !missing(out.races, a.race_capacity) &&
         !missing(out.escalations, a.esc_capacity) && !buckets.empty();
}

BatchResult SoftwareKernel::run(const BatchArguments& args, SoftwareMemory& memory) {
  BatchResult result;
  std::span<std::byte> commands;
  Output out;
  if (!arguments_valid(args, memory, commands, out)) {
    result.status = regs::kStatusBadArgs;
    return result;
  }
  if (args.flags & regs::kFlagClearState) reset_state();
  if (cycles_) cycles_->begin_batch((args.flags & regs::kFlagClearState) != 0);
  buckets_ = memory.device_range(args.buckets, bucket_table_bytes(args.bucket_bits));
  bucket_bits_ = args.bucket_bits;
  const unsigned row_words = shape_.row_words();
  uint32_t word = 0;
  while (word < args.command_words) {
    const CommandWord c = decode_command(commands.subspan(size_t{word} * regs::kCommandBytes).first<16>());
    const bool on_object = c.op >= regs::kOpAcquire && c.op <= regs::kOpLoadObject;
    const unsigned last_op = multi() ? regs::kOpImportReadClock : regs::kOpImportLine;
    const bool atomic = c.op == regs::kOpAtomicRead || c.op == regs::kOpAtomicWrite;
    if ((c.op > last_op && !(atomic && atomics_)) || c.slot >= shape_.slots || c.reserved != 0 ||
        (on_object && c.granule >= objects_.size())) {
      result.status = regs::kStatusBadOp;
      break;
    }
    if (c.op == regs::kOpSetRow || c.op == regs::kOpLoadObject) {
      if (word + 1 + row_words > args.command_words) {
        result.status = regs::kStatusTruncated;
        break;
      }
      const auto data =
          commands.subspan(size_t{word + 1} * regs::kCommandBytes, size_t{row_words} * regs::kCommandBytes);
      const std::vector<uint64_t> lanes = decode_row(data, shape_);
      std::vector<uint32_t>& target = c.op == regs::kOpSetRow ? rows_[c.slot] : objects_[c.granule];
      for (unsigned lane = 0; lane < shape_.slots; ++lane) target[lane] = static_cast<uint32_t>(lanes[lane]);
      ++stats_.commands;
      if (cycles_) cycles_->command(1 + row_words, false, word);
      word += 1 + row_words;
      continue;
    }
    if (c.op == regs::kOpImportReadClock) {
      if (word + 1 + row_words > args.command_words) {
        result.status = regs::kStatusTruncated;
        break;
      }
      const auto data =
          commands.subspan(size_t{word + 1} * regs::kCommandBytes, size_t{row_words} * regs::kCommandBytes);
      if (cycles_) cycles_->command(1 + row_words, false, word);
      if (!import_read_clock(c.granule, c.mask, word, decode_row(data, shape_), out)) {
        result.status = regs::kStatusBadOp;
        break;
      }
      ++stats_.commands;
      word += 1 + row_words;
      continue;
    }
    if (c.op == regs::kOpImportLine) {
      // The line, then (shared bytes in the mask) its read clock.
      if (c.mask != 0 && pool_.empty()) {
        result.status = regs::kStatusBadOp;
        break;
      }
      const unsigned line_words = shape_.line_words(), clock_words = c.mask != 0 ? row_words : 0;
      if (word + 1 + line_words + clock_words > args.command_words) {
        result.status = regs::kStatusTruncated;
        break;
      }
      const auto data = commands.subspan(size_t{word + 1} * regs::kCommandBytes,
                                         size_t{line_words + clock_words} * regs::kCommandBytes);
      const std::vector<uint64_t> clock =
          clock_words == 0 ? std::vector<uint64_t>{}
                           : decode_row(data.subspan(size_t{line_words} * regs::kCommandBytes), shape_);
      if (cycles_)
        cycles_->command(1 + line_words + clock_words, true, word, c.granule, cache_set(c.granule),
                         bucket_of(c.granule, bucket_bits_));
      time_lookup(c);
      import_line(c.granule, c.mask, word, decode_line_words(data, shape_), clock, out);
      ++stats_.commands;
      word += 1 + line_words + clock_words;
      continue;
    }
    ++stats_.commands;
    const bool lookup = c.op != regs::kOpAcquire && c.op != regs::kOpRelease;
    if (cycles_)
      cycles_->command(1, lookup, word, c.granule, cache_set(c.granule), bucket_of(c.granule, bucket_bits_),
                       c.force_sw);
    if (lookup) time_lookup(c);
    if (c.op == regs::kOpAcquire) {
      acquire(c);
    } else if (c.op == regs::kOpRelease) {
      release(c);
    } else {
      if (c.op != regs::kOpFree) ++stats_.accesses;
      if (atomic) {
        execute_atomic(c, word, out);
      } else if (multi()) {
        execute_multi(c, word, out);
      } else {
        execute(c, word, out);
      }
    }
    ++word;
  }
  result.words_done = word;
  if (cycles_) {
    const uint64_t busy = cycles_->end_batch();
    stats_.busy_cycles += busy;
    stats_.cycles += busy;
  }
  result.races_written = out.races_written;
  result.escalations_written = out.escalations_written;
  return result;
}

void SoftwareKernel::estimate_cycles(double latency) {
  KernelTimingShape t;
  t.sets = cache_.sets;
  t.ways = cache_.ways;
  t.slots = shape_.slots;
  t.objects = objects();
  t.bucket_ways = cache_.bucket_ways;
  t.esc_beats = static_cast<unsigned>(shape_.esc_record_bytes() / 64);
  t.latency = latency;
  cycles_.emplace(t);
}

// The granule's set in the modelled cache (0 without one).
uint64_t SoftwareKernel::cache_set(uint64_t granule) const {
  return cache_.sets == 0 ? 0 : set_of(granule, cache_.sets);
}

// The S2 wait (rac_check_engine's hazard) of a lookup that hits right behind
// another lookup of its line, or of its pool entry when that one may write
// the pool; a miss drains the pipeline anyway.
void SoftwareKernel::time_lookup(const CommandWord& c) {
  if (!cycles_) return;
  KernelCycles& k = *cycles_;
  const bool hit =
      cache_.sets == 0 || std::ranges::count(cache_tags_[set_of(c.granule, cache_.sets)], c.granule + 1) != 0;
  const bool pool_on = !pool_.empty();
  const size_t entry = pool_on ? pool_index(c.granule) : 0;
  if (k.prev_lookup_ && hit &&
      (c.granule == k.prev_granule_ || (pool_on && k.prev_may_write_pool_ && entry == k.prev_pool_entry_))) {
    k.hazard();
  }
  // As s3_may_write_pool: an import, a line with shared bytes, or a read not
  // ordered after some byte's last read (it may allocate an entry).
  const auto found = lines_.find(c.granule);
  const Line line = found == lines_.end() ? Line{} : found->second;
  bool unordered_read = false;
  for (unsigned b = 0; b < 8 && c.op == regs::kOpRead; ++b) {
    if (((c.mask >> b) & 1u) && !covers(c.slot, line.bytes[b].r_slot, line.bytes[b].r_clock)) unordered_read = true;
  }
  k.prev_lookup_ = true;
  k.prev_granule_ = c.granule;
  k.prev_pool_entry_ = entry;
  k.prev_may_write_pool_ = c.op == regs::kOpImportLine || line.shared != 0 || unordered_read;
}

// Op 7: the host hands a line it owns back (docs/kernel-interface.md,
// "Re-import"). The lookup is an access's (a miss evicts as usual); the
// line replaces whatever the chip held for the granule — the INSOFTWARE
// placeholder — with INSOFTWARE clear. Its shared bytes (`shared`, the
// command's mask) read `clock`, which takes the granule's pool entry as an
// allocation does (the entry's other granule spills its clock, reason 5),
// so the line is EVERYTHING.
void SoftwareKernel::import_line(uint64_t granule, unsigned shared, uint64_t word, const Line& line,
                                 const std::vector<uint64_t>& clock, Output& out) {
  look_up(granule, word, out);
  if (multi()) {
    for (ReadClock& e : pool_set(granule)) {
      if (e.valid && e.granule == granule) e.valid = false;  // (a host-owned line holds none)
    }
    if (shared != 0) {
      ReadClock& e = take_way(granule, word, out);
      e.valid = true;
      e.partial = false;  // the host sends whole histories
      e.granule = granule;
      e.mask = shared;
      for (unsigned lane = 0; lane < shape_.slots; ++lane) e.lanes[lane] = static_cast<uint32_t>(clock[lane]);
    }
  } else if (!pool_.empty()) {
    ReadClock& entry = pool_[pool_index(granule)];
    if (entry.valid && entry.granule == granule) entry.valid = false;  // (a host-owned line holds none)
    if (shared != 0) {
      if (entry.valid) escalate(word, entry.granule, regs::kReasonReadVcSpill, Line{}, &entry, out);
      entry.valid = true;
      entry.granule = granule;
      for (unsigned lane = 0; lane < shape_.slots; ++lane) entry.lanes[lane] = static_cast<uint32_t>(clock[lane]);
    }
  }
  Line imported = line;
  imported.in_software = false;
  imported.shared = shared;
  if (cache_.sets != 0) dirty_[granule] = true;  // it replaces a placeholder the table must not keep
  if (imported == Line{}) {
    lines_.erase(granule);
  } else {
    lines_[granule] = imported;
  }
}

void SoftwareKernel::emit_race(const RaceRecord& race, Output& out) {
  encode_race(race, out.races.subspan(size_t{out.races_written} * regs::kRaceRecordBytes).first<64>());
  ++out.races_written;
  ++stats_.races;
  if (cycles_) cycles_->race_record();
}

void SoftwareKernel::escalate(uint64_t word, uint64_t granule, unsigned reason, const Line& line,
                              const ReadClock* clock, Output& out) {
  if (cycles_) cycles_->esc_record();
  EscalationRecord r;
  r.word = word;
  r.granule = granule;
  r.reason = reason;
  encode_line(line, shape_, r.line);
  const size_t bytes = shape_.esc_record_bytes();
  if (clock != nullptr) {
    r.read_clock_valid = true;
    r.clock_mask = static_cast<uint8_t>(clock->mask);
    r.read_clock.resize(bytes - regs::kEscRecordBaseBytes);
    const std::vector<uint64_t> lanes(clock->lanes.begin(), clock->lanes.end());
    encode_row(lanes, shape_, r.read_clock);
  }
  encode_escalation(r, out.escalations.subspan(size_t{out.escalations_written} * bytes, bytes));
  ++out.escalations_written;
}

// Op 8 (several clocks per line): the bytes in `mask` of the line just
// imported read `clock`, which takes a way of the granule's pool set. The
// host sends it right after the op 7 of the same line, at most ways − 1 of
// them; bytes already shared or no way left break the contract (false).
bool SoftwareKernel::import_read_clock(uint64_t granule, unsigned mask, uint64_t word,
                                       const std::vector<uint64_t>& clock, Output& out) {
  look_up(granule, word, out);
  Line& line = lines_[granule];
  if (mask == 0 || (line.shared & mask) != 0 || line.in_software || !can_take_way(granule)) return false;
  ReadClock& e = take_way(granule, word, out);
  e.valid = true;
  e.partial = false;  // the host sends whole histories
  e.granule = granule;
  e.mask = mask;
  for (unsigned lane = 0; lane < shape_.slots; ++lane) e.lanes[lane] = static_cast<uint32_t>(clock[lane]);
  line.shared |= mask;
  for (unsigned b = 0; b < 8; ++b) {
    if ((mask >> b) & 1u) line.bytes[b].r_slot = line.bytes[b].r_clock = 0;  // R is now the clock's
  }
  if (cache_.sets != 0) dirty_[granule] = true;
  return true;
}

// ---- atomic accesses (ops 9 and 10, version 7) --------------------------------
//
// An atomic operation reaches the chip split in two: its synchronization
// (acquire and release of the location's clock) stays with the host, which
// sends the resulting clock rows as for any synchronization, and its access
// part comes here. Atomic accesses never race with each other, so the
// access only has to be checked against the plain history, which the line
// holds exactly as FastTrack keeps it: an atomic read against the last
// plain write, an atomic write (a store, or an RMW, which reads too) against
// the last plain write and then the plain reads (docs/event-model.md). The
// line does not change but for the raced flags of bytes that raced: the
// host keeps the atomic history and checks later plain accesses against it
// before it sends them (docs/kernel-interface.md, "Atomic accesses on
// chip").

// The read clock of shared byte `byte` of `line`, if the pool holds it (a
// shared byte without one is LASTWRITE: its clock is with the host).
SoftwareKernel::ReadClock* SoftwareKernel::clock_for(uint64_t granule, const Line& line, unsigned byte) {
  if (pool_.empty() || !((line.shared >> byte) & 1u)) return nullptr;
  if (multi()) return clock_of(granule, byte);
  ReadClock& entry = pool_[pool_index(granule)];
  return entry.valid && entry.granule == granule ? &entry : nullptr;
}

// An escalation of `line` with its clocks, as ops 0–2 escalate: every
// clock but the first in a reason-5 record, the first in the record itself.
void SoftwareKernel::escalate_line(uint64_t word, uint64_t granule, unsigned reason, const Line& line, Output& out) {
  ReadClock* first = nullptr;
  if (multi()) {
    // The record carries a whole history only: partial clocks leave in
    // reason-6 records, which the host joins into what it keeps.
    for (ReadClock& e : pool_set(granule)) {
      if (e.valid && e.granule == granule && !e.partial && first == nullptr) first = &e;
    }
    spill_clocks(granule, word, out, first);
  } else if (!pool_.empty() && line.shared != 0) {
    ReadClock& entry = pool_[pool_index(granule)];
    if (entry.valid && entry.granule == granule) first = &entry;
  }
  escalate(word, granule, reason, line, first, out);
  if (first != nullptr) first->valid = false;
  ++stats_.escalations;
}

void SoftwareKernel::execute_atomic(const CommandWord& c, uint64_t word, Output& out) {
  look_up(c.granule, word, out);
  const auto found = lines_.find(c.granule);
  const Line cur = found == lines_.end() ? Line{} : found->second;
  const std::vector<uint32_t>& row = rows_[c.slot];
  const bool writes = c.op == regs::kOpAtomicWrite;
  Line next = cur;
  RaceRecord race;
  race.word = word;
  race.granule = c.granule;
  bool lw_esc = false;
  for (unsigned b = 0; b < 8; ++b) {
    if (!((c.mask >> b) & 1u) || cur.bytes[b].raced) continue;
    const ByteState& s = cur.bytes[b];
    const auto report = [&](unsigned kind, uint32_t slot, uint32_t clock) {
      race.mask |= 1u << b;
      race.kind[b] = kind;
      race.prev_slot[b] = slot;
      race.prev_clock[b] = clock;
      next.bytes[b].raced = true;
    };
    if (!covers(c.slot, s.w_slot, s.w_clock)) {
      report(writes ? 0 : 1, s.w_slot, s.w_clock);  // write-write or write-read
      continue;
    }
    if (!writes) continue;
    if (!pool_.empty() && ((cur.shared >> b) & 1u)) {
      const ReadClock* clock = clock_for(c.granule, cur, b);
      if (clock == nullptr || clock->partial) {
        lw_esc = true;  // LASTWRITE: the earlier reads are with the host
        continue;
      }
      for (unsigned lane = 0; lane < shape_.slots; ++lane) {
        if (clock->lanes[lane] > row[lane]) {
          report(2, lane, clock->lanes[lane]);  // the lowest lane that is not covered
          break;
        }
      }
    } else if (!covers(c.slot, s.r_slot, s.r_clock)) {
      report(2, s.r_slot, s.r_clock);
    }
  }
  // rac_line_status_comb's order: forced, a host-owned line, then a
  // LASTWRITE byte whose reads only the host has.
  std::optional<unsigned> reason;
  if (c.force_sw) {
    reason = regs::kReasonForced;
  } else if (cur.in_software) {
    reason = regs::kReasonInSoftware;
  } else if (lw_esc) {
    reason = regs::kReasonReadShare;
  }
  if (reason) {
    escalate_line(word, c.granule, *reason, cur, out);
    Line owned = cur;
    owned.in_software = true;
    if (cache_.sets != 0 && owned != cur) dirty_[c.granule] = true;
    lines_[c.granule] = owned;
    return;
  }
  if (race.mask == 0) return;  // nothing changes
  emit_race(race, out);
  // A line whose shared bytes all raced has none left (as ops 0–2 keep it):
  // its clocks are freed.
  unsigned raced_after = 0;
  for (unsigned b = 0; b < 8; ++b) {
    if (next.bytes[b].raced) raced_after |= 1u << b;
  }
  if (next.shared != 0 && (next.shared & ~raced_after & 0xFFu) == 0) {
    next.shared = 0;
    if (!pool_.empty()) {
      for (ReadClock& e : multi() ? pool_set(c.granule) : std::span<ReadClock>(&pool_[pool_index(c.granule)], 1)) {
        if (e.valid && e.granule == c.granule) e.valid = false;
      }
    }
  }
  if (cache_.sets != 0) dirty_[c.granule] = true;
  lines_[c.granule] = next;
}

// rac_check_engine's S3 for ops 0–2, byte for byte: the FastTrack rules on
// the 8 lanes, the READ SHARE / LASTWRITE decisions, the status rules
// (rac_line_status_comb) and the pool update.
void SoftwareKernel::execute(const CommandWord& c, uint64_t word, Output& out) {
  look_up(c.granule, word, out);
  const auto found = lines_.find(c.granule);
  const Line cur = found == lines_.end() ? Line{} : found->second;
  const bool pool_on = !pool_.empty();
  ReadClock* entry = pool_on ? &pool_[pool_index(c.granule)] : nullptr;
  const std::vector<uint32_t>& row = rows_[c.slot];
  const uint32_t own = row[c.slot];
  const unsigned shared = pool_on ? cur.shared : 0u;
  const bool rvc_hit = pool_on && entry->valid && entry->granule == c.granule;
  const bool has_rvc = shared != 0 && rvc_hit;
  // The read clock against the thread: R ⊑ C_t, and the lowest lane that is not.
  bool rvc_leq = true;
  unsigned rvc_prev_slot = 0;
  if (has_rvc && c.op == regs::kOpWrite) {  // only a write of a shared byte looks at it
    for (unsigned lane = shape_.slots; lane-- > 0;) {
      if (entry->lanes[lane] > row[lane]) {
        rvc_leq = false;
        rvc_prev_slot = lane;
      }
    }
  }
  const bool is_read = c.op == regs::kOpRead, is_write = c.op == regs::kOpWrite, is_free = c.op == regs::kOpFree;
  Line next = cur;
  RaceRecord race;
  race.word = word;
  race.granule = c.granule;
  unsigned share_b = 0, unshare = 0, raced_before = 0;
  bool rvc_touch = false, lw_esc = false;
  for (unsigned b = 0; b < 8; ++b) {
    if (cur.bytes[b].raced) raced_before |= 1u << b;
    if (!((c.mask >> b) & 1u)) continue;
    if (is_free) {
      next.bytes[b] = ByteState{};
      continue;
    }
    const ByteState& s = cur.bytes[b];
    ByteState& n = next.bytes[b];
    if (s.raced) continue;
    const bool w_ok = covers(c.slot, s.w_slot, s.w_clock);
    const bool r_ok = covers(c.slot, s.r_slot, s.r_clock);
    const bool is_shared = (shared >> b) & 1u;
    const auto report = [&](unsigned kind, uint32_t slot, uint32_t clock) {
      race.mask |= 1u << b;
      race.kind[b] = kind;
      race.prev_slot[b] = slot;
      race.prev_clock[b] = clock;
      n.raced = true;
    };
    if (is_read) {
      if (is_shared && has_rvc) {
        if (entry->lanes[c.slot] == own) {
        } else if (!w_ok) {
          report(1, s.w_slot, s.w_clock);
        } else {
          rvc_touch = true;  // [FT READ SHARED]
        }
      } else if (s.r_slot == c.slot && s.r_clock == own) {
      } else if (!w_ok) {
        report(1, s.w_slot, s.w_clock);
      } else if (r_ok) {
        n.r_slot = c.slot;  // [FT READ EXCLUSIVE] (LASTWRITE: the latest read since the spill)
        n.r_clock = own;
      } else if (is_shared) {
        lw_esc = true;  // concurrent with a read since the spill: the host joins them
      } else {
        share_b |= 1u << b;  // [FT READ SHARE]
      }
    } else if (is_write) {
      if (s.w_slot == c.slot && s.w_clock == own) {
      } else if (!w_ok) {
        report(0, s.w_slot, s.w_clock);
      } else if (is_shared && !has_rvc) {
        lw_esc = true;  // LASTWRITE: the earlier reads are with the host
      } else if (is_shared && !rvc_leq) {
        report(2, rvc_prev_slot, entry->lanes[rvc_prev_slot]);
      } else if (!is_shared && !r_ok) {
        report(2, s.r_slot, s.r_clock);
      } else {
        n.w_slot = c.slot;  // [FT WRITE EXCLUSIVE] or [FT WRITE SHARED]
        n.w_clock = own;
        if (is_shared) {
          unshare |= 1u << b;
          n.r_slot = 0;
          n.r_clock = 0;
        }
      }
    }
  }
  // A new read clock needs a line without one and one earlier read shared by
  // every byte that starts sharing (the lowest such byte's R names it).
  bool share_same = true;
  uint32_t share_r_slot = 0, share_r_clock = 0;
  for (unsigned b = 0; b < 8; ++b) {
    if ((share_b >> b) & 1u) {
      share_r_slot = cur.bytes[b].r_slot;
      share_r_clock = cur.bytes[b].r_clock;
      break;
    }
  }
  for (unsigned b = 0; b < 8; ++b) {
    if (((share_b >> b) & 1u) && (cur.bytes[b].r_slot != share_r_slot || cur.bytes[b].r_clock != share_r_clock)) {
      share_same = false;
    }
  }
  const bool alloc_ok = pool_on && share_b != 0 && shared == 0 && share_same;
  const bool update_ok = (shared & ~c.mask & ~raced_before & 0xFFu) == 0;
  const bool need_share = (share_b != 0 && !alloc_ok) || lw_esc || (rvc_touch && !update_ok);

  // rac_line_status_comb
  const bool full_free = is_free && c.mask == kFullMask;
  bool escalated = false;
  unsigned reason = regs::kReasonInSoftware;
  if (full_free) {
    escalated = cur.in_software;
    reason = regs::kReasonReclaim;
  } else if (c.force_sw) {
    escalated = true;
    reason = regs::kReasonForced;
  } else if (cur.in_software) {
    escalated = true;
  } else if (need_share) {
    escalated = true;
    reason = regs::kReasonReadShare;
  }

  unsigned raced_after = 0;
  for (unsigned b = 0; b < 8; ++b) {
    if (next.bytes[b].raced) raced_after |= 1u << b;
  }
  unsigned shared_after = shared & ~unshare;
  if (is_free) shared_after &= ~c.mask;
  if (alloc_ok) shared_after |= share_b;
  if ((shared_after & ~raced_after & 0xFFu) == 0) shared_after = 0;

  const bool displace = alloc_ok && !escalated && entry->valid && !rvc_hit;
  if (escalated) {
    escalate(word, c.granule, reason, cur, has_rvc ? entry : nullptr, out);
    ++stats_.escalations;
  } else if (displace) {
    // The entry's clock goes to the host; that line becomes LASTWRITE.
    escalate(word, entry->granule, regs::kReasonReadVcSpill, Line{}, entry, out);
  }
  if (!escalated && race.mask != 0) {
    emit_race(race, out);
  }

  Line final_line;
  if (full_free) {
    final_line = Line{};
  } else if (escalated) {
    final_line = cur;
    final_line.in_software = true;
  } else {
    final_line = next;
    final_line.shared = shared_after;
    for (unsigned b = 0; b < 8; ++b) {
      if (alloc_ok && ((share_b >> b) & 1u)) {
        final_line.bytes[b].r_slot = 0;  // R is now the clock's
        final_line.bytes[b].r_clock = 0;
      }
    }
  }
  if (cache_.sets != 0 && final_line != cur) dirty_[c.granule] = true;  // the engine's line_changed
  if (final_line == Line{}) {
    lines_.erase(c.granule);
  } else {
    lines_[c.granule] = final_line;
  }

  if (!pool_on) return;
  if (escalated || full_free) {
    if (has_rvc) entry->valid = false;
  } else if (alloc_ok) {
    entry->valid = true;
    entry->granule = c.granule;
    std::fill(entry->lanes.begin(), entry->lanes.end(), 0);
    entry->lanes[share_r_slot] = share_r_clock;
    entry->lanes[c.slot] = own;
  } else if (has_rvc && shared_after == 0) {
    entry->valid = false;
  } else if (rvc_touch) {
    entry->lanes[c.slot] = own;
  }
}

// execute() with several read clocks per line: the same FastTrack rules per
// byte, each shared byte against its own clock (or LASTWRITE without one).
// A command makes at most one new clock — a READ SHARE of bytes with one
// earlier read, or a partial read that splits a clock (the bytes read get a
// copy with the reader's lane raised; the others keep the old one) — in a
// way not holding another of the line's clocks; anything more escalates.
void SoftwareKernel::execute_multi(const CommandWord& c, uint64_t word, Output& out) {
  look_up(c.granule, word, out);
  const auto found = lines_.find(c.granule);
  const Line cur = found == lines_.end() ? Line{} : found->second;
  const std::vector<uint32_t>& row = rows_[c.slot];
  const uint32_t own = row[c.slot];
  const unsigned shared = cur.shared;
  const bool is_read = c.op == regs::kOpRead, is_write = c.op == regs::kOpWrite, is_free = c.op == regs::kOpFree;
  Line next = cur;
  RaceRecord race;
  race.word = word;
  race.granule = c.granule;
  // share_b: bytes starting to share (READ SHARE); lw_share_b: LASTWRITE
  // bytes read concurrently with the read kept in R, which start a partial
  // clock (the reads since their clock went to the host).
  unsigned share_b = 0, lw_share_b = 0, unshare = 0, raced_before = 0;
  std::vector<ReadClock*> touched;  // clocks whose reader's lane rises
  bool lw_esc = false;
  for (unsigned b = 0; b < 8; ++b) {
    if (cur.bytes[b].raced) raced_before |= 1u << b;
    if (!((c.mask >> b) & 1u)) continue;
    if (is_free) {
      next.bytes[b] = ByteState{};
      continue;
    }
    const ByteState& s = cur.bytes[b];
    ByteState& n = next.bytes[b];
    if (s.raced) continue;
    const bool w_ok = covers(c.slot, s.w_slot, s.w_clock);
    const bool r_ok = covers(c.slot, s.r_slot, s.r_clock);
    const bool is_shared = (shared >> b) & 1u;
    ReadClock* entry = is_shared ? clock_of(c.granule, b) : nullptr;
    const auto report = [&](unsigned kind, uint32_t slot, uint32_t clock) {
      race.mask |= 1u << b;
      race.kind[b] = kind;
      race.prev_slot[b] = slot;
      race.prev_clock[b] = clock;
      n.raced = true;
    };
    if (is_read) {
      if (entry != nullptr) {
        if (entry->lanes[c.slot] == own) {
        } else if (!w_ok) {
          report(1, s.w_slot, s.w_clock);
        } else if (std::find(touched.begin(), touched.end(), entry) == touched.end()) {
          touched.push_back(entry);  // [FT READ SHARED]
        }
      } else if (s.r_slot == c.slot && s.r_clock == own) {
      } else if (!w_ok) {
        report(1, s.w_slot, s.w_clock);
      } else if (r_ok) {
        n.r_slot = c.slot;  // [FT READ EXCLUSIVE] (LASTWRITE: the latest read since the spill)
        n.r_clock = own;
      } else if (is_shared) {
        // Concurrent with the read since the spill: both start a partial
        // clock. Exact: a read checks W only, and its update joins into
        // the byte's read history, of which the host keeps the part before
        // the spill; whatever needs the whole history (a write) goes to the
        // host, which joins the two.
        lw_share_b |= 1u << b;
      } else {
        share_b |= 1u << b;  // [FT READ SHARE]
      }
    } else if (is_write) {
      // The byte's clock against the thread: its lowest lane above C_t.
      int greater = -1;
      if (entry != nullptr) {
        for (unsigned lane = 0; lane < shape_.slots && greater < 0; ++lane) {
          if (entry->lanes[lane] > row[lane]) greater = static_cast<int>(lane);
        }
      }
      if (s.w_slot == c.slot && s.w_clock == own) {
      } else if (!w_ok) {
        report(0, s.w_slot, s.w_clock);
      } else if (is_shared && (entry == nullptr || entry->partial)) {
        lw_esc = true;  // LASTWRITE: the earlier reads are with the host
      } else if (is_shared && greater >= 0) {
        report(2, static_cast<uint32_t>(greater), entry->lanes[static_cast<unsigned>(greater)]);
      } else if (!is_shared && !r_ok) {
        report(2, s.r_slot, s.r_clock);
      } else {
        n.w_slot = c.slot;  // [FT WRITE EXCLUSIVE] or [FT WRITE SHARED]
        n.w_clock = own;
        if (is_shared) {
          unshare |= 1u << b;
          n.r_slot = 0;
          n.r_clock = 0;
        }
      }
    }
  }
  // A partial clock for LASTWRITE bytes read concurrently: one earlier read
  // (R) for all, else the host joins them as before.
  uint32_t lw_r_slot = 0, lw_r_clock = 0;
  for (unsigned b = 0; b < 8; ++b) {
    if ((lw_share_b >> b) & 1u) {
      lw_r_slot = cur.bytes[b].r_slot;
      lw_r_clock = cur.bytes[b].r_clock;
      break;
    }
  }
  for (unsigned b = 0; b < 8; ++b) {
    if (((lw_share_b >> b) & 1u) && (cur.bytes[b].r_slot != lw_r_slot || cur.bytes[b].r_clock != lw_r_clock)) {
      lw_esc = true;
    }
  }
  // A new clock for bytes that start sharing: one earlier read for all.
  bool share_same = true;
  uint32_t share_r_slot = 0, share_r_clock = 0;
  for (unsigned b = 0; b < 8; ++b) {
    if ((share_b >> b) & 1u) {
      share_r_slot = cur.bytes[b].r_slot;
      share_r_clock = cur.bytes[b].r_clock;
      break;
    }
  }
  for (unsigned b = 0; b < 8; ++b) {
    if (((share_b >> b) & 1u) && (cur.bytes[b].r_slot != share_r_slot || cur.bytes[b].r_clock != share_r_clock)) {
      share_same = false;
    }
  }
  // A clock read on some of its live bytes only is split.
  ReadClock* split = nullptr;
  unsigned new_clocks = (share_b != 0 ? 1 : 0) + (lw_share_b != 0 ? 1 : 0);
  for (ReadClock* e : touched) {
    if ((e->mask & ~unsigned{c.mask} & ~raced_before & 0xFFu) != 0) {
      split = e;
      ++new_clocks;
    }
  }
  const bool need_share =
      (share_b != 0 && !share_same) || lw_esc || new_clocks > 1 || (new_clocks == 1 && !can_take_way(c.granule));

  const bool full_free = is_free && c.mask == kFullMask;
  bool escalated = false;
  unsigned reason = regs::kReasonInSoftware;
  if (full_free) {
    escalated = cur.in_software;
    reason = regs::kReasonReclaim;
  } else if (c.force_sw) {
    escalated = true;
    reason = regs::kReasonForced;
  } else if (cur.in_software) {
    escalated = true;
  } else if (need_share) {
    escalated = true;
    reason = regs::kReasonReadShare;
  }

  unsigned raced_after = 0;
  for (unsigned b = 0; b < 8; ++b) {
    if (next.bytes[b].raced) raced_after |= 1u << b;
  }
  unsigned shared_after = shared & ~unshare;
  if (is_free) shared_after &= ~c.mask;
  if (share_b != 0) shared_after |= share_b;
  if ((shared_after & ~raced_after & 0xFFu) == 0) shared_after = 0;

  if (escalated) {
    // The line's clocks go with it: all but the first in reason-5 records
    // (each naming its bytes), the first in the escalation record.
    // (a partial clock never rides in the escalation record: it is not
    // the bytes' whole history, so it leaves in a reason-6 record first)
    ReadClock* first = nullptr;
    for (ReadClock& e : pool_set(c.granule)) {
      if (e.valid && e.granule == c.granule && !e.partial && first == nullptr) first = &e;
    }
    spill_clocks(c.granule, word, out, first);
    escalate(word, c.granule, reason, cur, first, out);
    if (first != nullptr) first->valid = false;
    ++stats_.escalations;
  } else if (full_free) {
    for (ReadClock& e : pool_set(c.granule)) {
      if (e.valid && e.granule == c.granule) e.valid = false;
    }
  } else {
    if (race.mask != 0) {
      emit_race(race, out);
    }
    // Clocks keep only the bytes still shared; the touched ones take the
    // reader's lane (a split one gives the bytes read a copy first).
    for (ReadClock& e : pool_set(c.granule)) {
      if (!e.valid || e.granule != c.granule) continue;
      e.mask &= shared_after;
      if (e.mask == 0) e.valid = false;
    }
    for (ReadClock* e : touched) {
      if (!e->valid) continue;
      if (e == split) {
        std::vector<uint32_t> lanes = e->lanes;
        const unsigned read = e->mask & c.mask;
        e->mask &= ~read;
        ReadClock& n = take_way(c.granule, word, out);
        n.valid = true;
        n.partial = e->partial;
        n.granule = c.granule;
        n.mask = read;
        n.lanes = std::move(lanes);
        n.lanes[c.slot] = own;
      } else {
        e->lanes[c.slot] = own;
      }
    }
    if (share_b != 0) {
      ReadClock& n = take_way(c.granule, word, out);
      n.valid = true;
      n.partial = false;
      n.granule = c.granule;
      n.mask = share_b;
      std::fill(n.lanes.begin(), n.lanes.end(), 0);
      n.lanes[share_r_slot] = share_r_clock;
      n.lanes[c.slot] = own;
    }
    if (lw_share_b != 0) {
      ReadClock& n = take_way(c.granule, word, out);
      n.valid = true;
      n.partial = true;
      n.granule = c.granule;
      n.mask = lw_share_b;
      std::fill(n.lanes.begin(), n.lanes.end(), 0);
      n.lanes[lw_r_slot] = lw_r_clock;
      n.lanes[c.slot] = own;
    }
  }

  Line final_line;
  if (full_free) {
    final_line = Line{};
  } else if (escalated) {
    final_line = cur;
    final_line.in_software = true;
  } else {
    final_line = next;
    final_line.shared = shared_after;
    for (unsigned b = 0; b < 8; ++b) {
      if (((share_b | lw_share_b) >> b) & 1u) {
        final_line.bytes[b].r_slot = 0;  // R is now the clock's
        final_line.bytes[b].r_clock = 0;
      }
    }
  }
  if (cache_.sets != 0 && final_line != cur) dirty_[c.granule] = true;
  if (final_line == Line{}) {
    lines_.erase(c.granule);
  } else {
    lines_[c.granule] = final_line;
  }
}

}  // namespace raceaccel::driver
