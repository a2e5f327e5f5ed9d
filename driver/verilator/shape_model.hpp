// Verilated kernels of any shape, built on demand (`raceaccel sweep --model
// verilator`, docs/cli.md): the backend's built-in model has one fixed shape
// (driver/verilator/CMakeLists.txt); a sweep over shapes needs one model
// per shape. For a shape not built yet, build_shape_model runs Verilator on
// rtl/ with the shape's parameters and compiles the result, with the bus
// models of sim/ and VerilatorDevice (shape_model_shim.cpp), into a shared
// object in a cache directory; later runs load it from there.
//
// The cache directory is, first found: the `cache_dir` argument (sweep's
// --model-cache), $RACEACCEL_MODEL_CACHE, $XDG_CACHE_HOME/raceaccel/verilator,
// ~/.cache/raceaccel/verilator. A model's directory is named by a hash of
// the shape, the RTL, the harness sources, the Verilator version and the
// compiler, so an edit of any of them builds a new model. Building needs
// the source tree this binary was built from (or $RACEACCEL_SOURCE_DIR),
// Verilator and a C++ compiler ($CXX, else the one that built raceaccel).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "driver/device.hpp"
#include "driver/kernel_shape.hpp"

namespace raceaccel::driver {

// A loaded model: opens devices of its shape. Keep it alive while they are.
class ShapeModel {
 public:
  ~ShapeModel();
  ShapeModel(const ShapeModel&) = delete;
  ShapeModel& operator=(const ShapeModel&) = delete;
  std::unique_ptr<Device> open(const DeviceOptions& options) const;
  const std::filesystem::path& path() const { return path_; }
  bool was_built() const { return built_; }  // false: loaded from the cache

 private:
  friend std::shared_ptr<ShapeModel> build_shape_model(const KernelShape&, const std::string&,
                                                       const std::function<void(const std::string&)>&);
  ShapeModel() = default;
  void* handle_ = nullptr;
  Device* (*make_)(const DeviceOptions*) = nullptr;
  std::filesystem::path path_;
  bool built_ = false;
};

std::filesystem::path model_cache_dir(const std::string& override_dir);

// The model of `shape`, built first if the cache does not hold it; `log`
// hears what is being built and how long it took. Throws
// DeviceError(BadOptions) for a shape the RTL cannot take,
// DeviceError(Unavailable) when building is not possible here (no
// Verilator, no compiler, no source tree) or fails (the message names the
// log file).
std::shared_ptr<ShapeModel> build_shape_model(const KernelShape& shape, const std::string& cache_dir,
                                              const std::function<void(const std::string&)>& log);

}  // namespace raceaccel::driver
