// The Verilated rac_kernel on a simulated bus: its four m_axi masters are
// served by AxiSlaveModels over one SparseMemory, its s_axi_control port is
// driven by an AxiLiteMaster, all seeded. Register accesses run the clock
// until the AXI4-Lite transaction completes, so the kernel keeps working
// while the host polls, as on a card.
//
// Model is any Verilated rac_kernel (one class per parameter set, see
// driver/verilator/CMakeLists.txt and tests/kernel/CMakeLists.txt).
// With RACEACCEL_FST=<file> in the environment (and models built with
// RACEACCEL_TRACE), the run writes an FST waveform; "{}" in <file> is
// replaced by the tag.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "axi_slave_model.hpp"
#include "axil_master_model.hpp"
#include "sparse_memory.hpp"
#include "verilated_bits.hpp"
#include "verilated_setup.hpp"

namespace raceaccel::sim {

struct KernelSimOptions {
  BusTiming timing;           // memory latency and back-pressure (every m_axi channel)
  unsigned idle_percent = 5;  // idle cycles of the control master before each request
  std::string trace_tag = "kernel";
};

template <typename Model>
class KernelSim {
 public:
  explicit KernelSim(const KernelSimOptions& options);
  ~KernelSim();
  KernelSim(const KernelSim&) = delete;
  KernelSim& operator=(const KernelSim&) = delete;

  // One clock cycle.
  void tick();
  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) tick();
  }
  // Register access through the AXI4-Lite master (blocking in simulated time).
  void write_register(uint32_t offset, uint32_t value, uint8_t strobe = 0xF);
  uint32_t read_register(uint32_t offset);

  SparseMemory& memory() { return memory_; }
  Model& model() { return *m_; }
  uint64_t cycle() const { return cycle_; }
  bool interrupt() const { return m_->__SYM__interrupt != 0; }
  // Bus transactions in flight on any m_axi port.
  bool bus_busy() const;
  // Protocol violations seen by the bus models and failed RTL assertions.
  std::vector<std::string> violations() const;
  AxiPortStats port_stats(unsigned port) const { return ports_.at(port)->stats(); }
  // The memory model of one port (0 cmd, 1 race, 2 esc, 3 meta), e.g. to
  // inject error responses (AxiSlaveModel::fail_range).
  AxiSlaveModel& port(unsigned port) { return *ports_.at(port); }

 private:
  void run_until_lite_done();

  KernelSimOptions options_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
  FstTrace fst_;
  SparseMemory memory_;
  std::vector<std::unique_ptr<AxiSlaveModel>> ports_;  // cmd, race, esc, meta
  std::unique_ptr<AxiLiteMaster> lite_;
  uint64_t cycle_ = 0;
};

// ---- implementation ---------------------------------------------------------

#define RAC_BIND_READ(pins, m, port)   \
  pins.arvalid = &m->port##_arvalid;   \
  pins.arready = &m->port##_arready;   \
  pins.araddr = &m->port##_araddr;     \
  pins.arlen = &m->port##_arlen;       \
  pins.arsize = &m->port##_arsize;     \
  pins.arburst = &m->port##_arburst;   \
  pins.rvalid = &m->port##_rvalid;     \
  pins.rready = &m->port##_rready;     \
  pins.rdata = m->port##_rdata.data(); \
  pins.rlast = &m->port##_rlast;       \
  pins.rresp = &m->port##_rresp
#define RAC_BIND_WRITE(pins, m, port)  \
  pins.awvalid = &m->port##_awvalid;   \
  pins.awready = &m->port##_awready;   \
  pins.awaddr = &m->port##_awaddr;     \
  pins.awlen = &m->port##_awlen;       \
  pins.awsize = &m->port##_awsize;     \
  pins.awburst = &m->port##_awburst;   \
  pins.wvalid = &m->port##_wvalid;     \
  pins.wready = &m->port##_wready;     \
  pins.wdata = m->port##_wdata.data(); \
  pins.wstrb = &m->port##_wstrb;       \
  pins.wlast = &m->port##_wlast;       \
  pins.bvalid = &m->port##_bvalid;     \
  pins.bready = &m->port##_bready;     \
  pins.bresp = &m->port##_bresp

template <typename Model>
KernelSim<Model>::KernelSim(const KernelSimOptions& options) : options_(options), ctx_(make_checking_context()) {
  // A failed RTL assertion is counted and reported by violations(), not an abort.
  m_ = std::make_unique<Model>(ctx_.get());
  fst_.open(*m_, options_.trace_tag);
  // Every port gets its own random stream, derived from the one seed.
  const auto port_timing = [&](uint64_t salt) {
    BusTiming t = options_.timing;
    t.seed = options_.timing.seed * 0x9E3779B97F4A7C15ull + salt;
    return t;
  };
  AxiMasterPins cmd, race, esc, meta;
  RAC_BIND_READ(cmd, m_, m_axi_cmd);
  RAC_BIND_WRITE(race, m_, m_axi_race);
  RAC_BIND_WRITE(esc, m_, m_axi_esc);
  RAC_BIND_READ(meta, m_, m_axi_meta);
  RAC_BIND_WRITE(meta, m_, m_axi_meta);
  ports_.push_back(std::make_unique<AxiSlaveModel>("m_axi_cmd", cmd, memory_, port_timing(1)));
  ports_.push_back(std::make_unique<AxiSlaveModel>("m_axi_race", race, memory_, port_timing(2)));
  ports_.push_back(std::make_unique<AxiSlaveModel>("m_axi_esc", esc, memory_, port_timing(3)));
  ports_.push_back(std::make_unique<AxiSlaveModel>("m_axi_meta", meta, memory_, port_timing(4)));
  AxiLitePins lite;
  lite.awvalid = &m_->s_axi_control_awvalid;
  lite.awready = &m_->s_axi_control_awready;
  lite.awaddr = &m_->s_axi_control_awaddr;
  lite.wvalid = &m_->s_axi_control_wvalid;
  lite.wready = &m_->s_axi_control_wready;
  lite.wdata = &m_->s_axi_control_wdata;
  lite.wstrb = &m_->s_axi_control_wstrb;
  lite.bvalid = &m_->s_axi_control_bvalid;
  lite.bready = &m_->s_axi_control_bready;
  lite.bresp = &m_->s_axi_control_bresp;
  lite.arvalid = &m_->s_axi_control_arvalid;
  lite.arready = &m_->s_axi_control_arready;
  lite.araddr = &m_->s_axi_control_araddr;
  lite.rvalid = &m_->s_axi_control_rvalid;
  lite.rready = &m_->s_axi_control_rready;
  lite.rresp = &m_->s_axi_control_rresp;
  lite.rdata = &m_->s_axi_control_rdata;
  lite_ =
      std::make_unique<AxiLiteMaster>(lite, port_timing(5).seed, options_.idle_percent, options_.timing.stall_percent);
  // Reset: ap_rst_n low for a few cycles (the kernel registers it once).
  m_->ap_clk = 0;
  m_->ap_rst_n = 0;
  run(4);
  m_->ap_rst_n = 1;
  run(2);  // the kernel registers ap_rst_n: out of reset one cycle later
}

#undef RAC_BIND_READ
#undef RAC_BIND_WRITE

template <typename Model>
KernelSim<Model>::~KernelSim() {
  // Verilator 5.006 erases a model's scopes from the thread's *current*
  // context (VerilatedScope::~VerilatedScope), which is the last one
  // created or selected, not necessarily this model's: select ours first,
  // or a second KernelSim alive in the same thread makes this a
  // use-after-free.
  Verilated::threadContextp(ctx_.get());
  m_->final();
  write_coverage(*ctx_);
  fst_.close();
  m_.reset();
}

template <typename Model>
void KernelSim<Model>::tick() {
  Verilated::threadContextp(ctx_.get());  // $error and $stop report to the thread's context
  for (auto& p : ports_) p->drive();
  lite_->drive();
  m_->ap_clk = 0;
  m_->eval();
  fst_.dump(2 * ctx_->time());
  if (m_->ap_rst_n) {
    for (auto& p : ports_) p->sample(cycle_);
    lite_->sample();
  }
  m_->ap_clk = 1;
  m_->eval();
  fst_.dump(2 * ctx_->time() + 1);
  ctx_->timeInc(1);
  ++cycle_;
}

template <typename Model>
void KernelSim<Model>::run_until_lite_done() {
  for (uint64_t guard = 0; !lite_->done(); ++guard) {
    if (guard > 100'000) throw std::runtime_error("s_axi_control does not answer (100,000 cycles)");
    tick();
  }
}

template <typename Model>
void KernelSim<Model>::write_register(uint32_t offset, uint32_t value, uint8_t strobe) {
  lite_->start_write(offset, value, strobe);
  run_until_lite_done();
}

template <typename Model>
uint32_t KernelSim<Model>::read_register(uint32_t offset) {
  lite_->start_read(offset);
  run_until_lite_done();
  return lite_->read_data();
}

template <typename Model>
bool KernelSim<Model>::bus_busy() const {
  for (const auto& p : ports_) {
    if (p->busy()) return true;
  }
  return false;
}

template <typename Model>
std::vector<std::string> KernelSim<Model>::violations() const {
  std::vector<std::string> out;
  for (const auto& p : ports_) out.insert(out.end(), p->violations().begin(), p->violations().end());
  out.insert(out.end(), lite_->violations().begin(), lite_->violations().end());
  if (ctx_->gotError()) out.push_back("an RTL assertion failed (see the $error lines above)");
  return out;
}

}  // namespace raceaccel::sim
