#include "offload/offload_checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::offload {
namespace {

using driver::DeviceError;
using driver::DeviceErrorKind;

[[noreturn]] void protocol_error(const driver::Device& device, const std::string& what) {
  throw DeviceError(DeviceErrorKind::Protocol, fmt::format("{} device: {}", device.backend(), what));
}

constexpr uint32_t kMaxObjects = 65536;  // the contract's limit of cap_objects
constexpr uint32_t kMaxReadVcs = 65536;  // and of cap_read_vcs
// Escalation records one command word can produce: the read-clock spill of
// the line its miss evicts, that line's bucket spill, and its own
// escalation or read-clock spill (docs/kernel-interface.md, the capacity
// rule; the kernel checks only the 2 × words of a kernel without a pool).
constexpr size_t kEscRecordsPerWord = 3;

driver::Capabilities checked_capabilities(driver::Device& device) {
  const driver::Capabilities caps = device.capabilities();
  if (caps.slots < 1 || caps.slots > 256 || caps.clock_bits < 1 || caps.clock_bits > 32 || caps.objects > kMaxObjects) {
    protocol_error(device, fmt::format("capabilities outside the contract: {} slots, {}-bit clocks, {} sync objects",
                                       caps.slots, caps.clock_bits, caps.objects));
  }
  return caps;
}

}  // namespace

OffloadChecker::OffloadChecker(driver::Device& device, const OffloadOptions& options)
    : device_(device),
      options_(options),
      caps_(checked_capabilities(device)),
      objects_(std::min(caps_.objects, options.sync_objects), caps_.slots, caps_.clock_bits) {
  shape_ = {caps_.slots, caps_.clock_bits, caps_.read_vcs};
  if ((caps_.read_vcs & (caps_.read_vcs - 1)) != 0 || caps_.read_vcs > kMaxReadVcs) {
    protocol_error(device_,
                   fmt::format("cap_read_vcs is {}, not 0 or a power of two up to {}", caps_.read_vcs, kMaxReadVcs));
  }
  if (caps_.line_bits != shape_.line_bits()) {
    protocol_error(device_, fmt::format("cap_line_bits is {}, but {} slots of {}-bit clocks make {}-bit lines",
                                        caps_.line_bits, caps_.slots, caps_.clock_bits, shape_.line_bits()));
  }
  if (caps_.esc_record_bytes != shape_.esc_record_bytes()) {
    protocol_error(device_, fmt::format("cap_esc_record_bytes is {}, but the contract gives {} for this shape",
                                        caps_.esc_record_bytes, shape_.esc_record_bytes()));
  }
  if (options_.bucket_bits < 1 || options_.bucket_bits > 30) {
    throw std::invalid_argument("bucket_bits must be in 1..30");
  }
  // A set-row command must fit in one batch; esc_capacity (3 × words) must fit in 32 bits.
  batch_words_ = std::clamp<size_t>(options_.batch_words, 1 + shape_.row_words(), size_t{1} << 30);
  const size_t batch_bytes =
      batch_words_ * (regs::kCommandBytes + regs::kRaceRecordBytes + kEscRecordsPerWord * shape_.esc_record_bytes());
  try {
    commands_ = device_.allocate(batch_words_ * regs::kCommandBytes);
    race_records_ = device_.allocate(batch_words_ * regs::kRaceRecordBytes);
    esc_records_ = device_.allocate(kEscRecordsPerWord * batch_words_ * shape_.esc_record_bytes());
    word_command_.reserve(batch_words_);
  } catch (const std::bad_alloc&) {  // a batch size too large for this host: a clear error, not a crash
    throw DeviceError(DeviceErrorKind::BadOptions,
                      fmt::format("{} device: batches of {} command words need {} bytes of buffers, more than "
                                  "this host can allocate; use smaller batches",
                                  device_.backend(), batch_words_, batch_bytes));
  }
  // The bucket table starts empty and is the device's from then on.
  buckets_ = device_.allocate((size_t{1} << options_.bucket_bits) * regs::kBucketBytes);
  std::memset(buckets_->host().data(), 0, buckets_->size());
  buckets_->to_device(0, buckets_->size());
  mirror_.assign(caps_.slots, std::vector<uint64_t>(caps_.slots, 0));
  stats_.capabilities = caps_;
  // The stat_* registers count since the device was opened, and one device
  // may serve several traces (check TRACE...): this checker's share only.
  device_at_start_ = device_.statistics();
}

void OffloadChecker::note_clock(uint32_t slot, uint64_t event) {
  if (history_.size() <= slot) history_.resize(slot + 1);
  auto& h = history_[slot];
  const VectorClock& now = sync_.clock(slot);
  if (!h.empty() && h.back().second == now) return;
  if (!h.empty() && h.back().first == event) {
    h.back().second = now;
  } else {
    h.emplace_back(event, now);
    // Clock changes without commands (threads without a slot synchronizing,
    // spin loops) must not grow the history without bound: answer the batch
    // early, after which only current clocks are needed.
    if (++history_entries_ > kHistoryLimit) {
      if (word_command_.empty()) {
        prune_history();
      } else {
        ++stats_.early_batches;
        launch();
      }
    }
  }
}

void OffloadChecker::prune_history() {
  history_entries_ = 0;
  for (auto& h : history_) {
    while (h.size() > 1) h.pop_front();
    history_entries_ += h.size();
  }
}

const VectorClock& OffloadChecker::clock_at(uint32_t slot, uint64_t event) const {
  if (slot < history_.size()) {
    // Entries are in event order: the last one from at or before `event`.
    const auto& h = history_[slot];
    auto it =
        std::upper_bound(h.begin(), h.end(), event, [](uint64_t e, const auto& entry) { return e < entry.first; });
    if (it != h.begin()) return std::prev(it)->second;
  }
  throw std::logic_error("offload: no clock history for an escalated command");
}

void OffloadChecker::sync_row(uint32_t slot) {
  if (slot >= caps_.slots || fallback_) return;
  const VectorClock& c = sync_.clock(slot);
  const unsigned lanes = std::min<unsigned>(caps_.slots, sync_.thread_count());
  for (unsigned lane = 0; lane < lanes; ++lane) {
    if (c.get(lane) > shape_.max_clock()) {
      // The device cannot hold this clock: every later access is checked on
      // the host (forced), exactly; no clock is ever wrapped.
      fallback_ = stats_.fell_back = true;
      return;
    }
  }
  bool changed = false;
  for (unsigned lane = 0; lane < lanes && !changed; ++lane) changed = c.get(lane) != mirror_[slot][lane];
  if (!changed) return;
  for (unsigned lane = 0; lane < caps_.slots; ++lane) mirror_[slot][lane] = lane < lanes ? c.get(lane) : 0;
  ++stats_.set_rows;
  driver::CommandWord set;
  set.op = regs::kOpSetRow;
  set.slot = slot;
  SentCommand info;
  info.op = regs::kOpSetRow;
  info.slot = slot;
  send(set, info, mirror_[slot]);
}

void OffloadChecker::send(const driver::CommandWord& word, const SentCommand& info, std::span<const uint64_t> row) {
  const size_t row_words = word.op == regs::kOpSetRow || word.op == regs::kOpLoadObject ? shape_.row_words() : 0;
  if (word_command_.size() + 1 + row_words > batch_words_) launch();
  std::span<std::byte> host = commands_->host();
  const size_t at = word_command_.size() * regs::kCommandBytes;
  driver::encode_command(word, host.subspan(at).first<16>());
  word_command_.push_back(static_cast<uint32_t>(sent_.size()));
  sent_.push_back(info);
  if (row_words != 0) {
    driver::encode_row(row, shape_, host.subspan(at + regs::kCommandBytes, row_words * regs::kCommandBytes));
    word_command_.insert(word_command_.end(), row_words, kDataWord);
  }
}

void OffloadChecker::send_granules(const Event& e, uint64_t index, uint32_t t, uint64_t addr, uint64_t size) {
  const bool access = e.op == Op::Read || e.op == Op::Write;
  const bool atomic = is_atomic(e.op);
  const bool forced = atomic || (access && (fallback_ || t >= caps_.slots));
  uint64_t remaining = size;
  while (remaining > 0) {
    const unsigned offset = addr & 7;
    const uint64_t n = std::min<uint64_t>(8 - offset, remaining);
    driver::CommandWord c;
    if (atomic) {
      c.op = e.op == Op::AtomicLoad ? regs::kOpRead : regs::kOpWrite;
    } else {
      c.op = e.op == Op::Read ? regs::kOpRead : e.op == Op::Write ? regs::kOpWrite : regs::kOpFree;
    }
    c.force_sw = forced;
    c.slot = t < caps_.slots ? t : 0;
    c.mask = ((1u << n) - 1) << offset;
    c.granule = addr >> 3;
    SentCommand info{index, c.granule, e.site, e.tid, t, static_cast<uint8_t>(c.op), static_cast<uint8_t>(c.mask)};
    info.atomic_read = e.op == Op::AtomicLoad || e.op == Op::AtomicRmw;
    info.atomic_write = e.op == Op::AtomicStore || e.op == Op::AtomicRmw;
    if (access) sites_.record(t, sync_.local_time(t), c.granule, e.op == Op::Write, c.mask, index, e.site);
    if (access || atomic) touched_.touch(addr, n);  // atomic sites stay with the host's line
    if (atomic) ++stats_.atomic_commands;
    if (forced) ++stats_.forced;
    if (c.op == regs::kOpFree) ++stats_.free_commands;
    send(c, info);
    addr += n;
    remaining -= n;
  }
}

// Alloc and free ranges can be huge (gigabytes); only pages an access ever
// touched can hold history on the device or the host, so only their
// granules get free commands (TouchedPages).
void OffloadChecker::free_touched(const Event& e, uint64_t index, uint32_t t) {
  for (const PageSpan& span : touched_.spans_in(e.addr, e.size)) send_granules(e, index, t, span.addr, span.size);
}

void OffloadChecker::process(const Event& e, uint64_t index) {
  ++stats_.events;
  const uint32_t before = sync_.thread_count();
  const uint32_t t = sync_.thread(e.tid);
  if (sync_.thread_count() != before) {
    note_clock(t, index);
    sync_row(t);
  }
  if (e.op == Op::Read || e.op == Op::Write) {
    send_granules(e, index, t, e.addr, e.size);
    return;
  }
  if (is_atomic(e.op)) {
    // The access lies between the event's acquire and release parts
    // (docs/event-model.md): its commands are answered with the clock after
    // the acquire, and later events see the clock after the release.
    sync_.atomic_acquire(e);
    note_clock(t, index);
    send_granules(e, index, t, e.addr, e.size);
    sync_.atomic_release(e);
    note_clock(t, index + 1);
    sync_row(t);
    return;
  }
  if (e.op == Op::Alloc || e.op == Op::Free) {
    sync_.forget_atomics(e.addr, e.size);
    sites_.record_reset(index, e.addr, e.size);
    free_touched(e, index, t);
    return;
  }
  if (sync_on_device(e, index, t)) return;
  sync_.apply(e);
  objects_.applied_in_software(e);
  note_clock(t, index);
  sync_row(t);
  if (targets_thread(e.op)) {
    const uint32_t other = sync_.thread(static_cast<ThreadId>(e.addr));
    note_clock(other, index);
    sync_row(other);
  }
}

// A lock event of a thread with a slot on the device's sync-object store:
// the store plans load-object/acquire/release commands and applies the
// event to the host's state; the device computes the same join and tick,
// so the row mirror takes the host's new clock without a set-row.
bool OffloadChecker::sync_on_device(const Event& e, uint64_t index, uint32_t t) {
  const bool lock_event = e.op >= Op::Acquire && e.op <= Op::ReleaseShared;
  if (!lock_event || fallback_ || t >= caps_.slots) return false;
  const VectorClock& before = sync_.clock(t);
  for (unsigned lane = 0; lane < caps_.slots; ++lane) {
    if (mirror_[t][lane] != before.get(lane)) {
      throw std::logic_error("offload: the device's clock row mirror diverged from the host's thread clock");
    }
  }
  sync_commands_.clear();
  if (!objects_.apply_on_chip(e, t, sync_, sync_commands_)) return false;
  for (const SyncObjectCommand& s : sync_commands_) {
    driver::CommandWord c;
    c.slot = t;
    c.granule = s.entry;
    switch (s.kind) {
      case SyncObjectCommand::Kind::Load:
        c.op = regs::kOpLoadObject;
        c.slot = 0;
        ++stats_.object_loads;
        break;
      case SyncObjectCommand::Kind::Acquire:
        c.op = regs::kOpAcquire;
        ++stats_.sync_commands;
        break;
      case SyncObjectCommand::Kind::Release:
        c.op = regs::kOpRelease;
        ++stats_.sync_commands;
        break;
    }
    SentCommand info;
    info.event = index;
    info.tid = e.tid;
    info.slot = t;
    info.op = static_cast<uint8_t>(c.op);
    info.granule = s.entry;
    send(c, info, s.lanes);
  }
  objects_.device_lanes(sync_.clock(t), mirror_[t]);
  note_clock(t, index);
  return true;
}

const OffloadChecker::SentCommand* OffloadChecker::command_at(uint64_t word) const {
  if (word >= word_command_.size() || word_command_[word] == kDataWord) return nullptr;
  return &sent_[word_command_[word]];
}

void OffloadChecker::launch() {
  if (word_command_.empty()) return;
  const auto words = static_cast<uint32_t>(word_command_.size());
  const auto launched = std::chrono::steady_clock::now();
  commands_->to_device(0, size_t{words} * regs::kCommandBytes);
  device_.write_register64(regs::kCommands, commands_->device_address());
  device_.write_register(regs::kCommandWords, words);
  device_.write_register(regs::kFlags, first_launch_ ? regs::kFlagClearState : 0u);
  device_.write_register64(regs::kRaces, race_records_->device_address());
  device_.write_register(regs::kRaceCapacity, static_cast<uint32_t>(batch_words_));
  device_.write_register64(regs::kEscalations, esc_records_->device_address());
  device_.write_register(regs::kEscCapacity, static_cast<uint32_t>(kEscRecordsPerWord * batch_words_));
  device_.write_register64(regs::kBuckets, buckets_->device_address());
  device_.write_register(regs::kBucketBits, options_.bucket_bits);
  device_.start();
  if (!device_.wait(options_.timeout)) {
    throw DeviceError(DeviceErrorKind::Timeout,
                      fmt::format("{} device: a batch of {} command words did not finish within {} ms",
                                  device_.backend(), words, options_.timeout.count()));
  }
  const uint32_t status = device_.read_register(regs::kStatus);
  const uint32_t done = device_.read_register(regs::kWordsDone);
  const uint32_t races = device_.read_register(regs::kRacesWritten);
  const uint32_t escalations = device_.read_register(regs::kEscalationsWritten);
  if (status != regs::kStatusOk || done != words) {
    protocol_error(device_,
                   fmt::format("batch ended with status {} after {} of {} command words", status, done, words));
  }
  if (races > words || escalations > kEscRecordsPerWord * uint64_t{words}) {
    protocol_error(device_,
                   fmt::format("{} race and {} escalation records for {} command words", races, escalations, words));
  }
  const auto finished = std::chrono::steady_clock::now();
  stats_.launch_time += finished - launched;
  first_launch_ = false;
  ++stats_.batches;
  stats_.command_words += words;

  // Escalations change the host's lines, so they go first and in the order
  // the device wrote them (per granule, command order); race records only
  // read the site log.
  const size_t record_bytes = shape_.esc_record_bytes();
  esc_records_->from_device(0, size_t{escalations} * record_bytes);
  race_records_->from_device(0, size_t{races} * regs::kRaceRecordBytes);
  const std::span<const std::byte> rr = race_records_->host();
  batch_race_records_.clear();
  for (uint32_t i = 0; i < races; ++i) {
    batch_race_records_.push_back(driver::decode_race(rr.subspan(size_t{i} * regs::kRaceRecordBytes).first<64>()));
  }
  const std::span<const std::byte> esc = esc_records_->host();
  for (uint32_t i = 0; i < escalations; ++i) {
    handle_escalation(driver::decode_escalation(esc.subspan(size_t{i} * record_bytes, record_bytes)));
  }
  age_kept_read_clocks();
  for (const driver::RaceRecord& r : batch_race_records_) handle_race(r);
  std::sort(batch_races_.begin(), batch_races_.end(),
            [](const Race& a, const Race& b) { return a.event != b.event ? a.event < b.event : a.addr < b.addr; });
  races_.insert(races_.end(), batch_races_.begin(), batch_races_.end());
  batch_races_.clear();
  sent_.clear();
  word_command_.clear();
  stats_.records_time += std::chrono::steady_clock::now() - finished;
  // Every event of the batch is answered: only the current clocks matter now.
  prune_history();
}

void OffloadChecker::handle_escalation(const driver::EscalationRecord& r) {
  const SentCommand* command = command_at(r.word);
  if (command == nullptr) protocol_error(device_, fmt::format("escalation record for word {}", r.word));
  const SentCommand& c = *command;
  ++stats_.escalations;
  const driver::Line line = driver::decode_line(r.line, shape_);
  switch (r.reason) {
    case regs::kReasonReclaim:
      ++stats_.reclaims;
      host_lines_.drop(r.granule);
      kept_read_clocks_.erase(r.granule);
      return;
    case regs::kReasonSpill:  // the host keeps the evicted line from now on
      ++stats_.spills;
      import_line(r, line);
      return;
    case regs::kReasonReadVcSpill: {  // the granule's line is LASTWRITE from now on
      if (shape_.read_vcs == 0 || !r.read_clock_valid) {
        protocol_error(device_, fmt::format("read-clock spill record for word {} without a pool or a clock", r.word));
      }
      ++stats_.read_clock_spills;
      const std::vector<uint64_t> lanes = driver::decode_row(r.read_clock, shape_);
      KeptReadClock kept{VectorClock{}, stats_.batches, r.word};
      for (unsigned lane = 0; lane < shape_.slots; ++lane) {
        if (lanes[lane] != 0) kept.clock.set(lane, lanes[lane]);
      }
      kept_read_clocks_[r.granule] = std::move(kept);
      stats_.kept_read_clocks_peak = std::max(stats_.kept_read_clocks_peak, kept_read_clocks_.size());
      return;
    }
    case regs::kReasonReadShare: ++stats_.read_share_escalations; break;
    case regs::kReasonInSoftware:
    case regs::kReasonForced: break;
    default: protocol_error(device_, fmt::format("escalation reason {}", r.reason));
  }
  if (c.op > regs::kOpFree || c.granule != r.granule) {  // only accesses and frees escalate
    protocol_error(device_,
                   fmt::format("escalation for word {} names granule {:#x}, not its command's", r.word, r.granule));
  }
  SoftLine& soft = import_line(r, line);
  if (c.op == regs::kOpFree) {
    host_lines_.free_bytes(r.granule, c.mask);
    return;
  }
  check_on_host(soft, c);
}

// The device hands a line over (escalation or bucket spill). Its shared
// bytes read the clock the record carries (the pool held it: EVERYTHING) or
// the clock the pool spilled earlier (LASTWRITE), joined with R. A line the
// host already owns keeps the host's copy.
//
// The engine keeps a clock in the pool only while its line is on chip (an
// evicted line spills it first, reason 5), so a line with shared bytes that
// arrives without a clock — an escalation of a LASTWRITE line or a bucket
// spill — is LASTWRITE, and the latest reason-5 clock of its granule is
// exact for its shared bytes: a later LASTWRITE period of the line would
// have needed a new allocation, whose clock could only have left the pool
// through a newer reason-5 record.
SoftLine& OffloadChecker::import_line(const driver::EscalationRecord& r, const driver::Line& line) {
  // An epoch of a slot no thread has had cannot come from the device: it
  // would name no thread in a report (zero clocks are the empty epoch).
  const uint32_t slots_used = std::min<uint32_t>(caps_.slots, sync_.thread_count());
  for (const driver::ByteState& b : line.bytes) {
    if ((b.w_clock != 0 && b.w_slot >= slots_used) || (b.r_clock != 0 && b.r_slot >= slots_used)) {
      protocol_error(device_, fmt::format("escalation record for word {}: granule {:#x} holds an epoch of slot {}, "
                                          "beyond the {} slots in use",
                                          r.word, r.granule, std::max(b.w_slot, b.r_slot), slots_used));
    }
  }
  if (host_lines_.owns(r.granule)) {
    kept_read_clocks_.erase(r.granule);
    return *host_lines_.adopt(r.granule, line, nullptr).first;
  }
  VectorClock from_record;
  const VectorClock* read_clock = nullptr;
  const unsigned shared = shape_.read_vcs > 0 && !line.in_software ? line.shared : 0u;
  if (shared != 0) {
    const auto kept = kept_read_clocks_.find(r.granule);
    if (r.read_clock_valid) {
      const std::vector<uint64_t> lanes = driver::decode_row(r.read_clock, shape_);
      for (unsigned lane = 0; lane < shape_.slots; ++lane) {
        if (lanes[lane] != 0) from_record.set(lane, lanes[lane]);
      }
      read_clock = &from_record;
      ++stats_.read_clock_imports;
    } else if (kept != kept_read_clocks_.end()) {
      read_clock = &kept->second.clock;
      ++stats_.lastwrite_imports;
      if (r.reason == regs::kReasonSpill) ++stats_.lastwrite_spill_imports;
    } else {
      protocol_error(device_,
                     fmt::format("{} for word {}: granule {:#x} has shared bytes but neither the record nor "
                                 "an earlier read-clock spill carried their read clock",
                                 r.reason == regs::kReasonSpill ? "bucket spill" : "escalation", r.word, r.granule));
    }
  }
  SoftLine& soft = *host_lines_.adopt(r.granule, line, read_clock).first;
  kept_read_clocks_.erase(r.granule);
  return soft;
}

// After a batch's escalations: a full free of a granule on chip ends its
// history without a record, so a clock spilled for it before the free is
// dead (one spilled after it, for a new allocation, is kept). Nothing else
// can make a kept clock stale (see import_line).
void OffloadChecker::age_kept_read_clocks() {
  if (kept_read_clocks_.empty()) return;
  for (size_t w = 0; w < word_command_.size(); ++w) {
    const SentCommand* c = command_at(w);
    if (c == nullptr || c->op != regs::kOpFree || c->mask != 0xFF) continue;
    const auto kept = kept_read_clocks_.find(c->granule);
    if (kept != kept_read_clocks_.end() && (kept->second.batch < stats_.batches || kept->second.word < w)) {
      kept_read_clocks_.erase(kept);
    }
  }
}

void OffloadChecker::check_on_host(SoftLine& line, const SentCommand& c) {
  SoftAccess a;
  a.slot = c.slot;
  a.write = c.op == regs::kOpWrite;
  a.mask = c.mask;
  a.clock = &clock_at(c.slot, c.event);
  a.atomic_read = c.atomic_read;
  a.atomic_write = c.atomic_write;
  a.site = c.site;
  HostLines::check(line, a, [&](unsigned byte, RaceKind kind, Epoch prev, std::optional<uint64_t> prev_atomic_site) {
    ++stats_.host_races;
    batch_races_.push_back(make_race(c, byte, kind, prev, prev_atomic_site));
  });
}

Race OffloadChecker::make_race(const SentCommand& c, unsigned byte, RaceKind kind, Epoch prev,
                               std::optional<uint64_t> prev_atomic_site) const {
  const uint64_t addr = c.granule * 8 + byte;
  const bool earlier_write = kind != RaceKind::ReadWrite;
  const uint64_t prev_site =
      prev_atomic_site ? *prev_atomic_site : sites_.find(prev.slot, prev.clock, addr, earlier_write, c.event);
  return {addr,
          c.event,
          kind,
          c.tid,
          c.site,
          sync_.tid_of(prev.slot),
          prev.clock,
          prev_site,
          c.atomic_read || c.atomic_write,
          prev_atomic_site.has_value()};
}

void OffloadChecker::handle_race(const driver::RaceRecord& r) {
  const SentCommand* command = command_at(r.word);
  if (command == nullptr) protocol_error(device_, fmt::format("race record for word {}", r.word));
  const SentCommand& c = *command;
  if ((c.op != regs::kOpRead && c.op != regs::kOpWrite) || c.granule != r.granule || (r.mask & ~c.mask) != 0) {
    protocol_error(device_, fmt::format("race record for word {} does not match its command", r.word));
  }
  for (unsigned b = 0; b < 8; ++b) {
    if (!((r.mask >> b) & 1u)) continue;
    if (r.kind[b] > 2 || r.prev_slot[b] >= std::min<uint32_t>(caps_.slots, sync_.thread_count())) {
      protocol_error(device_,
                     fmt::format("race record for word {}: kind {} slot {}", r.word, r.kind[b], r.prev_slot[b]));
    }
    ++stats_.device_races;
    batch_races_.push_back(make_race(c, b, static_cast<RaceKind>(r.kind[b]), {r.prev_slot[b], r.prev_clock[b]}));
  }
}

void OffloadChecker::finish() { launch(); }

OffloadStats OffloadChecker::stats() {
  stats_.device = device_.statistics();
  for (const driver::StatisticRegister& r : driver::statistic_registers()) {
    stats_.device.*r.field -= device_at_start_.*r.field;
  }
  return stats_;
}

}  // namespace raceaccel::offload
