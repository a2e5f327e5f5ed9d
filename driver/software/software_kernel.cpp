#include "driver/software/software_kernel.hpp"

#include <algorithm>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::driver {
namespace {

constexpr unsigned kFullMask = 0xFF;

bool aligned(uint64_t address, uint64_t alignment) { return address % alignment == 0; }

}  // namespace

SoftwareKernel::SoftwareKernel(const LineShape& shape, unsigned objects)
    : shape_(shape), objects_(objects, std::vector<uint32_t>(shape.slots, 0)) {
  reset_state();
}

// As the kernel after reset or clear_state: rows and objects zero, no history.
void SoftwareKernel::reset_state() {
  rows_.assign(shape_.slots, std::vector<uint32_t>(shape_.slots, 0));
  for (auto& object : objects_) std::fill(object.begin(), object.end(), 0);
  lines_.clear();
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
  if (a.race_capacity < a.command_words || a.esc_capacity < uint64_t{2} * a.command_words) return false;
  if (a.bucket_bits < 1 || a.bucket_bits > 30) return false;
  if (!aligned(a.commands, regs::kCommandBytes) || !aligned(a.races, 64) || !aligned(a.escalations, 64) ||
      !aligned(a.buckets, 4096)) {
    return false;
  }
  // The model is stricter than a card: every range must lie inside a buffer.
  commands = memory.device_range(a.commands, uint64_t{a.command_words} * regs::kCommandBytes);
  out.races = memory.device_range(a.races, uint64_t{a.race_capacity} * regs::kRaceRecordBytes);
  out.escalations = memory.device_range(a.escalations, uint64_t{a.esc_capacity} * regs::kEscRecordBytes);
  const auto buckets = memory.device_range(a.buckets, (uint64_t{1} << a.bucket_bits) * regs::kBucketBytes);
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
  const unsigned row_words = shape_.row_words();
  uint32_t word = 0;
  while (word < args.command_words) {
    const CommandWord c = decode_command(commands.subspan(size_t{word} * regs::kCommandBytes).first<16>());
    const bool on_object = c.op >= regs::kOpAcquire && c.op <= regs::kOpLoadObject;
    if (c.op > regs::kOpLoadObject || c.slot >= shape_.slots || c.reserved != 0 ||
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
      word += 1 + row_words;
      continue;
    }
    ++stats_.commands;
    if (c.op == regs::kOpAcquire) {
      acquire(c);
    } else if (c.op == regs::kOpRelease) {
      release(c);
    } else if (c.op == regs::kOpFree) {
      free_bytes(c, word, out);
    } else {
      ++stats_.accesses;
      access(c, word, out);
    }
    ++word;
  }
  result.words_done = word;
  result.races_written = out.races_written;
  result.escalations_written = out.escalations_written;
  return result;
}

void SoftwareKernel::escalate(uint64_t word, uint64_t granule, unsigned reason, const Line& line, Output& out) {
  EscalationRecord r;
  r.word = word;
  r.granule = granule;
  r.reason = reason;
  encode_line(line, shape_, r.line);
  encode_escalation(r, out.escalations.subspan(size_t{out.escalations_written} * regs::kEscRecordBytes).first<128>());
  ++out.escalations_written;
  ++stats_.escalations;
}

void SoftwareKernel::free_bytes(const CommandWord& c, uint64_t word, Output& out) {
  if (c.force_sw && c.mask != kFullMask) {
    // As the RTL's status rules rank it: a forced partial free goes to the
    // host like a forced access (the host never sends one, but the model
    // stays exact); a forced full free is an ordinary full free.
    Line& line = lines_[c.granule];
    escalate(word, c.granule, regs::kReasonForced, line, out);
    line.in_software = true;
    return;
  }
  auto it = lines_.find(c.granule);
  if (it == lines_.end()) return;  // nothing to forget
  Line& line = it->second;
  if (line.in_software) {
    // A full free returns the granule to hardware, fresh; a partial one is
    // the host's to apply.
    escalate(word, c.granule, c.mask == kFullMask ? regs::kReasonReclaim : regs::kReasonInSoftware, line, out);
    if (c.mask == kFullMask) lines_.erase(it);
    return;
  }
  for (unsigned b = 0; b < 8; ++b) {
    if ((c.mask >> b) & 1u) line.bytes[b] = ByteState{};
  }
  if (line == Line{}) lines_.erase(it);
}

void SoftwareKernel::access(const CommandWord& c, uint64_t word, Output& out) {
  Line& line = lines_[c.granule];
  if (line.in_software || c.force_sw) {
    // A forced command reports Forced even on a host-owned line, as the
    // RTL's status rules rank it (rac_line_status_comb).
    escalate(word, c.granule, c.force_sw ? regs::kReasonForced : regs::kReasonInSoftware, line, out);
    line.in_software = true;
    return;
  }
  const bool write = c.op == regs::kOpWrite;
  const uint32_t now = rows_[c.slot][c.slot];
  // READ SHARE anywhere in the mask hands the whole command to the host
  // before anything is applied or reported.
  if (!write) {
    for (unsigned b = 0; b < 8; ++b) {
      const ByteState& s = line.bytes[b];
      if (!((c.mask >> b) & 1u) || s.raced) continue;
      const bool same_epoch = s.r_slot == c.slot && s.r_clock == now;
      if (!same_epoch && covers(c.slot, s.w_slot, s.w_clock) && !covers(c.slot, s.r_slot, s.r_clock)) {
        escalate(word, c.granule, regs::kReasonReadShare, line, out);
        line.in_software = true;
        return;
      }
    }
  }
  RaceRecord race;
  race.word = word;
  race.granule = c.granule;
  for (unsigned b = 0; b < 8; ++b) {
    ByteState& s = line.bytes[b];
    if (!((c.mask >> b) & 1u) || s.raced) continue;
    const auto report = [&](unsigned kind, uint32_t slot, uint32_t clock) {
      race.mask |= 1u << b;
      race.kind[b] = kind;
      race.prev_slot[b] = slot;
      race.prev_clock[b] = clock;
      s.raced = true;
    };
    if (!write) {
      if (s.r_slot == c.slot && s.r_clock == now) continue;
      if (!covers(c.slot, s.w_slot, s.w_clock)) {
        report(1, s.w_slot, s.w_clock);
      } else {
        s.r_slot = c.slot;
        s.r_clock = now;
      }
      continue;
    }
    if (s.w_slot == c.slot && s.w_clock == now) continue;
    if (!covers(c.slot, s.w_slot, s.w_clock)) {
      report(0, s.w_slot, s.w_clock);
    } else if (!covers(c.slot, s.r_slot, s.r_clock)) {
      report(2, s.r_slot, s.r_clock);
    } else {
      s.w_slot = c.slot;
      s.w_clock = now;
    }
  }
  if (race.mask != 0) {
    encode_race(race, out.races.subspan(size_t{out.races_written} * regs::kRaceRecordBytes).first<64>());
    ++out.races_written;
    ++stats_.races;
  }
}

}  // namespace raceaccel::driver
