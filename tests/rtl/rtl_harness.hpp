// Small harness for driving a Verilated model from GoogleTest (or any C++).
//
//   rac_rtl::Harness<Vtop> h("Suite.Test");   // model with clk_i and rst_i ports
//   h.reset();                                 // rst_i high for 2 cycles
//   h->some_input_i = ...; h.eval();           // settle, then sample outputs
//   h.tick();                                  // one clock cycle
//   EXPECT_EQ(h.errors(), 0);                  // RTL assertion failures
//
// Assertions: models from rac_verilate_model() are built with --assert, so
// every `RAC_ASSERT/`RAC_ASSUME in the RTL is checked. A failure prints
// "%Error: ... assertion <Name> failed" and is counted; the harness sets
// fatalOnError(false) so the test can report it (errors()) instead of the
// process aborting.
//
// Waveforms: when the model library was built with RACEACCEL_TRACE (CMake
// option, default ON) and the environment has RACEACCEL_FST=<file>, the run is
// written as an FST trace to <file>; a "{}" in <file> is replaced by the tag
// given to the constructor (the test name), e.g.
//   RACEACCEL_FST='/tmp/{}.fst' ctest -R rtl.n8w8s1.VcLeq
// Without the variable nothing is traced and nothing is written.
#pragma once

#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated_setup.hpp"  // sim/: the FST set-up shared with the engine and kernel harnesses

namespace rac_rtl {

template <class Model>
class Harness {
 public:
  explicit Harness(const std::string& tag = "") : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    if (raceaccel::sim::requested_fst_path() != nullptr) ctx_->traceEverOn(true);
    model_ = std::make_unique<Model>(ctx_.get(), "dut");
    std::string name = tag.empty() ? std::string("trace") : tag;
    std::replace(name.begin(), name.end(), '/', '_');
    fst_.open(*model_, name);
    model_->clk_i = 0;
    model_->rst_i = 1;
    model_->eval();
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;
  ~Harness() {
    fst_.close();
    model_->final();
  }

  Model& dut() { return *model_; }
  Model* operator->() { return model_.get(); }
  VerilatedContext& context() { return *ctx_; }

  // Settles combinational logic after inputs changed (clock low).
  void eval() { model_->eval(); }

  // One clock cycle: dump the settled low phase, rising edge, falling edge.
  void tick() {
    model_->eval();
    dump();
    ctx_->timeInc(1);
    model_->clk_i = 1;
    model_->eval();
    dump();
    ctx_->timeInc(1);
    model_->clk_i = 0;
    model_->eval();
    ++cycles_;
  }

  // Synchronous reset: rst_i high for `cycles` rising edges, then low.
  void reset(unsigned cycles = 2) {
    model_->rst_i = 1;
    for (unsigned i = 0; i < cycles; ++i) tick();
    model_->rst_i = 0;
    model_->eval();
  }

  uint64_t cycles() const { return cycles_; }
  // RTL assertion failures ($error) so far.
  int errors() const { return ctx_->errorCount(); }

 private:
  void dump() { fst_.dump(ctx_->time()); }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
  raceaccel::sim::FstTrace fst_;
  uint64_t cycles_ = 0;
};

// ---- flat vector ports --------------------------------------------------
// Verilator maps a port of W bits to CData/SData/IData/QData (W <= 64) or
// VlWide<(W+31)/32> (W > 64). Bits is a little-endian 32-bit-word image of
// any port; fields are (offset, width <= 64) slices of it, e.g. lane i of a
// vector clock is field (i*ClkW, ClkW).
class Bits {
 public:
  explicit Bits(unsigned width) : width_(width), w_((width + 31) / 32, 0) {}

  unsigned width() const { return width_; }

  void set(unsigned off, unsigned width, uint64_t value) {
    for (unsigned b = 0; b < width;) {
      const unsigned wi = (off + b) / 32, bi = (off + b) % 32;
      const unsigned n = std::min(32 - bi, width - b);
      const uint32_t mask = n == 32 ? ~0u : ((1u << n) - 1);
      w_[wi] = (w_[wi] & ~(mask << bi)) | (static_cast<uint32_t>(value >> b) & mask) << bi;
      b += n;
    }
  }
  uint64_t get(unsigned off, unsigned width) const {
    uint64_t v = 0;
    for (unsigned b = 0; b < width;) {
      const unsigned wi = (off + b) / 32, bi = (off + b) % 32;
      const unsigned n = std::min(32 - bi, width - b);
      const uint32_t mask = n == 32 ? ~0u : ((1u << n) - 1);
      v |= static_cast<uint64_t>((w_[wi] >> bi) & mask) << b;
      b += n;
    }
    return v;
  }

  template <class Port>
  void store(Port& port) const {
    if constexpr (std::is_integral_v<Port>) {
      port = static_cast<Port>(get(0, std::min(width_, 64u)));
    } else {
      for (size_t i = 0; i < w_.size(); ++i) port[i] = w_[i];
    }
  }
  template <class Port>
  static Bits load(const Port& port, unsigned width) {
    Bits b(width);
    if constexpr (std::is_integral_v<Port>) {
      b.set(0, std::min(width, 64u), static_cast<uint64_t>(port));
    } else {
      for (size_t i = 0; i < b.w_.size(); ++i) b.w_[i] = port[i];
    }
    return b;
  }

 private:
  unsigned width_;
  std::vector<uint32_t> w_;
};

// Vector clock <-> flat port, lane i at bits [i*clk_w, (i+1)*clk_w).
template <class Port>
void put_lanes(Port& port, const std::vector<uint64_t>& lanes, unsigned clk_w) {
  Bits b(static_cast<unsigned>(lanes.size()) * clk_w);
  for (size_t i = 0; i < lanes.size(); ++i) b.set(static_cast<unsigned>(i) * clk_w, clk_w, lanes[i]);
  b.store(port);
}
template <class Port>
std::vector<uint64_t> get_lanes(const Port& port, unsigned num_lanes, unsigned clk_w) {
  const Bits b = Bits::load(port, num_lanes * clk_w);
  std::vector<uint64_t> lanes(num_lanes);
  for (unsigned i = 0; i < num_lanes; ++i) lanes[i] = b.get(i * clk_w, clk_w);
  return lanes;
}

}  // namespace rac_rtl
