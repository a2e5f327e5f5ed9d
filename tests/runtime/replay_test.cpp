// Symbolized replay (docs/runtime.md, "Replaying a recording"): a recording
// (record=) carries the program info the reports need, and `raceaccel check`
// on it prints the very reports the live run printed, for every program of
// tests/programs. With a module missing or rebuilt it says so and falls back
// to the trace form; a version-1 recording (events only) still checks.
//
// What is compared: the report blocks ("==================" ... the closing
// "==================") of the recorded process, in order, byte for byte.
// Nothing inside them is normalized: the recording carries the pid, OS thread
// ids and addresses of its run. What is left out of the comparison: reports
// of forked children (a child stops recording; its reports carry its own
// pid, so the blocks are selected by the recorded process's pid) and the
// lines around the blocks (SUMMARY lines, which a child prints too without
// a pid, and statistics), which are not race reports.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "process_runner.hpp"
#include "programs_manifest.hpp"

using raceaccel::test::ProcessResult;
using raceaccel::test::run_process;

namespace {

std::string program(const std::string& name) { return std::string(RT_PROGRAM_DIR) + "/" + name; }

// The report blocks of process pid in text, in order.
std::vector<std::string> reports_of(const std::string& text, pid_t pid) {
  static const std::string kRule = "==================\n";
  const std::string head = kRule + "WARNING: raceaccel: data race (pid=" + std::to_string(pid) + ")\n";
  std::vector<std::string> out;
  for (size_t at = text.find(head); at != std::string::npos; at = text.find(head, at + 1)) {
    const size_t end = text.find(kRule, at + head.size());
    if (end == std::string::npos) break;
    out.push_back(text.substr(at, end + kRule.size() - at));
  }
  return out;
}

std::string joined(const std::vector<std::string>& reports) {
  std::string s;
  for (const std::string& r : reports) s += r;
  return s;
}

std::string trace_path(const std::string& tag) {
  return "/tmp/raceaccel_replay_" + std::to_string(getpid()) + "_" + tag + ".rtrace";
}

}  // namespace

TEST(SymbolizedReplay, EveryTestProgramReplaysToItsLiveReports) {
  const std::vector<ManifestRow> rows = manifest_rows(PROGRAMS_MANIFEST);
  ASSERT_GT(rows.size(), 100u) << PROGRAMS_MANIFEST;
  size_t with_reports = 0;
  const std::string trace = trace_path("program");
  for (const ManifestRow& row : rows) {
    std::vector<std::string> argv{row.exe};
    argv.insert(argv.end(), row.args.begin(), row.args.end());
    const ProcessResult live = run_process(argv, {"RACEACCEL_OPTIONS=record=" + trace, "TSAN_OPTIONS="});
    const ProcessResult check = run_process({RACEACCEL_CLI, "check", trace});
    const std::vector<std::string> live_reports = reports_of(live.err, live.pid);
    const std::vector<std::string> replayed = reports_of(check.out, live.pid);
    EXPECT_EQ(joined(replayed), joined(live_reports))
        << row.name << ": the replayed reports differ from the live ones\n--- check ---\n"
        << check.out << check.err << "\n--- live ---\n"
        << live.err;
    EXPECT_EQ(check.out.find("raceaccel: note:"), std::string::npos) << row.name << "\n" << check.out;
    // The verdict is the detector's: a live report means races in the recording.
    if (!live_reports.empty()) {
      EXPECT_EQ(check.status, 66) << row.name << "\n" << check.out << check.err;
    }
    with_reports += !live_reports.empty();
    std::remove(trace.c_str());
    if (testing::Test::HasFailure()) return;
  }
  EXPECT_GT(with_reports, 60u);  // the comparison is not vacuous
}

// The recorded module replaced by a different build, then removed: a note
// naming it, and the unsymbolized trace form; the verdict stays.
TEST(SymbolizedReplay, ChangedOrMissingModuleFallsBackWithANote) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("raceaccel_replay_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path prog = dir / "report_format";
  fs::copy_file(program("report_format"), prog, fs::copy_options::overwrite_existing);
  const std::string trace = trace_path("module");
  const ProcessResult live = run_process({prog.string()}, {"RACEACCEL_OPTIONS=record=" + trace});
  ASSERT_EQ(live.status, 66) << live.err;

  const ProcessResult same = run_process({RACEACCEL_CLI, "check", trace});
  EXPECT_EQ(same.status, 66);
  EXPECT_EQ(joined(reports_of(same.out, live.pid)), joined(reports_of(live.err, live.pid))) << same.out;
  EXPECT_NE(same.out.find("report_format.c:"), std::string::npos) << same.out;

  fs::copy_file(program("clean"), prog, fs::copy_options::overwrite_existing);  // another build-id
  const ProcessResult rebuilt = run_process({RACEACCEL_CLI, "check", trace});
  EXPECT_EQ(rebuilt.status, 66) << rebuilt.err;
  EXPECT_NE(rebuilt.out.find("raceaccel: note: " + prog.string() + ": build-id "), std::string::npos) << rebuilt.out;
  EXPECT_NE(rebuilt.out.find(" differs from the recorded "), std::string::npos) << rebuilt.out;
  EXPECT_EQ(rebuilt.out.find("WARNING: raceaccel"), std::string::npos) << rebuilt.out;
  EXPECT_NE(rebuilt.out.find(" at site "), std::string::npos) << rebuilt.out;  // the trace form

  fs::remove(prog);
  const ProcessResult missing = run_process({RACEACCEL_CLI, "check", trace});
  EXPECT_EQ(missing.status, 66) << missing.err;
  EXPECT_NE(missing.out.find("raceaccel: note: " + prog.string() + ": module not found"), std::string::npos)
      << missing.out;
  EXPECT_EQ(missing.out.find("WARNING: raceaccel"), std::string::npos) << missing.out;
  EXPECT_NE(missing.out.find(" at site "), std::string::npos) << missing.out;
  fs::remove_all(dir);
  std::remove(trace.c_str());
}

// A recording of events only (version 1, as the runtime wrote them before
// program info; `convert` writes the events only) checks as before: the
// same races and verdict, in the trace form, without notes.
TEST(SymbolizedReplay, VersionOneRecordingsStillCheck) {
  const std::string trace = trace_path("v2");
  const std::string old = trace_path("v1");
  const ProcessResult live = run_process({program("report_format")}, {"RACEACCEL_OPTIONS=record=" + trace});
  ASSERT_EQ(live.status, 66) << live.err;
  const ProcessResult convert = run_process({RACEACCEL_CLI, "convert", trace, "-o", old});
  ASSERT_EQ(convert.status, 0) << convert.err;
  std::ifstream in(old, std::ios::binary);
  char header[10] = {};
  in.read(header, sizeof header);
  EXPECT_EQ(header[8], 1) << "convert writes version 1";

  const ProcessResult now = run_process({RACEACCEL_CLI, "check", trace});
  const ProcessResult before = run_process({RACEACCEL_CLI, "check", old});
  EXPECT_EQ(before.status, 66) << before.err;
  EXPECT_EQ(before.err, "");
  EXPECT_EQ(before.out.find("raceaccel: note:"), std::string::npos) << before.out;
  EXPECT_NE(before.out.find(" at site "), std::string::npos) << before.out;
  // The same verdict line ("N events, M races") whatever the version.
  const auto last_line = [](const std::string& out, const std::string& path) {
    const size_t at = out.rfind(path + ": ");
    return at == std::string::npos ? std::string() : out.substr(at + path.size());
  };
  EXPECT_EQ(last_line(before.out, old), last_line(now.out, trace)) << before.out << "\n" << now.out;
  std::remove(trace.c_str());
  std::remove(old.c_str());
}
