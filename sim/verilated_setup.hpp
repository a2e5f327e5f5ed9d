// The Verilator set-up every simulation harness here shares: a context whose
// initial state is random (reset must establish everything) and whose failed
// RTL assertions are counted rather than aborting the process (the harness
// reports them), plus an optional FST waveform.
//
// Waveforms: with RACEACCEL_FST=<file> in the environment and models built
// with RACEACCEL_TRACE (CMake option, default ON), FstTrace::open writes an
// FST file, "{}" in <file> replaced by the harness's tag. Otherwise every
// FstTrace call does nothing.
//
// Cover points: with RACEACCEL_COVERAGE_DIR=<dir> in the environment, a
// harness calls write_coverage() before it destroys its model, and models
// built with cover points (tests/kernel's, -DRAC_COVER --coverage-user)
// leave their hit counts in <dir>/<pid>_<n>.dat, one file per model
// instance, per instance (not merged by source line), in verilator_coverage's
// format; tests/kernel/cover_report.cpp sums them (docs/verification.md).
// Only where the Verilator runtime has its coverage part
// (RACEACCEL_COVER_RUNTIME=1: rtl/CMakeLists.txt's rac_verilator_runtime;
// not the kernels driver/verilator/shape_model.cpp builds on demand).
#pragma once

#include <unistd.h>
#include <verilated.h>
#ifndef RACEACCEL_COVER_RUNTIME
#define RACEACCEL_COVER_RUNTIME 0
#endif
#if RACEACCEL_COVER_RUNTIME
#include <verilated_cov.h>
#endif
#if RACEACCEL_TRACE
#include <verilated_fst_c.h>
#endif

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// The directory asked for cover-point counts, or nullptr.
inline const char* requested_coverage_dir() {
  const char* env = std::getenv("RACEACCEL_COVERAGE_DIR");
  return (env != nullptr && *env != '\0') ? env : nullptr;
}

// Call before constructing the model: tracing must be enabled first.
inline std::unique_ptr<VerilatedContext> make_checking_context() {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  ctx->fatalOnError(false);
  if (requested_fst_path() != nullptr) ctx->traceEverOn(true);
  // Each generate-loop iteration and each module instance its own point
  // (a cross written as a loop would otherwise be summed into one).
#if RACEACCEL_COVER_RUNTIME
  if (requested_coverage_dir() != nullptr) ctx->coveragep()->forcePerInstance(true);
#endif
  return ctx;
}

// Writes the cover-point counts of `ctx`'s model (call while the model is
// alive: the counters are its members). A model without cover points leaves
// no file.
inline void write_coverage([[maybe_unused]] VerilatedContext& ctx) {
#if RACEACCEL_COVER_RUNTIME
  const char* dir = requested_coverage_dir();
  if (dir == nullptr) return;
  static std::atomic<unsigned> serial{0};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path =
      std::string(dir) + "/" + std::to_string(::getpid()) + "_" + std::to_string(serial++) + ".dat";
  ctx.coveragep()->write(path.c_str());
  std::ifstream in(path);
  std::string line;
  bool any = false;
  while (!any && std::getline(in, line)) any = line.rfind("C '", 0) == 0;
  in.close();
  if (!any) std::filesystem::remove(path);
#endif
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
