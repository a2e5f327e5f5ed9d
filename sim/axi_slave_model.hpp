// An AXI4 slave serving one m_axi master port of a Verilated model (64-bit
// addresses, 512-bit data) from a SparseMemory, with seeded latency, idle
// cycles and back-pressure on every channel, and checks of the rules the
// master must keep:
//  - AR/AW/W valid stays high, with its payload unchanged, until ready;
//  - bursts are INCR of 64-byte beats (size 6), start 64-byte aligned and
//    never cross a 4 KB boundary;
//  - WLAST is set on the last beat of each burst and on no other.
// Reads are answered in order (one ID); the data is taken when the read
// address is accepted. A write lands in memory when its B response is
// first offered, so a master that reads before its B arrives sees the old
// data, as on a real interconnect. W beats may arrive before their AW.
//
// Error injection: fail_range(begin, end, resp) makes every burst that
// touches [begin, end) answer with resp (2 SLVERR, 3 DECERR): each R beat
// of such a read carries it (and zero data), such a write gets it as its B
// response and does not land. A burst is judged when its address is taken.
//
// Per cycle: drive() sets the slave's outputs (before the clock's low
// phase is evaluated), sample(now) takes the handshakes of the cycle
// (after that evaluation, before the rising edge).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "sparse_memory.hpp"

namespace raceaccel::sim {

// Pointers into a Verilated model's ports of one AXI4 master. A null
// arvalid means the port has no read channels, a null awvalid no write
// channels.
struct AxiMasterPins {
  uint8_t *arvalid = nullptr, *arready = nullptr, *arlen = nullptr, *arsize = nullptr, *arburst = nullptr;
  uint64_t* araddr = nullptr;
  uint8_t *rvalid = nullptr, *rready = nullptr, *rlast = nullptr, *rresp = nullptr;
  uint32_t* rdata = nullptr;  // 16 words
  uint8_t *awvalid = nullptr, *awready = nullptr, *awlen = nullptr, *awsize = nullptr, *awburst = nullptr;
  uint64_t* awaddr = nullptr;
  uint8_t *wvalid = nullptr, *wready = nullptr, *wlast = nullptr;
  uint32_t* wdata = nullptr;  // 16 words
  uint64_t* wstrb = nullptr;
  uint8_t *bvalid = nullptr, *bready = nullptr, *bresp = nullptr;
};

struct BusTiming {
  uint64_t seed = 1;
  unsigned max_latency = 8;     // cycles from a request to its first response beat, drawn in [min, max]
  unsigned min_latency = 1;     // (min = max: a fixed latency, for cycle measurements)
  unsigned stall_percent = 10;  // chance per cycle that a ready or a response valid is withheld
};

struct AxiPortStats {
  uint64_t read_bursts = 0, read_beats = 0, write_bursts = 0, write_beats = 0;
  uint64_t error_bursts = 0;  // bursts answered with an error (fail_range)
};

class AxiSlaveModel {
 public:
  AxiSlaveModel(std::string name, const AxiMasterPins& pins, SparseMemory& memory, const BusTiming& timing);

  void drive();
  void sample(uint64_t now);

  // Bursts touching [begin, end) from now on are answered with resp: reads,
  // writes or both.
  enum class FailOn { Both, Reads, Writes };
  void fail_range(uint64_t begin, uint64_t end, uint8_t resp, FailOn on = FailOn::Both) {
    fail_ranges_.push_back({begin, end, resp, on});
  }

  // Transactions accepted but not finished (reads not fully returned,
  // writes without their B response, W beats without their AW).
  bool busy() const;
  const std::vector<std::string>& violations() const { return violations_; }
  const AxiPortStats& stats() const { return stats_; }

 private:
  static constexpr size_t kBeatBytes = 64;
  using Beat = std::array<std::byte, kBeatBytes>;
  struct ReadBurst {
    uint64_t due = 0;
    std::vector<Beat> beats;
    size_t next = 0;
    uint8_t resp = 0;
  };
  struct WriteBurst {
    uint64_t addr = 0;
    unsigned beats = 0;
    std::vector<Beat> data;
    std::vector<uint64_t> strobes;
    uint64_t due = 0;  // B response time, once complete
    bool complete = false;
    uint8_t resp = 0;
  };
  struct FailRange {
    uint64_t begin = 0, end = 0;
    uint8_t resp = 0;
    FailOn on = FailOn::Both;
  };
  struct WBeat {
    Beat data;
    uint64_t strobe = 0;
    bool last = false;
  };
  struct Request {  // for the valid-held checks
    bool waiting = false;
    uint64_t addr = 0;
    unsigned len = 0;
  };

  bool stall();
  unsigned latency();
  void violation(const std::string& what, uint64_t now);
  bool check_burst(const char* channel, uint64_t addr, unsigned len, unsigned size, unsigned burst, uint64_t now);
  void match_write_beats(uint64_t now);
  uint8_t response_for(uint64_t addr, unsigned len, bool write);

  std::string name_;
  AxiMasterPins pins_;
  SparseMemory& memory_;
  BusTiming timing_;
  std::mt19937_64 rng_;
  std::vector<std::string> violations_;
  AxiPortStats stats_;

  std::vector<FailRange> fail_ranges_;
  std::deque<ReadBurst> reads_;
  bool r_offered_ = false;
  std::deque<WriteBurst> writes_;  // in AW order; beats are matched to the oldest incomplete one
  std::deque<WBeat> w_beats_;      // beats not yet matched to an AW
  bool b_offered_ = false;
  Request ar_req_, aw_req_;
  bool w_waiting_ = false;
  WBeat w_last_seen_;
};

}  // namespace raceaccel::sim
