// driver::parse_synth_report: the JSON report rac_netlist_depth writes for
// a shape (rtl/synth/synth_block.sh), read back into its figures (sweep's
// lut, ff and bram columns); anything else is not taken for one. The
// synthesis itself runs in tests/cli/sweep_resources_test.sh.
#include <gtest/gtest.h>

#include <string>

#include "driver/synth/shape_resources.hpp"

namespace raceaccel::driver {
namespace {

// A report as rac_netlist_depth prints it (trimmed to what is read, plus
// fields that are not).
std::string report(const std::string& lut = "21345", const std::string& bram = "58.5",
                   const std::string& levels = "11") {
  return R"({"yosys_seconds": 61, "block": "rac_kernel", "params": "NumSlots=8 ClkW=32",
  "depth": {"by_endpoint": {"register_d": {"levels": 9, "lut": 6, "muxf": 3}},
            "worst": {"endpoint": "ram_address", "levels": )" +
         levels + R"(, "lut": 7, "muxf": 4, "carry": 0, "other": 0}},
  "resources": {"bram36": )" +
         bram + R"(, "carry": 412, "cells": {"LUT6": 9000}, "dsp": 0, "ff": 18007, "lut": )" + lut +
         R"(, "lutram": 64, "muxf": 1210, "uram": 0}})";
}

TEST(SynthReport, FiguresFromTheResourcesAndTheWorstPath) {
  const auto r = parse_synth_report(report());
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->lut, 21345u);
  EXPECT_EQ(r->ff, 18007u);
  EXPECT_EQ(r->carry, 412u);
  EXPECT_EQ(r->muxf, 1210u);
  EXPECT_DOUBLE_EQ(r->bram36, 58.5);
  EXPECT_EQ(r->uram, 0u);
  EXPECT_EQ(r->dsp, 0u);
  EXPECT_EQ(r->depth, 11u) << "the worst path over every endpoint class, MUXF counted";
}

TEST(SynthReport, OtherTextIsNotAReport) {
  EXPECT_FALSE(parse_synth_report(""));
  EXPECT_FALSE(parse_synth_report("rac_kernel NumSlots=8 1 2 3 4 5 6 7"));  // the old one-line estimate
  EXPECT_FALSE(parse_synth_report(report().substr(0, 80)));                 // cut short
  EXPECT_FALSE(parse_synth_report(R"({"resources": {"lut": 1}})"));         // fields missing
  EXPECT_FALSE(parse_synth_report(report("-1")));                           // a negative count
  EXPECT_FALSE(parse_synth_report(report("\"many\"")));
  EXPECT_FALSE(parse_synth_report(report("1", "-0.5")));
  EXPECT_FALSE(parse_synth_report(report("1", "0", "2.5")));  // levels are whole
}

}  // namespace
}  // namespace raceaccel::driver
