// The Verilator set-up every simulation harness here shares: a context whose
// initial state is random (reset must establish everything) and whose failed
// RTL assertions are counted rather than aborting the process (the harness
// reports them), plus an optional FST waveform.
//
// Waveforms: with RACEACCEL_FST=<file> in the environment and models built
// with RACEACCEL_TRACE (CMake option, default ON), FstTrace::open writes an
// FST file, "{}" in <file> replaced by the harness's tag. Otherwise every
// FstTrace call does nothing.
#pragma once

#include <verilated.h>
#if RACEACCEL_TRACE
#include <verilated_fst_c.h>
#endif

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

namespace raceaccel::sim {

// The FST file asked for, or nullptr: RACEACCEL_FST unset or empty, or models
// built without tracing.
inline const char* requested_fst_path() {
#if RACEACCEL_TRACE
  const char* env = std::getenv("RACEACCEL_FST");
  if (env != nullptr && *env != '\0') return env;
#endif
  return nullptr;
}

// Call before constructing the model: tracing must be enabled first.
inline std::unique_ptr<VerilatedContext> make_checking_context() {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  ctx->fatalOnError(false);
  if (requested_fst_path() != nullptr) ctx->traceEverOn(true);
  return ctx;
}

class FstTrace {
 public:
  FstTrace() = default;
  FstTrace(const FstTrace&) = delete;
  FstTrace& operator=(const FstTrace&) = delete;
  ~FstTrace() { close(); }

  // Starts tracing `model` if RACEACCEL_FST asks for it.
  template <typename Model>
  void open([[maybe_unused]] Model& model, [[maybe_unused]] const std::string& tag) {
#if RACEACCEL_TRACE
    const char* env = requested_fst_path();
    if (env == nullptr) return;
    std::string path = env;
    if (const size_t at = path.find("{}"); at != std::string::npos) path.replace(at, 2, tag);
    fst_ = std::make_unique<VerilatedFstC>();
    model.trace(fst_.get(), 99);
    fst_->open(path.c_str());
#endif
  }
  void dump([[maybe_unused]] uint64_t time) {
#if RACEACCEL_TRACE
    if (fst_) fst_->dump(time);
#endif
  }
  // Flushes and closes the file; call while the model is still alive.
  void close() {
#if RACEACCEL_TRACE
    if (fst_) fst_->close();
    fst_.reset();
#endif
  }

 private:
#if RACEACCEL_TRACE
  std::unique_ptr<VerilatedFstC> fst_;
#endif
};

}  // namespace raceaccel::sim
