// SARIF logs (host/report/sarif.*): one result per race with both accesses,
// the allocation, stacks and a fingerprint that does not depend on the
// order the accesses were seen in. The schema itself is checked by
// report.sarif_schema (sarif_schema_test.sh).
#include "report/sarif.hpp"

#include <gtest/gtest.h>

#include "core/symbols.hpp"
#include "report/race_report.hpp"

namespace raceaccel {
namespace {

SarifRace heap_race() {
  SarifRace r;
  r.message = "Data race";
  r.current = {"Write by thread T2", "Thread T2", {{"writer", "/src/a b.c", 12, "/bin/prog", 0x40}}, {}};
  r.previous = {"Previous read by thread T1", "Thread T1", {{"reader", "src/r.c", 7, "/bin/prog", 0x80}}, {}};
  r.allocation = SarifStep{"Allocation", {}, {{"", "", 0, "/lib/libc.so.6", 0x99}, {"main", "/src/m.c", 3, "", 0}}, {}};
  r.fingerprint = sarif_race_fingerprint("write writer a.c", "read reader r.c", "heap");
  return r;
}

TEST(SarifFingerprint, SameRaceEitherOrderDifferentRacesDiffer) {
  const std::string fp = sarif_race_fingerprint("write f a.c", "read g b.c", "global x");
  EXPECT_EQ(fp.size(), 16u);
  EXPECT_EQ(fp, sarif_race_fingerprint("read g b.c", "write f a.c", "global x"));
  EXPECT_NE(fp, sarif_race_fingerprint("write f a.c", "read g b.c", "global y"));
  EXPECT_NE(fp, sarif_race_fingerprint("write f a.c", "write g b.c", "global x"));
  // No two splits of the same characters collide.
  EXPECT_NE(sarif_race_fingerprint("ab", "c", ""), sarif_race_fingerprint("a", "bc", ""));
}

TEST(SarifUri, AbsolutePathsAreFileUrisAndOddBytesEncoded) {
  EXPECT_EQ(sarif_uri("/src/a b.c"), "file:///src/a%20b.c");
  EXPECT_EQ(sarif_uri("src/r.c"), "src/r.c");
  EXPECT_EQ(sarif_uri("x#y%z"), "x%23y%25z");
}

TEST(SarifLog, OneResultWithBothAccessesAllocationStacksAndFingerprint) {
  SarifRunInfo run;
  run.version = "9.9.9";
  run.suppressed = 3;
  const nlohmann::json log = sarif_log({heap_race()}, run);
  EXPECT_EQ(log["version"], "2.1.0");
  ASSERT_EQ(log["runs"].size(), 1u);
  const nlohmann::json& r0 = log["runs"][0];
  EXPECT_EQ(r0["tool"]["driver"]["name"], "raceaccel");
  EXPECT_EQ(r0["tool"]["driver"]["version"], "9.9.9");
  EXPECT_EQ(r0["tool"]["driver"]["rules"][0]["id"], "data-race");
  EXPECT_EQ(r0["invocations"][0]["properties"]["suppressed"], 3);
  ASSERT_EQ(r0["results"].size(), 1u);
  const nlohmann::json& res = r0["results"][0];
  EXPECT_EQ(res["ruleId"], "data-race");
  EXPECT_EQ(res["level"], "error");
  const nlohmann::json& loc = res["locations"][0];
  EXPECT_EQ(loc["physicalLocation"]["artifactLocation"]["uri"], "file:///src/a%20b.c");
  EXPECT_EQ(loc["physicalLocation"]["region"]["startLine"], 12);
  EXPECT_EQ(loc["logicalLocations"][0]["fullyQualifiedName"], "writer");
  ASSERT_EQ(res["relatedLocations"].size(), 2u);
  EXPECT_EQ(res["relatedLocations"][0]["id"], 1);
  EXPECT_EQ(res["relatedLocations"][0]["message"]["text"], "Previous read by thread T1");
  EXPECT_EQ(res["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/r.c");
  // The allocation's top frame has no line information: module and offset.
  const nlohmann::json& alloc = res["relatedLocations"][1];
  EXPECT_EQ(alloc["id"], 2);
  EXPECT_EQ(alloc["physicalLocation"]["artifactLocation"]["uri"], "file:///lib/libc.so.6");
  EXPECT_EQ(alloc["physicalLocation"]["address"]["relativeAddress"], 0x99);
  ASSERT_EQ(res["stacks"].size(), 3u);
  EXPECT_EQ(res["stacks"][2]["frames"].size(), 2u);
  EXPECT_EQ(res["stacks"][2]["frames"][0]["module"], "/lib/libc.so.6");
  const nlohmann::json& flows = res["codeFlows"][0]["threadFlows"];
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0]["message"]["text"], "Thread T1");  // the earlier access first
  EXPECT_EQ(flows[1]["locations"][0]["executionOrder"], 2);
  EXPECT_EQ(res["partialFingerprints"][std::string(kSarifFingerprintKey)], heap_race().fingerprint);
}

TEST(SarifLog, NoRacesIsAnEmptyResultList) {
  const nlohmann::json log = sarif_log({}, SarifRunInfo{"1", 0, true, {}});
  EXPECT_TRUE(log["runs"][0]["results"].is_array());
  EXPECT_TRUE(log["runs"][0]["results"].empty());
  EXPECT_EQ(log["runs"][0]["invocations"][0]["executionSuccessful"], true);
}

TEST(SarifTraceRace, SitesAsFramesTraceAsArtifactStableFingerprint) {
  SymbolTable symbols;
  symbols.set(SymbolKind::Location, 0x10, "counter");
  symbols.set(SymbolKind::Thread, 1, "worker");
  Race race;
  race.addr = 0x10;
  race.event = 5;
  race.kind = RaceKind::WriteRead;
  race.tid = 1;
  race.site = 20;
  race.prev_tid = 0;
  race.prev_clock = 2;
  race.prev_site = 10;
  const RaceReport report{0x10, 1, race};
  const SarifRace s = trace_race_sarif(report, symbols, "t.std");
  EXPECT_EQ(s.current.frames.at(0).function, "site 20");
  EXPECT_EQ(s.previous.frames.at(0).function, "site 10");
  EXPECT_EQ(s.current.artifact, "t.std");
  EXPECT_NE(s.message.find("write-read race on counter"), std::string::npos);
  // The same race found with its accesses the other way round (another
  // schedule: the read at 20 first, then the write at 10) keeps its
  // fingerprint, and so does the same race in another trace file.
  Race swapped = race;
  swapped.kind = RaceKind::ReadWrite;
  swapped.site = 10;
  swapped.prev_site = 20;
  swapped.tid = 0;
  swapped.prev_tid = 1;
  EXPECT_EQ(trace_race_sarif({0x10, 1, swapped}, symbols, "t.std").fingerprint, s.fingerprint);
  EXPECT_EQ(trace_race_sarif(report, symbols, "other.std").fingerprint, s.fingerprint);
  // Other accesses or other memory: another race.
  Race writes = race;
  writes.kind = RaceKind::WriteWrite;
  EXPECT_NE(trace_race_sarif({0x10, 1, writes}, symbols, "t.std").fingerprint, s.fingerprint);
  symbols.set(SymbolKind::Location, 0x11, "flag");
  Race elsewhere = race;
  elsewhere.addr = 0x11;
  EXPECT_NE(trace_race_sarif({0x11, 1, elsewhere}, symbols, "t.std").fingerprint, s.fingerprint);

  const TraceRaceNames names = trace_race_names(report, symbols);
  const RaceSubject subject = trace_race_subject(names, "t.std");
  EXPECT_TRUE(Suppressions::parse("race:^20$", "f").match(subject) != nullptr);
  EXPECT_TRUE(Suppressions::parse("race:^counter$", "f").match(subject) != nullptr);
  EXPECT_TRUE(Suppressions::parse("race:t.std", "f").match(subject) != nullptr);
  EXPECT_FALSE(Suppressions::parse("race:^2$", "f").match(subject) != nullptr);
}

}  // namespace
}  // namespace raceaccel
