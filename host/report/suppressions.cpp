#include "report/suppressions.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace raceaccel {
namespace {

constexpr std::array<std::pair<std::string_view, SuppressionType>, 7> kTypes{{
    {"race", SuppressionType::Race},
    {"race_top", SuppressionType::RaceTop},
    {"called_from_lib", SuppressionType::CalledFromLib},
    {"thread", SuppressionType::Thread},
    {"mutex", SuppressionType::Mutex},
    {"signal", SuppressionType::Signal},
    {"deadlock", SuppressionType::Deadlock},
}};

std::string_view trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\v\f";
  const size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

bool frame_matches(std::string_view pattern, const SuppressionFrame& f) {
  return suppression_pattern_matches(pattern, f.function) || suppression_pattern_matches(pattern, f.file) ||
         suppression_pattern_matches(pattern, f.module);
}

}  // namespace

std::string_view suppression_type_name(SuppressionType type) {
  for (const auto& [name, t] : kTypes) {
    if (t == type) return name;
  }
  return "?";
}

bool suppression_pattern_matches(std::string_view pattern, std::string_view name) {
  if (name.empty()) return false;
  bool anchored = !pattern.empty() && pattern.front() == '^';
  if (anchored) pattern.remove_prefix(1);
  bool after_star = false;
  size_t pos = 0;  // the part of `name` the rest of the pattern must match
  while (!pattern.empty()) {
    if (pattern.front() == '*') {
      pattern.remove_prefix(1);
      anchored = false;
      after_star = true;
      continue;
    }
    // '$' ends the pattern: the name must end here, unless a '*' just
    // before it swallows the rest.
    if (pattern.front() == '$') return pos == name.size() || after_star;
    if (pos == name.size()) return false;
    const size_t piece_end = pattern.find_first_of("*$");
    const std::string_view piece = pattern.substr(0, piece_end);
    // The first occurrence, as ThreadSanitizer takes it: a later one is
    // never tried, so "o*er$" does not match "other_writer".
    const size_t found = name.find(piece, pos);
    if (found == std::string_view::npos || (anchored && found != pos)) return false;
    pos = found + piece.size();
    pattern = piece_end == std::string_view::npos ? std::string_view{} : pattern.substr(piece_end);
    anchored = false;
    after_star = false;
  }
  return true;
}

Suppressions Suppressions::parse(std::string_view text, const std::string& origin) {
  Suppressions out;
  size_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view raw = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++number;
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      throw SuppressionError(
          fmt::format("{}:{}: expected TYPE:PATTERN (e.g. race:my_function), got '{}'", origin, number, line));
    }
    const std::string_view type_name = trim(line.substr(0, colon));
    const auto* type = [&]() -> const SuppressionType* {
      for (const auto& entry : kTypes) {
        if (entry.first == type_name) return &entry.second;
      }
      return nullptr;
    }();
    if (type == nullptr) {
      throw SuppressionError(fmt::format(
          "{}:{}: unknown suppression type '{}' (race, race_top, called_from_lib, thread, mutex, signal, deadlock)",
          origin, number, type_name));
    }
    const std::string_view pattern = trim(line.substr(colon + 1));
    if (pattern.empty()) throw SuppressionError(fmt::format("{}:{}: '{}:' has no pattern", origin, number, type_name));
    out.entries_.push_back({*type, std::string(pattern), number});
  }
  return out;
}

const Suppression* Suppressions::match(const RaceSubject& race) const {
  for (const Suppression& s : entries_) {
    switch (s.type) {
      case SuppressionType::Race:
        for (const auto& stack : race.access_stacks) {
          for (const SuppressionFrame& f : stack) {
            if (frame_matches(s.pattern, f)) return &s;
          }
        }
        if (suppression_pattern_matches(s.pattern, race.global_name) ||
            suppression_pattern_matches(s.pattern, race.global_module))
          return &s;
        break;
      case SuppressionType::RaceTop:
        for (const auto& stack : race.access_stacks) {
          if (!stack.empty() && frame_matches(s.pattern, stack.front())) return &s;
        }
        break;
      case SuppressionType::CalledFromLib:
        for (const auto& stack : race.access_stacks) {
          if (!stack.empty() && suppression_pattern_matches(s.pattern, stack.front().module)) return &s;
        }
        break;
      default: break;  // kinds of report raceaccel does not make
    }
  }
  return nullptr;
}

}  // namespace raceaccel
