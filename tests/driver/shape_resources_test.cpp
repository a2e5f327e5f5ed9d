// driver::parse_synth_report_line: the line scripts/synth_report.sh prints
// for a shape, read back into its figures (sweep's lut, ff and bram
// columns); anything else is not taken for one. The synthesis itself runs
// in tests/cli/sweep_resources_test.sh.
#include <gtest/gtest.h>

#include "driver/synth/shape_resources.hpp"

namespace raceaccel::driver {
namespace {

TEST(SynthReportLine, FiguresAreTheLastSevenWords) {
  // The parameters are several words: the figures are counted from the end.
  const auto r = parse_synth_report_line(
      "rac_kernel         NumSlots=8 ClkW=32 Sets=256 Ways=4 Objects=16 ReadVcs=16 BucketWays=4  21345  18007    "
      "412  58.5     0    0     31");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->lut, 21345u);
  EXPECT_EQ(r->ff, 18007u);
  EXPECT_EQ(r->carry, 412u);
  EXPECT_DOUBLE_EQ(r->bram36, 58.5);
  EXPECT_EQ(r->uram, 0u);
  EXPECT_EQ(r->dsp, 0u);
  EXPECT_EQ(r->depth, 31u);
}

TEST(SynthReportLine, OtherLinesAreNotReports) {
  EXPECT_FALSE(parse_synth_report_line(""));
  EXPECT_FALSE(parse_synth_report_line("block params LUT FF CARRY BRAM URAM DSP depth"));  // the header
  EXPECT_FALSE(parse_synth_report_line("rac_kernel NumSlots=8 1 2 3 4 5 6 ?"));            // depth unknown
  EXPECT_FALSE(parse_synth_report_line("rac_kernel 1 2 3 4 5 6 7"));                       // no parameters
  EXPECT_FALSE(parse_synth_report_line("rac_kernel NumSlots=8 1 2 3 4.5x 5 6 7"));
  EXPECT_FALSE(parse_synth_report_line("rac_kernel NumSlots=8 -1 2 3 4 5 6 7"));
}

}  // namespace
}  // namespace raceaccel::driver
