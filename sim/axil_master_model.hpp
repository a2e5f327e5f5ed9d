// An AXI4-Lite master driving a Verilated model's s_axi_control port: one
// register read or write at a time, with seeded idle cycles before each
// request channel and seeded back-pressure on the response channels
// (BREADY, RREADY). A write offers AW and W independently (neither waits
// for the other's ready); valid and payload are held until accepted.
//
// Per cycle, like AxiSlaveModel: drive() before the clock's low phase is
// evaluated, sample() after it.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace raceaccel::sim {

struct AxiLitePins {
  uint8_t *awvalid = nullptr, *awready = nullptr;
  uint16_t* awaddr = nullptr;
  uint8_t *wvalid = nullptr, *wready = nullptr;
  uint32_t* wdata = nullptr;
  uint8_t* wstrb = nullptr;
  uint8_t *bvalid = nullptr, *bready = nullptr, *bresp = nullptr;
  uint8_t *arvalid = nullptr, *arready = nullptr;
  uint16_t* araddr = nullptr;
  uint8_t *rvalid = nullptr, *rready = nullptr, *rresp = nullptr;
  uint32_t* rdata = nullptr;
};

class AxiLiteMaster {
 public:
  AxiLiteMaster(const AxiLitePins& pins, uint64_t seed, unsigned idle_percent, unsigned stall_percent);

  void start_write(uint32_t addr, uint32_t data, uint8_t strobe = 0xF);
  void start_read(uint32_t addr);
  bool done() const { return op_ == Op::None; }
  uint32_t read_data() const { return read_data_; }

  void drive();
  void sample();

  // Responses other than OKAY, and a response without a request.
  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t transactions() const { return transactions_; }

 private:
  enum class Op { None, Write, Read };
  bool chance(unsigned percent) { return std::uniform_int_distribution<unsigned>(0, 99)(rng_) < percent; }

  AxiLitePins pins_;
  std::mt19937_64 rng_;
  unsigned idle_percent_, stall_percent_;
  Op op_ = Op::None;
  uint32_t addr_ = 0, data_ = 0, read_data_ = 0;
  uint8_t strobe_ = 0;
  bool aw_offered_ = false, aw_done_ = false, w_offered_ = false, w_done_ = false, ar_offered_ = false,
       ar_done_ = false;
  std::vector<std::string> violations_;
  uint64_t transactions_ = 0;
};

}  // namespace raceaccel::sim
