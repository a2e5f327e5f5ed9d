#include "driver/verilator/shape_model.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

extern char** environ;

namespace raceaccel::driver {
namespace fs = std::filesystem;
namespace {

DeviceError unavailable(const std::string& message) {
  return DeviceError(DeviceErrorKind::Unavailable, "verilator model: " + message);
}

// A program's standard output (first line), or "" when it cannot run.
std::string output_of(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (pipe == nullptr) return "";
  char buffer[4096];
  std::string out;
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  if (::pclose(pipe) != 0) return "";
  if (const size_t nl = out.find('\n'); nl != std::string::npos) out.resize(nl);
  return out;
}

// Runs argv with stdout and stderr appended to `log`; true on exit status 0.
bool run(const std::vector<std::string>& argv, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int err = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return false;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return false;
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// FNV-1a, 64 bits: names the model directory (not a security boundary).
struct Hash {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(std::string_view s) {
    for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    h = (h ^ 0xff) * 0x100000001b3ull;  // separator
  }
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path source_dir() {
  if (const char* env = std::getenv("RACEACCEL_SOURCE_DIR"); env != nullptr && *env != '\0') return env;
  return RACEACCEL_SOURCE_DIR;
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
  if (!override_dir.empty()) return override_dir;
  if (const char* env = std::getenv("RACEACCEL_MODEL_CACHE"); env != nullptr && *env != '\0') return env;
  if (const char* env = std::getenv("XDG_CACHE_HOME"); env != nullptr && *env != '\0') {
    return fs::path(env) / "raceaccel" / "verilator";
  }
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr && *home != '\0' ? home : "/tmp") / ".cache" / "raceaccel" / "verilator";
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
  const std::string verilator_version = output_of("verilator --version");
  const std::string verilator_root = output_of("verilator --getenv VERILATOR_ROOT");
  if (verilator_version.empty() || verilator_root.empty()) {
    throw unavailable("building a model needs Verilator on PATH (Debian package verilator)");
  }
  const std::string cxx = compiler();
  Hash hash;
  hash.add(shape.describe());
  hash.add(verilator_version);
  hash.add(cxx);
  const std::vector<fs::path> inputs = model_inputs(src);
  for (const fs::path& f : inputs) {
    hash.add(f.filename().string());
    hash.add(read_file(f));
  }
  const fs::path cache = model_cache_dir(cache_dir);
  const fs::path dir = cache / fmt::format("{:016x}", hash.h);
  const fs::path so = dir / "rac_kernel_shape.so";

  auto model = std::shared_ptr<ShapeModel>(new ShapeModel());
  model->path_ = so;
  if (!fs::exists(so)) {
    // Built in a directory of its own, renamed into place when complete, so
    // that concurrent runs never load half a model.
    std::error_code ec;
    fs::create_directories(cache, ec);
    if (ec) throw unavailable(fmt::format("cannot create the model cache {}: {}", cache.string(), ec.message()));
    const fs::path tmp = cache / fmt::format("{:016x}.tmp-{}", hash.h, ::getpid());
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp / "gen", ec);
    const fs::path build_log = tmp / "build.log";
    log(fmt::format("building a Verilated rac_kernel ({}) in {} (once per shape; minutes)", shape.describe(),
                    dir.string()));
    const auto started = std::chrono::steady_clock::now();
    if (!run(verilate_command(shape, src, tmp / "gen"), build_log)) {
      throw unavailable(fmt::format("Verilator failed on {} (log: {})", shape.describe(), build_log.string()));
    }
    if (!run(compile_command(src, tmp, verilator_root, cxx), build_log)) {
      throw unavailable(
          fmt::format("compiling the model of {} failed (log: {})", shape.describe(), build_log.string()));
    }
    fs::remove_all(tmp / "gen", ec);  // the shared object is all a run needs
    std::ofstream(tmp / "shape.txt") << shape.describe() << '\n' << verilator_version << '\n' << cxx << '\n';
    fs::rename(tmp, dir, ec);
    if (ec) fs::remove_all(tmp, ec);  // another run finished the same model first: use that one
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    log(fmt::format("built {} in {:.0f} s", so.string(), seconds));
    model->built_ = true;
  }
  load(model->handle_, model->make_, so);
  return model;
}

}  // namespace raceaccel::driver
