// Shared pieces of the kernel-block testbenches (rac_cmd_reader_test,
// rac_record_writer_test, rac_meta_port_test): binding a block's m_axi
// ports (the _o/_i names of the inner modules) to sim::AxiSlaveModel, the
// memory model with seeded latency, idle cycles, back-pressure, protocol
// checks and error injection that also serves the whole kernel.
//
// The blocks have no ARSIZE/ARBURST/AWSIZE/AWBURST ports (rac_kernel ties
// them to 64-byte INCR), so the bench points the model at those constants.
#pragma once

#include <cstdint>
#include <random>

#include "axi_slave_model.hpp"  // sim/

namespace rac_rtl {

inline uint8_t kSize64Bytes = 6;
inline uint8_t kBurstIncr = 1;

#define RAC_BLOCK_BIND_READ(pins, m)    \
  pins.arvalid = &(m).arvalid_o;        \
  pins.arready = &(m).arready_i;        \
  pins.araddr = &(m).araddr_o;          \
  pins.arlen = &(m).arlen_o;            \
  pins.arsize = &rac_rtl::kSize64Bytes; \
  pins.arburst = &rac_rtl::kBurstIncr;  \
  pins.rvalid = &(m).rvalid_i;          \
  pins.rready = &(m).rready_o;          \
  pins.rdata = (m).rdata_i.data();      \
  pins.rlast = &(m).rlast_i;            \
  pins.rresp = &(m).rresp_i
#define RAC_BLOCK_BIND_WRITE(pins, m)   \
  pins.awvalid = &(m).awvalid_o;        \
  pins.awready = &(m).awready_i;        \
  pins.awaddr = &(m).awaddr_o;          \
  pins.awlen = &(m).awlen_o;            \
  pins.awsize = &rac_rtl::kSize64Bytes; \
  pins.awburst = &rac_rtl::kBurstIncr;  \
  pins.wvalid = &(m).wvalid_o;          \
  pins.wready = &(m).wready_i;          \
  pins.wdata = (m).wdata_o.data();      \
  pins.wstrb = &(m).wstrb_o;            \
  pins.wlast = &(m).wlast_o;            \
  pins.bvalid = &(m).bvalid_i;          \
  pins.bready = &(m).bready_o;          \
  pins.bresp = &(m).bresp_i

// Seeded coin for the bench's own side of a block (valid gaps, ready stalls).
class Coin {
 public:
  explicit Coin(uint64_t seed) : rng_(seed) {}
  bool operator()(unsigned percent) { return std::uniform_int_distribution<unsigned>(0, 99)(rng_) < percent; }
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  uint64_t bits() { return rng_(); }

 private:
  std::mt19937_64 rng_;
};

// Bus timings the sweeps use: no stalls, some, and heavy back-pressure
// with long latency.
inline raceaccel::sim::BusTiming timing(uint64_t seed, unsigned stall, unsigned max_latency) {
  raceaccel::sim::BusTiming t;
  t.seed = seed;
  t.stall_percent = stall;
  t.min_latency = 1;
  t.max_latency = max_latency;
  return t;
}

}  // namespace rac_rtl
