#include "driver/synth/shape_resources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "driver/device.hpp"
#include "driver/shape_cache.hpp"

namespace raceaccel::driver {
namespace fs = std::filesystem;
namespace {

DeviceError unavailable(const std::string& message) {
  return DeviceError(DeviceErrorKind::Unavailable, "synthesis: " + message);
}

constexpr const char* kReportFile = "resources.txt";  // the script's report line

// What a cache entry is named by: the shape, the Yosys version, the RTL and
// the script; nullopt without a source tree or Yosys.
std::optional<CacheKey> key_of(const KernelShape& shape, const fs::path& src) {
  if (!fs::exists(src / "rtl/rac_kernel.sv") || !fs::exists(src / "scripts/synth_report.sh")) return std::nullopt;
  const std::string yosys_version = first_line_of("yosys -V");
  if (yosys_version.empty()) return std::nullopt;
  std::vector<fs::path> files = {src / "scripts/synth_report.sh"};
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
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  return parse_synth_report_line(line);
}

}  // namespace

std::optional<ShapeResources> parse_synth_report_line(const std::string& line) {
  std::istringstream words(line);
  std::vector<std::string> w;
  for (std::string s; words >> s;) w.push_back(s);
  // The block name and at least one parameter word come first; the last
  // seven are the figures.
  if (w.size() < 9) return std::nullopt;
  const auto figure = [&](size_t from_end) { return w[w.size() - from_end]; };
  ShapeResources r;
  try {
    size_t used = 0;
    // Digits only (stoull would take "-1" as 2^64 - 1).
    const auto whole = [&](const std::string& s) {
      if (s.empty() || s[0] < '0' || s[0] > '9') throw std::invalid_argument(s);
      const uint64_t v = std::stoull(s, &used);
      if (used != s.size()) throw std::invalid_argument(s);
      return v;
    };
    r.lut = whole(figure(7));
    r.ff = whole(figure(6));
    r.carry = whole(figure(5));
    if (figure(4)[0] < '0' || figure(4)[0] > '9') return std::nullopt;
    r.bram36 = std::stod(figure(4), &used);
    if (used != figure(4).size()) return std::nullopt;
    r.uram = whole(figure(3));
    r.dsp = whole(figure(2));
    r.depth = whole(figure(1));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return r;
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
  if (!fs::exists(src / "rtl/rac_kernel.sv") || !fs::exists(src / "scripts/synth_report.sh")) {
    throw unavailable(
        fmt::format("synthesizing a shape needs the raceaccel source tree, not found at {} (set RACEACCEL_SOURCE_DIR)",
                    src.string()));
  }
  const std::optional<CacheKey> key = key_of(shape, src);
  if (!key) throw unavailable("synthesizing a shape needs Yosys on PATH (Debian package yosys)");
  const fs::path cache = synth_cache_dir(cache_dir);
  const auto build = [&](const fs::path& tmp) {
    const fs::path build_log = tmp / "synth.log";
    const fs::path report = tmp / kReportFile;
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
                                           (src / "scripts/synth_report.sh").string(),
                                           (src / "rtl").string(),
                                           tmp.string(),
                                           "rac_kernel",
                                           shape.describe()};
    const int status = run_logged_status(argv, build_log, &report);
    if (status == 124 || status == 137) {
      throw unavailable(fmt::format("Yosys did not finish {} within {} s; stopped (log: {})", shape.describe(),
                                    timeout.count(), build_log.string()));
    }
    if (status != 0 || !read_report(tmp)) {
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
