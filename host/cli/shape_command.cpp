// `raceaccel shape`: a kernel shape named with the sweep's knob names
// ("slots=64 sets=4096 pool=32", or a shape file) checked against the RTL's
// limits and printed as rac_kernel's parameter overrides
// ("NumSlots=64 ClkW=32 ..."). `make xclbin SHAPE=...` packages exactly
// these (constraints/vitis/Makefile, docs/deployment.md); one parser and one
// set of limits serve the sweep, `--model verilator` and the card build.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/shape_words.hpp"
#include "cli/sweep_grid.hpp"
#include "common/exit_codes.hpp"

namespace raceaccel {
namespace {

struct ShapeOptions {
  std::string file;
  std::vector<std::string> words;
};

int run_shape(const ShapeOptions& opt) {
  std::vector<std::string> words;
  if (!opt.file.empty()) {
    std::ifstream in(opt.file);
    std::ostringstream text;
    if (!in || !(text << in.rdbuf())) {
      std::cerr << fmt::format("raceaccel: shape: cannot read {}\n", opt.file);
      return exit_code::kIo;
    }
    words = shape_file_words(text.str());
  }
  words.insert(words.end(), opt.words.begin(), opt.words.end());
  try {
    std::cout << kernel_shape_from_words(words).describe() << '\n';
  } catch (const GridError& e) {
    std::cerr << fmt::format("raceaccel: shape: {}{}\n", opt.file.empty() ? "" : opt.file + ": ", e.what());
    return exit_code::kUsage;
  }
  return exit_code::kOk;
}

}  // namespace

CommandRunner add_shape_command(CLI::App& app) {
  auto opt = std::make_shared<ShapeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "shape", "Check a kernel shape (the sweep's knob names) and print rac_kernel's parameters for make xclbin");
  cmd->add_option("--file", opt->file, "a shape file: NAME=VALUE words, '#' comments (before the WORDS)");
  cmd->add_option("WORDS", opt->words,
                  "NAME=VALUE with NAME one of slots, clock_bits, sets, ways, pool (read_vcs), objects, bucket_ways, "
                  "pool_ways; "
                  "the others keep the RTL defaults");
  return [opt] { return run_shape(*opt); };
}

}  // namespace raceaccel
