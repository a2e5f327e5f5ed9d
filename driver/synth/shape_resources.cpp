#include "driver/synth/shape_resources.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "driver/device.hpp"
#include "driver/shape_cache.hpp"

// The depth tool's path, compiled in by driver/CMakeLists.txt; builds that
// compile this file on their own (the fuzzers) have none.
#ifndef RACEACCEL_NETLIST_DEPTH
#define RACEACCEL_NETLIST_DEPTH ""
#endif

namespace raceaccel::driver {
namespace fs = std::filesystem;
namespace {

DeviceError unavailable(const std::string& message) {
  return DeviceError(DeviceErrorKind::Unavailable, "synthesis: " + message);
}

constexpr const char* kReportFile = "resources.json";  // rac_netlist_depth's report of the kernel
constexpr const char* kScript = "rtl/synth/synth_block.sh";
constexpr const char* kDepthSource = "rtl/synth/netlist_depth.cpp";

bool has_flow(const fs::path& src) {
  return fs::exists(src / "rtl/rac_kernel.sv") && fs::exists(src / kScript) && fs::exists(src / kDepthSource);
}

// `make synth`'s depth tool: $RACEACCEL_NETLIST_DEPTH (if set, that one
// or none), the one this binary was built with, or one beside the running
// executable; empty if none.
fs::path netlist_depth_tool() {
  if (const char* env = std::getenv("RACEACCEL_NETLIST_DEPTH"); env != nullptr && *env != '\0') {
    return fs::exists(env) ? fs::path(env) : fs::path();
  }
  if (const fs::path built = RACEACCEL_NETLIST_DEPTH; !built.empty() && fs::exists(built)) return built;
  std::error_code ec;
  const fs::path beside = fs::read_symlink("/proc/self/exe", ec).parent_path() / "rac_netlist_depth";
  return !ec && fs::exists(beside) ? beside : fs::path();
}

// What a cache entry is named by: the shape, the Yosys version, the RTL and
// the flow (the script and the depth tool's source); nullopt without a
// source tree or Yosys.
std::optional<CacheKey> key_of(const KernelShape& shape, const fs::path& src) {
  if (!has_flow(src)) return std::nullopt;
  const std::string yosys_version = first_line_of("yosys -V");
  if (yosys_version.empty()) return std::nullopt;
  std::vector<fs::path> files = {src / kScript, src / kDepthSource};
  for (const auto& entry : fs::directory_iterator(src / "rtl")) {
    const std::string ext = entry.path().extension().string();
    if (ext == ".sv" || ext == ".svh") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  CacheKey key;
  key.add(shape.describe());
  key.add(yosys_version);
  for (const fs::path& f : files) {
    key.add(f.filename().string());
    key.add(read_file(f));
  }
  return key;
}

fs::path synth_cache_dir(const std::string& override_dir) {
  return cache_dir(override_dir, "RACEACCEL_SYNTH_CACHE", "synth");
}

std::optional<ShapeResources> read_report(const fs::path& dir) {
  std::ifstream in(dir / kReportFile);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_synth_report(text.str());
}

// synth_block.sh names its report after the block and parameters; the
// cache entry keeps it under one name (the netlist is not kept).
bool keep_report(const fs::path& tmp) {
  for (const auto& entry : fs::directory_iterator(tmp)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("rac_kernel") && name.ends_with(".json") && !name.ends_with(".netlist.json")) {
      fs::rename(entry.path(), tmp / kReportFile);
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<ShapeResources> parse_synth_report(const std::string& text) {
  try {
    const nlohmann::json report = nlohmann::json::parse(text);
    const nlohmann::json& res = report.at("resources");
    const auto whole = [&](const nlohmann::json& v) {
      if (!v.is_number_unsigned()) throw std::invalid_argument("not a count");
      return v.get<uint64_t>();
    };
    ShapeResources r;
    r.lut = whole(res.at("lut"));
    r.ff = whole(res.at("ff"));
    r.carry = whole(res.at("carry"));
    r.muxf = whole(res.at("muxf"));
    const nlohmann::json& bram = res.at("bram36");
    if (!bram.is_number() || bram.get<double>() < 0) return std::nullopt;
    r.bram36 = bram.get<double>();
    r.uram = whole(res.at("uram"));
    r.dsp = whole(res.at("dsp"));
    r.depth = whole(report.at("depth").at("worst").at("levels"));
    return r;
  } catch (const std::exception&) {  // not JSON, or not such a report
    return std::nullopt;
  }
}

std::optional<ShapeResources> cached_shape_resources(const KernelShape& shape, const std::string& cache_dir) {
  if (!shape_problem(shape).empty()) return std::nullopt;
  const std::optional<CacheKey> key = key_of(shape, source_dir());
  if (!key) return std::nullopt;
  return read_report(synth_cache_dir(cache_dir) / key->hex());
}

ShapeResources synthesize_shape_resources(const KernelShape& shape, const std::string& cache_dir,
                                          const std::function<void(const std::string&)>& log,
                                          std::chrono::seconds timeout) {
  if (const std::string problem = shape_problem(shape); !problem.empty()) {
    throw DeviceError(DeviceErrorKind::BadOptions, "not a kernel shape: " + problem);
  }
  const fs::path src = source_dir();
  if (!has_flow(src)) {
    throw unavailable(
        fmt::format("synthesizing a shape needs the raceaccel source tree, not found at {} (set RACEACCEL_SOURCE_DIR)",
                    src.string()));
  }
  const std::optional<CacheKey> key = key_of(shape, src);
  if (!key) throw unavailable("synthesizing a shape needs Yosys on PATH (Debian package yosys)");
  const fs::path tool = netlist_depth_tool();
  if (tool.empty()) {
    throw unavailable(
        "synthesizing a shape needs rac_netlist_depth (built with raceaccel; set RACEACCEL_NETLIST_DEPTH to one)");
  }
  const fs::path cache = synth_cache_dir(cache_dir);
  const auto build = [&](const fs::path& tmp) {
    const fs::path build_log = tmp / "synth.log";
    const fs::path summary = tmp / "resources.txt";  // the script's line of the text report
    log(
        fmt::format("synthesizing rac_kernel ({}) with Yosys into {} (once per shape; minutes, the card shape an "
                    "hour or more)",
                    shape.describe(), (cache / key->hex()).string()));
    const auto started = std::chrono::steady_clock::now();
    // coreutils' timeout stops the script (and Yosys under it) after
    // `timeout`, and kills it 30 s later if it is still there; it exits 124
    // (137 after the kill).
    const std::vector<std::string> argv = {"timeout",
                                           "--kill-after=30",
                                           fmt::format("{}", timeout.count()),
                                           "sh",
                                           (src / kScript).string(),
                                           tool.string(),
                                           (src / "rtl").string(),
                                           tmp.string(),
                                           "rac_kernel",
                                           shape.describe()};
    const int status = run_logged_status(argv, build_log, &summary);
    if (status == 124 || status == 137) {
      throw unavailable(fmt::format("Yosys did not finish {} within {} s; stopped (log: {})", shape.describe(),
                                    timeout.count(), build_log.string()));
    }
    if (status != 0 || !keep_report(tmp) || !read_report(tmp)) {
      throw unavailable(fmt::format("Yosys failed on {} (log: {})", shape.describe(), build_log.string()));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    log(fmt::format("synthesized {} in {:.0f} s", shape.describe(), seconds));
  };
  bool built = false;
  const fs::path dir = cached_entry(cache, *key, build, built);
  if (std::optional<ShapeResources> r = read_report(dir)) return *r;
  throw unavailable(fmt::format("the cache entry {} holds no report (remove it to synthesize again)", dir.string()));
}

}  // namespace raceaccel::driver
