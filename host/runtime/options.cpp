#include "runtime/options.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <vector>

#include "driver/registry.hpp"

namespace raceaccel::rt {
namespace {

// The detectors the runtime runs in its own process.
constexpr std::string_view kInProcessBackends[] = {"software", "djit"};

// "a, b or c"
std::string one_of(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    out += i == 0 ? "" : i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::vector<std::string_view> split_pairs(std::string_view text) {
  std::vector<std::string_view> pairs;
  size_t i = 0;
  auto separator = [](char c) { return c == ' ' || c == ':' || c == '\t' || c == '\n'; };
  while (i < text.size()) {
    while (i < text.size() && separator(text[i])) ++i;
    size_t j = i;
    while (j < text.size() && !separator(text[j])) ++j;
    if (j > i) pairs.push_back(text.substr(i, j - i));
    i = j;
  }
  return pairs;
}

bool parse_uint(std::string_view v, uint64_t max, uint64_t& out) {
  if (v.empty()) return false;
  uint64_t x = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc{} || end != v.data() + v.size() || x > max) return false;
  out = x;
  return true;
}

// A rate in (0, 1], as a decimal number ("0.1", "1", "1e-3").
bool parse_rate(std::string_view v, double& out) {
  if (v.empty()) return false;
  double x = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc{} || end != v.data() + v.size() || !(x > 0.0) || !(x <= 1.0)) return false;
  out = x;
  return true;
}

bool parse_bool(std::string_view v, bool& out) {
  if (v == "1" || v == "true") return out = true, true;
  if (v == "0" || v == "false") return out = false, true;
  return false;
}

// The whole file, with read(2): this runs before main, inside the runtime.
bool read_file(const std::string& path, std::string& text, std::string& why) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    why = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      why = "cannot read " + path + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return true;
}

std::string load_suppressions(RuntimeOptions& o, std::string_view value) {
  if (value.empty()) return "needs a file name";
  std::string text, why;
  if (!read_file(std::string(value), text, why)) return why;
  try {
    o.suppressions = Suppressions::parse(text, std::string(value));
  } catch (const SuppressionError& err) {
    return std::string("is malformed: ") + err.what();
  }
  o.suppressions_path = std::string(value);
  return {};
}

// One key: applies it or returns why the value is bad.
std::string apply(RuntimeOptions& o, std::string_view key, std::string_view value) {
  uint64_t n = 0;
  if (key == "backend") {
    const std::vector<std::string> names = runtime_backend_names();
    if (std::find(names.begin(), names.end(), value) == names.end()) return "must be " + one_of(names);
    o.backend = std::string(value);
    return {};
  }
  if (key == "log_path" || key == "record" || key == "xclbin" || key == "sarif") {
    if (value.empty()) return "needs a file name";
    (key == "log_path" ? o.log_path
     : key == "record" ? o.record
     : key == "xclbin" ? o.xclbin
                       : o.sarif) = std::string(value);
    return {};
  }
  if (key == "suppressions") return load_suppressions(o, value);
  if (key == "device") {
    if (!parse_uint(value, 1023, n)) return "must be a card index in 0..1023";
    o.device = static_cast<unsigned>(n);
    return {};
  }
  if (key == "json") return parse_bool(value, o.json) ? "" : "must be 0 or 1";
  if (key == "halt_on_error") return parse_bool(value, o.halt_on_error) ? "" : "must be 0 or 1";
  if (key == "region_filter") return parse_bool(value, o.region_filter) ? "" : "must be 0 or 1";
  if (key == "coalesce") return parse_bool(value, o.coalesce) ? "" : "must be 0 or 1";
  if (key == "inline_runs") return parse_bool(value, o.inline_runs) ? "" : "must be 0 or 1";
  if (key == "parallel") return parse_bool(value, o.parallel) ? "" : "must be 0 or 1";
  if (key == "own_loads") return parse_bool(value, o.own_loads) ? "" : "must be 0 or 1";
  if (key == "reuse_slots") return parse_bool(value, o.reuse_slots) ? "" : "must be 0 or 1";
  if (key == "shadow_runs") {
    // Past 512 runs a page would hold more than its cells.
    if (!parse_uint(value, Shadow::kGranulesPerPage, n)) return "must be a number of runs in 0..512 (0: off)";
    o.shadow_runs = static_cast<uint32_t>(n);
    return {};
  }
  if (key == "region_young") {
    // At most the young table's entries.
    if (!parse_uint(value, kYoungSlots, n))
      return "must be a number of lines in 0.." + std::to_string(kYoungSlots) + " (0: off)";
    o.region_young = static_cast<uint32_t>(n);
    return {};
  }
  if (key == "sample") return parse_rate(value, o.sample) ? "" : "must be a rate in (0, 1], e.g. 0.1 (1: no sampling)";
  if (key == "sample_seed") {
    if (!parse_uint(value, UINT64_MAX, n)) return "must be a non-negative integer (0: a new seed per run)";
    o.sample_seed = n;
    return {};
  }
  if (key == "exitcode") {
    if (!parse_uint(value, 255, n)) return "must be an integer in 0..255";
    o.exitcode = static_cast<int>(n);
    return {};
  }
  if (key == "report_limit") {
    if (!parse_uint(value, UINT64_MAX, n)) return "must be a non-negative integer (0: no limit)";
    o.report_limit = n;
    return {};
  }
  if (key == "verbosity") {
    if (!parse_uint(value, 3, n)) return "must be an integer in 0..3";
    o.verbosity = static_cast<int>(n);
    return {};
  }
  return "is not a known option (backend, xclbin, device, log_path, json, halt_on_error, exitcode, report_limit, "
         "record, verbosity, region_filter, region_young, coalesce, inline_runs, parallel, own_loads, reuse_slots, "
         "shadow_runs, "
         "sample, sample_seed, sarif, suppressions)";
}

}  // namespace

ParsedOptions parse_runtime_options(std::string_view text) {
  ParsedOptions out;
  for (std::string_view pair : split_pairs(text)) {
    const size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      out.error = "RACEACCEL_OPTIONS: '" + std::string(pair) + "' is not key=value";
      return out;
    }
    const std::string_view key = pair.substr(0, eq);
    const std::string_view value = pair.substr(eq + 1);
    const std::string why = apply(out.options, key, value);
    if (!why.empty()) {
      out.error =
          "RACEACCEL_OPTIONS: " + std::string(key) + "=" + std::string(value) + ": '" + std::string(key) + "' " + why;
      return out;
    }
  }
  return out;
}

std::vector<std::string> runtime_backend_names() {
  std::vector<std::string> names(std::begin(kInProcessBackends), std::end(kInProcessBackends));
  for (std::string_view device : driver::kBackendNames) {
    if (is_device_backend(device)) names.emplace_back(device);
  }
  return names;
}

bool is_device_backend(std::string_view backend) {
  if (std::find(std::begin(kInProcessBackends), std::end(kInProcessBackends), backend) != std::end(kInProcessBackends))
    return false;
  return std::find(driver::kBackendNames.begin(), driver::kBackendNames.end(), backend) != driver::kBackendNames.end();
}

}  // namespace raceaccel::rt
