#include "cli/shape_words.hpp"

#include <fmt/format.h>

#include <array>
#include <set>
#include <utility>

#include "cli/sweep_grid.hpp"

namespace raceaccel {
namespace {

using Field = unsigned driver::KernelShape::*;

// The sweep knobs that are rac_kernel parameters, and the field of each.
constexpr std::array kKernelKnobs{
    std::pair<std::string_view, Field>{"slots", &driver::KernelShape::slots},
    std::pair<std::string_view, Field>{"clock_bits", &driver::KernelShape::clock_bits},
    std::pair<std::string_view, Field>{"sets", &driver::KernelShape::sets},
    std::pair<std::string_view, Field>{"ways", &driver::KernelShape::ways},
    std::pair<std::string_view, Field>{"pool", &driver::KernelShape::read_vcs},
    std::pair<std::string_view, Field>{"objects", &driver::KernelShape::objects},
    std::pair<std::string_view, Field>{"bucket_ways", &driver::KernelShape::bucket_ways},
    std::pair<std::string_view, Field>{"pool_ways", &driver::KernelShape::read_vc_ways},
};

std::string kernel_knob_names() {
  std::string names;
  for (const auto& [name, field] : kKernelKnobs) names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
  return names;
}

}  // namespace

driver::KernelShape kernel_shape_from_words(const std::vector<std::string>& words) {
  driver::KernelShape shape;
  std::set<size_t> named;
  for (const std::string& word : words) {
    if (word.find('=') == std::string::npos) {
      throw GridError(fmt::format("SHAPE word {}: expected NAME=VALUE (NAME one of {})", word, kernel_knob_names()));
    }
    // The sweep's own parser: the same names, aliases, ranges and messages.
    const Grid grid = parse_grid(word, "SHAPE word");
    const std::string_view name = sweep_knobs()[grid.knob].name;
    if (grid.values.size() != 1) {
      throw GridError(fmt::format("SHAPE word {}: one value per knob in a shape", word));
    }
    if (!named.insert(grid.knob).second) throw GridError(fmt::format("{} is named twice", name));
    bool found = false;
    for (const auto& [knob, field] : kKernelKnobs) {
      if (knob == name) {
        shape.*field = static_cast<unsigned>(grid.values.front());
        found = true;
      }
    }
    if (!found) {
      throw GridError(
          fmt::format("{} is a setting of the host or the bus model, not a kernel parameter (a shape names {})", name,
                      kernel_knob_names()));
    }
  }
  if (const std::string problem = driver::shape_problem(shape); !problem.empty()) {
    throw GridError(fmt::format("not a kernel shape: {}", problem));
  }
  return shape;
}

std::vector<std::string> shape_file_words(std::string_view text) {
  std::vector<std::string> words;
  bool comment = false;
  std::string word;
  for (const char c : text) {
    if (c == '\n') comment = false;
    if (c == '#') comment = true;
    if (comment || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

}  // namespace raceaccel
