#include "core/event.hpp"

#include <fmt/format.h>
#include <array>

namespace raceaccel {
namespace {

constexpr std::array<std::string_view, kOpCount> kOpNames = {
    "read",  "write",         "acquire",      "release",     "acquire_shared", "release_shared", "fork",
    "join",  "barrier_enter", "barrier_exit", "atomic_load", "atomic_store",   "atomic_rmw",     "fence",
    "alloc", "free",          "begin",        "end",         "destroy",
};
constexpr std::array<std::string_view, kMemoryOrderCount> kOrderNames = {"relaxed", "consume", "acquire",
                                                                         "release", "acq_rel", "seq_cst"};

}  // namespace

std::string_view op_name(Op op) { return kOpNames.at(static_cast<size_t>(op)); }

std::optional<Op> op_from_name(std::string_view name) {
  for (size_t i = 0; i < kOpNames.size(); ++i) {
    if (kOpNames[i] == name) return static_cast<Op>(i);
  }
  return std::nullopt;
}

std::string range_problem(Op op, uint64_t addr, uint64_t size) {
  if (size == 0) return fmt::format("{} of size 0", op_name(op));
  if (addr + (size - 1) < addr) return fmt::format("{} range {:#x}+{} wraps around 2^64", op_name(op), addr, size);
  return fmt::format("{} of {} bytes exceeds the limit of {} bytes for one access; split it into several events",
                     op_name(op), size, kMaxAccessBytes);
}

std::string_view order_name(MemoryOrder m) { return kOrderNames.at(static_cast<size_t>(m)); }

std::optional<MemoryOrder> order_from_name(std::string_view name) {
  for (size_t i = 0; i < kOrderNames.size(); ++i) {
    if (kOrderNames[i] == name) return static_cast<MemoryOrder>(i);
  }
  return std::nullopt;
}

}  // namespace raceaccel
