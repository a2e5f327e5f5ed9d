// FastTrack's packed epoch: one 64-bit word holding thread slot and clock,
// so the same-epoch fast paths are single compares.
//
//   bits  0..23  thread slot   (kMaxSlots = 2^24 - 1 threads per trace)
//   bits 24..61  clock         (kMaxClock = 2^38 - 1 increments per thread)
//   bits 62..63  flags owned by the shadow cell (see fasttrack_shadow.hpp)
//
// Exceeding either limit raises CapacityError; nothing wraps silently.
#pragma once

#include <cstdint>

namespace raceaccel::epoch_bits {

inline constexpr unsigned kSlotBits = 24;
inline constexpr unsigned kClockBits = 38;
inline constexpr uint64_t kMaxSlots = (uint64_t{1} << kSlotBits) - 1;
inline constexpr uint64_t kMaxClock = (uint64_t{1} << kClockBits) - 1;
inline constexpr uint64_t kSlotMask = (uint64_t{1} << kSlotBits) - 1;
inline constexpr uint64_t kEpochMask = (uint64_t{1} << (kSlotBits + kClockBits)) - 1;

constexpr uint64_t pack(uint32_t slot, uint64_t clock) { return (clock << kSlotBits) | slot; }
constexpr uint32_t slot(uint64_t e) { return static_cast<uint32_t>(e & kSlotMask); }
constexpr uint64_t clock(uint64_t e) { return (e & kEpochMask) >> kSlotBits; }

}  // namespace raceaccel::epoch_bits
