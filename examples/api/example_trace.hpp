// The execution both examples check: T0 forks T1; both write `counter`
// with no synchronization between them (a race), and both update `balance`
// holding lock `mutex` (no race). After joining T1, T0 reads `counter`: the
// join orders it after T1's write, so that read does not race.
#pragma once

#include <cstdint>
#include <vector>

#include "core/event.hpp"
#include "core/symbols.hpp"

namespace example {

inline constexpr uint64_t kCounter = 0x1000;  // byte addresses (a 4- and an 8-byte variable)
inline constexpr uint64_t kBalance = 0x2000;
inline constexpr uint64_t kMutex = 1;  // a lock id: any number naming the object

// Sites are the program locations of the events (a PC, a line): reports name them.
inline std::vector<raceaccel::Event> events() {
  using raceaccel::Event;
  using raceaccel::Op;
  return {
      Event::sync(Op::Fork, 0, 1),  // T0 forks T1
      Event::write(0, kCounter, 4, /*site=*/10),
      Event::sync(Op::Acquire, 0, kMutex),
      Event::write(0, kBalance, 8, 11),
      Event::sync(Op::Release, 0, kMutex),
      Event::write(1, kCounter, 4, 20),  // races with T0's write at site 10
      Event::sync(Op::Acquire, 1, kMutex),
      Event::write(1, kBalance, 8, 21),  // ordered after T0's by the lock
      Event::sync(Op::Release, 1, kMutex),
      Event::sync(Op::Join, 0, 1),  // T0 joins T1
      Event::read(0, kCounter, 4, 12),
  };
}

// Names used in reports instead of T0, 0x1000, ...
inline raceaccel::SymbolTable symbols() {
  using raceaccel::SymbolKind;
  raceaccel::SymbolTable table;
  table.set(SymbolKind::Thread, 0, "main");
  table.set(SymbolKind::Thread, 1, "worker");
  table.set(SymbolKind::Location, kCounter, "counter");
  table.set(SymbolKind::Location, kBalance, "balance");
  table.set(SymbolKind::SyncObject, kMutex, "mutex");
  return table;
}

}  // namespace example
