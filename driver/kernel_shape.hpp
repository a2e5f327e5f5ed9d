// The RTL parameters of rac_kernel that a co-design sweep varies, and the
// limits the RTL puts on them (its static assertions), for every backend:
// the Verilator backend builds a model of a shape on demand
// (driver/verilator/shape_model.hpp); a shape the RTL cannot take is the
// user's mistake, said before anything is built.
#pragma once

#include <string>

namespace raceaccel::driver {

struct KernelShape {
  unsigned slots = 8, clock_bits = 32, sets = 256, ways = 4, objects = 16, read_vcs = 16, bucket_ways = 4;
  unsigned read_vc_ways = 1;  // read clocks per line (ReadVcWays; the pool's ways)
  // "NumSlots=8 ClkW=32 ...": the RTL's parameter names (ReadVcWays only
  // when it is not 1, so one-clock shapes read as before).
  std::string describe() const;
};

// Why rac_kernel cannot take this shape, or "" when it can.
std::string shape_problem(const KernelShape& shape);

}  // namespace raceaccel::driver
