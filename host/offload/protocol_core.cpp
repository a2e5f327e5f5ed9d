#include "offload/protocol_core.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "driver/device.hpp"
#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::offload {

std::string_view escalation_cause_name(EscalationCause cause) {
  switch (cause) {
    case EscalationCause::Slotless: return "slotless";
    case EscalationCause::Atomic: return "atomic";
    case EscalationCause::Overflow: return "overflow";
    case EscalationCause::HostOwned: return "host_owned";
    case EscalationCause::NoPool: return "no_pool";
    case EscalationCause::SecondShare: return "second_share";
    case EscalationCause::PartialRead: return "partial_read";
    case EscalationCause::LastWrite: return "lastwrite";
    case EscalationCause::DifferentReads: return "different_reads";
    case EscalationCause::BucketSpill: return "bucket_spill";
    case EscalationCause::ReadClockSpill: return "read_clock_spill";
    case EscalationCause::Other: return "other";
  }
  return "other";
}

void Transport::send_line(const driver::CommandWord&, uint64_t, const driver::Line&, std::span<const uint64_t>) {
  throw std::logic_error(fmt::format("offload: the {} transport cannot send import-line commands", name()));
}

ProtocolCore::ProtocolCore(Transport& transport, const driver::LineShape& shape, unsigned objects, bool reimport,
                           bool recycle_slots, bool atomics)
    : transport_(transport),
      shape_(shape),
      lanes_(shape.slots, recycle_slots, shape.max_clock()),
      mirror_(shape.slots, std::vector<uint64_t>(shape.slots, 0)),
      objects_(objects, shape.slots, shape.clock_bits),
      atomics_on_chip_(atomics),
      reimport_(reimport) {
  objects_.use_lanes(&lanes_);
  transport_.connect(*this);
}

void ProtocolCore::protocol_error(const std::string& what) const {
  throw driver::DeviceError(driver::DeviceErrorKind::Protocol, fmt::format("{}: {}", transport_.name(), what));
}

// ---- clock history ----------------------------------------------------------

// The thread's clock may have changed at `event`: the next access command
// of the thread records it (snapshot_clock). Only access commands are ever
// checked with a clock of the history (check_on_host), so a lock or
// barrier event followed by another synchronization of the same thread
// costs no copy, and no comparison of clocks.
void ProtocolCore::note_clock(uint32_t slot, uint64_t) {
  if (history_.size() <= slot) history_.resize(slot + 1);
  history_[slot].stale = true;
}

// Before an access command of `slot` at `event`: its clock as of now, if it
// changed since the last entry. Exact: every change of a thread's clock
// passes note_clock, so between this entry and the next one the clock is
// this entry's, and clock_at finds for each command the entry made at or
// before its event.
void ProtocolCore::snapshot_clock(uint32_t slot, uint64_t event) {
  if (history_.size() <= slot) history_.resize(slot + 1);
  History& h = history_[slot];
  if (!h.stale) return;
  h.stale = false;
  const VectorClock& now = sync_.clock(slot);
  if (h.size != 0 && h.entries[h.size - 1].first == event) {
    h.entries[h.size - 1].second = now;
    return;
  }
  if (h.size < h.entries.size()) {
    h.entries[h.size].first = event;
    h.entries[h.size].second = now;  // reuses the pruned clock's memory
  } else {
    h.entries.emplace_back(event, now);
  }
  ++h.size;
  // Bounded by the commands in flight, but a transport that holds many
  // must not grow it without bound: answer what is in flight early, after
  // which only current clocks are needed.
  if (++history_entries_ > kHistoryLimit) {
    if (table_.empty()) {
      prune_history();
    } else {
      ++stats_.early_batches;
      transport_.flush();
    }
  }
}

// Keeps each thread's latest clock only. Called when every command is
// answered, or when the only unanswered one belongs to the event being
// processed (a transport flushing inside send()), whose clock is the latest.
void ProtocolCore::prune_history() {
  history_entries_ = 0;
  for (History& h : history_) {
    if (h.size > 1) {
      std::swap(h.entries[0], h.entries[h.size - 1]);
      h.size = 1;
    }
    history_entries_ += h.size;
  }
}

const VectorClock& ProtocolCore::clock_at(uint32_t slot, uint64_t event) const {
  if (slot < history_.size()) {
    // Entries are in event order: the last one from at or before `event`.
    const History& h = history_[slot];
    const auto begin = h.entries.begin(), end = begin + static_cast<std::ptrdiff_t>(h.size);
    auto it = std::upper_bound(begin, end, event, [](uint64_t e, const auto& entry) { return e < entry.first; });
    if (it != begin) return std::prev(it)->second;
  }
  throw std::logic_error("offload: no clock history for an escalated command");
}

// ---- commands ---------------------------------------------------------------

template <typename Fill>
void ProtocolCore::send(const driver::CommandWord& word, Fill&& fill, std::span<const uint64_t> row) {
  // Into the table first: the transport may deliver the command's records
  // before send() returns.
  const uint64_t number = table_base_ + table_.size();
  fill(table_.emplace_back());
  transport_.send(word, number, row);
}

// A row's lanes that can be non-zero: lanes never held are 0 in every row,
// and a transport takes the lanes beyond the span as 0 (with 16 threads on
// 64 slots, three quarters of a row are never encoded).
std::span<const uint64_t> ProtocolCore::used_lanes(std::span<const uint64_t> row) const {
  return row.first(std::min<size_t>(row.size(), lanes_.used()));
}

const ProtocolCore::SentCommand* ProtocolCore::command_at(uint64_t number) const {
  if (number < table_base_ || number - table_base_ >= table_.size()) return nullptr;
  return &table_[number - table_base_];
}

// The engine's row of `thread` (if it has a slot) follows its clock, in
// lane clocks (LaneMap::row, saturated at the clock width).
void ProtocolCore::sync_row(uint32_t thread) {
  const uint32_t lane = lanes_.lane_of(thread);
  if (lane >= shape_.slots) return;
  if (lanes_.row(sync_.clock(thread), row_, lane) > shape_.max_clock()) {
    // The engine cannot hold this thread's clock: it leaves its slot for
    // good and the host checks its accesses, exactly; no clock is ever
    // wrapped. Other threads keep theirs (rows saturate, LaneMap).
    lanes_.evict(thread);
    stats_.fell_back = true;
    ++stats_.overflow_evictions;
    return;
  }
  if (row_ == mirror_[lane]) return;
  mirror_[lane].swap(row_);  // row_ is scratch: the next row overwrites it
  ++stats_.set_rows;
  driver::CommandWord set;
  set.op = regs::kOpSetRow;
  set.slot = lane;
  send(
      set,
      [&](SentCommand& info) {
        info.op = regs::kOpSetRow;
        info.slot = thread;
      },
      used_lanes(mirror_[lane]));
}

// A thread without a slot, right after a synchronization event of its own:
// the slot of a joined thread whose end it now knows (LaneMap::adopt).
void ProtocolCore::adopt_slot(uint32_t thread) {
  if (!lanes_.any_free() || lanes_.lane_of(thread) != LaneMap::kNoLane) return;
  if (lanes_.adopt(thread, sync_.clock(thread))) {
    stats_.slot_recycles = lanes_.recycled();
    stats_.slots_taken_later = lanes_.adopted();
  }
}

void ProtocolCore::thread_created(uint32_t thread, const VectorClock* fork_clock, uint64_t index) {
  lanes_.created(thread, fork_clock);
  stats_.slot_recycles = lanes_.recycled();
  if (lanes_.lane_of(thread) == LaneMap::kNoLane) ++stats_.slotless_threads;
  note_clock(thread, index);
  sync_row(thread);
}

void ProtocolCore::send_granules(const Event& e, uint64_t index, uint32_t t, uint64_t addr, uint64_t size) {
  const bool access = e.op == Op::Read || e.op == Op::Write;
  const bool atomic = is_atomic(e.op);
  const uint32_t lane = lanes_.lane_of(t);
  const bool slotless = lane >= shape_.slots;
  // An atomic access goes to the engine as op 9 or 10 when it has them
  // (and the thread a slot); otherwise forced, as every access of a thread
  // without a slot.
  const bool atomic_on_chip = atomic && atomics_on_chip_ && !slotless;
  const bool atomic_reads = e.op == Op::AtomicLoad || e.op == Op::AtomicRmw;
  const bool atomic_writes = e.op == Op::AtomicStore || e.op == Op::AtomicRmw;
  const VectorClock& now = sync_.clock(t);
  const bool fell_back = lanes_.evicted(t);
  snapshot_clock(t, index);
  uint64_t remaining = size;
  while (remaining > 0) {
    const unsigned offset = addr & 7;
    const uint64_t n = std::min<uint64_t>(8 - offset, remaining);
    driver::CommandWord c;
    // The op the host reasons with (SentCommand): an atomic load reads, a
    // store or RMW writes. The wire op may be the atomic one.
    uint8_t op = 0;
    if (atomic) {
      op = e.op == Op::AtomicLoad ? regs::kOpRead : regs::kOpWrite;
      c.op = !atomic_on_chip ? op : op == regs::kOpRead ? regs::kOpAtomicRead : regs::kOpAtomicWrite;
    } else {
      op = e.op == Op::Read ? regs::kOpRead : e.op == Op::Write ? regs::kOpWrite : regs::kOpFree;
      c.op = op;
    }
    c.slot = slotless ? 0 : lane;
    c.mask = ((1u << n) - 1) << offset;
    c.granule = addr >> 3;
    bool atomic_forced = false;
    c.force_sw = (access || atomic) && slotless;
    if (atomic) {
      // Recorded as sent: later commands are later in the trace.
      atomic_history_.record(c.granule, c.mask, Epoch{t, now.get(t)}, e.site, atomic_reads, atomic_writes, index);
      if (!atomic_on_chip && !slotless) {
        c.force_sw = true;
        atomic_forced = true;
      }
    }
    // A plain access concurrent with an atomic access of one of its bytes:
    // the host decides it, with the conflict found now (atomic accesses
    // sent later are later in the trace and none of its business).
    const bool conflict =
        access && atomic_history_.may_have(c.granule) &&
        atomic_history_.conflicts(c.granule, c.mask, op == regs::kOpWrite, now, scratch_conflicts_) != 0;
    if (conflict) {
      if (!slotless) atomic_forced = true;
      c.force_sw = true;
      ++stats_.atomic_conflicts;
    }
    const bool forced = c.force_sw;
    if (access || atomic) ++stats_.access_commands;
    if (access) sites_.record(t, sync_.local_time(t), c.granule, e.op == Op::Write, c.mask, index, e.site);
    if (access || atomic) touched_.touch(addr, n);
    if (atomic) ++stats_.atomic_commands;
    if (forced) ++stats_.forced;
    if (c.op == regs::kOpFree) ++stats_.free_commands;
    reimport_before(c, index);
    if (conflict) conflicts_[table_base_ + table_.size()] = scratch_conflicts_;  // the number send() gives it
    send(c, [&](SentCommand& info) {
      info.event = index;
      info.granule = c.granule;
      info.site = e.site;
      info.slot = t;
      info.op = op;
      info.mask = static_cast<uint8_t>(c.mask);
      info.atomic_read = atomic_reads;
      info.atomic_write = atomic_writes;
      info.atomic_forced = atomic_forced;
      info.fell_back = fell_back;
      info.slotless = slotless;
    });
    addr += n;
    remaining -= n;
  }
}

// Alloc and free ranges can be huge (gigabytes); only pages an access ever
// touched can hold history on the engine or the host, so only their
// granules get free commands (TouchedPages).
void ProtocolCore::free_touched(const Event& e, uint64_t index, uint32_t t) {
  for (const PageSpan& span : touched_.spans_in(e.addr, e.size)) send_granules(e, index, t, span.addr, span.size);
}

void ProtocolCore::process(const Event& e, uint64_t index) {
  const Detector::ByteRange whole{e.addr, e.size};
  process_parts(e, index, {&whole, 1});  // parts are used by reads, writes and atomics only
}

// Sharded (Detector::process_parts): only the access part of a read, write
// or atomic is cut to `parts`; the thread's first sight, an atomic's
// acquire and release halves and every other event are applied whole, so
// every shard's clocks, rows and slots follow the whole trace.
void ProtocolCore::process_parts(const Event& e, uint64_t index, std::span<const Detector::ByteRange> parts) {
  ++stats_.events;
  const uint32_t before = sync_.thread_count();
  const uint32_t t = sync_.thread(e.tid);
  if (sync_.thread_count() != before) {
    thread_created(t, nullptr, index);
  } else {
    lanes_.acted(t);
  }
  if (e.op == Op::Read || e.op == Op::Write) {
    for (const Detector::ByteRange& p : parts) send_granules(e, index, t, p.addr, p.size);
    return;
  }
  if (is_atomic(e.op)) {
    // The access lies between the event's acquire and release parts
    // (docs/event-model.md): its commands are answered with the clock after
    // the acquire, and later events see the clock after the release.
    sync_.atomic_acquire(e);
    note_clock(t, index);
    // Checked on chip, the access needs the clock after the acquire in the
    // engine's row (only an acquiring load or RMW changes C_t; a relaxed one
    // joins P_t).
    if (atomics_on_chip_ && e.op != Op::AtomicStore && acquires(e.order)) sync_row(t);
    for (const Detector::ByteRange& p : parts) send_granules(e, index, t, p.addr, p.size);
    sync_.atomic_release(e);
    note_clock(t, index + 1);
    adopt_slot(t);
    sync_row(t);
    return;
  }
  if (e.op == Op::Destroy) {  // the locks there start over; memory keeps its history
    objects_.forget_locks(sync_.forget_locks(e.addr, e.size));
    return;
  }
  if (e.op == Op::Alloc || e.op == Op::Free) {
    objects_.forget_locks(sync_.forget(e.addr, e.size));
    atomic_history_.forget(e.addr, e.size);
    sites_.record_reset(index, e.addr, e.size);
    free_touched(e, index, t);
    return;
  }
  if (sync_on_device(e, index, t)) return;
  // A fork or join target: created here if new (as apply() would), so that
  // its local time before the event (a join's final time) is known.
  uint32_t other = 0;
  bool other_new = false;
  uint64_t other_before = 0;
  if (targets_thread(e.op)) {
    const uint32_t count = sync_.thread_count();
    other = sync_.thread(static_cast<ThreadId>(e.addr));
    other_new = sync_.thread_count() != count;
    other_before = sync_.local_time(other);
    if (!other_new && e.op == Op::Fork) lanes_.acted(other);
  }
  sync_.apply(e);
  objects_.applied_in_software(e);  // a lock clock changed in software is stale on the engine
  note_clock(t, index);
  adopt_slot(t);
  sync_row(t);
  if (targets_thread(e.op)) {
    if (other_new) {
      // A forked thread may take a joined thread's slot (LaneMap).
      thread_created(other, e.op == Op::Fork ? &sync_.clock(other) : nullptr, index);
    } else {
      note_clock(other, index);
      sync_row(other);
    }
    if (e.op == Op::Join) lanes_.joined(other, other_before);
  }
}

// A lock event of a thread with a slot on the engine's sync-object store:
// the store plans load-object/acquire/release commands and applies the
// event to the host's state; the engine computes the same join and tick,
// so the row mirror takes the host's new clock without a set-row.
bool ProtocolCore::sync_on_device(const Event& e, uint64_t index, uint32_t t) {
  const bool lock_event = e.op >= Op::Acquire && e.op <= Op::ReleaseShared;
  const uint32_t lane = lanes_.lane_of(t);
  if (!lock_event || lane >= shape_.slots) return false;
  // The store needs the engine's row of `t` to be the host's clock (its
  // precondition). The mirror holds it by construction (every change of the
  // clock goes out as a set-row or through here); checking the whole row
  // would cost a row per lock event, so only the own lane is checked, the
  // one a lost tick would show in.
  if (std::min(lanes_.lane_value(sync_.clock(t), lane), shape_.max_clock()) != mirror_[lane][lane]) {
    throw std::logic_error("offload: the engine's clock row mirror diverged from the host's thread clock");
  }
  sync_commands_.clear();
  if (!objects_.apply_on_chip(e, t, sync_, sync_commands_)) return false;
  for (const SyncObjectCommand& s : sync_commands_) {
    driver::CommandWord c;
    c.slot = lane;
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
    send(
        c,
        [&](SentCommand& info) {
          info.event = index;
          info.slot = t;
          info.op = static_cast<uint8_t>(c.op);
          info.granule = s.entry;
        },
        used_lanes(s.lanes));
  }
  objects_.device_lanes(sync_.clock(t), mirror_[lane]);
  note_clock(t, index);
  return true;
}

// ---- records ----------------------------------------------------------------

// The record's read clock, lane clocks turned into the threads' (LaneMap).
VectorClock ProtocolCore::read_clock_of(const driver::EscalationRecord& r) const {
  const std::vector<uint64_t> lanes = driver::decode_row(r.read_clock, shape_);
  std::optional<VectorClock> clock = lanes_.thread_clock(lanes);
  if (!clock) {
    protocol_error(
        fmt::format("escalation record for command {}: its read clock holds a lane clock no thread had", r.word));
  }
  return std::move(*clock);
}

// The thread and local time behind an epoch of the engine (lane, lane clock).
Epoch ProtocolCore::thread_epoch(uint32_t lane, uint64_t clock, uint64_t command) const {
  const std::optional<Epoch> e = lanes_.thread_epoch(lane, clock);
  if (!e) {
    protocol_error(
        fmt::format("record for command {}: an epoch of slot {} at clock {} names no thread that had "
                    "the slot",
                    command, lane, clock));
  }
  return *e;
}

void ProtocolCore::on_escalation(const driver::EscalationRecord& r) {
  const SentCommand* command = command_at(r.word);
  if (command == nullptr) protocol_error(fmt::format("escalation record for command {}", r.word));
  const SentCommand& c = *command;
  ++stats_.escalations;
  if (r.reason < stats_.records_by_reason.size()) ++stats_.records_by_reason[r.reason];
  const driver::Line line = driver::decode_line(r.line, shape_);
  switch (r.reason) {
    case regs::kReasonReclaim:
      ++stats_.reclaims;
      host_lines_.drop(r.granule);
      import_candidates_.erase(r.granule);
      ready_imports_.erase(r.granule);
      kept_read_clocks_.erase(r.granule);
      return;
    case regs::kReasonSpill:  // the host keeps the evicted line from now on
      ++stats_.spills;
      ++stats_.causes[static_cast<size_t>(EscalationCause::BucketSpill)];
      // The INSOFTWARE placeholder of a granule the host no longer owns: a
      // command sent before the host re-imported the granule evicted it,
      // and the import replaced it on chip. The record says nothing (the
      // host owned the line then); adopting it would make a second owner
      // with no history.
      if (line.in_software && !host_lines_.owns(r.granule)) {
        ++stats_.stale_placeholder_spills;
        return;
      }
      import_line(r, line);
      return;
    case regs::kReasonReadVcSpill:           // the granule's line is LASTWRITE from now on
    case regs::kReasonPartialReadVcSpill: {  // the reads since then: joined into what the host keeps
      if (shape_.read_vcs == 0 || !r.read_clock_valid ||
          r.read_clock.size() < size_t{shape_.row_words()} * regs::kCommandBytes) {
        protocol_error(fmt::format("read-clock spill record for command {} without a pool or a clock", r.word));
      }
      ++stats_.read_clock_spills;
      ++stats_.causes[static_cast<size_t>(EscalationCause::ReadClockSpill)];
      const auto clock = std::make_shared<const VectorClock>(read_clock_of(r));
      KeptReadClock& kept = kept_read_clocks_[r.granule];
      const bool partial = r.reason == regs::kReasonPartialReadVcSpill;
      if (partial) ++stats_.partial_read_clock_spills;
      for (unsigned b = 0; b < 8; ++b) {
        if (r.clock_mask != 0 && !((r.clock_mask >> b) & 1u)) continue;
        if (partial && kept.bytes[b] != nullptr) {
          // A reason-6 clock holds the reads since the byte's clock came
          // here (reason 5): the byte's reads are both. (`command` stays the
          // earlier spill's: a full free after it ends both.)
          auto joined = std::make_shared<VectorClock>(*kept.bytes[b]);
          joined->join(*clock);
          kept.bytes[b] = std::move(joined);
          continue;
        }
        kept.bytes[b] = clock;
        kept.command[b] = r.word;
      }
      stats_.kept_read_clocks_peak = std::max(stats_.kept_read_clocks_peak, kept_read_clocks_.size());
      return;
    }
    case regs::kReasonReadShare: ++stats_.read_share_escalations; break;
    case regs::kReasonInSoftware:
    case regs::kReasonForced: break;
    default: protocol_error(fmt::format("escalation reason {}", r.reason));
  }
  if (c.op > regs::kOpFree || c.granule != r.granule) {  // only accesses and frees escalate
    protocol_error(fmt::format("escalation for command {} names granule {:#x}, not its command's", r.word, r.granule));
  }
  if (c.op != regs::kOpFree) {
    ++stats_.escalated_accesses;
    ++stats_.causes[static_cast<size_t>(cause_of(r, line, c))];
  }
  SoftLine& soft = import_line(r, line);
  // Applied: the host's copy is the line's exact state after this command,
  // a candidate to go back to the device (answered(), reimport_before()).
  if (reimport_) import_candidates_.insert(r.granule);
  if (c.op == regs::kOpFree) {
    host_lines_.free_bytes(r.granule, c.mask);
    return;
  }
  check_on_host(soft, c, r.word);
}

// ---- re-import ---------------------------------------------------------------
//
// The host owns a granule from the escalation (or spill) that handed it
// over until it sends the line back: one owner at any time, so there is no
// second copy that could go stale (the RADISH digest's §2.14 hazard needs a
// stale software copy being imported). Exactness needs two things:
//  - the line sent is the exact state after every earlier command on the
//    granule: the host imports only a granule with no command in flight
//    when its records were answered (promote_import_candidates) and none
//    sent since (reimport_before runs before each command and takes the
//    granule out of the ready set);
//  - the state is one the engine holds exactly: every epoch made while its
//    thread held a slot and translated to that slot's lane clock
//    (LaneMap::lane_epoch, slot recycling) within the width (atomic
//    history is not the line's: the host keeps it), and read vector clocks only on a device with a pool and only
//    one per line (the engine's shared bytes share the line's pool entry),
//    each entry translated the same way (device_line).
//    Anything else stays with the host.
// Commands reach the engine in the order they are sent, so the import takes
// effect between the last command the host applied and the one it precedes.

std::optional<ProtocolCore::DeviceLine> ProtocolCore::device_line(const SoftLine& soft) const {
  // The shared bytes' clocks, each with its bytes: one per line, or up to
  // cap_read_vc_ways (each takes a way of the granule's pool set).
  std::vector<std::pair<unsigned, const VectorClock*>> clocks;
  // The host's epochs are (thread, its own local time); the engine's are
  // (lane, lane clock) (LaneMap). An epoch made while its thread held no
  // lane, or beyond the clock width, has no lane clock: the line stays.
  // Evicted threads need no special case: their epochs after the eviction
  // are beyond the width, and rows saturating at the width compare exactly
  // with every epoch within it.
  const auto fits = [&](Epoch e, uint32_t& slot, uint32_t& clock) {
    if (e.clock == 0) return true;  // ⊥: slot 0, clock 0
    const std::optional<Epoch> lane = lanes_.lane_epoch(e);
    if (!lane || lane->slot >= shape_.slots || lane->clock > shape_.max_clock()) return false;
    slot = lane->slot;
    clock = static_cast<uint32_t>(lane->clock);
    return true;
  };
  DeviceLine out;
  driver::Line& line = out.line;
  for (unsigned b = 0; b < 8; ++b) {
    const SoftByte& s = soft.bytes[b];
    driver::ByteState& d = line.bytes[b];
    d.raced = s.raced;
    if (!fits(s.w, d.w_slot, d.w_clock)) return std::nullopt;
    if (s.raced) continue;  // never checked again: its reads do not matter
    if (!s.shared) {
      if (!fits(s.r, d.r_slot, d.r_clock)) return std::nullopt;
      continue;
    }
    // A shared byte: its reads are one of the line's read clocks, R stays ⊥
    // (the host's r is already in rvc). Bytes whose clocks are equal share one.
    if (shape_.read_vcs == 0) return std::nullopt;
    const auto same = std::find_if(clocks.begin(), clocks.end(), [&](const auto& k) { return *k.second == s.rvc; });
    if (same != clocks.end()) {
      same->first |= 1u << b;
    } else if (clocks.size() < shape_.read_vc_ways) {
      clocks.emplace_back(1u << b, &s.rvc);
    } else {
      return std::nullopt;  // more different clocks than the line can hold
    }
  }
  // Every thread's read as a lane clock; several holders of one lane keep
  // the latest holder's: each holder knew its predecessors' ends (the lane
  // reads as one sequential thread), so a clock that knows the latest read
  // knows the earlier ones, and one that does not races with it.
  const auto lane_clock = [&](const VectorClock& rvc) -> std::optional<std::vector<uint64_t>> {
    std::vector<uint64_t> row(shape_.slots, 0);
    for (uint32_t u = 0; u < rvc.size(); ++u) {
      const uint64_t local = rvc.get(u);
      if (local == 0) continue;
      const std::optional<Epoch> lane = lanes_.lane_epoch(Epoch{u, local});
      if (!lane || lane->slot >= shape_.slots || lane->clock > shape_.max_clock()) return std::nullopt;
      row[lane->slot] = std::max(row[lane->slot], lane->clock);
    }
    return row;
  };
  for (size_t i = 0; i < clocks.size(); ++i) {
    std::optional<std::vector<uint64_t>> row = lane_clock(*clocks[i].second);
    if (!row) return std::nullopt;
    if (i == 0) {
      line.shared = clocks[i].first;
      out.read_clock = std::move(*row);
    } else {
      out.more_clocks.emplace_back(clocks[i].first, std::move(*row));
    }
  }
  return out;
}

// After the commands below `next` are answered: a candidate is ready when no
// command on its granule is still in flight (its records could change the
// host's copy).
void ProtocolCore::promote_import_candidates(uint64_t next) {
  if (import_candidates_.empty()) return;
  std::unordered_set<uint64_t> in_flight;
  for (uint64_t i = next > table_base_ ? next - table_base_ : 0; i < table_.size(); ++i) {
    const SentCommand& c = table_[i];
    if (c.op <= regs::kOpFree || c.op == regs::kOpImportLine || c.op == regs::kOpImportReadClock) {
      in_flight.insert(c.granule);
    }
  }
  for (auto it = import_candidates_.begin(); it != import_candidates_.end();) {
    if (!host_lines_.owns(*it)) {
      it = import_candidates_.erase(it);
    } else if (in_flight.count(*it) != 0) {
      ++it;
    } else {
      ready_imports_.insert(*it);
      it = import_candidates_.erase(it);
    }
  }
}

// Before command `c` goes out: a ready granule goes back to the device first
// when the command is one the device may decide (not forced, not a full
// free, which reclaims the line anyway) and the host's state fits a line.
// Either way the granule leaves the ready set: `c` is now in flight on it,
// and its escalation makes it a candidate again.
void ProtocolCore::reimport_before(const driver::CommandWord& c, uint64_t index) {
  if (ready_imports_.empty()) return;
  const auto ready = ready_imports_.find(c.granule);
  if (ready == ready_imports_.end()) return;
  ready_imports_.erase(ready);
  if (c.force_sw || (c.op == regs::kOpFree && c.mask == 0xFF)) return;
  const SoftLine* soft = host_lines_.find(c.granule);
  if (soft == nullptr) return;
  const std::optional<DeviceLine> line = device_line(*soft);
  if (!line) return;
  driver::CommandWord w;
  w.op = regs::kOpImportLine;
  w.granule = c.granule;
  w.mask = line->line.shared;
  SentCommand info;
  info.event = index;
  info.granule = c.granule;
  info.op = static_cast<uint8_t>(w.op);
  // The device is the owner from here on: the host keeps no copy.
  host_lines_.drop(c.granule);
  kept_read_clocks_.erase(c.granule);
  ++stats_.reimports;
  if (w.mask != 0) ++stats_.reimported_read_clocks;
  const uint64_t number = table_base_ + table_.size();
  table_.push_back(info);
  transport_.send_line(w, number, line->line, line->read_clock);
  // The line's other clocks right behind it (op 8), nothing in between.
  for (const auto& [bytes, clock] : line->more_clocks) {
    driver::CommandWord k;
    k.op = regs::kOpImportReadClock;
    k.granule = c.granule;
    k.mask = bytes;
    info.op = static_cast<uint8_t>(k.op);
    const uint64_t n = table_base_ + table_.size();
    table_.push_back(info);
    ++stats_.reimported_more_clocks;
    transport_.send(k, n, clock);
  }
}

// The first cause of an access escalation, from the command and the line
// as it was before it (before import: a line the host owns says so).
EscalationCause ProtocolCore::cause_of(const driver::EscalationRecord& r, const driver::Line& line,
                                       const SentCommand& c) const {
  if (r.reason == regs::kReasonForced) {
    if (c.atomic_forced) return EscalationCause::Atomic;
    if (c.fell_back) return EscalationCause::Overflow;  // evicted: slotless because of its clock
    if (c.slotless) return EscalationCause::Slotless;
    return EscalationCause::Other;
  }
  if (r.reason == regs::kReasonInSoftware || line.in_software || host_lines_.owns(r.granule)) {
    return EscalationCause::HostOwned;
  }
  if (r.reason != regs::kReasonReadShare) return EscalationCause::Other;
  if (shape_.read_vcs == 0) return EscalationCause::NoPool;
  if (line.shared != 0) {
    if (!r.read_clock_valid) return EscalationCause::LastWrite;  // its clock left the pool earlier
    unsigned checked = 0;                                        // shared bytes still checked (raced ones are not)
    for (unsigned b = 0; b < 8; ++b) {
      if (((line.shared >> b) & 1u) && !line.bytes[b].raced) checked |= 1u << b;
    }
    return (checked & ~unsigned{c.mask}) != 0 ? EscalationCause::PartialRead : EscalationCause::SecondShare;
  }
  // A first READ SHARE the pool could not take: the bytes' earlier reads differ.
  bool seen = false;
  uint32_t slot = 0, clock = 0;
  for (unsigned b = 0; b < 8; ++b) {
    const driver::ByteState& s = line.bytes[b];
    if (!((c.mask >> b) & 1u) || s.raced || s.r_clock == 0) continue;
    if (seen && (s.r_slot != slot || s.r_clock != clock)) return EscalationCause::DifferentReads;
    seen = true;
    slot = s.r_slot;
    clock = s.r_clock;
  }
  return EscalationCause::Other;
}

// The engine hands a line over (escalation or bucket spill). Its shared
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
SoftLine& ProtocolCore::import_line(const driver::EscalationRecord& r, const driver::Line& device_line) {
  // An epoch of a slot no thread has had cannot come from the engine: it
  // would name no thread in a report (zero clocks are the empty epoch).
  // The host keeps threads and their local times: epochs are translated.
  const uint32_t slots_used = std::min<uint32_t>(shape_.slots, sync_.thread_count());
  driver::Line line = device_line;
  for (driver::ByteState& b : line.bytes) {
    if ((b.w_clock != 0 && b.w_slot >= slots_used) || (b.r_clock != 0 && b.r_slot >= slots_used)) {
      protocol_error(
          fmt::format("escalation record for command {}: granule {:#x} holds an epoch of slot {}, "
                      "beyond the {} slots in use",
                      r.word, r.granule, std::max(b.w_slot, b.r_slot), slots_used));
    }
    if (b.w_clock != 0) {
      const Epoch w = thread_epoch(b.w_slot, b.w_clock, r.word);
      b.w_slot = w.slot;
      b.w_clock = static_cast<uint32_t>(w.clock);
    }
    if (b.r_clock != 0) {
      const Epoch rd = thread_epoch(b.r_slot, b.r_clock, r.word);
      b.r_slot = rd.slot;
      b.r_clock = static_cast<uint32_t>(rd.clock);
    }
  }
  HostLines::ByteClocks read_clocks{};
  if (host_lines_.owns(r.granule)) {
    kept_read_clocks_.erase(r.granule);
    return *host_lines_.adopt(r.granule, line, read_clocks).first;
  }
  // Each shared byte's clock: the record's when it covers the byte (byte
  // 18: its bytes, 0 for all), else the latest reason-5 clock that named it.
  VectorClock from_record;
  const unsigned shared = shape_.read_vcs > 0 && !line.in_software ? line.shared : 0u;
  if (shared != 0) {
    const auto kept = kept_read_clocks_.find(r.granule);
    if (r.read_clock_valid) {
      if (r.read_clock.size() < size_t{shape_.row_words()} * regs::kCommandBytes) {
        protocol_error(fmt::format("escalation record for command {}: its read clock is cut short", r.word));
      }
      from_record = read_clock_of(r);
      ++stats_.read_clock_imports;
    }
    bool lastwrite = false;
    for (unsigned b = 0; b < 8; ++b) {
      if (!((shared >> b) & 1u)) continue;
      if (r.read_clock_valid && (r.clock_mask == 0 || ((r.clock_mask >> b) & 1u))) {
        read_clocks[b] = &from_record;
      } else if (kept != kept_read_clocks_.end() && kept->second.bytes[b] != nullptr) {
        read_clocks[b] = kept->second.bytes[b].get();
        lastwrite = true;
      } else if (!line.bytes[b].raced) {  // a raced byte is never checked again: its reads do not matter
        protocol_error(
            fmt::format("{} for command {}: granule {:#x} has shared bytes but neither the record nor "
                        "an earlier read-clock spill carried their read clock",
                        r.reason == regs::kReasonSpill ? "bucket spill" : "escalation", r.word, r.granule));
      }
    }
    if (lastwrite) {
      ++stats_.lastwrite_imports;
      if (r.reason == regs::kReasonSpill) ++stats_.lastwrite_spill_imports;
    }
  }
  SoftLine& soft = *host_lines_.adopt(r.granule, line, read_clocks).first;
  kept_read_clocks_.erase(r.granule);
  return soft;
}

// Once the commands below `next` are answered: a full free of a granule on
// chip ends its history without a record, so a clock spilled for it before
// the free is dead (one spilled after it, for a new allocation, is kept).
// Nothing else can make a kept clock stale (see import_line).
void ProtocolCore::age_kept_read_clocks(uint64_t next) {
  if (kept_read_clocks_.empty() || next <= table_base_) return;
  const uint64_t end = std::min<uint64_t>(next - table_base_, table_.size());
  for (uint64_t i = 0; i < end; ++i) {
    const uint64_t n = table_base_ + i;
    const SentCommand& c = table_[i];
    if (c.op != regs::kOpFree || c.mask != 0xFF) continue;
    const auto kept = kept_read_clocks_.find(c.granule);
    if (kept == kept_read_clocks_.end()) continue;
    for (unsigned b = 0; b < 8; ++b) {
      if (kept->second.command[b] < n) kept->second.bytes[b].reset();
    }
    if (kept->second.empty()) kept_read_clocks_.erase(kept);
  }
}

void ProtocolCore::check_on_host(SoftLine& line, const SentCommand& c, uint64_t number) {
  SoftAccess a;
  a.slot = c.slot;
  a.write = c.op == regs::kOpWrite;
  a.mask = c.mask;
  a.clock = &clock_at(c.slot, c.event);
  a.atomic_read = c.atomic_read;
  a.atomic_write = c.atomic_write;
  if (!c.atomic_read && !c.atomic_write && !conflicts_.empty()) {
    const auto k = conflicts_.find(number);
    if (k != conflicts_.end()) a.conflicts = &k->second;
  }
  HostLines::check(line, a, [&](unsigned byte, RaceKind kind, Epoch prev, std::optional<uint64_t> prev_atomic_site) {
    ++stats_.host_races;
    atomic_history_.forget_raced(c.granule, 1u << byte, c.event);
    pending_races_.push_back(make_race(c, byte, kind, prev, prev_atomic_site));
  });
}

Race ProtocolCore::make_race(const SentCommand& c, unsigned byte, RaceKind kind, Epoch prev,
                             std::optional<uint64_t> prev_atomic_site) const {
  const uint64_t addr = c.granule * 8 + byte;
  const bool earlier_write = kind != RaceKind::ReadWrite;
  const uint64_t prev_site =
      prev_atomic_site ? *prev_atomic_site : sites_.find(prev.slot, prev.clock, addr, earlier_write, c.event);
  return {addr,
          c.event,
          kind,
          sync_.tid_of(c.slot),
          c.site,
          sync_.tid_of(prev.slot),
          prev.clock,
          prev_site,
          c.atomic_read || c.atomic_write,
          prev_atomic_site.has_value()};
}

void ProtocolCore::on_race(const driver::RaceRecord& r) {
  const SentCommand* command = command_at(r.word);
  if (command == nullptr) protocol_error(fmt::format("race record for command {}", r.word));
  const SentCommand& c = *command;
  if ((c.op != regs::kOpRead && c.op != regs::kOpWrite) || c.granule != r.granule || (r.mask & ~c.mask) != 0) {
    protocol_error(fmt::format("race record for command {} does not match its command", r.word));
  }
  for (unsigned b = 0; b < 8; ++b) {
    if (!((r.mask >> b) & 1u)) continue;
    if (r.kind[b] > 2 || r.prev_slot[b] >= std::min<uint32_t>(shape_.slots, sync_.thread_count())) {
      protocol_error(fmt::format("race record for command {}: kind {} slot {}", r.word, r.kind[b], r.prev_slot[b]));
    }
    ++stats_.device_races;
    atomic_history_.forget_raced(c.granule, 1u << b, c.event);
    const Epoch prev = thread_epoch(r.prev_slot[b], r.prev_clock[b], r.word);
    pending_races_.push_back(make_race(c, b, static_cast<RaceKind>(r.kind[b]), prev));
  }
}

void ProtocolCore::answered(uint64_t next) {
  age_kept_read_clocks(next);
  if (next > table_base_) {
    const uint64_t done = std::min<uint64_t>(next - table_base_, table_.size());
    table_.erase(table_.begin(), table_.begin() + static_cast<std::ptrdiff_t>(done));
    table_base_ += done;
    std::erase_if(conflicts_, [&](const auto& k) { return k.first < table_base_; });
  }
  promote_import_candidates(next);
  std::sort(pending_races_.begin(), pending_races_.end(),
            [](const Race& a, const Race& b) { return a.event != b.event ? a.event < b.event : a.addr < b.addr; });
  races_.insert(races_.end(), pending_races_.begin(), pending_races_.end());
  pending_races_.clear();
  // Every event before the current one is answered: only the current
  // clocks matter now.
  prune_history();
}

}  // namespace raceaccel::offload
