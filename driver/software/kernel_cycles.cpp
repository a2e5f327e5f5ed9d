// The replay of a batch's recorded commands (kernel_cycles.hpp): the engine
// by formula, the decoder, miss-ahead unit and meta port cycle by cycle.
#include "driver/software/kernel_cycles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <optional>
#include <stdexcept>

namespace raceaccel::driver {
namespace {

// RTL sizes (rac_kernel's CmdFifoDepth and PrefetchEntries, rac_meta_port's
// HintQueue and the decoder's wait for hint room, rac_kernel_regs_pkg's
// BucketHashRounds, rac_miss_ahead's four recent hints).
constexpr size_t kCmdFifoDepth = 128;
constexpr size_t kEntries = 8;
constexpr size_t kHintRoom = 16 - 3;
constexpr int64_t kHashRounds = 4;
constexpr size_t kRecentHints = 4;
constexpr int64_t kStallLimit = 100'000'000;

// Cycles between the RTL's events (read off rac_kernel's launch states, the
// engine's S0/S1 and the meta port's states, checked against the Verilated
// kernel's event times): the reader's first word after the launch (plus
// the latency), a command's take to its miss request, the end of the batch
// after the engine's last command or the last record's write. (kFirstWord
// was 5 until the reader registered its burst length a cycle ahead, with a
// cycle without a request after the start, and the decoder registered its
// input word: two cycles more to the first command, docs/hardware.md.)
constexpr int64_t kFirstWord = 7;
// clear_state: KClear this many cycles after the launch (or, for the
// device's first launch, once the engine's post-reset sweep and the
// decoder's post-reset zeroing are done: kHostSetup is how long after its
// reset the host launches first — the Verilator device's register writes;
// on a card it is much later, so the estimate overstates the first batch
// by at most Sets cycles); the engine's and the shadow's sweeps then take
// Sets cycles, while the decoder zeroes rows and sync objects and starts
// the batch's commands.
constexpr int64_t kClearAt = 2;
constexpr int64_t kHostSetup = 95;
constexpr int64_t kPostResetIdle = 7;
constexpr int64_t kZeroingFrom = 4;
constexpr int64_t kZeroingDone = 3;
constexpr int64_t kSweepDone = 1;
constexpr int64_t kMissRequest = 5;
constexpr int64_t kTail = 6;   // 5 before the engine's SN register (a cycle more to drain)
constexpr int kRecordGap = 1;  // a record writer takes a record every beats + this many cycles
constexpr int64_t kRecordTail = 4;
constexpr int64_t kBResponse = 2;  // a posted write's last W beat to the first read after its B response

using Command = KernelCycles::Command;
using Miss = KernelCycles::Miss;
using WriteBack = KernelCycles::WriteBack;

// The decoder, command FIFO, shadow tags and meta port, one cycle per step.
class MissAhead {
 public:
  MissAhead(const KernelTimingShape& shape, const std::vector<Command>& commands, std::vector<uint64_t>& shadow,
            int64_t first_word, int64_t shadow_from, size_t zeroing, int64_t zeroing_from)
      : shape_(shape),
        shadow_from_(shadow_from),
        commands_(commands),
        shadow_(shadow),
        latency_(std::max<int64_t>(1, std::llround(shape.latency))),
        beats_(2 * static_cast<int64_t>(shape.bucket_ways)),
        entered_(commands.size(), -1),
        first_word_(first_word),
        zeroing_from_(zeroing_from),
        zeroing_(zeroing) {
    decoder_ready_ = ready_of(0, 0);
  }

  // Runs until command k is in the command FIFO; the cycle it entered.
  int64_t entered(size_t k) {
    for (int64_t guard = 0; entered_[k] < 0; ++guard) {
      stalled(guard);
      step();
    }
    return entered_[k];
  }
  void run_to(int64_t t) {
    while (t_ < t) step();
  }
  // The engine took command k at cycle t (now or later).
  void take(size_t k, int64_t t) {
    run_to(t);
    --fifo_count_;
    if (k < zeroing_) return;  // (the decoder's zeroing commands are not counted)
    // rac_kernel's taken_seq_q[2]: the command before the last two taken
    // (the engine's SN, S0 and S1 hold the last three).
    passed_seq_ = before_taken_seq_;
    before_taken_seq_ = taken_seq_;
    taken_seq_ = commands_[k].seq;
  }
  // An engine request from cycle t (S1WbReq / S1FillReq); runs until the
  // meta port is done with it (MDone: the write's acknowledgement, or the
  // fill's answer and install) and returns that cycle.
  int64_t request(int64_t t, bool write, const Command& c, const Miss& m) {
    run_to(t);
    req_ = Request{write, c, m};
    done_ = -1;
    for (int64_t guard = 0; done_ < 0; ++guard) {
      stalled(guard);
      step();
    }
    return done_;
  }
  // When the meta port is idle after the last read and B response.
  int64_t idle() const { return std::max({r_last_ + 2, b_due_ + 1, t_}); }

 private:
  enum class E { Free, Addr, Issue, Flight, Ready };
  struct Entry {
    E state = E::Free;
    bool stale = false;
    int64_t ready_at = 0;
    uint64_t seq = 0, granule = 0, bucket = 0;
  };
  struct Hint {
    uint64_t seq, granule, bucket;
  };
  struct Burst {
    int64_t last;  // its last beat
    int owner;     // an entry, or -1: the engine's own read
  };
  enum class M { Idle, Hash, Read, Data, Resp, Spill, Write, Done, WaitEntry };
  struct Request {
    bool write;
    Command c;
    Miss m;
  };

  // The replay waits on something the model never lets happen (a bug here).
  static void stalled(int64_t cycles) {
    if (cycles > kStallLimit) throw std::logic_error("kernel cycle model: the replay stalled");
  }
  bool live(const Entry& e) const { return e.state != E::Free && !e.stale; }
  bool dead(uint64_t seq) const { return seq < last_req_seq_ || seq < passed_seq_; }
  // Drops an entry: free when read or not yet issued, stale while in flight.
  static void drop(Entry& e) {
    if (e.state == E::Issue || e.state == E::Flight) {
      e.stale = true;
    } else {
      e.state = E::Free;
    }
  }
  bool in_shadow(const Command& c) const {
    for (unsigned w = 0; w < shape_.ways; ++w) {
      if (shadow_[c.set * shape_.ways + w] == c.granule + 1) return true;
    }
    return false;
  }
  // AR of a bucket read now: its beats follow every earlier read's, after a
  // settle cycle between bursts.
  void issue_read(int owner) {
    const int64_t first = std::max(t_ + latency_ + 1, r_last_ + 2);
    r_last_ = first + beats_ - 1;
    bursts_.push_back({r_last_, owner});
  }

  void step() {
    decode();
    reads();
    hasher();
    prefetch_ar();
    meta();
    look();
    ++t_;
  }

  // The decoder: one word per cycle; a command enters the FIFO when there
  // is room there and in the hint queue. The shadow is read that cycle and
  // hints the next (rac_miss_ahead).
  void decode() {
    if (next_ < commands_.size() && t_ >= decoder_ready_ && fifo_count_ < kCmdFifoDepth && hints_.size() < kHintRoom) {
      const Command& c = commands_[next_];
      entered_[next_] = t_;
      ++fifo_count_;
      if (c.lookup && !c.force && shape_.sets != 0 && t_ >= shadow_from_)
        looks_.push_back({next_, t_ + 1, !in_shadow(c)});
      ++next_;
      decoder_ready_ = ready_of(next_, t_);
    }
  }

  // When command k can enter the FIFO, the previous one having entered at
  // cycle t: the clear's zeroing commands one a cycle, then the batch's
  // commands from the first word, one word a cycle and one more for a
  // command with data words.
  int64_t ready_of(size_t k, int64_t t) const {
    if (k >= commands_.size()) return t;
    if (k < zeroing_) return zeroing_from_ + static_cast<int64_t>(k);
    const unsigned words = commands_[k].words;
    const int64_t cost = words + (words > 1 ? 1 : 0);
    return (k == zeroing_ ? first_word_ : t) + cost;
  }

  // The shadow's answer the cycle after the command entered: a hint unless
  // the granule is resident, one of the last hinted, or installed now.
  void look() {
    if (!looks_.empty() && looks_.front().at == t_) {
      const Look look = looks_.front();
      looks_.pop_front();
      const Command& c = commands_[look.command];
      const bool recent = std::find(recent_.begin(), recent_.end(), c.granule) != recent_.end();
      if (look.miss && !recent && !(installed_now_ && *installed_now_ == c.granule)) {
        hints_.push_back({c.seq, c.granule, c.bucket});
        recent_.push_front(c.granule);
        if (recent_.size() > kRecentHints) recent_.pop_back();
      }
    }
    installed_now_.reset();
  }

  // The read channel: a burst's owner decides the cycle after its last beat.
  void reads() {
    while (!bursts_.empty() && bursts_.front().last < t_) {
      const Burst b = bursts_.front();
      bursts_.pop_front();
      if (b.owner < 0) {
        own_burst_done_ = b.last;
        continue;
      }
      Entry& e = entries_[static_cast<size_t>(b.owner)];
      if (e.stale) {
        e.state = E::Free;
        e.stale = false;
      } else {
        e.state = E::Ready;
        e.ready_at = b.last + 2;
      }
    }
  }

  // The hint queue and the hasher: one hint at a time, hashed in
  // BucketHashRounds + 1 cycles, then an entry once one is free. A hint
  // whose command the engine has passed is dropped by the hasher from its
  // second round on (the port's registered ph_dead_q), so a dead hint at the
  // queue head costs it two cycles.
  void hasher() {
    if (hashing_ && t_ >= hash_start_ + 2 && t_ < hash_done_ && dead(hashing_->seq)) {
      hashing_.reset();
      pop_at_ = t_ + 1;
      return;
    }
    if (hashing_ && t_ >= hash_done_) {
      const Hint& h = *hashing_;
      bool dup = false;
      for (const Entry& e : entries_) dup = dup || (live(e) && e.granule == h.granule);
      if (dup || dead(h.seq)) {
        hashing_.reset();
      } else {
        for (Entry& e : entries_) {
          if (e.state != E::Free) continue;
          e = Entry{E::Addr, false, 0, h.seq, h.granule, h.bucket};
          e.ready_at = t_ + 1;  // (visible the next cycle)
          hashing_.reset();
          break;
        }
      }
      if (!hashing_) pop_at_ = t_ + 1;
      return;
    }
    if (!hashing_ && t_ >= pop_at_ && !hints_.empty()) {
      hashing_ = hints_.front();
      hints_.pop_front();
      hash_start_ = t_;
      hash_done_ = t_ + kHashRounds + 2;
      pop_at_ = t_ + 1;
    }
  }

  // An entry's AR: one at a time, never while a write-back is in progress or
  // owed its B response, nor while the engine's own read waits for the bus.
  void prefetch_ar() {
    if (pf_ar_) {
      Entry& e = entries_[*pf_ar_];
      if (e.state == E::Issue) e.state = E::Flight;
      issue_read(static_cast<int>(*pf_ar_));
      pf_ar_.reset();
      pf_ar_cycle_ = t_;
      return;
    }
    const bool wb_busy = (state_ != M::Idle && req_ && req_->write) || t_ < b_due_;
    if (wb_busy || state_ == M::Read || bursts_.size() >= kEntries) return;
    for (size_t k = 0; k < kEntries; ++k) {
      Entry& e = entries_[k];
      if (e.state == E::Addr && t_ >= e.ready_at) {
        e.state = E::Issue;
        pf_ar_ = k;
        return;
      }
    }
  }

  // The meta port's answer to the engine's request.
  void meta() {
    // Entries of commands the engine has passed are dead (but not the one a
    // fill waits for).
    for (size_t k = 0; k < kEntries; ++k) {
      if (state_ == M::WaitEntry && wait_ == k) continue;
      if (entries_[k].state != E::Free && entries_[k].seq < passed_seq_) drop(entries_[k]);
    }
    switch (state_) {
      case M::Idle: {
        if (!req_ || done_ >= 0) break;
        const Request& r = *req_;
        last_req_seq_ = r.c.seq;
        std::optional<size_t> hit;
        for (size_t k = 0; k < kEntries && !r.write; ++k) {
          if (live(entries_[k]) && entries_[k].granule == r.c.granule) hit = k;
        }
        for (size_t k = 0; k < kEntries; ++k) {
          if (entries_[k].state != E::Free && entries_[k].seq < r.c.seq && hit != k) drop(entries_[k]);
        }
        if (hit) {
          wait_ = *hit;
          state_ = M::WaitEntry;
        } else {
          state_ = M::Hash;
          until_ = t_ + kHashRounds + 2;
        }
        break;
      }
      case M::WaitEntry: {
        Entry& e = entries_[wait_];
        if (e.state == E::Ready && t_ >= e.ready_at) {
          e.state = E::Free;
          finish_next();
        } else if (e.state == E::Free) {
          state_ = M::Hash;  // its read was dropped: read again
          until_ = t_ + kHashRounds + 2;
        }
        break;
      }
      case M::Hash:
        if (t_ + 1 >= until_) state_ = M::Read;
        break;
      case M::Read:
        if (req_->write) {
          // A write-back's bucket: its entries already read or being read
          // are dropped (those not yet issued read after the write).
          for (Entry& e : entries_) {
            if (e.state != E::Free && e.state != E::Addr && e.bucket == req_->m.wb_bucket) drop(e);
          }
        }
        if (pf_ar_cycle_ != t_ && t_ >= b_due_) {
          issue_read(-1);
          own_burst_done_ = -1;
          state_ = M::Data;
        }
        break;
      case M::Data:
        if (own_burst_done_ >= 0) {
          state_ = M::Resp;
          own_burst_done_ = -1;
          meta();  // (the cycle after the last beat)
          return;
        }
        break;
      case M::Resp:
        if (!req_->write) {
          finish_next();
        } else {
          switch (req_->m.how) {
            case WriteBack::Store:
              state_ = M::Write;
              writes_left_ = 2;
              until_ = t_ + 1;
              break;
            case WriteBack::SpillAndFilter:
            case WriteBack::Spill:
              state_ = M::Spill;
              until_ = t_ + 1;
              break;
            case WriteBack::Nothing: finish_next(); break;
          }
        }
        break;
      case M::Spill:
        if (t_ >= until_) {
          if (req_->m.how == WriteBack::Spill) {
            finish_next();
          } else {
            state_ = M::Write;
            writes_left_ = 1;
            until_ = t_ + 1;
          }
        }
        break;
      case M::Write:
        if (t_ >= until_) {
          // AW and the W beats, one a cycle; posted: done after the last
          // beat, the B response one latency later.
          const int64_t last_w = t_ + writes_left_ - 1;
          b_due_ = last_w + latency_ + kBResponse;
          state_ = M::Done;
          until_ = last_w + 1;
        }
        break;
      case M::Done:
        if (t_ >= until_) finish();
        break;
    }
  }
  // MDone next cycle.
  void finish_next() {
    state_ = M::Done;
    until_ = t_ + 1;
  }
  // MDone now: the engine has its answer (a fill installs: the shadow
  // takes the granule into the victim's way).
  void finish() {
    done_ = t_;
    if (!req_->write && shape_.sets != 0) {
      shadow_[req_->c.set * shape_.ways + req_->m.way] = req_->c.granule + 1;
      installed_now_ = req_->c.granule;
    }
    state_ = M::Idle;
    req_.reset();
  }

  const KernelTimingShape& shape_;
  int64_t shadow_from_;  // the shadow's sweep is done (no hint before)
  const std::vector<Command>& commands_;
  std::vector<uint64_t>& shadow_;
  int64_t latency_, beats_;
  int64_t t_ = 0;
  // decoder and FIFO
  std::vector<int64_t> entered_;
  size_t next_ = 0, fifo_count_ = 0;
  int64_t first_word_, zeroing_from_;
  size_t zeroing_;  // the clear's zeroing commands at the head of commands_
  int64_t decoder_ready_ = 0;
  struct Look {
    size_t command;
    int64_t at;  // the cycle of the shadow's answer
    bool miss;   // in no way of the shadow
  };
  std::deque<Look> looks_;
  std::optional<uint64_t> installed_now_;
  std::deque<uint64_t> recent_;
  // meta port
  std::deque<Hint> hints_;
  std::optional<Hint> hashing_;
  int64_t hash_start_ = 0, hash_done_ = 0, pop_at_ = 0;
  std::array<Entry, kEntries> entries_{};
  std::optional<size_t> pf_ar_;
  int64_t pf_ar_cycle_ = -1;  // an entry's AR is on the bus this cycle
  std::deque<Burst> bursts_;
  int64_t r_last_ = -10, own_burst_done_ = -1, b_due_ = 0;
  uint64_t taken_seq_ = 0, before_taken_seq_ = 0, passed_seq_ = 0, last_req_seq_ = 0;
  M state_ = M::Idle;
  std::optional<Request> req_;
  int64_t until_ = 0, done_ = -1;
  size_t wait_ = 0;
  int writes_left_ = 0;
};

// A record writer takes one record per beats + 2 cycles.
struct Writer {
  double free = 0;
};

}  // namespace

void KernelCycles::begin_batch(bool clear) {
  clear_ = clear;
  commands_.clear();
  misses_.clear();
  events_.clear();
  prev_lookup_ = false;
  const size_t tags = size_t{shape_.sets} * shape_.ways;
  if (clear || shadow_.size() != tags) shadow_.assign(tags, 0);
}

void KernelCycles::command(unsigned words, bool lookup, uint64_t seq, uint64_t granule, uint64_t set, uint64_t bucket,
                           bool force) {
  commands_.push_back({words, lookup, force, seq, granule, set, bucket});
  events_.push_back({Event::Command, commands_.size() - 1});
  if (!lookup) prev_lookup_ = false;
}

void KernelCycles::miss(bool dirty, WriteBack how, uint64_t wb_bucket, unsigned way, bool shared_victim) {
  misses_.push_back({dirty, how, wb_bucket, way, shared_victim});
  events_.push_back({Event::Miss, misses_.size() - 1});
}

uint64_t KernelCycles::end_batch() {
  const double latency = std::max(1.0, shape_.latency);
  int64_t start = 0, swept = 0, clear_at = 0;
  size_t zeroing = 0;
  if (clear_) {
    zeroing = size_t{shape_.slots} + shape_.objects;
    const auto zero_cycles = static_cast<int64_t>(zeroing);
    clear_at = kClearAt;
    if (first_batch_) {
      clear_at =
          std::max<int64_t>(clear_at, static_cast<int64_t>(shape_.sets) + zero_cycles + kPostResetIdle - kHostSetup);
    }
    start = clear_at + zero_cycles + kZeroingDone;
    swept = clear_at + static_cast<int64_t>(shape_.sets) + kSweepDone;
  }
  first_batch_ = false;
  // The replay's commands: the clear's zeroing ones (through the command
  // FIFO, taken once the engine's sweep is done), then the batch's.
  std::vector<Command> commands(zeroing);
  commands.insert(commands.end(), commands_.begin(), commands_.end());
  MissAhead ahead(shape_, commands, shadow_, start + static_cast<int64_t>(std::llround(latency)) + kFirstWord, swept,
                  zeroing, clear_at + kZeroingFrom);
  int64_t now = std::max(start, swept), last_take = now;
  for (size_t k = 0; k < zeroing; ++k) {
    const int64_t take = std::max(now, ahead.entered(k) + 1);
    ahead.take(k, take);
    now = take + 1;
  }
  double last_record = -1;
  Writer esc{static_cast<double>(start)}, race{static_cast<double>(start)};
  // A record made now waits in the engine's record register until its
  // writer takes it; S3 finishes a command only when the register can take
  // a record, so the pipeline stands still until then. The writer's RTL
  // takes one record per beats + 1 cycles (its W beats, then hold_q
  // clears); the kernel's cycles fit beats + 2 better.
  auto record = [&](Writer& w, unsigned beats) {
    const double take = std::max(static_cast<double>(now) + 1, w.free);
    w.free = take + beats + kRecordGap;
    now = std::max(now, static_cast<int64_t>(std::ceil(take - 1)));
    last_record = std::max(last_record, w.free);
  };
  size_t command = 0, miss_records = 0;
  bool misses = false;  // the current command misses (its Miss event is still to come)
  for (size_t i = 0; i < events_.size(); ++i) {
    const Event& e = events_[i];
    switch (e.kind) {
      case Event::Command: {
        command = e.index;
        const int64_t take = std::max(now, ahead.entered(zeroing + command) + 1);
        ahead.take(zeroing + command, take);
        now = take + 1;
        last_take = take;
        misses = false;
        miss_records = 0;
        for (size_t j = i + 1; j < events_.size() && events_[j].kind != Event::Command && !misses; ++j) {
          misses = events_[j].kind == Event::Miss;
        }
        break;
      }
      case Event::Hazard: ++now; break;
      case Event::Miss: {
        const Miss& m = misses_[e.index];
        const Command& c = commands_[command];
        // The records before a miss: the victim's read clocks, which S1
        // hands the escalation writer before its request (S1EvSpill), and a
        // bucket spill, which the meta port sends during the write-back.
        const bool bucket_spill = m.how == WriteBack::Spill || m.how == WriteBack::SpillAndFilter;
        const size_t victim_spills = miss_records - (bucket_spill && miss_records > 0 ? 1 : 0);
        // A victim with shared bytes passes S1EvSpill even when none of its
        // clocks is in the pool (the lookup is registered): a cycle.
        const int64_t ev_pass = m.shared_victim && victim_spills == 0 ? 1 : 0;
        now = std::max(now, last_take + kMissRequest - 1 + ev_pass);
        for (size_t k = 0; k < victim_spills; ++k) record(esc, shape_.esc_beats);
        int64_t req = std::max(last_take + kMissRequest + ev_pass, now + 1);
        if (bucket_spill) {
          const int64_t held = now;
          record(esc, shape_.esc_beats);
          now = held;
        }
        if (m.dirty) req = ahead.request(req, true, c, m) + 1;
        now = ahead.request(req, false, c, m);
        misses = false;
        break;
      }
      case Event::EscRecord:
        if (misses) {
          ++miss_records;  // (timed with the miss)
        } else {
          record(esc, shape_.esc_beats);
        }
        break;
      case Event::RaceRecord: record(race, 1); break;
    }
  }
  double end = static_cast<double>(std::max(now + kTail, ahead.idle()));
  if (last_record >= 0) end = std::max(end, last_record + latency + kRecordTail);
  return static_cast<uint64_t>(end + 0.5);
}

}  // namespace raceaccel::driver
