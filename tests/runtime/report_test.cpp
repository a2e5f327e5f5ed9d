// The runtime end to end: programs built with raceaccel-cc/c++ (clang-19 and
// gcc), run with RACEACCEL_OPTIONS; the reports' stacks and lines, JSON,
// exit statuses, log files, the recording round trip through `raceaccel
// check`, and `raceaccel run`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "process_runner.hpp"

using raceaccel::test::ProcessResult;
using raceaccel::test::run_process;

namespace {

std::string program(const std::string& name) { return std::string(RT_PROGRAM_DIR) + "/" + name; }

// Each pattern must match after the previous one's match.
void expect_in_order(const std::string& text, const std::vector<std::string>& patterns) {
  size_t pos = 0;
  for (const std::string& p : patterns) {
    std::smatch m;
    const std::string rest = text.substr(pos);
    if (!std::regex_search(rest, m, std::regex(p))) {
      ADD_FAILURE() << "pattern not found (in order): " << p << "\n--- output ---\n" << text;
      return;
    }
    pos += static_cast<size_t>(m.position(0) + m.length(0));
  }
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));  // throws: the test fails
  }
  return out;
}

void expect_report_format(const std::string& binary) {
  const ProcessResult r = run_process({program(binary)});
  EXPECT_EQ(r.status, 66);
  const std::string hex = "0x[0-9a-f]+";
  expect_in_order(r.err, {
                             "WARNING: raceaccel: data race \\(pid=[0-9]+\\)\n",
                             "  Read of size 4 at " + hex + " by main thread:\n",
                             "    #0 main [^\n]*report_format\\.c:29 \\(" + binary + "\\+" + hex + "\\)\n",
                             "  Previous write of size 4 at " + hex + " by thread T1:\n",
                             "    #0 worker [^\n]*report_format\\.c:17 ",
                             "  Location is global 'shared_global' of size 4 at " + hex,
                             "  Thread T1 \\(tid=[0-9]+, (running|finished)\\) created by main thread at:\n",
                             "    #0 main [^\n]*report_format\\.c:27 ",
                             "WARNING: raceaccel: data race",
                             "  Write of size 8 at " + hex + " by main thread:\n",
                             "    #0 main [^\n]*report_format\\.c:30 ",
                             "  Previous write of size 8 at " + hex + " by thread T1:\n",
                             "    #0 store_to [^\n]*report_format\\.c:14 ",
                             "    #1 worker [^\n]*report_format\\.c:18 ",
                             "  Location is heap block of size 16 at " + hex + " allocated by main thread:\n",
                             "    #0 main [^\n]*report_format\\.c:25 ",
                             "SUMMARY: raceaccel: data race [^\n]*report_format\\.c:29 in main\n",
                             "SUMMARY: raceaccel: data race [^\n]*report_format\\.c:30 in main\n",
                         });
  EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 2u);
  EXPECT_EQ(count(r.err, "SUMMARY: raceaccel:"), 2u);
}

std::set<std::pair<uint64_t, uint64_t>> site_pairs(const std::vector<nlohmann::json>& objects, const char* current,
                                                   const char* previous) {
  std::set<std::pair<uint64_t, uint64_t>> pairs;
  for (const auto& o : objects) {
    if (!o.contains(current)) continue;
    const uint64_t a = o[current]["site"], b = o[previous]["site"];
    pairs.insert(std::minmax(a, b));
  }
  return pairs;
}

// The (site, earlier site) pairs of the races DJIT+ finds replaying a
// recording, as site_pairs gives them for a live run.
std::set<std::pair<uint64_t, uint64_t>> golden_site_pairs(const std::string& trace) {
  const ProcessResult check = run_process({RACEACCEL_CLI, "check", "--json", "--detector", "djit", trace});
  const auto doc = nlohmann::json::parse(check.out);  // throws: the test fails
  std::set<std::pair<uint64_t, uint64_t>> pairs;
  for (const auto& race : doc["races"]) {
    const uint64_t a = race["site"], b = race["previous"]["site"];
    pairs.insert(std::minmax(a, b));
  }
  return pairs;
}

}  // namespace

TEST(RuntimeReports, StacksAndLinesOfBothAccessesClang) { expect_report_format("report_format"); }
TEST(RuntimeReports, StacksAndLinesOfBothAccessesGcc) { expect_report_format("report_format_gcc"); }

TEST(RuntimeReports, InlinedCallsAreFramesOfTheirOwn) {
  for (const char* binary : {"inlined", "inlined_gcc"}) {
    const ProcessResult r = run_process({program(binary)});
    EXPECT_EQ(r.status, 66) << binary;
    expect_in_order(r.err, {"by main thread:\n", "    #0 bump [^\n]*inlined\\.c:12 ",
                            "    #1 main [^\n]*inlined\\.c:27 ", "Previous [^\n]* by thread T1:\n",
                            "    #0 bump [^\n]*inlined\\.c:12 ", "    #1 worker [^\n]*inlined\\.c:17 "});
  }
}

// Coalescing makes each unrolled loop one run of accesses from several
// instructions in turn, and leaves out the half of a 16-byte load that the
// load before it read already; both reports of each race must still name
// the instruction that touched the racy element first (stock TSan names the
// same lines), and the current access's own address, not the run's or the
// checked half's.
TEST(RuntimeReports, RacesInUnrolledLoopsNameTheirOwnInstruction) {
  const std::string hex = "0x[0-9a-f]+";
  // With runs extended only by the runtime, and with coalescing switched
  // off: the same reports.
  for (const char* options :
       {"RACEACCEL_OPTIONS=", "RACEACCEL_OPTIONS=inline_runs=0", "RACEACCEL_OPTIONS=coalesce=0"}) {
    const ProcessResult r = run_process({program("unrolled_report")}, {options});
    EXPECT_EQ(r.status, 66) << options;
    expect_in_order(r.err, {
                               "  Read of size 4 at " + hex + " by main thread:\n",
                               "    #0 main [^\n]*unrolled_report\\.c:38 ",
                               "  Previous write of size 4 at " + hex + " by thread T1:\n",
                               "    #0 worker [^\n]*unrolled_report\\.c:22 ",
                               "  Read of size 4 at " + hex + " by main thread:\n",
                               "    #0 main [^\n]*unrolled_report\\.c:41 ",
                               "  Previous write of size 4 at " + hex + " by thread T1:\n",
                               "    #0 worker [^\n]*unrolled_report\\.c:25 ",
                               "  Read of size 16 at " + hex + " by main thread:\n",
                               "    #0 main [^\n]*unrolled_report\\.c:48 ",
                               "  Previous write of size 8 at " + hex + " by thread T1:\n",
                               "    #0 worker [^\n]*unrolled_report\\.c:26 ",
                               "  Read of size 16 at " + hex + " by main thread:\n",
                               "    #0 main [^\n]*unrolled_report\\.c:49 ",
                               "  Previous write of size 8 at " + hex + " by thread T1:\n",
                               "    #0 worker [^\n]*unrolled_report\\.c:27 ",
                           });
    // Main's four stores a round over what T1's loop wrote: one report per
    // store instruction, as without coalescing (a run's racy bytes are cut
    // where their instruction changes).
    for (const int line : {55, 56, 57, 58}) {
      expect_in_order(r.err, {"  Write of size 4 at " + hex + " by main thread:\n",
                              "    #0 main [^\n]*unrolled_report\\.c:" + std::to_string(line) + " ",
                              "  Previous write of size 4 at " + hex + " by thread T1:\n",
                              "    #0 worker [^\n]*unrolled_report\\.c:28 "});
    }
    EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 8u) << options;
    // Each 16-byte load starts one element before the racy one it read.
    const std::regex pair(
        "Read of size 16 at (0x[0-9a-f]+) by main thread:\n[^\n]*\n\n  Previous write of size 8 at "
        "(0x[0-9a-f]+)");
    size_t loads = 0;
    for (std::sregex_iterator it(r.err.begin(), r.err.end(), pair), end; it != end; ++it, ++loads)
      EXPECT_EQ(std::stoull((*it)[2].str(), nullptr, 16) - std::stoull((*it)[1].str(), nullptr, 16), 8u) << options;
    EXPECT_EQ(loads, 2u) << options;
  }
}

TEST(RuntimeReports, CleanProgramIsSilentClang) {
  const ProcessResult r = run_process({program("clean")});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "counter=1600 payload=99 handed=42 child=0\n");
}

TEST(RuntimeReports, CleanProgramIsSilentGcc) {
  const ProcessResult r = run_process({program("clean_gcc")});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "counter=1600 payload=99 handed=42 child=0\n");
}

TEST(RuntimeReports, CleanProgramIsSilentUnderTheGoldenDetector) {
  const ProcessResult r = run_process({program("clean")}, {"RACEACCEL_OPTIONS=backend=djit"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

TEST(RuntimeReports, GoldenDetectorReportsTheSameRaces) {
  const ProcessResult soft = run_process({program("report_format")});
  const ProcessResult djit = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=backend=djit"});
  EXPECT_EQ(djit.status, 66);
  auto summaries = [](const std::string& err) {
    const size_t at = err.find("SUMMARY:");
    return at == std::string::npos ? "no SUMMARY in: " + err : err.substr(at);
  };
  EXPECT_EQ(summaries(soft.err), summaries(djit.err));
}

TEST(RuntimeReports, AtomicsPublicationAcquireReleaseIsClean) {
  for (const char* binary : {"atomics", "atomics_gcc"}) {
    const ProcessResult r = run_process({program(binary), "acqrel"});
    EXPECT_EQ(r.status, 0) << binary << r.err;
    EXPECT_EQ(r.err, "") << binary;
  }
}

TEST(RuntimeReports, AtomicsPublicationRelaxedIsARace) {
  for (const char* binary : {"atomics", "atomics_gcc"}) {
    const ProcessResult r = run_process({program(binary), "relaxed"});
    EXPECT_EQ(r.status, 66) << binary;
    EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 1u) << binary << r.err;
    expect_in_order(r.err, {"Write of size 4 at 0x[0-9a-f]+ by main thread", "Previous write of size 4",
                            "Location is global '[^']*data[^']*'"});
  }
}

TEST(RuntimeReports, JsonReportsOneObjectPerLine) {
  const ProcessResult r = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=json=1"});
  EXPECT_EQ(r.status, 66);
  const auto objects = json_lines(r.err);
  ASSERT_EQ(objects.size(), 3u) << r.err;
  EXPECT_EQ(objects[0]["type"], "data race");
  EXPECT_EQ(objects[0]["current"]["access"], "read");
  EXPECT_EQ(objects[0]["current"]["size"], 4);
  EXPECT_EQ(objects[0]["current"]["stack"][0]["line"], 29);
  EXPECT_EQ(objects[0]["previous"]["stack"][0]["function"], "worker");
  EXPECT_EQ(objects[0]["previous"]["stack"][0]["line"], 17);
  EXPECT_EQ(objects[0]["location"]["kind"], "global");
  EXPECT_EQ(objects[1]["location"]["kind"], "heap");
  EXPECT_EQ(objects[1]["previous"]["stack"][1]["line"], 18);
  EXPECT_EQ(objects[2]["type"], "summary");
  EXPECT_EQ(objects[2]["reports"], 2);
}

TEST(RuntimeReports, ExitStatusOptions) {
  EXPECT_EQ(run_process({program("exit_status")}).status, 66);
  EXPECT_EQ(run_process({program("exit_status")}, {"RACEACCEL_OPTIONS=exitcode=23"}).status, 23);
  const ProcessResult own = run_process({program("exit_status"), "3"});
  EXPECT_EQ(own.status, 3);  // the program's own failure is kept
  EXPECT_EQ(count(own.err, "SUMMARY: raceaccel:"), 2u);
  const ProcessResult halt = run_process({program("exit_status")}, {"RACEACCEL_OPTIONS=halt_on_error=1"});
  EXPECT_EQ(halt.status, 66);
  EXPECT_EQ(count(halt.err, "WARNING: raceaccel: data race"), 1u);
  const ProcessResult limited = run_process({program("exit_status")}, {"RACEACCEL_OPTIONS=report_limit=1"});
  EXPECT_EQ(limited.status, 66);
  EXPECT_EQ(count(limited.err, "WARNING: raceaccel: data race"), 1u);
  EXPECT_NE(limited.err.find("1 beyond report_limit"), std::string::npos) << limited.err;
}

// backend=verilator: the same program checked on the simulated accelerator
// reports the same race, with both stacks, at exit.
TEST(RuntimeReports, VerilatorBackendReportsTheSameRace) {
  const ProcessResult software = run_process({program("report_format")}, {});
  const ProcessResult device = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=backend=verilator"});
  EXPECT_EQ(software.status, 66);
  EXPECT_EQ(device.status, 66) << device.err;
  EXPECT_EQ(count(device.err, "WARNING: raceaccel: data race"), count(software.err, "WARNING: raceaccel: data race"));
  const auto summary = [](const std::string& err) {
    const size_t at = err.find("SUMMARY:");
    return at == std::string::npos ? "no SUMMARY in: " + err : err.substr(at);
  };
  EXPECT_EQ(summary(device.err), summary(software.err)) << device.err;
}

TEST(RuntimeReports, DeviceBackendJsonSummaryCarriesAcceleratorStatistics) {
  for (const char* binary : {"report_format", "clean"}) {
    const ProcessResult r = run_process({program(binary)}, {"RACEACCEL_OPTIONS=backend=verilator:json=1"});
    const auto objects = json_lines(r.err);
    ASSERT_FALSE(objects.empty()) << binary << ": " << r.err;
    const nlohmann::json& summary = objects.back();
    EXPECT_EQ(summary["type"], "summary") << binary;
    ASSERT_TRUE(summary.contains("accelerator")) << binary << ": " << summary.dump();
    const nlohmann::json& a = summary["accelerator"];
    EXPECT_GT(a["accesses"].get<uint64_t>(), 0u) << binary;
    EXPECT_LE(a["on_chip"].get<uint64_t>(), a["accesses"].get<uint64_t>()) << binary;
    EXPECT_TRUE(a["escalations"].is_object()) << binary;
    EXPECT_GT(a["command_bytes"].get<uint64_t>(), 0u) << binary;
    EXPECT_TRUE(a["cycles"].is_number()) << binary << ": the Verilator backend models cycles";
    EXPECT_TRUE(a.contains("host_ns_per_event")) << binary;
  }
  // The in-process detectors have no accelerator: a clean run stays silent.
  EXPECT_EQ(run_process({program("clean")}, {"RACEACCEL_OPTIONS=json=1"}).err, "");
}

TEST(RuntimeReports, BadOptionsStopBeforeTheProgramRuns) {
  const ProcessResult unknown = run_process({program("clean")}, {"RACEACCEL_OPTIONS=json=1 colour=red"});
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("'colour'"), std::string::npos) << unknown.err;
  EXPECT_EQ(unknown.out, "");
  const ProcessResult bad = run_process({program("clean")}, {"RACEACCEL_OPTIONS=exitcode=lots"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("'exitcode'"), std::string::npos) << bad.err;
  // backend=xrt needs the card image: a usage error before the program runs.
  const ProcessResult device = run_process({program("clean")}, {"RACEACCEL_OPTIONS=backend=xrt"});
  EXPECT_EQ(device.status, 2);
  EXPECT_NE(device.err.find("xclbin"), std::string::npos) << device.err;
  EXPECT_EQ(device.out, "");
  // A card image that does not exist: 74, as for `raceaccel check`.
  const ProcessResult missing =
      run_process({program("clean")}, {"RACEACCEL_OPTIONS=backend=xrt xclbin=/nonexistent/rac_kernel.xclbin"});
  EXPECT_EQ(missing.status, 74) << missing.err;
  const ProcessResult unwritable =
      run_process({program("clean")}, {"RACEACCEL_OPTIONS=record=/nonexistent-dir/trace.rtrace"});
  EXPECT_EQ(unwritable.status, 74);
}

// suppressions=FILE (ThreadSanitizer's format): matched reports are not
// printed, counted in the summary, and do not make the exit status 66.
TEST(RuntimeReports, SuppressionsSilenceMatchingReports) {
  const std::string dir = "/tmp/raceaccel_rt_supp_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
  };
  // The global's name: only the heap race (store_to vs main) is left.
  const std::string global = write("global.supp", "# known\nrace:^shared_global$\n");
  const ProcessResult one = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=suppressions=" + global});
  EXPECT_EQ(one.status, 66);
  EXPECT_EQ(count(one.err, "WARNING: raceaccel: data race"), 1u) << one.err;
  EXPECT_NE(one.err.find("#0 store_to "), std::string::npos) << one.err;  // the heap race
  EXPECT_NE(one.err.find("raceaccel: reported 1 data race (1 suppressed)"), std::string::npos) << one.err;
  // A frame of the previous access's stack (worker calls store_to): both gone, exit 0.
  const std::string frame = write("frame.supp", "race:worker\n");
  const ProcessResult none = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=suppressions=" + frame});
  EXPECT_EQ(none.status, 0) << none.err;
  EXPECT_EQ(count(none.err, "WARNING: raceaccel"), 0u) << none.err;
  EXPECT_NE(none.err.find("raceaccel: reported 0 data races (2 suppressed)"), std::string::npos) << none.err;
  // JSON: the summary object counts them.
  const ProcessResult json =
      run_process({program("report_format")}, {"RACEACCEL_OPTIONS=json=1 suppressions=" + global});
  const auto objects = json_lines(json.err);
  ASSERT_EQ(objects.size(), 2u) << json.err;
  EXPECT_EQ(objects[1]["type"], "summary");
  EXPECT_EQ(objects[1]["reports"], 1);
  EXPECT_EQ(objects[1]["suppressed"], 1);
  // A suppressed report does not use up report_limit.
  const ProcessResult limited =
      run_process({program("report_format")}, {"RACEACCEL_OPTIONS=report_limit=1 suppressions=" + global});
  EXPECT_EQ(count(limited.err, "WARNING: raceaccel: data race"), 1u) << limited.err;
  EXPECT_EQ(limited.err.find("beyond report_limit"), std::string::npos) << limited.err;
  std::filesystem::remove_all(dir);
}

TEST(RuntimeReports, MalformedSuppressionsStopBeforeTheProgramRuns) {
  const std::string path = "/tmp/raceaccel_rt_bad_supp_" + std::to_string(getpid());
  std::ofstream(path) << "race:fine\nrace fine\n";
  const ProcessResult bad = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=suppressions=" + path});
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find(path + ":2: expected TYPE:PATTERN"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find("WARNING"), std::string::npos) << bad.err;
  const ProcessResult missing =
      run_process({program("report_format")}, {"RACEACCEL_OPTIONS=suppressions=/nonexistent/x.supp"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("cannot open /nonexistent/x.supp"), std::string::npos) << missing.err;
  std::remove(path.c_str());
}

// sarif=FILE: the printed reports as a SARIF log (its schema is checked by
// report.sarif_schema), also for a clean run.
TEST(RuntimeReports, SarifLogHasOneResultPerReport) {
  const std::string path = "/tmp/raceaccel_rt_sarif_" + std::to_string(getpid()) + ".sarif";
  const ProcessResult r = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=sarif=" + path});
  EXPECT_EQ(r.status, 66);
  const nlohmann::json log = nlohmann::json::parse(raceaccel::test::slurp(path));
  const nlohmann::json& results = log["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u);
  const nlohmann::json& global = results[0];
  EXPECT_EQ(global["locations"][0]["physicalLocation"]["region"]["startLine"], 29);
  EXPECT_EQ(global["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 17);
  EXPECT_EQ(global["relatedLocations"].size(), 1u);
  const nlohmann::json& heap = results[1];
  EXPECT_EQ(heap["relatedLocations"].size(), 2u);  // the earlier access and the allocation
  EXPECT_EQ(heap["relatedLocations"][1]["physicalLocation"]["region"]["startLine"], 25);
  EXPECT_EQ(heap["stacks"][1]["frames"][1]["location"]["physicalLocation"]["region"]["startLine"], 18);
  EXPECT_NE(global["partialFingerprints"]["raceaccelRace/v1"], heap["partialFingerprints"]["raceaccelRace/v1"]);
  const ProcessResult clean = run_process({program("clean")}, {"RACEACCEL_OPTIONS=sarif=" + path});
  EXPECT_EQ(clean.status, 0);
  EXPECT_TRUE(nlohmann::json::parse(raceaccel::test::slurp(path))["runs"][0]["results"].empty());
  std::remove(path.c_str());
}

TEST(RuntimeReports, LogPathGetsTheReports) {
  const std::string dir = "/tmp/raceaccel_rt_log_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const ProcessResult r = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=log_path=" + dir + "/report"});
  EXPECT_EQ(r.status, 66);
  EXPECT_EQ(r.err, "");
  std::string log;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) log += raceaccel::test::slurp(entry.path());
  EXPECT_EQ(count(log, "WARNING: raceaccel: data race"), 2u);
  EXPECT_EQ(count(log, "SUMMARY: raceaccel:"), 2u);
  std::filesystem::remove_all(dir);
}

// A log file that cannot be created: the reports go to stderr, with a note why.
TEST(RuntimeReports, UnwritableLogPathFallsBackToStderr) {
  const ProcessResult r =
      run_process({program("report_format")}, {"RACEACCEL_OPTIONS=log_path=/nonexistent-dir/report"});
  EXPECT_EQ(r.status, 66);
  EXPECT_NE(r.err.find("cannot open log_path file /nonexistent-dir/report."), std::string::npos) << r.err;
  EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 2u);
}

// A SARIF log that cannot be written is an I/O error of the run (74, like
// an unwritable recording), with the reason, not a silent loss; a written
// one leaves no temporary file behind.
TEST(RuntimeReports, UnwritableSarifLogIsAnIoError) {
  const ProcessResult r =
      run_process({program("report_format")}, {"RACEACCEL_OPTIONS=sarif=/nonexistent-dir/races.sarif"});
  EXPECT_EQ(r.status, 74) << r.err;
  EXPECT_NE(r.err.find("raceaccel: cannot write the SARIF log /nonexistent-dir/races.sarif: No such file or directory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 2u);

  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("raceaccel_sarif_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const ProcessResult ok =
      run_process({program("report_format")}, {"RACEACCEL_OPTIONS=sarif=" + (dir / "races.sarif").string()});
  EXPECT_EQ(ok.status, 66) << ok.err;
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "races.sarif");
  }
  EXPECT_EQ(files, 1u);
  std::filesystem::remove_all(dir);
}

TEST(RuntimeReports, RecordedStreamReplaysToTheSameRaces) {
  const std::string trace = "/tmp/raceaccel_rt_record_" + std::to_string(getpid()) + ".rtrace";
  const ProcessResult r = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=json=1 record=" + trace});
  EXPECT_EQ(r.status, 66);
  const auto live = site_pairs(json_lines(r.err), "current", "previous");
  ASSERT_EQ(live.size(), 2u);
  for (const char* detector : {"fasttrack", "djit"}) {
    const ProcessResult check = run_process({RACEACCEL_CLI, "check", "--json", "--detector", detector, trace});
    EXPECT_EQ(check.status, 66) << check.err;
    const auto doc = nlohmann::json::parse(check.out);
    std::set<std::pair<uint64_t, uint64_t>> replayed;
    for (const auto& race : doc["races"]) {
      const uint64_t a = race["site"], b = race["previous"]["site"];
      replayed.insert(std::minmax(a, b));
    }
    EXPECT_EQ(replayed, live) << detector;
  }
  std::remove(trace.c_str());
}

// halt_on_error ends the process at the first report, from inside the
// checker: the recording must still be complete (last block and trailer
// written) and replay to a stream that holds the reported race.
TEST(RuntimeReports, HaltedRunLeavesAReadableRecording) {
  const std::string trace = "/tmp/raceaccel_rt_halt_" + std::to_string(getpid()) + ".rtrace";
  const ProcessResult r =
      run_process({program("exit_status")}, {"RACEACCEL_OPTIONS=json=1 halt_on_error=1 record=" + trace});
  EXPECT_EQ(r.status, 66) << r.err;
  const auto objects = json_lines(r.err);
  const auto live = site_pairs(objects, "current", "previous");
  ASSERT_EQ(live.size(), 1u) << r.err;
  ASSERT_FALSE(objects.empty());
  EXPECT_EQ(objects.back()["type"], "summary");
  EXPECT_EQ(objects.back()["reports"], 1);
  for (const char* detector : {"fasttrack", "djit"}) {
    const ProcessResult check = run_process({RACEACCEL_CLI, "check", "--json", "--detector", detector, trace});
    ASSERT_EQ(check.status, 66) << detector << ": " << check.err;
    const auto doc = nlohmann::json::parse(check.out);
    std::set<std::pair<uint64_t, uint64_t>> replayed;
    for (const auto& race : doc["races"]) {
      const uint64_t a = race["site"], b = race["previous"]["site"];
      replayed.insert(std::minmax(a, b));
    }
    // The halt came after the drain that found the race; that drain may hold
    // the second race too, which was not reported.
    EXPECT_TRUE(replayed.contains(*live.begin())) << detector << ": " << check.out;
  }
  std::remove(trace.c_str());
}

TEST(RuntimeReports, SeparateCompileAndLinkSteps) {
  const ProcessResult r = run_process({program("split_steps")});
  EXPECT_EQ(r.status, 66);
  expect_in_order(r.err, {"Write of size 8 at 0x[0-9a-f]+ by main thread:\n", "    #0 main [^\n]*split_main\\.c:17 ",
                          "Previous write of size 8 at 0x[0-9a-f]+ by thread T1:\n",
                          "    #0 split_worker [^\n]*split_worker\\.c:9 ", "Location is global 'split_counter'"});
  EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 1u);
}

// The same objects joined first by a relocatable link (-r) through the
// wrapper, which must add no runtime there (a shared object cannot go into
// a relocatable link), then linked into the program.
TEST(RuntimeReports, RelocatableLinkStepKeepsTheProgramChecked) {
  const ProcessResult r = run_process({program("split_relocatable")});
  EXPECT_EQ(r.status, 66);
  expect_in_order(r.err, {"Write of size 8 at 0x[0-9a-f]+ by main thread:\n", "    #0 main [^\n]*split_main\\.c:17 ",
                          "Previous write of size 8 at 0x[0-9a-f]+ by thread T1:\n",
                          "    #0 split_worker [^\n]*split_worker\\.c:9 "});
  EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 1u);
}

// A program linked with a library that defines malloc and free (a malloc
// replacement, -ljemalloc's shape): the wrapper links the runtime first, so
// its malloc and free see every block (and serve it from glibc, as TSan's
// own allocator replaces any other: the library is never called). Linked
// after the library (as it was), the runtime saw no allocation, and glibc's
// reuse of blocks another thread freed was reported as a race in every run
// (probe 20).
TEST(RuntimeReports, AMallocReplacementLibraryDoesNotHideAllocations) {
  for (int run = 0; run < 5; ++run) {
    const ProcessResult r = run_process({program("malloc_replacement_clean")});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 0u) << r.err;
    EXPECT_NE(r.out.find("replacement calls none"), std::string::npos) << r.out;
  }
}

// Suppressions built into the program (__tsan_default_suppressions, as
// with ThreadSanitizer): the race is suppressed and counted; built-in ones
// that do not parse stop the program before main with status 2.
TEST(RuntimeReports, TheProgramsBuiltInSuppressionsApply) {
  const ProcessResult r = run_process({program("default_suppressions")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 0u) << r.err;
  EXPECT_NE(r.err.find("suppressed"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "counter 2\n");
  const ProcessResult bad = run_process({program("default_suppressions_malformed")});
  EXPECT_EQ(bad.status, 2) << bad.err;
  EXPECT_NE(bad.err.find("__tsan_default_suppressions"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.out, "");
}

// The worker in a shared library built by the wrapper (no callbacks'
// archive in a -shared link: its TLS is local-exec), the main program
// linked with the archive. The library's accesses are checked through the
// program's callbacks (the program exports them) and reported with the
// library's source lines.
TEST(RuntimeReports, InstrumentedSharedLibraryUsesTheProgramsCallbacks) {
  const ProcessResult r = run_process({program("split_shared")}, {"LD_DEBUG=bindings"});
  EXPECT_EQ(r.status, 66);
  expect_in_order(r.err, {"Write of size 8 at 0x[0-9a-f]+ by main thread:\n", "    #0 main [^\n]*split_main\\.c:17 ",
                          "Previous write of size 8 at 0x[0-9a-f]+ by thread T1:\n",
                          "    #0 split_worker [^\n]*split_worker\\.c:9 ", "Location is global 'split_counter'"});
  EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 1u);
  for (const char* callback : {"__tsan_func_entry", "__tsan_write8"}) {
    const std::string binding =
        "libsplit_worker.so [0] to " + program("split_shared") + " [0]: normal symbol `" + callback + "'";
    EXPECT_NE(r.err.find(binding), std::string::npos) << "the library's " << callback << " is not the program's";
  }
}

// Randomized differential test of the live checking path: for several seeds
// the runtime (FastTrack, in process) must report exactly the site pairs the
// golden DJIT+ detector finds when it replays the recorded stream. The
// region filter is off here: with it, the recording also holds the accesses
// it decided, whose sites can pair up differently while every racy byte
// stays the same (region_filter_test.cpp compares the bytes, filter on).
TEST(RuntimeReports, RandomProgramsAgreeWithTheGoldenDetector) {
  const std::string trace = "/tmp/raceaccel_rt_random_" + std::to_string(getpid()) + ".rtrace";
  size_t racy_seeds = 0;
  for (int seed = 1; seed <= 8; ++seed) {
    // Reports, not only racy bytes, are compared, so the recording must
    // hold the accesses in the order they were checked. Coalescing does
    // (a run is recorded with the accesses it absorbed right after its
    // first; recorded where each access was made, CI's seed 7 once named a
    // different earlier access). The region filter does not: a filtered
    // access is recorded but never checked, which can change which access
    // of a racy byte is reported first, never which bytes are racy (that is
    // runtime_region_filter_tests, with the filter on). Nor do loads of a
    // held clock: recorded where they took effect, checked at the next drain.
    const ProcessResult r = run_process({program("random_mix"), std::to_string(seed)},
                                        {"RACEACCEL_OPTIONS=json=1 region_filter=0 own_loads=0 record=" + trace});
    ASSERT_TRUE(r.status == 0 || r.status == 66) << r.err;
    const auto live = site_pairs(json_lines(r.err), "current", "previous");
    racy_seeds += !live.empty();
    const auto golden = golden_site_pairs(trace);
    EXPECT_EQ(live, golden) << "seed " << seed;
    EXPECT_EQ(r.status, live.empty() ? 0 : 66) << "seed " << seed;
  }
  EXPECT_GT(racy_seeds, 0u);  // the mix does produce races
  std::remove(trace.c_str());
}

// A run is recorded with the accesses it absorbed right after its first,
// the order it was checked in, so a detector replaying the recording names
// the same accesses as the live run: here the loop's store, checked (as
// part of its run) before the read the thread made first. Without
// coalescing both name the read, as stock TSan does. Fails when absorbed
// accesses are recorded where they were made.
TEST(RuntimeReports, RunsAreRecordedInTheOrderTheyWereChecked) {
  const std::string trace = "/tmp/raceaccel_rt_run_order_" + std::to_string(getpid()) + ".rtrace";
  for (const char* coalesce : {"1", "0"}) {
    const ProcessResult r = run_process(
        {program("run_order_race")},
        {std::string("RACEACCEL_OPTIONS=json=1 region_filter=0 coalesce=") + coalesce + " record=" + trace});
    ASSERT_EQ(r.status, 66) << r.err;
    const auto live = site_pairs(json_lines(r.err), "current", "previous");
    const auto golden = golden_site_pairs(trace);
    EXPECT_EQ(live.size(), 1u) << r.err;
    EXPECT_EQ(live, golden) << "coalesce=" << coalesce;
    const std::string current_line = std::string("run_order_race.c:") + (*coalesce == '1' ? "22" : "21");
    EXPECT_NE(r.err.find(current_line), std::string::npos) << "coalesce=" << coalesce << "\n" << r.err;
  }
  std::remove(trace.c_str());
}

// A run the callbacks extend inline (runtime.hpp, extend_stream) keeps one
// call stack: the same instruction reached through another caller starts
// a run of its own, so the report names the caller that read the byte.
// Fails when extend_stream does not compare the call stack.
TEST(RuntimeReports, RunsExtendedInlineKeepTheirCallStacks) {
  for (const char* inline_runs : {"1", "0"}) {
    const ProcessResult r =
        run_process({program("stream_call_stacks")}, {std::string("RACEACCEL_OPTIONS=inline_runs=") + inline_runs});
    ASSERT_EQ(r.status, 66) << r.err;
    EXPECT_NE(r.err.find("via_second"), std::string::npos) << "inline_runs=" << inline_runs << "\n" << r.err;
    EXPECT_EQ(r.err.find("via_first"), std::string::npos) << "inline_runs=" << inline_runs << "\n" << r.err;
  }
}

// Runs of one instruction whose accesses add different numbers of bytes
// (the first 16-byte load all of it, the others their second half): the
// report names the load that first read the racy element, at its own
// address, whichever way the run was extended. Fails when the callbacks
// extend a run with an access whose covered prefix is not the one its
// pattern expects (they then name lanes[8], not lanes[7]).
TEST(RuntimeReports, OverlappingLoadsOfOneInstructionNameTheirOwnAddress) {
  for (const char* options :
       {"RACEACCEL_OPTIONS=", "RACEACCEL_OPTIONS=inline_runs=0", "RACEACCEL_OPTIONS=coalesce=0"}) {
    const ProcessResult r = run_process({program("overlapping_loads_report")}, {options});
    ASSERT_EQ(r.status, 66) << r.err;
    const size_t at = r.out.find("lanes[7]=");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string load = r.out.substr(at + 9, r.out.find('\n', at) - at - 9);
    EXPECT_NE(r.err.find("Read of size 16 at " + load + " by main thread"), std::string::npos) << options << "\n"
                                                                                               << r.err;
    EXPECT_EQ(count(r.err, "WARNING: raceaccel: data race"), 1u) << options;
  }
}

TEST(RuntimeRunCommand, SetsOptionsAndKeepsTheProgramsStatus) {
  const ProcessResult r = run_process({RACEACCEL_CLI, "run", "--json", "--", program("report_format")});
  EXPECT_EQ(r.status, 66);
  EXPECT_EQ(json_lines(r.err).size(), 3u) << r.err;
  const ProcessResult args = run_process({RACEACCEL_CLI, "run", "--", program("exit_status"), "5"});
  EXPECT_EQ(args.status, 5);
  const ProcessResult clean = run_process({RACEACCEL_CLI, "run", "--backend", "djit", "--", program("clean")});
  EXPECT_EQ(clean.status, 0);
  EXPECT_EQ(clean.err, "");
}

TEST(RuntimeRunCommand, MissingProgramAndBadOptions) {
  const ProcessResult missing = run_process({RACEACCEL_CLI, "run", "--", "/nonexistent/program"});
  EXPECT_EQ(missing.status, 127);
  EXPECT_NE(missing.err.find("/nonexistent/program"), std::string::npos);
  EXPECT_EQ(run_process({RACEACCEL_CLI, "run", "--backend", "gpu", "--", program("clean")}).status, 2);
  EXPECT_EQ(run_process({RACEACCEL_CLI, "run", "--backend", "xrt", "--", program("clean")}).status, 2);
}
