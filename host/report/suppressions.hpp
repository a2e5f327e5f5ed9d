// Suppression files in ThreadSanitizer's format, for races: shared by
// `raceaccel check --suppressions` and the runtime's `suppressions=` option
// (docs/reports.md, "Suppressions").
//
// One suppression per line, `TYPE:PATTERN`; blank lines and lines starting
// with '#' are ignored, and so is white space around a line. TYPE is one of
// ThreadSanitizer's: `race`, `race_top` and `called_from_lib` act on race
// reports; `thread`, `mutex`, `signal` and `deadlock` are accepted (a TSan
// file stays usable) but raceaccel makes no such reports. Anything else is a
// malformed file.
//
// PATTERN matches a name as ThreadSanitizer matches it: anywhere in the name
// unless anchored, `^` at its start anchors at the name's start, `$` ends the
// pattern and anchors at the name's end, `*` stands for any characters. Like
// TSan, each literal piece matches at its first place after the previous
// one (no backtracking), and an empty name never matches.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace raceaccel {

enum class SuppressionType { Race, RaceTop, CalledFromLib, Thread, Mutex, Signal, Deadlock };
std::string_view suppression_type_name(SuppressionType type);

struct Suppression {
  SuppressionType type = SuppressionType::Race;
  std::string pattern;
  size_t line = 0;  // 1-based line in its file
};

// A malformed suppressions file; what() is "ORIGIN:LINE: REASON".
class SuppressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One frame of a report's stack as suppressions see it: empty strings are
// unknown and never match.
struct SuppressionFrame {
  std::string_view function;
  std::string_view file;
  std::string_view module;  // the loaded object's path (or name)
};

// What `race:` patterns are matched against: TSan matches the frames of the
// racing accesses' stacks (function, file, module) and, when the memory is a
// global variable, its name and module. Thread-creation and allocation
// stacks are not matched (stock TSan does not either).
struct RaceSubject {
  std::vector<std::vector<SuppressionFrame>> access_stacks;  // current, previous
  std::string_view global_name;                              // empty unless the memory is a global
  std::string_view global_module;
};

// The pattern matcher on its own (exposed for tests).
bool suppression_pattern_matches(std::string_view pattern, std::string_view name);

class Suppressions {
 public:
  // `origin` names the text in messages (the file's path). Throws SuppressionError.
  static Suppressions parse(std::string_view text, const std::string& origin);

  // The first suppression that silences this race, or nullptr:
  // `race:` any frame of either access stack, or the global's name or module;
  // `race_top:` the top frame of either access stack;
  // `called_from_lib:` the module of the top frame of either access. (TSan
  // ignores the accesses its interceptors make when called from such a
  // library; raceaccel drops the report instead: docs/reports.md.)
  const Suppression* match(const RaceSubject& race) const;

  bool empty() const { return entries_.empty(); }
  // Adds another source's suppressions after these (a file and the
  // program's built-in ones are both in force).
  void append(const Suppressions& more) { entries_.insert(entries_.end(), more.entries_.begin(), more.entries_.end()); }
  const std::vector<Suppression>& entries() const { return entries_; }

 private:
  std::vector<Suppression> entries_;
};

}  // namespace raceaccel
