#include "driver/kernel_shape.hpp"

#include <fmt/format.h>

namespace raceaccel::driver {
namespace {

bool power_of_two(unsigned v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

std::string KernelShape::describe() const {
  std::string words = fmt::format("NumSlots={} ClkW={} Sets={} Ways={} Objects={} ReadVcs={} BucketWays={}", slots,
                                  clock_bits, sets, ways, objects, read_vcs, bucket_ways);
  if (read_vc_ways != 1) words += fmt::format(" ReadVcWays={}", read_vc_ways);
  return words;
}

// rac_kernel's and rac_check_engine's static assertions, and the one-way
// pool and bucket limits of rac_meta_port (the line always fits a bucket
// way within these: 832 bits at 256 slots of 32-bit clocks).
std::string shape_problem(const KernelShape& s) {
  if (s.slots < 1 || s.slots > 256) return fmt::format("{} slots: the kernel has 1 to 256", s.slots);
  if (s.clock_bits < 1 || s.clock_bits > 32) return fmt::format("{}-bit clocks: the kernel has 1 to 32", s.clock_bits);
  if (!power_of_two(s.sets) || !power_of_two(s.ways)) {
    return fmt::format(
        "a {} x {} cache: the kernel needs powers of two (no cache, sets 0, is the software model's only)", s.sets,
        s.ways);
  }
  if (!power_of_two(s.objects)) return fmt::format("{} sync objects: the kernel needs a power of two", s.objects);
  if (s.read_vcs != 0 && !power_of_two(s.read_vcs)) {
    return fmt::format("a read-VC pool of {}: the kernel needs 0 or a power of two", s.read_vcs);
  }
  if (!power_of_two(s.read_vc_ways) || s.read_vc_ways > 8 || (s.read_vcs != 0 && s.read_vc_ways > s.read_vcs)) {
    return fmt::format("{} read-clock ways: the kernel needs a power of two up to 8 and up to the pool's entries",
                       s.read_vc_ways);
  }
  if (s.read_vcs / s.read_vc_ways > s.sets) {
    return fmt::format("a read-VC pool of {} in {} ways and {} sets: at most one pool set per cache set", s.read_vcs,
                       s.read_vc_ways, s.sets);
  }
  if (!power_of_two(s.bucket_ways) || s.bucket_ways > 8) {
    return fmt::format("{} bucket ways: the kernel needs a power of two up to 8", s.bucket_ways);
  }
  return "";
}

}  // namespace raceaccel::driver
