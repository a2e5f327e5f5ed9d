// rac_cover_report: sums the cover-point counts the coverage models of
// tests/kernel leave in a directory (sim/verilated_setup.hpp's
// write_coverage: one verilator_coverage .dat file per model instance),
// writes one line per point with its hits, and fails when too few points
// were hit (docs/verification.md, "Cover points").
//
//   rac_cover_report <dat dir> <report file> [min percent, default 95]
//
// A point is a cover statement of the RTL in one module instance and one
// generate iteration, named by its hierarchy below the kernel top
// ("u_engine.g_cov_op[1].g_clk[0].cov_forced"); the coverage models have
// different shapes, so a point counts as hit when any model hit it, and
// the list is the union of their points.
// Exit status: 0 enough points hit, 1 too few (or no counts at all: the
// kernel tests did not run with RACEACCEL_COVERAGE_DIR), 2 usage, 74 I/O.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <string_view>

#include <fmt/core.h>
#include <fmt/ostream.h>

namespace fs = std::filesystem;

namespace {

// The value of field `key` in a coverage key: fields are "\x01<key>\x02<value>".
std::string field(std::string_view record, std::string_view key) {
  const std::string tag = std::string("\x01") + std::string(key) + "\x02";
  const size_t at = record.find(tag);
  if (at == std::string_view::npos) return {};
  const size_t from = at + tag.size();
  const size_t to = record.find('\x01', from);
  return std::string(record.substr(from, to == std::string_view::npos ? std::string_view::npos : to - from));
}

// "TOP.rac_kernel.u_engine.g_cov_op__BRA__1__KET__.cov_forced" -> "u_engine.g_cov_op[1].cov_forced".
std::string point_name(std::string hier) {
  for (const char* top : {"TOP.rac_kernel.", "TOP."}) {
    if (hier.rfind(top, 0) == 0) {
      hier.erase(0, std::string_view(top).size());
      break;
    }
  }
  for (const auto& [from, to] : {std::pair<std::string_view, std::string_view>{"__BRA__", "["}, {"__KET__", "]"}}) {
    for (size_t at = hier.find(from); at != std::string::npos; at = hier.find(from, at)) {
      hier.replace(at, from.size(), to);
    }
  }
  return hier;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: rac_cover_report <dat dir> <report file> [min percent]\n";
    return 2;
  }
  const fs::path dir = argv[1];
  const double min_percent = argc == 4 ? std::strtod(argv[3], nullptr) : 95.0;
  std::map<std::string, uint64_t> hits;  // point -> hits over every model instance
  size_t files = 0;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    std::cerr << fmt::format("rac_cover_report: {} is not a directory (run the kernel tests through ctest first)\n",
                             dir.string());
    return 1;
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".dat") continue;
    std::ifstream in(entry.path());
    if (!in) {
      std::cerr << fmt::format("rac_cover_report: cannot read {}\n", entry.path().string());
      return 74;
    }
    ++files;
    std::string line;
    while (std::getline(in, line)) {
      // C '<key>' <count>
      if (line.rfind("C '", 0) != 0) continue;
      const size_t close = line.rfind('\'');
      if (close <= 3) continue;
      const std::string_view key(line.data() + 3, close - 3);
      if (field(key, "page").rfind("v_user", 0) != 0) continue;  // cover statements only
      const uint64_t count = std::strtoull(line.c_str() + close + 1, nullptr, 10);
      hits[point_name(field(key, "h"))] += count;
    }
  }
  if (hits.empty()) {
    std::cerr << fmt::format(
        "rac_cover_report: no cover-point counts in {} ({} files): run the kernel tests through ctest "
        "(they set RACEACCEL_COVERAGE_DIR) before this report\n",
        dir.string(), files);
    return 1;
  }
  size_t hit = 0;
  for (const auto& [name, count] : hits) hit += count > 0 ? 1 : 0;
  const double percent = 100.0 * static_cast<double>(hit) / static_cast<double>(hits.size());
  std::ofstream out(argv[2]);
  if (!out) {
    std::cerr << fmt::format("rac_cover_report: cannot write {}\n", argv[2]);
    return 74;
  }
  const std::string summary = fmt::format(
      "{} of {} cover points hit ({:.1f} %, at least {:.1f} % required), from {} "
      "model instances",
      hit, hits.size(), percent, min_percent, files);
  fmt::print(out, "# {}\n# hits  point\n", summary);
  for (const auto& [name, count] : hits) fmt::print(out, "{:>10}  {}\n", count, name);
  out.close();
  for (const auto& [name, count] : hits) {
    if (count == 0) std::cout << "not hit: " << name << "\n";
  }
  std::cout << summary << "\nreport: " << argv[2] << "\n";
  return percent + 1e-9 >= min_percent ? 0 : 1;
}
