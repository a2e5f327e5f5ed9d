// RACEACCEL_OPTIONS parsing: every key, both separators, bad values.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "runtime/options.hpp"

using raceaccel::rt::is_device_backend;
using raceaccel::rt::parse_runtime_options;
using raceaccel::rt::runtime_backend_names;

TEST(RuntimeOptions, DefaultsWhenEmpty) {
  const auto p = parse_runtime_options("");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.options.backend, "software");
  EXPECT_EQ(p.options.exitcode, 66);
  EXPECT_FALSE(p.options.json);
  EXPECT_FALSE(p.options.halt_on_error);
  EXPECT_EQ(p.options.report_limit, 0u);
  EXPECT_EQ(p.options.log_path, "");
  EXPECT_EQ(p.options.record, "");
  EXPECT_EQ(p.options.verbosity, 0);
  EXPECT_TRUE(p.options.region_filter);
  EXPECT_EQ(p.options.region_young, 32u);
  EXPECT_TRUE(p.options.coalesce);
  EXPECT_TRUE(p.options.inline_runs);
  EXPECT_TRUE(p.options.parallel);
  EXPECT_EQ(p.options.shadow_runs, raceaccel::Shadow::kDefaultMaxRuns);
  EXPECT_EQ(p.options.sample, 1.0);  // no sampling
  EXPECT_EQ(p.options.sample_seed, 0u);
}

TEST(RuntimeOptions, EveryKeySpaceSeparated) {
  const auto p = parse_runtime_options(
      "backend=djit log_path=/tmp/log json=1 halt_on_error=true exitcode=7 report_limit=3 record=/tmp/t.rtrace "
      "verbosity=2 region_filter=0 region_young=0 coalesce=false inline_runs=0 parallel=0 shadow_runs=0");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.options.backend, "djit");
  EXPECT_EQ(p.options.log_path, "/tmp/log");
  EXPECT_TRUE(p.options.json);
  EXPECT_TRUE(p.options.halt_on_error);
  EXPECT_EQ(p.options.exitcode, 7);
  EXPECT_EQ(p.options.report_limit, 3u);
  EXPECT_EQ(p.options.record, "/tmp/t.rtrace");
  EXPECT_EQ(p.options.verbosity, 2);
  EXPECT_FALSE(p.options.region_filter);
  EXPECT_EQ(p.options.region_young, 0u);
  EXPECT_FALSE(p.options.coalesce);
  EXPECT_FALSE(p.options.inline_runs);
  EXPECT_FALSE(p.options.parallel);
  EXPECT_EQ(p.options.shadow_runs, 0u);
}

TEST(RuntimeOptions, ColonSeparatedAndLaterKeysWin) {
  const auto p = parse_runtime_options("json=1:exitcode=0::backend=software:json=0");
  ASSERT_EQ(p.error, "");
  EXPECT_FALSE(p.options.json);
  EXPECT_EQ(p.options.exitcode, 0);
  EXPECT_EQ(p.options.backend, "software");
}

TEST(RuntimeOptions, DeviceBackendsParse) {
  EXPECT_EQ(parse_runtime_options("backend=verilator").options.backend, "verilator");
  EXPECT_EQ(parse_runtime_options("backend=xrt").options.backend, "xrt");
}

// The in-process detectors, then the driver's device backends but its
// software model (whose name means FastTrack in process here).
TEST(RuntimeOptions, BackendNamesComeFromTheDriverRegistry) {
  EXPECT_EQ(runtime_backend_names(), (std::vector<std::string>{"software", "djit", "verilator", "xrt"}));
  EXPECT_FALSE(is_device_backend("software"));
  EXPECT_FALSE(is_device_backend("djit"));
  EXPECT_TRUE(is_device_backend("verilator"));
  EXPECT_TRUE(is_device_backend("xrt"));
  EXPECT_FALSE(is_device_backend("gpu"));
  EXPECT_NE(parse_runtime_options("backend=gpu").error.find("must be software, djit, verilator or xrt"),
            std::string::npos);
}

TEST(RuntimeOptions, BadInputNamesTheKey) {
  const struct {
    const char* text;
    const char* key;
  } cases[] = {
      {"backend=gpu", "'backend'"},
      {"json=2", "'json'"},
      {"halt_on_error=yes", "'halt_on_error'"},
      {"exitcode=256", "'exitcode'"},
      {"exitcode=-1", "'exitcode'"},
      {"exitcode=", "'exitcode'"},
      {"report_limit=x", "'report_limit'"},
      {"verbosity=9", "'verbosity'"},
      {"region_filter=2", "'region_filter'"},
      {"log_path=", "'log_path'"},
      {"record=", "'record'"},
      {"xclbin=", "'xclbin'"},
      {"device=1024", "'device'"},
      {"device=first", "'device'"},
      {"history_size=3", "'history_size'"},
      {"json=1 colour=1", "'colour'"},
      {"parallel=on", "'parallel'"},
      {"region_young=65", "'region_young'"},
      {"region_young=-1", "'region_young'"},
      {"shadow_runs=513", "'shadow_runs'"},
      {"shadow_runs=many", "'shadow_runs'"},
  };
  for (const auto& c : cases) {
    const auto p = parse_runtime_options(c.text);
    EXPECT_NE(p.error.find(c.key), std::string::npos) << c.text << " -> " << p.error;
  }
  EXPECT_NE(parse_runtime_options("json").error.find("not key=value"), std::string::npos);
}

// sample=RATE: 0 < RATE <= 1 (1 is the same as no sampling).
TEST(RuntimeOptions, SampleRate) {
  EXPECT_EQ(parse_runtime_options("sample=0.1").options.sample, 0.1);
  EXPECT_EQ(parse_runtime_options("sample=1").options.sample, 1.0);
  EXPECT_EQ(parse_runtime_options("sample=1e-3").options.sample, 0.001);
  EXPECT_EQ(parse_runtime_options("sample=0.25 sample_seed=42").options.sample_seed, 42u);
  for (const char* bad : {"sample=0", "sample=-0.5", "sample=1.5", "sample=", "sample=10%", "sample=nan", "sample=inf",
                          "sample=0.1x", "sample=.", "sample=1/10"}) {
    const auto p = parse_runtime_options(bad);
    EXPECT_NE(p.error.find("'sample' must be a rate in (0, 1]"), std::string::npos) << bad << " -> " << p.error;
  }
  EXPECT_NE(parse_runtime_options("sample_seed=-1").error.find("'sample_seed'"), std::string::npos);
  EXPECT_NE(parse_runtime_options("sample_seed=x").error.find("'sample_seed'"), std::string::npos);
}

TEST(RuntimeOptions, SarifAndSuppressionsFiles) {
  const std::string path = "/tmp/raceaccel_options_supp_" + std::to_string(getpid());
  {
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("# ok\nrace:worker\ncalled_from_lib:libfoo.so\n", f);
    std::fclose(f);
  }
  const auto p = parse_runtime_options("sarif=/tmp/out.sarif suppressions=" + path);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.options.sarif, "/tmp/out.sarif");
  EXPECT_EQ(p.options.suppressions_path, path);
  ASSERT_EQ(p.options.suppressions.entries().size(), 2u);
  EXPECT_EQ(p.options.suppressions.entries()[1].pattern, "libfoo.so");
  EXPECT_NE(parse_runtime_options("sarif=").error.find("'sarif' needs a file name"), std::string::npos);
  EXPECT_NE(parse_runtime_options("suppressions=/nonexistent/x").error.find("cannot open /nonexistent/x"),
            std::string::npos);
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("race:ok\nrace_bottom:x\n", f);
    std::fclose(f);
  }
  EXPECT_EQ(parse_runtime_options("suppressions=" + path).error,
            "RACEACCEL_OPTIONS: suppressions=" + path + ": 'suppressions' is malformed: " + path +
                ":2: unknown suppression type 'race_bottom' (race, race_top, called_from_lib, thread, mutex, signal, "
                "deadlock)");
  std::remove(path.c_str());
}
