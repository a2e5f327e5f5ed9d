#include "axil_master_model.hpp"

#include <stdexcept>

namespace raceaccel::sim {

AxiLiteMaster::AxiLiteMaster(const AxiLitePins& pins, uint64_t seed, unsigned idle_percent, unsigned stall_percent)
    : pins_(pins), rng_(seed), idle_percent_(idle_percent), stall_percent_(stall_percent) {
  *pins_.awvalid = 0;
  *pins_.wvalid = 0;
  *pins_.bready = 0;
  *pins_.arvalid = 0;
  *pins_.rready = 0;
}

void AxiLiteMaster::start_write(uint32_t addr, uint32_t data, uint8_t strobe) {
  if (op_ != Op::None) throw std::logic_error("AxiLiteMaster: a transaction is already in progress");
  op_ = Op::Write;
  addr_ = addr;
  data_ = data;
  strobe_ = strobe;
  aw_offered_ = aw_done_ = w_offered_ = w_done_ = false;
}

void AxiLiteMaster::start_read(uint32_t addr) {
  if (op_ != Op::None) throw std::logic_error("AxiLiteMaster: a transaction is already in progress");
  op_ = Op::Read;
  addr_ = addr;
  ar_offered_ = ar_done_ = false;
}

void AxiLiteMaster::drive() {
  // A request channel, once offered, stays offered until its handshake.
  if (op_ == Op::Write) {
    if (!aw_done_ && !aw_offered_ && !chance(idle_percent_)) aw_offered_ = true;
    if (!w_done_ && !w_offered_ && !chance(idle_percent_)) w_offered_ = true;
  }
  if (op_ == Op::Read && !ar_done_ && !ar_offered_ && !chance(idle_percent_)) ar_offered_ = true;
  *pins_.awvalid = aw_offered_;
  *pins_.awaddr = static_cast<uint16_t>(addr_);
  *pins_.wvalid = w_offered_;
  *pins_.wdata = data_;
  *pins_.wstrb = strobe_;
  *pins_.arvalid = ar_offered_;
  *pins_.araddr = static_cast<uint16_t>(addr_);
  *pins_.bready = !chance(stall_percent_);
  *pins_.rready = !chance(stall_percent_);
}

void AxiLiteMaster::sample() {
  if (aw_offered_ && *pins_.awready) {
    aw_offered_ = false;
    aw_done_ = true;
  }
  if (w_offered_ && *pins_.wready) {
    w_offered_ = false;
    w_done_ = true;
  }
  if (ar_offered_ && *pins_.arready) {
    ar_offered_ = false;
    ar_done_ = true;
  }
  if (*pins_.bvalid && *pins_.bready) {
    if (op_ != Op::Write || !aw_done_ || !w_done_) violations_.push_back("B response without a complete write");
    if (*pins_.bresp != 0) violations_.push_back("B response " + std::to_string(*pins_.bresp) + " is not OKAY");
    op_ = Op::None;
    ++transactions_;
  }
  if (*pins_.rvalid && *pins_.rready) {
    if (op_ != Op::Read || !ar_done_) violations_.push_back("R response without a read request");
    if (*pins_.rresp != 0) violations_.push_back("R response " + std::to_string(*pins_.rresp) + " is not OKAY");
    read_data_ = *pins_.rdata;
    op_ = Op::None;
    ++transactions_;
  }
}

}  // namespace raceaccel::sim
