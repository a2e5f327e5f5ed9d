#include "driver/verilator/shape_model.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "driver/shape_cache.hpp"

namespace raceaccel::driver {
namespace fs = std::filesystem;
namespace {

DeviceError unavailable(const std::string& message) {
  return DeviceError(DeviceErrorKind::Unavailable, "verilator model: " + message);
}

std::string compiler() {
  if (const char* env = std::getenv("CXX"); env != nullptr && *env != '\0') return env;
  return RACEACCEL_CXX_COMPILER;
}

// Every file the model is built from, in a stable order.
std::vector<fs::path> model_inputs(const fs::path& src) {
  std::vector<fs::path> files;
  for (const char* dir : {"rtl", "sim", "driver/verilator"}) {
    for (const auto& entry : fs::directory_iterator(src / dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".sv" || ext == ".svh" || ext == ".cpp" || ext == ".hpp") files.push_back(entry.path());
    }
  }
  files.push_back(src / "driver/device.hpp");
  files.push_back(src / "driver/rac_kernel_regs.hpp");
  std::sort(files.begin(), files.end());
  return files;
}

// Verilator on rtl/ with the shape's parameters: C++ sources in `gen`.
std::vector<std::string> verilate_command(const KernelShape& shape, const fs::path& src, const fs::path& gen) {
  const fs::path rtl = src / "rtl";
  std::vector<std::string> args = {"verilator",        "--cc",       "-Wall",      "-Wno-fatal",        "--assert",
                                   "-Wno-UNUSEDPARAM", "--x-assign", "unique",     "--x-initial",       "unique",
                                   "--top-module",     "rac_kernel", "--prefix",   "Vrac_kernel_shape", "-Mdir",
                                   gen.string(),       "-y",         rtl.string(), "-I" + rtl.string()};
  for (const auto& [name, value] : {std::pair{"NumSlots", shape.slots},
                                    {"ClkW", shape.clock_bits},
                                    {"Sets", shape.sets},
                                    {"Ways", shape.ways},
                                    {"Objects", shape.objects},
                                    {"ReadVcs", shape.read_vcs},
                                    {"BucketWays", shape.bucket_ways},
                                    {"ReadVcWays", shape.read_vc_ways}}) {
    args.push_back(fmt::format("-G{}={}", name, value));
  }
  for (const char* f : {"rac_pkg.sv", "rac_line_layout_pkg.sv", "rac_kernel_regs_pkg.sv", "rac_kernel.sv"}) {
    args.push_back((rtl / f).string());
  }
  return args;
}

// One compiler run (one process: the machine may be shared) of the
// Verilated sources, the Verilator runtime, the bus models and the shim
// into dir/rac_kernel_shape.so; only the shim's factory is exported.
std::vector<std::string> compile_command(const fs::path& src, const fs::path& dir, const std::string& verilator_root,
                                         const std::string& cxx) {
  std::vector<std::string> args = {cxx,
                                   "-std=c++20",
                                   "-O1",
                                   "-fPIC",
                                   "-shared",
                                   "-fvisibility=hidden",
                                   "-w",
                                   "-DRACEACCEL_TRACE=0",
                                   "-I" + (dir / "gen").string(),
                                   "-I" + verilator_root + "/include",
                                   "-I" + verilator_root + "/include/vltstd",
                                   "-I" + src.string(),
                                   "-I" + (src / "sim").string()};
  for (const auto& entry : fs::directory_iterator(dir / "gen")) {
    if (entry.path().extension() == ".cpp") args.push_back(entry.path().string());
  }
  for (const char* f : {"verilated.cpp", "verilated_threads.cpp"}) args.push_back(verilator_root + "/include/" + f);
  for (const char* f : {"sim/sparse_memory.cpp", "sim/axi_slave_model.cpp", "sim/axil_master_model.cpp",
                        "driver/verilator/verilator_buffer.cpp", "driver/verilator/shape_model_shim.cpp"}) {
    args.push_back((src / f).string());
  }
  args.insert(args.end(), {"-o", (dir / "rac_kernel_shape.so").string(), "-Wl,-Bsymbolic", "-lfmt", "-pthread"});
  return args;
}

void load(void*& handle, Device* (*&make)(const DeviceOptions*), const fs::path& so) {
  handle = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw unavailable(fmt::format("cannot load {}: {}", so.string(), ::dlerror()));
  make = reinterpret_cast<Device* (*)(const DeviceOptions*)>(::dlsym(handle, "raceaccel_make_shape_device"));
  if (make == nullptr) throw unavailable(fmt::format("{} has no raceaccel_make_shape_device", so.string()));
}

}  // namespace

fs::path model_cache_dir(const std::string& override_dir) {
  return cache_dir(override_dir, "RACEACCEL_MODEL_CACHE", "verilator");
}

ShapeModel::~ShapeModel() {
  if (handle_ != nullptr) ::dlclose(handle_);
}

std::unique_ptr<Device> ShapeModel::open(const DeviceOptions& options) const {
  return std::unique_ptr<Device>(make_(&options));
}

std::shared_ptr<ShapeModel> build_shape_model(const KernelShape& shape, const std::string& cache_dir,
                                              const std::function<void(const std::string&)>& log) {
  if (const std::string problem = shape_problem(shape); !problem.empty()) {
    throw DeviceError(DeviceErrorKind::BadOptions, "not a kernel shape: " + problem);
  }
  const fs::path src = source_dir();
  if (!fs::exists(src / "rtl/rac_kernel.sv") || !fs::exists(src / "driver/verilator/shape_model_shim.cpp")) {
    throw unavailable(
        fmt::format("building a model needs the raceaccel source tree, not found at {} (set "
                    "RACEACCEL_SOURCE_DIR)",
                    src.string()));
  }
  const std::string verilator_version = first_line_of("verilator --version");
  const std::string verilator_root = first_line_of("verilator --getenv VERILATOR_ROOT");
  if (verilator_version.empty() || verilator_root.empty()) {
    throw unavailable("building a model needs Verilator on PATH (Debian package verilator)");
  }
  const std::string cxx = compiler();
  CacheKey key;
  key.add(shape.describe());
  key.add(verilator_version);
  key.add(cxx);
  for (const fs::path& f : model_inputs(src)) {
    key.add(f.filename().string());
    key.add(read_file(f));
  }
  const fs::path cache = model_cache_dir(cache_dir);
  auto model = std::shared_ptr<ShapeModel>(new ShapeModel());
  const auto build = [&](const fs::path& tmp) {
    std::error_code ec;
    fs::create_directories(tmp / "gen", ec);
    const fs::path build_log = tmp / "build.log";
    log(fmt::format("building a Verilated rac_kernel ({}) in {} (once per shape; minutes)", shape.describe(),
                    (cache / key.hex()).string()));
    const auto started = std::chrono::steady_clock::now();
    if (!run_logged(verilate_command(shape, src, tmp / "gen"), build_log)) {
      throw unavailable(fmt::format("Verilator failed on {} (log: {})", shape.describe(), build_log.string()));
    }
    if (!run_logged(compile_command(src, tmp, verilator_root, cxx), build_log)) {
      throw unavailable(
          fmt::format("compiling the model of {} failed (log: {})", shape.describe(), build_log.string()));
    }
    fs::remove_all(tmp / "gen", ec);  // the shared object is all a run needs
    std::ofstream(tmp / "shape.txt") << shape.describe() << '\n' << verilator_version << '\n' << cxx << '\n';
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    log(fmt::format("built {} in {:.0f} s", (cache / key.hex() / "rac_kernel_shape.so").string(), seconds));
  };
  const fs::path dir = cached_entry(cache, key, build, model->built_);
  model->path_ = dir / "rac_kernel_shape.so";
  const fs::path so = model->path_;
  load(model->handle_, model->make_, so);
  return model;
}

}  // namespace raceaccel::driver
