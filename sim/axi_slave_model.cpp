#include "axi_slave_model.hpp"

#include <algorithm>
#include <cstring>

namespace raceaccel::sim {

namespace {
constexpr unsigned kBurstIncr = 1;
constexpr unsigned kSize64Bytes = 6;
}  // namespace

AxiSlaveModel::AxiSlaveModel(std::string name, const AxiMasterPins& pins, SparseMemory& memory, const BusTiming& timing)
    : name_(std::move(name)), pins_(pins), memory_(memory), timing_(timing), rng_(timing.seed) {}

bool AxiSlaveModel::stall() { return std::uniform_int_distribution<unsigned>(0, 99)(rng_) < timing_.stall_percent; }

unsigned AxiSlaveModel::latency() {
  const unsigned hi = std::max(1u, timing_.max_latency);
  return std::uniform_int_distribution<unsigned>(std::clamp(timing_.min_latency, 1u, hi), hi)(rng_);
}

void AxiSlaveModel::violation(const std::string& what, uint64_t now) {
  if (violations_.size() < 100) violations_.push_back(name_ + " cycle " + std::to_string(now) + ": " + what);
}

bool AxiSlaveModel::busy() const { return !reads_.empty() || !writes_.empty() || !w_beats_.empty(); }

void AxiSlaveModel::drive() {
  if (pins_.arvalid != nullptr) {
    *pins_.arready = !stall();
    if (!r_offered_ && !reads_.empty() && reads_.front().due == 0 && !stall()) r_offered_ = true;
    *pins_.rvalid = r_offered_;
    if (r_offered_) {
      const ReadBurst& b = reads_.front();
      std::memcpy(pins_.rdata, b.beats[b.next].data(), kBeatBytes);
      *pins_.rlast = b.next + 1 == b.beats.size();
      *pins_.rresp = b.resp;
    }
  }
  if (pins_.awvalid != nullptr) {
    *pins_.awready = !stall();
    *pins_.wready = !stall();
    if (!b_offered_ && !writes_.empty() && writes_.front().complete && writes_.front().due == 0 && !stall()) {
      // The write lands when its response is offered.
      const WriteBurst& w = writes_.front();
      for (unsigned i = 0; i < w.beats && w.resp == 0; ++i) {
        memory_.write_strobed(w.addr + uint64_t{i} * kBeatBytes, std::span<const std::byte, 64>(w.data[i]),
                              w.strobes[i]);
      }
      b_offered_ = true;
    }
    *pins_.bvalid = b_offered_;
    *pins_.bresp = b_offered_ ? writes_.front().resp : 0;
  }
}

bool AxiSlaveModel::check_burst(const char* channel, uint64_t addr, unsigned len, unsigned size, unsigned burst,
                                uint64_t now) {
  bool ok = true;
  const uint64_t bytes = (uint64_t{len} + 1) * kBeatBytes;
  const auto fail = [&](const std::string& what) {
    violation(std::string(channel) + " " + what, now);
    ok = false;
  };
  if (burst != kBurstIncr) fail("burst type " + std::to_string(burst) + " is not INCR");
  if (size != kSize64Bytes) fail("size code " + std::to_string(size) + " is not 64 bytes");
  if (addr % kBeatBytes != 0) fail("address not 64-byte aligned");
  if ((addr % 4096) + bytes > 4096) {
    fail("burst at " + std::to_string(addr) + " of " + std::to_string(len + 1) + " beats crosses a 4 KB boundary");
  }
  return ok;
}

uint8_t AxiSlaveModel::response_for(uint64_t addr, unsigned len, bool write) {
  const uint64_t end = addr + (uint64_t{len} + 1) * kBeatBytes;
  for (const FailRange& f : fail_ranges_) {
    const bool applies = f.on == FailOn::Both || (f.on == FailOn::Writes) == write;
    if (applies && addr < f.end && f.begin < end) {
      ++stats_.error_bursts;
      return f.resp;
    }
  }
  return 0;
}

void AxiSlaveModel::match_write_beats(uint64_t now) {
  while (!w_beats_.empty()) {
    auto it = std::find_if(writes_.begin(), writes_.end(), [](const WriteBurst& w) { return !w.complete; });
    if (it == writes_.end()) return;  // the beat waits for its AW
    WBeat beat = w_beats_.front();
    w_beats_.pop_front();
    const bool last_expected = it->data.size() + 1 == it->beats;
    if (beat.last != last_expected) {
      violation(std::string("WLAST ") + (beat.last ? "set on beat " : "missing on last beat ") +
                    std::to_string(it->data.size()) + " of a " + std::to_string(it->beats) + "-beat burst",
                now);
    }
    it->data.push_back(beat.data);
    it->strobes.push_back(beat.strobe);
    if (it->data.size() == it->beats) {
      it->complete = true;
      it->due = latency();
    }
  }
}

void AxiSlaveModel::sample(uint64_t now) {
  // Countdowns: a response becomes due after its latency in cycles.
  for (ReadBurst& r : reads_) {
    if (r.due > 0) --r.due;
  }
  for (WriteBurst& w : writes_) {
    if (w.complete && w.due > 0) --w.due;
  }

  if (pins_.arvalid != nullptr) {
    const bool valid = *pins_.arvalid != 0;
    if (ar_req_.waiting && (!valid || *pins_.araddr != ar_req_.addr || *pins_.arlen != ar_req_.len)) {
      violation("AR request dropped or changed before ARREADY", now);
    }
    if (valid && *pins_.arready) {
      ++stats_.read_bursts;
      const uint64_t addr = *pins_.araddr;
      const unsigned len = *pins_.arlen;
      check_burst("AR", addr, len, *pins_.arsize, *pins_.arburst, now);
      ReadBurst burst;
      burst.due = latency();
      burst.beats.resize(len + 1);
      burst.resp = response_for(addr, len, false);
      for (unsigned i = 0; i <= len && burst.resp == 0; ++i)
        memory_.read(addr + uint64_t{i} * kBeatBytes, burst.beats[i]);
      reads_.push_back(std::move(burst));
      ar_req_.waiting = false;
    } else {
      ar_req_ = {valid, *pins_.araddr, *pins_.arlen};
    }
    if (r_offered_ && *pins_.rready) {
      ++stats_.read_beats;
      ReadBurst& b = reads_.front();
      if (++b.next == b.beats.size()) reads_.pop_front();
      r_offered_ = false;
    }
  }

  if (pins_.awvalid != nullptr) {
    const bool aw_valid = *pins_.awvalid != 0;
    if (aw_req_.waiting && (!aw_valid || *pins_.awaddr != aw_req_.addr || *pins_.awlen != aw_req_.len)) {
      violation("AW request dropped or changed before AWREADY", now);
    }
    if (aw_valid && *pins_.awready) {
      ++stats_.write_bursts;
      WriteBurst burst;
      burst.addr = *pins_.awaddr;
      burst.beats = *pins_.awlen + 1u;
      burst.resp = response_for(burst.addr, *pins_.awlen, true);
      check_burst("AW", burst.addr, *pins_.awlen, *pins_.awsize, *pins_.awburst, now);
      writes_.push_back(std::move(burst));
      aw_req_.waiting = false;
    } else {
      aw_req_ = {aw_valid, *pins_.awaddr, *pins_.awlen};
    }

    const bool w_valid = *pins_.wvalid != 0;
    WBeat beat;
    std::memcpy(beat.data.data(), pins_.wdata, kBeatBytes);
    beat.strobe = *pins_.wstrb;
    beat.last = *pins_.wlast != 0;
    if (w_waiting_ && (!w_valid || beat.data != w_last_seen_.data || beat.strobe != w_last_seen_.strobe ||
                       beat.last != w_last_seen_.last)) {
      violation("W beat dropped or changed before WREADY", now);
    }
    if (w_valid && *pins_.wready) {
      ++stats_.write_beats;
      w_beats_.push_back(beat);
      w_waiting_ = false;
    } else {
      w_waiting_ = w_valid;
      w_last_seen_ = beat;
    }
    match_write_beats(now);

    if (b_offered_ && *pins_.bready) {
      writes_.pop_front();
      b_offered_ = false;
    }
  }
}

}  // namespace raceaccel::sim
