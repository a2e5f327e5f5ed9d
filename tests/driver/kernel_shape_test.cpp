// driver::shape_problem: the shapes rac_kernel can take (its static
// assertions), said before a Verilator model of a shape is built.
#include <gtest/gtest.h>

#include "driver/kernel_shape.hpp"

namespace raceaccel::driver {
namespace {

TEST(KernelShape, TheBuiltInAndCardShapesAreShapes) {
  EXPECT_EQ(shape_problem(KernelShape{}), "");
  EXPECT_EQ(shape_problem({64, 32, 4096, 4, 64, 64, 4}), "");
  EXPECT_EQ(shape_problem({256, 32, 2, 1, 1, 0, 1}), "") << "no pool, one way, one object, one-way buckets";
  EXPECT_EQ(KernelShape{}.describe(), "NumSlots=8 ClkW=32 Sets=256 Ways=4 Objects=16 ReadVcs=16 BucketWays=4");
  EXPECT_EQ((KernelShape{64, 32, 256, 4, 16, 256, 4, 8}.describe()),
            "NumSlots=64 ClkW=32 Sets=256 Ways=4 Objects=16 ReadVcs=256 BucketWays=4 ReadVcWays=8");
  EXPECT_EQ(shape_problem({64, 32, 256, 4, 16, 256, 4, 8}), "") << "the card shape with 8 read-clock ways";
}

TEST(KernelShape, EachLimitIsNamed) {
  const auto problem = [](KernelShape s) { return shape_problem(s); };
  KernelShape s;
  s.slots = 0;
  EXPECT_NE(problem(s).find("0 slots"), std::string::npos);
  s = {};
  s.slots = 257;
  EXPECT_NE(problem(s).find("257 slots"), std::string::npos);
  s = {};
  s.clock_bits = 33;
  EXPECT_NE(problem(s).find("33-bit clocks"), std::string::npos);
  s = {};
  s.sets = 0;
  s.ways = 0;
  EXPECT_NE(problem(s).find("software model's only"), std::string::npos) << "no cache";
  s = {};
  s.ways = 3;
  EXPECT_NE(problem(s).find("powers of two"), std::string::npos);
  s = {};
  s.objects = 0;
  EXPECT_NE(problem(s).find("0 sync objects"), std::string::npos);
  s = {};
  s.read_vcs = 12;
  EXPECT_NE(problem(s).find("read-VC pool of 12"), std::string::npos);
  s = {};
  s.sets = 8;
  s.read_vcs = 16;
  EXPECT_NE(problem(s).find("at most one pool set per cache set"), std::string::npos);
  s = {};
  s.read_vc_ways = 3;
  EXPECT_NE(problem(s).find("3 read-clock ways"), std::string::npos);
  s = {};
  s.read_vcs = 2;
  s.read_vc_ways = 4;
  EXPECT_NE(problem(s).find("4 read-clock ways"), std::string::npos) << "more ways than entries";
  s = {};
  s.sets = 8;
  s.read_vcs = 32;
  s.read_vc_ways = 2;
  EXPECT_NE(problem(s).find("at most one pool set per cache set"), std::string::npos);
  s.read_vc_ways = 4;
  EXPECT_EQ(problem(s), "") << "8 pool sets of 4 ways under 8 cache sets";
  s = {};
  s.bucket_ways = 16;
  EXPECT_NE(problem(s).find("16 bucket ways"), std::string::npos);
}

}  // namespace
}  // namespace raceaccel::driver
