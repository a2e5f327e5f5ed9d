// The cycle-level transport of the protocol core (host/offload/protocol_core.hpp):
// pin-level wiring of a Verilated check engine (rtl/rac_check_engine.sv).
//
// A command goes onto the cmd_* pins (its number as cmd_seq_i) and is held
// until the engine accepts it; every cycle, the race and escalation outputs
// that fire are copied bit for bit into the driver's record structures
// (the line and read clock have the layout of the kernel's records) and
// handed to the core at once. The backing store is a sparse memory model
// with seeded latency and back-pressure; the race and escalation outputs get
// seeded back-pressure too. No protocol logic lives here.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "driver/rac_kernel_regs.hpp"
#include "driver/records.hpp"
#include "offload/protocol_core.hpp"
#include "verilated_bits.hpp"
#include "verilated_setup.hpp"

namespace raceaccel::sim {

struct EngineConfig {
  unsigned slots = 8;  // must match the model's NumSlots, ClkW, Sets, Ways
  unsigned clk_bits = 16;
  unsigned sets = 64;
  unsigned ways = 4;
  // Entries of the engine's sync-object store the host may use (at most the
  // model's Objects; 0: every synchronization is sent as SetRow rows).
  unsigned objects = 0;
  // Entries of the engine's read-VC pool: must equal the model's ReadVcs
  // (it decides the line format; 0: no pool, concurrent reads go to software).
  unsigned read_vcs = 0;
  uint64_t seed = 1;
  unsigned max_mem_latency = 4;  // cycles before a fill response, drawn in [1, max]
  unsigned stall_percent = 20;   // chance per cycle that memory or an output is not ready
  // With RACEACCEL_FST=<file> in the environment (and models built with
  // -DRACEACCEL_TRACE=ON, the default), the run writes an FST waveform;
  // "{}" in <file> is replaced by this tag.
  std::string trace_tag = "engine";
  // Commands between two drains of the engine, after which the core is told
  // that every command so far is answered (bounds its sent-command table).
  unsigned answer_every = 4096;
  // Host-owned lines go back to the engine with import-line commands (op 7;
  // ProtocolCore's `reimport`, as OffloadOptions::reimport on a device).
  bool reimport = true;
  // Atomic accesses checked by the engine (ops 9-10 as cmd_atomic_i): the
  // core's `atomics`, as OffloadOptions::atomics_on_chip on a device.
  bool atomics = true;

  driver::LineShape shape() const { return {slots, clk_bits, read_vcs}; }
};

template <typename Model>
class EngineTransport final : public offload::Transport {
 public:
  explicit EngineTransport(const EngineConfig& config)
      : cfg_(config), line_w_(config.shape().line_bits()), ctx_(make_checking_context()), rng_(config.seed) {
    // A failed RTL assertion is counted; check_assertions() then throws.
    m_ = std::make_unique<Model>(ctx_.get());
    fst_.open(*m_, cfg_.trace_tag);
    m_->clk_i = 0;
    m_->cmd_valid_i = 0;
    m_->rst_i = 1;
    for (int i = 0; i < 4; ++i) tick();
    m_->rst_i = 0;
    // Thread clock rows are RAM without reset: zeroed once, before any
    // command of the core (they carry no record).
    for (unsigned s = 0; s < cfg_.slots; ++s) {
      driver::CommandWord zero;
      zero.op = regs::kOpSetRow;
      zero.slot = s;
      push(zero, 0, std::vector<uint64_t>(cfg_.slots, 0));
    }
  }
  ~EngineTransport() override {
    m_->final();
    fst_.close();
  }

  void connect(offload::RecordSink& sink) override { sink_ = &sink; }
  std::string_view name() const override { return "engine"; }
  void send(const driver::CommandWord& word, uint64_t number, std::span<const uint64_t> row) override {
    push(word, number, std::vector<uint64_t>(row.begin(), row.end()));
    sent(number);
  }
  // Op 7: the line on cmd_line_i as the record layout's bit string (the
  // import's data words), the read clock on cmd_row_i (zeros without one).
  void send_line(const driver::CommandWord& word, uint64_t number, const driver::Line& line,
                 std::span<const uint64_t> read_clock) override {
    const driver::LineShape shape = cfg_.shape();
    std::vector<std::byte> bytes(size_t{shape.line_words()} * regs::kCommandBytes);
    driver::encode_line_words(line, shape, bytes);
    std::vector<uint32_t> words((line_w_ + 31) / 32, 0);
    for (size_t i = 0; i < words.size() * 4 && i < bytes.size(); ++i) {
      words[i / 4] |= static_cast<uint32_t>(std::to_integer<uint8_t>(bytes[i])) << (8 * (i % 4));
    }
    if (line_w_ % 32 != 0) words.back() &= (uint32_t{1} << (line_w_ % 32)) - 1;
    set_words(m_->cmd_line_i, words);
    push(word, number, std::vector<uint64_t>(read_clock.begin(), read_clock.end()));
    sent(number);
  }
  void flush() override {
    drain();
    since_answered_ = 0;
    sink_->answered(next_number_);
  }
  void check_assertions() const {
    if (ctx_->gotError()) throw std::runtime_error("an RTL assertion failed (see the $error lines above)");
  }
  const Model& model() const { return *m_; }

 private:
  // One clock cycle. Returns whether a command offered on cmd_* was
  // accepted: sampled after every input of the cycle is set, just before
  // the edge.
  bool tick() {
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
    if (!m_->rst_i && (m_->race_valid_o || m_->esc_valid_o) && sink_ == nullptr) {
      throw std::logic_error("engine produced a record before the protocol core was connected");
    }
    if (!m_->rst_i) {
      if (m_->race_valid_o && m_->race_ready_i) sink_->on_race(race_record());
      if (m_->esc_valid_o && m_->esc_ready_i) sink_->on_escalation(escalation_record());
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

  void push(const driver::CommandWord& c, uint64_t number, const std::vector<uint64_t>& row) {
    // Idle cycles between commands, so commands also arrive at an empty S0
    // while S1 is busy.
    while (std::uniform_int_distribution<unsigned>(0, 299)(rng_) < cfg_.stall_percent) tick();
    m_->cmd_valid_i = 1;
    // Ops 9-10 (atomic accesses) reach the engine as a read or write with
    // cmd_atomic_i set, as rac_cmd_decoder hands them over.
    const bool atomic = c.op == regs::kOpAtomicRead || c.op == regs::kOpAtomicWrite;
    m_->cmd_op_i = atomic ? (c.op == regs::kOpAtomicWrite ? regs::kOpWrite : regs::kOpRead) : c.op;
    m_->cmd_atomic_i = atomic;
    m_->cmd_force_sw_i = c.force_sw;
    m_->cmd_slot_i = c.slot;
    m_->cmd_mask_i = c.mask;
    m_->cmd_granule_i = c.granule;
    m_->cmd_seq_i = number;
    put_lanes(m_->cmd_row_i, row, cfg_.clk_bits);  // no row: zeros
    for (uint64_t guard = 0;; ++guard) {
      if (tick()) break;
      if (guard > 1'000'000) throw std::runtime_error("engine does not accept commands (deadlock)");
    }
    m_->cmd_valid_i = 0;
  }

  void sent(uint64_t number) {
    next_number_ = number + 1;
    if (++since_answered_ >= cfg_.answer_every) flush();
  }

  void drain() {
    for (uint64_t guard = 0; !(m_->idle_o && !fill_pending_ && !wb_pending_); ++guard) {
      tick();
      if (guard > 1'000'000) throw std::runtime_error("engine does not drain (deadlock)");
    }
  }

  // The race outputs as a kernel race record (docs/kernel-interface.md).
  driver::RaceRecord race_record() const {
    const unsigned slot_w = cfg_.shape().slot_bits();
    driver::RaceRecord r;
    r.word = m_->race_seq_o;
    r.granule = m_->race_granule_o;
    r.mask = m_->race_mask_o;
    for (unsigned b = 0; b < 8; ++b) {
      r.kind[b] = (m_->race_kinds_o >> (2 * b)) & 3u;
      r.prev_slot[b] = static_cast<uint32_t>(get_bits(m_->race_prev_slots_o, b * slot_w, slot_w));
      r.prev_clock[b] = static_cast<uint32_t>(get_bits(m_->race_prev_clks_o, b * cfg_.clk_bits, cfg_.clk_bits));
    }
    return r;
  }

  // The escalation outputs as a kernel escalation record: esc_line_o is the
  // record's line field bit for bit, esc_rvc_o its read clock.
  driver::EscalationRecord escalation_record() const {
    driver::EscalationRecord r;
    r.word = m_->esc_seq_o;
    r.granule = m_->esc_granule_o;
    r.reason = m_->esc_reason_o;
    copy_bits(words_of(m_->esc_line_o, line_w_), r.line);
    r.read_clock_valid = cfg_.read_vcs > 0 && m_->esc_rvc_valid_o;
    if (r.read_clock_valid) {
      r.read_clock.assign(size_t{cfg_.shape().row_words()} * regs::kCommandBytes, std::byte{0});
      copy_bits(words_of(m_->esc_rvc_o, cfg_.slots * cfg_.clk_bits), r.read_clock);
    }
    return r;
  }

  // 32-bit words, least significant first, as little-endian bytes.
  static void copy_bits(const std::vector<uint32_t>& words, std::span<std::byte> out) {
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = i / 4 < words.size() ? static_cast<std::byte>(words[i / 4] >> (8 * (i % 4))) : std::byte{0};
    }
  }

  EngineConfig cfg_;
  unsigned line_w_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
  FstTrace fst_;
  std::mt19937_64 rng_;
  offload::RecordSink* sink_ = nullptr;
  uint64_t next_number_ = 0;
  unsigned since_answered_ = 0;
  // Memory model
  std::unordered_map<uint64_t, std::vector<uint32_t>> memory_;
  bool fill_pending_ = false;
  unsigned fill_delay_ = 0;
  uint64_t fill_granule_ = 0;
  bool wb_pending_ = false;
  unsigned wb_delay_ = 0;
  uint64_t wb_granule_ = 0;
  std::vector<uint32_t> wb_data_;
};

}  // namespace raceaccel::sim
