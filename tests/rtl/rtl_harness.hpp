// Small harness for driving a Verilated model from GoogleTest (or any C++).
//
//   rac_rtl::Harness<Vtop> h("Suite.Test");   // model with clk_i and rst_i ports
//   h.reset();                                 // rst_i high for 2 cycles
//   h->some_input_i = ...; h.eval();           // settle, then sample outputs
//   h.tick();                                  // one clock cycle
//   EXPECT_EQ(h.errors(), 0);                  // RTL assertion failures
//
// The context is sim/verilated_setup.hpp's, as in the engine and kernel
// harnesses: initial state random (reset must establish everything), and
// failed assertions counted. Models from rac_verilate_model() are built with
// --assert, so every `RAC_ASSERT/`RAC_ASSUME in the RTL is checked; a failure
// prints "%Error: ... assertion <Name> failed" and is counted, so the test
// can report it (errors()) instead of the process aborting.
//
// Ports wider than 64 bits and vector clocks: sim/verilated_bits.hpp
// (raceaccel::sim::put_lanes, get_lanes, get_bits).
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

#include "verilated_bits.hpp"   // sim/: packing wide ports and vector clocks
#include "verilated_setup.hpp"  // sim/: the context and FST set-up shared with the engine and kernel harnesses

namespace rac_rtl {

template <class Model>
class Harness {
 public:
  explicit Harness(const std::string& tag = "") : ctx_(raceaccel::sim::make_checking_context()) {
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

}  // namespace rac_rtl
