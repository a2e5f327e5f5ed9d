// Suppression files (host/report/suppressions.*): ThreadSanitizer's format
// and matching rules, as stock TSan applies them (the end-to-end agreement
// with clang-19's TSan is tests/programs/suppressions_tsan_test.sh).
#include "report/suppressions.hpp"

#include <gtest/gtest.h>

namespace raceaccel {
namespace {

TEST(SuppressionPattern, UnanchoredMatchesAnywhere) {
  EXPECT_TRUE(suppression_pattern_matches("counter", "racy_counter_bump"));
  EXPECT_TRUE(suppression_pattern_matches("racy", "racy_counter_bump"));
  EXPECT_TRUE(suppression_pattern_matches("bump", "racy_counter_bump"));
  EXPECT_FALSE(suppression_pattern_matches("Counter", "racy_counter_bump"));  // case matters
}

TEST(SuppressionPattern, AnchorsPinStartAndEnd) {
  EXPECT_TRUE(suppression_pattern_matches("^racy", "racy_counter_bump"));
  EXPECT_FALSE(suppression_pattern_matches("^counter", "racy_counter_bump"));
  EXPECT_TRUE(suppression_pattern_matches("bump$", "racy_counter_bump"));
  EXPECT_FALSE(suppression_pattern_matches("counter$", "racy_counter_bump"));
  EXPECT_TRUE(suppression_pattern_matches("^racy_counter$", "racy_counter"));
  EXPECT_FALSE(suppression_pattern_matches("^racy_counter$", "racy_counter_bump"));
}

TEST(SuppressionPattern, StarMatchesAnyRun) {
  EXPECT_TRUE(suppression_pattern_matches("ra*ump", "racy_counter_bump"));
  EXPECT_TRUE(suppression_pattern_matches("^*writer", "other_writer"));
  EXPECT_TRUE(suppression_pattern_matches("*heap*", "helper_heap_writer"));
  EXPECT_TRUE(suppression_pattern_matches("^racy*", "racy_counter"));
  EXPECT_TRUE(suppression_pattern_matches("racy*$", "racy_counter"));
  EXPECT_FALSE(suppression_pattern_matches("^heap*writer", "helper_heap_writer"));
}

// ThreadSanitizer takes each literal piece at its first occurrence and never
// tries a later one (checked against clang-19's TSan: `race:^o*er$` leaves
// other_writer's race reported, `race:^other*er$` suppresses it).
TEST(SuppressionPattern, EachPieceAtItsFirstOccurrenceLikeTsan) {
  EXPECT_FALSE(suppression_pattern_matches("^o*er$", "other_writer"));
  EXPECT_TRUE(suppression_pattern_matches("^other*er$", "other_writer"));
}

TEST(SuppressionPattern, EmptyNamesNeverMatch) {
  EXPECT_FALSE(suppression_pattern_matches("*", ""));
  EXPECT_FALSE(suppression_pattern_matches("^", ""));
  EXPECT_TRUE(suppression_pattern_matches("*", "x"));
}

TEST(SuppressionFile, ParsesTypesCommentsAndBlankLines) {
  const Suppressions s = Suppressions::parse(
      "# races we accept\n\n  race:counter  \r\nrace_top:^top$\ncalled_from_lib:libfoo.so\nthread:x\nmutex:y\n"
      "signal:z\ndeadlock:w\n",
      "f.supp");
  ASSERT_EQ(s.entries().size(), 7u);
  EXPECT_EQ(s.entries()[0].type, SuppressionType::Race);
  EXPECT_EQ(s.entries()[0].pattern, "counter");
  EXPECT_EQ(s.entries()[0].line, 3u);
  EXPECT_EQ(s.entries()[1].type, SuppressionType::RaceTop);
  EXPECT_EQ(s.entries()[2].type, SuppressionType::CalledFromLib);
  EXPECT_EQ(suppression_type_name(s.entries()[6].type), "deadlock");
  EXPECT_TRUE(Suppressions::parse("", "empty").empty());
}

std::string parse_error(std::string_view text) {
  try {
    Suppressions::parse(text, "f.supp");
  } catch (const SuppressionError& err) {
    return err.what();
  }
  return "(parsed)";
}

TEST(SuppressionFile, MalformedLinesNameFileAndLine) {
  EXPECT_EQ(parse_error("race:a\nno colon here\n"),
            "f.supp:2: expected TYPE:PATTERN (e.g. race:my_function), got 'no colon here'");
  EXPECT_EQ(parse_error("# c\nraces:a\n"),
            "f.supp:2: unknown suppression type 'races' (race, race_top, called_from_lib, thread, mutex, signal, "
            "deadlock)");
  EXPECT_EQ(parse_error("race:   \n"), "f.supp:1: 'race:' has no pattern");
}

RaceSubject subject(std::vector<std::vector<SuppressionFrame>> stacks, std::string_view global = {},
                    std::string_view global_module = {}) {
  RaceSubject s;
  s.access_stacks = std::move(stacks);
  s.global_name = global;
  s.global_module = global_module;
  return s;
}

TEST(SuppressionMatch, RaceMatchesEveryFrameOfBothAccessStacks) {
  const Suppressions s = Suppressions::parse("race:^caller$\n", "f");
  const auto deep = subject(
      {{{"top", "/src/a.c", "/bin/prog"}, {"caller", "/src/a.c", "/bin/prog"}}, {{"other", "/src/b.c", "/bin/prog"}}});
  ASSERT_NE(s.match(deep), nullptr);
  EXPECT_EQ(s.match(deep)->line, 1u);
  // The same name in the previous access's stack counts too.
  EXPECT_NE(s.match(subject({{{"top", "", ""}}, {{"x", "", ""}, {"caller", "", ""}}})), nullptr);
  EXPECT_EQ(s.match(subject({{{"top", "", ""}}, {{"callers", "", ""}}})), nullptr);
}

TEST(SuppressionMatch, RaceMatchesFilesModulesAndGlobals) {
  const auto race = subject({{{"f", "/src/worker.c", "/usr/lib/libw.so"}}, {{"g", "/src/main.c", "/bin/prog"}}},
                            "shared_total", "/bin/prog");
  EXPECT_NE(Suppressions::parse("race:worker.c", "f").match(race), nullptr);
  EXPECT_NE(Suppressions::parse("race:^/usr/lib/", "f").match(race), nullptr);
  EXPECT_NE(Suppressions::parse("race:^shared_total$", "f").match(race), nullptr);
  EXPECT_EQ(Suppressions::parse("race:^total", "f").match(race), nullptr);
  EXPECT_EQ(Suppressions::parse("race:nothing", "f").match(race), nullptr);
}

TEST(SuppressionMatch, RaceTopAndCalledFromLibLookAtTopFramesOnly) {
  const auto race = subject({{{"memcpy_caller", "", "/usr/lib/libfoo.so"}, {"main", "/src/m.c", "/bin/prog"}},
                             {{"writer", "/src/w.c", "/bin/prog"}}});
  EXPECT_NE(Suppressions::parse("race_top:writer", "f").match(race), nullptr);
  EXPECT_EQ(Suppressions::parse("race_top:main", "f").match(race), nullptr);
  EXPECT_NE(Suppressions::parse("race:main", "f").match(race), nullptr);
  EXPECT_NE(Suppressions::parse("called_from_lib:libfoo.so", "f").match(race), nullptr);
  EXPECT_EQ(Suppressions::parse("called_from_lib:memcpy_caller", "f").match(race), nullptr);  // modules only
  EXPECT_EQ(Suppressions::parse("called_from_lib:libbar.so", "f").match(race), nullptr);
}

TEST(SuppressionMatch, OtherReportTypesNeverSilenceARace) {
  const auto race = subject({{{"f", "a.c", "m"}}, {{"f", "a.c", "m"}}}, "g", "m");
  EXPECT_EQ(Suppressions::parse("thread:f\nmutex:f\nsignal:f\ndeadlock:f\n", "x").match(race), nullptr);
}

}  // namespace
}  // namespace raceaccel
