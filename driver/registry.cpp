// Backends by name. Every backend name is always known, so that a build
// without XRT or Verilator says "not built in" rather than "unknown".
#include <fmt/format.h>

#include "driver/registry.hpp"
#include "driver/software/software_device.hpp"
#include "driver/xrt/xrt_device.hpp"
#if RACEACCEL_HAVE_VERILATOR_DEVICE
#include "driver/verilator/shape_model.hpp"
#include "driver/verilator/verilator_device.hpp"
#endif

namespace raceaccel::driver {
namespace {

std::string alternatives(std::string_view except) {
  std::string out;
  for (const std::string& name : backend_names()) {
    if (name == except) continue;
    out += out.empty() ? "" : "|";
    out += name;
  }
  return "--backend " + out;
}

}  // namespace

std::vector<std::string> backend_names() { return {kBackendNames.begin(), kBackendNames.end()}; }

DeviceOptions device_options(std::string_view backend, const std::string& xclbin, unsigned device_index) {
  DeviceOptions options;
  options.backend = std::string(backend);
  options.xclbin = xclbin;
  options.device_index = device_index;
  return options;
}

std::unique_ptr<Device> open_device(std::string_view backend, const std::string& xclbin, unsigned device_index) {
  return open_device(device_options(backend, xclbin, device_index));
}

std::unique_ptr<Device> open_device(const DeviceOptions& options) {
  if (options.backend == "software") return make_software_device(options);
  if (options.backend == "verilator") {
#if RACEACCEL_HAVE_VERILATOR_DEVICE
    return make_verilator_device(options);
#else
    throw DeviceError(DeviceErrorKind::Unavailable,
                      "the verilator backend is not built in (Verilator was not found when raceaccel was configured); "
                      "use " +
                          alternatives("verilator"));
#endif
  }
  if (options.backend == "xrt") return make_xrt_device(options, alternatives("xrt"));
  throw DeviceError(DeviceErrorKind::UnknownBackend,
                    fmt::format("unknown backend '{}'; the backends are {}", options.backend, alternatives("")));
}

DeviceFactory verilator_shape_factory(const KernelShape& shape, [[maybe_unused]] const std::string& cache_dir,
                                      [[maybe_unused]] const std::function<void(const std::string&)>& log) {
  if (const std::string problem = shape_problem(shape); !problem.empty()) {
    throw DeviceError(DeviceErrorKind::BadOptions, "not a kernel shape: " + problem);
  }
#if RACEACCEL_HAVE_VERILATOR_DEVICE
  std::shared_ptr<ShapeModel> model = build_shape_model(shape, cache_dir, log);
  return [model](const DeviceOptions& options) { return model->open(options); };
#else
  throw DeviceError(DeviceErrorKind::Unavailable,
                    "the verilator backend is not built in (Verilator was not found when raceaccel was configured)");
#endif
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  out.push_back(software_device_info(DeviceOptions{}));
#if RACEACCEL_HAVE_VERILATOR_DEVICE
  out.push_back({"verilator", "rac_kernel simulated by Verilator behind AXI bus models", true,
                 "select with --backend verilator"});
#else
  out.push_back({"verilator", "rac_kernel simulated by Verilator", false,
                 "not built in: Verilator was not found when raceaccel was configured"});
#endif
  for (DeviceInfo& info : list_xrt_devices()) out.push_back(std::move(info));
  return out;
}

}  // namespace raceaccel::driver
