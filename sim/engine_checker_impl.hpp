// Implementation of EngineChecker (a template: one per Verilated model).
#pragma once

#include <cstdlib>
#include <stdexcept>

namespace raceaccel::sim {

template <typename Model>
EngineChecker<Model>::EngineChecker(const EngineConfig& config)
    : cfg_(config),
      slot_w_(config.slots > 1 ? static_cast<unsigned>(std::bit_width(config.slots - 1)) : 1),
      byte_w_(1 + 2 * (slot_w_ + config.clk_bits)),
      line_w_(1 + 8 * byte_w_ + (config.read_vcs > 0 ? 8 : 0)),
      ctx_(make_checking_context()),
      rng_(config.seed),
      max_clock_(config.clk_bits >= 64 ? UINT64_MAX : (uint64_t{1} << config.clk_bits) - 1),
      mirror_(config.slots, std::vector<uint64_t>(config.slots, 0)),
      objects_(config.objects, config.slots, config.clk_bits) {
  // A failed RTL assertion is counted; finish() then throws.
  m_ = std::make_unique<Model>(ctx_.get());
  fst_.open(*m_, cfg_.trace_tag);
  m_->clk_i = 0;
  m_->cmd_valid_i = 0;
  m_->rst_i = 1;
  for (int i = 0; i < 4; ++i) tick();
  m_->rst_i = 0;
  // Thread clock rows are RAM without reset: the host zeroes them once.
  for (unsigned s = 0; s < cfg_.slots; ++s) {
    Command zero;
    zero.op = kSetRow;
    zero.slot = s;
    zero.row.assign(cfg_.slots, 0);
    push(zero);
  }
}

template <typename Model>
EngineChecker<Model>::~EngineChecker() {
  m_->final();
  fst_.close();
}

// One clock cycle. Returns whether a command offered on cmd_* was accepted:
// sampled after every input of the cycle is set, just before the edge.
template <typename Model>
bool EngineChecker<Model>::tick() {
  const auto ready = [&] { return std::uniform_int_distribution<unsigned>(0, 99)(rng_) >= cfg_.stall_percent; };
  m_->race_ready_i = ready();
  m_->esc_ready_i = ready();
  m_->mem_req_ready_i = ready();
  const bool respond = fill_pending_ && fill_delay_ == 0;
  const bool acknowledge = wb_pending_ && wb_delay_ == 0;
  m_->mem_wack_i = acknowledge;
  m_->mem_rsp_valid_i = respond;
  if (respond) {
    auto it = memory_.find(fill_granule_);
    set_words(m_->mem_rsp_data_i, it == memory_.end() ? std::vector<uint32_t>((line_w_ + 31) / 32, 0) : it->second);
  }
  m_->clk_i = 0;
  m_->eval();
  fst_.dump(2 * ctx_->time());

  // Handshakes completing at this edge; outputs are read before it.
  const bool accepted = m_->cmd_valid_i && m_->cmd_ready_o;
  if (!m_->rst_i) {
    if (m_->race_valid_o && m_->race_ready_i) handle_race();
    if (m_->esc_valid_o && m_->esc_ready_i) {
      handle_escalation(m_->esc_seq_o, m_->esc_reason_o, words_of(m_->esc_line_o, line_w_));
    }
  }
  bool new_fill = false;
  bool new_wb = false;
  if (m_->mem_req_valid_o && m_->mem_req_ready_i) {
    const uint64_t granule = m_->mem_req_granule_o;
    if (m_->mem_req_write_o) {
      // The write lands when it is acknowledged: a fill issued before that
      // would read the old record, and the differential test would see it.
      if (wb_pending_) throw std::logic_error("engine issued a second write-back while one is outstanding");
      wb_pending_ = true;
      new_wb = true;
      wb_granule_ = granule;
      wb_data_ = words_of(m_->mem_req_data_o, line_w_);
      wb_delay_ = std::uniform_int_distribution<unsigned>(1, std::max(1u, cfg_.max_mem_latency))(rng_);
    } else {
      if (wb_pending_) throw std::logic_error("engine issued a fill before its write-back was acknowledged");
      if (fill_pending_) throw std::logic_error("engine issued a second fill while one is outstanding");
      fill_pending_ = true;
      new_fill = true;
      fill_granule_ = granule;
      fill_delay_ = std::uniform_int_distribution<unsigned>(1, std::max(1u, cfg_.max_mem_latency))(rng_);
    }
  }
  m_->clk_i = 1;
  m_->eval();
  fst_.dump(2 * ctx_->time() + 1);
  ctx_->timeInc(1);
  if (respond) {
    fill_pending_ = false;
  } else if (fill_pending_ && !new_fill && fill_delay_ > 0) {
    --fill_delay_;
  }
  if (acknowledge) {
    memory_[wb_granule_] = wb_data_;
    wb_pending_ = false;
  } else if (wb_pending_ && !new_wb && wb_delay_ > 0) {
    --wb_delay_;
  }
  return accepted;
}

template <typename Model>
void EngineChecker<Model>::push(const Command& c) {
  // Idle cycles between commands, so commands also arrive at an empty S0
  // while S1 is busy.
  while (std::uniform_int_distribution<unsigned>(0, 299)(rng_) < cfg_.stall_percent) tick();
  m_->cmd_valid_i = 1;
  m_->cmd_op_i = c.op;
  m_->cmd_force_sw_i = c.force;
  m_->cmd_slot_i = c.slot;
  m_->cmd_mask_i = c.mask;
  m_->cmd_granule_i = c.granule;
  m_->cmd_seq_i = c.seq;
  put_lanes(m_->cmd_row_i, c.row, cfg_.clk_bits);  // no row: zeros
  if (c.op <= kFree) commands_by_seq_[c.seq].push_back(c);
  for (uint64_t guard = 0;; ++guard) {
    if (tick()) break;
    if (guard > 1'000'000) throw std::runtime_error("engine does not accept commands (deadlock)");
  }
  m_->cmd_valid_i = 0;
}

template <typename Model>
void EngineChecker<Model>::record_clock(uint32_t slot, uint64_t seq) {
  if (history_.size() <= slot) history_.resize(slot + 1);
  auto& h = history_[slot];
  h.emplace_back(seq, sync_.clock(slot));
}

template <typename Model>
VectorClock EngineChecker<Model>::clock_at(uint32_t slot, uint64_t seq) const {
  const auto& h = history_.at(slot);
  for (auto it = h.rbegin(); it != h.rend(); ++it) {
    if (it->first <= seq) return it->second;
  }
  throw std::logic_error("no clock history for an in-flight event");
}

// Lock acquire and release by a thread with a slot run on chip when the
// SyncObjectStore says they can: it applies the event to the host's state
// and plans the commands (loading a lock clock into its entry when another
// clock, or nothing, is there; the host's value is exact), which go out
// instead of a SetRow row. The engine computes the same join and tick the
// host did; the mirror records that result.
template <typename Model>
bool EngineChecker<Model>::sync_on_chip(const Event& e, uint32_t t, uint64_t index) {
  if (fallback_ || t >= cfg_.slots) return false;  // the engine's row of t is not the host's clock
  object_commands_.clear();
  if (!objects_.apply_on_chip(e, t, sync_, object_commands_)) return false;
  for (const offload::SyncObjectCommand& planned : object_commands_) {
    Command c;
    c.granule = planned.entry;
    if (planned.kind == offload::SyncObjectCommand::Kind::Load) {
      c.op = kLoadObj;
      c.row = planned.lanes;
    } else {
      c.op = planned.kind == offload::SyncObjectCommand::Kind::Acquire ? kAcquire : kRelease;
      c.slot = t;
      c.seq = index;
    }
    push(c);
  }
  objects_.device_lanes(sync_.clock(t), mirror_[t]);
  record_clock(t, index);
  return true;
}

template <typename Model>
void EngineChecker<Model>::sync_rows(uint32_t slot) {
  if (slot >= cfg_.slots || fallback_) return;
  const VectorClock& c = sync_.clock(slot);
  const unsigned lanes = std::min<unsigned>(cfg_.slots, sync_.thread_count());
  for (unsigned lane = 0; lane < lanes; ++lane) {
    if (c.get(lane) > max_clock_) {
      fallback_ = true;  // the hardware cannot hold this clock: everything goes to software from here on
      return;
    }
  }
  bool changed = false;
  for (unsigned lane = 0; lane < lanes; ++lane) changed = changed || c.get(lane) != mirror_[slot][lane];
  if (!changed) return;
  ++set_rows_;
  Command set;
  set.op = kSetRow;
  set.slot = slot;
  for (unsigned lane = 0; lane < cfg_.slots; ++lane) {
    mirror_[slot][lane] = lane < lanes ? c.get(lane) : 0;
    set.row.push_back(mirror_[slot][lane]);
  }
  push(set);
}

// Bookkeeping for in-flight commands (their events, per-thread clock
// history) is dropped every 4096 events after draining the engine: once it
// is idle nothing older can still produce a record, however many events
// without commands (spin loops on atomics, slotless threads) went by.
template <typename Model>
void EngineChecker<Model>::forget_old(uint64_t index) {
  if (index % 4096 != 0 || index == 0) return;
  drain();
  pending_.clear();
  commands_by_seq_.clear();
  for (auto& h : history_) {
    while (h.size() > 1) h.pop_front();
  }
}

template <typename Model>
void EngineChecker<Model>::drain() {
  for (uint64_t guard = 0; !(m_->idle_o && !fill_pending_ && !wb_pending_); ++guard) {
    tick();
    if (guard > 1'000'000) throw std::runtime_error("engine does not drain (deadlock)");
  }
}

// One command per granule of [addr, addr + size): the access, or a free.
template <typename Model>
void EngineChecker<Model>::send_granules(const Event& e, uint64_t index, uint32_t t, uint64_t addr, uint64_t size) {
  const bool access = e.op == Op::Read || e.op == Op::Write;
  for (uint64_t remaining = size; remaining > 0;) {
    const unsigned offset = addr & 7;
    const uint64_t n = std::min<uint64_t>(8 - offset, remaining);
    Command c;
    c.op = e.op == Op::Read ? kRead : e.op == Op::Write ? kWrite : kFree;
    c.force = access && (fallback_ || t >= cfg_.slots);
    c.slot = t < cfg_.slots ? t : 0;
    c.mask = ((1u << n) - 1) << offset;
    c.granule = addr >> 3;
    c.seq = index;
    push(c);
    addr += n;
    remaining -= n;
  }
}

template <typename Model>
void EngineChecker<Model>::process(const Event& e, uint64_t index) {
  ++events_;
  forget_old(index);
  const uint32_t before = sync_.thread_count();
  const uint32_t t = sync_.thread(e.tid);
  if (sync_.thread_count() != before) {
    record_clock(t, index);
    sync_rows(t);
  }
  if (e.op == Op::Read || e.op == Op::Write) {
    pending_[index] = {index, e.tid, t, e.op == Op::Write, e.site};
    touched_.touch(e.addr, e.size);
    send_granules(e, index, t, e.addr, e.size);
    return;
  }
  if (e.op == Op::Alloc || e.op == Op::Free) {
    sync_.forget_atomics(e.addr, e.size);
    // Granules no access touched hold no history: only touched pages get
    // free commands (a thread's 8 MiB stack would otherwise be a million).
    for (const offload::PageSpan& span : touched_.spans_in(e.addr, e.size)) {
      send_granules(e, index, t, span.addr, span.size);
    }
    return;
  }
  if (sync_on_chip(e, t, index)) return;
  sync_.apply(e);
  objects_.applied_in_software(e);  // a lock clock changed in software is stale on chip
  std::vector<uint32_t> changed = {t};
  if (targets_thread(e.op)) changed.push_back(sync_.thread(static_cast<ThreadId>(e.addr)));
  for (uint32_t s : changed) {
    record_clock(s, index);
    sync_rows(s);
  }
}

template <typename Model>
void EngineChecker<Model>::handle_race() {
  const uint64_t seq = m_->race_seq_o;
  const uint64_t granule = m_->race_granule_o;
  const Pending& p = pending_.at(seq);
  for (unsigned b = 0; b < 8; ++b) {
    if (!((m_->race_mask_o >> b) & 1u)) continue;
    const unsigned kind = (m_->race_kinds_o >> (2 * b)) & 3u;
    const auto prev_slot = static_cast<uint32_t>(get_bits(m_->race_prev_slots_o, b * slot_w_, slot_w_));
    const uint64_t prev_clock = get_bits(m_->race_prev_clks_o, b * cfg_.clk_bits, cfg_.clk_bits);
    races_.push_back(
        {granule * 8 + b, seq, static_cast<RaceKind>(kind), p.tid, p.site, sync_.tid_of(prev_slot), prev_clock, 0});
  }
}

// The read clock an escalation record carries (esc_rvc_o), as a clock of
// slot lanes.
template <typename Model>
VectorClock EngineChecker<Model>::escalated_read_clock() const {
  const std::vector<uint64_t> lanes = get_lanes(m_->esc_rvc_o, cfg_.slots, cfg_.clk_bits);
  VectorClock c;
  for (unsigned lane = 0; lane < cfg_.slots; ++lane) {
    if (lanes[lane] != 0) c.set(lane, lanes[lane]);
  }
  return c;
}

// The state a line hands to software. Its shared bytes' reads are the read
// clock that comes with the record (EVERYTHING), or the clock the pool
// spilled earlier joined with the latest read since, which the line holds in
// R (LASTWRITE).
template <typename Model>
typename EngineChecker<Model>::SoftLine EngineChecker<Model>::import_line(uint64_t granule,
                                                                          const std::vector<uint32_t>& line) {
  const unsigned shared = cfg_.read_vcs > 0 ? static_cast<unsigned>(words_bits(line, 1 + 8 * byte_w_, 8)) : 0;
  VectorClock reads;
  if (shared != 0) {
    if (m_->esc_rvc_valid_o) {
      reads = escalated_read_clock();
    } else {
      auto spilled = spilled_reads_.find(granule);
      if (spilled == spilled_reads_.end()) throw std::logic_error("LASTWRITE line without a spilled read clock");
      reads = spilled->second;
    }
  }
  spilled_reads_.erase(granule);
  SoftLine imported;
  for (unsigned b = 0; b < 8; ++b) {
    const unsigned lo = 1 + b * byte_w_;
    SoftByte& sb = imported.bytes[b];
    sb.raced = words_bits(line, lo, 1) != 0;
    sb.w = {static_cast<uint32_t>(words_bits(line, lo + 1, slot_w_)),
            words_bits(line, lo + 1 + slot_w_, cfg_.clk_bits)};
    sb.r = {static_cast<uint32_t>(words_bits(line, lo + 1 + slot_w_ + cfg_.clk_bits, slot_w_)),
            words_bits(line, lo + 1 + 2 * slot_w_ + cfg_.clk_bits, cfg_.clk_bits)};
    if ((shared >> b) & 1u) {
      sb.shared = true;
      sb.rvc = reads;
      if (sb.r.clock > sb.rvc.get(sb.r.slot)) sb.rvc.set(sb.r.slot, sb.r.clock);
      sb.r = Epoch{};
    }
  }
  return imported;
}

template <typename Model>
void EngineChecker<Model>::handle_escalation(uint64_t seq, unsigned reason, const std::vector<uint32_t>& line) {
  constexpr unsigned kReclaim = 3, kReadVcSpill = 5;
  const uint64_t granule = m_->esc_granule_o;
  ++records_by_reason_.at(reason);
  if (reason == kReadVcSpill) {
    spilled_reads_[granule] = escalated_read_clock();
    return;
  }
  if (reason == kReclaim) {
    soft_.erase(granule);
    return;
  }
  auto it = soft_.find(granule);
  if (it == soft_.end()) it = soft_.emplace(granule, import_line(granule, line)).first;  // the engine hands it over
  const Command* command = nullptr;
  for (const Command& c : commands_by_seq_.at(seq)) {
    if (c.granule == granule) command = &c;
  }
  if (command == nullptr) throw std::logic_error("escalation for an unknown command");
  if (command->op == kFree) {
    for (unsigned b = 0; b < 8; ++b) {
      if ((command->mask >> b) & 1u) it->second.bytes[b] = SoftByte{};
    }
    return;
  }
  soft_check(it->second, granule, *command, pending_.at(seq));
}

template <typename Model>
void EngineChecker<Model>::soft_check(SoftLine& line, uint64_t granule, const Command& c, const Pending& p) {
  const VectorClock now = clock_at(p.slot, p.seq);
  const Epoch me{p.slot, now.get(p.slot)};
  for (unsigned b = 0; b < 8; ++b) {
    if (!((c.mask >> b) & 1u)) continue;
    SoftByte& sb = line.bytes[b];
    if (sb.raced) continue;
    auto report = [&](RaceKind kind, Epoch prev) {
      races_.push_back({granule * 8 + b, p.seq, kind, p.tid, p.site, sync_.tid_of(prev.slot), prev.clock, 0});
      sb.raced = true;
    };
    const bool w_ok = now.covers(sb.w);
    if (!p.write) {
      if (sb.shared ? sb.rvc.get(p.slot) == me.clock : sb.r == me) continue;
      if (!w_ok) {
        report(RaceKind::WriteRead, sb.w);
      } else if (sb.shared) {
        sb.rvc.set(p.slot, me.clock);
      } else if (now.covers(sb.r)) {
        sb.r = me;
      } else {
        sb.shared = true;
        sb.rvc = VectorClock{};
        sb.rvc.set(sb.r.slot, sb.r.clock);
        sb.rvc.set(p.slot, me.clock);
      }
      continue;
    }
    if (sb.w == me) continue;
    if (!w_ok) {
      report(RaceKind::WriteWrite, sb.w);
      continue;
    }
    if (sb.shared) {
      bool raced = false;
      for (uint32_t u = 0; u < sb.rvc.size(); ++u) {
        if (sb.rvc.get(u) > now.get(u)) {
          report(RaceKind::ReadWrite, {u, sb.rvc.get(u)});
          raced = true;
          break;
        }
      }
      if (raced) continue;
      sb.shared = false;
      sb.rvc = VectorClock{};
      sb.r = Epoch{};
    } else if (!now.covers(sb.r)) {
      report(RaceKind::ReadWrite, sb.r);
      continue;
    }
    sb.w = me;
  }
}

template <typename Model>
void EngineChecker<Model>::finish() {
  drain();
  if (ctx_->gotError()) throw std::runtime_error("an RTL assertion failed (see the $error lines above)");
}

template <typename Model>
EngineStats EngineChecker<Model>::stats() const {
  EngineStats s;
  s.cycles = m_->stat_cycles_o;
  s.commands = m_->stat_commands_o;
  s.accesses = m_->stat_accesses_o;
  s.misses = m_->stat_misses_o;
  s.writebacks = m_->stat_writebacks_o;
  s.escalations = m_->stat_escalations_o;
  s.events = events_;
  s.sync_ops = objects_.stats().acquires + objects_.stats().releases;
  s.object_loads = objects_.stats().loads;
  s.set_rows = set_rows_;
  s.read_vc_spills = records_by_reason_[5];
  s.records_by_reason = records_by_reason_;
  return s;
}

}  // namespace raceaccel::sim
