// Memory accesses libc makes on the program's behalf (read() filling a
// buffer, strlen() scanning a string, puts() reading one): checked as the
// calling thread's reads and writes of exactly the bytes the function
// touches. The helpers never start the runtime (libraries' constructors call
// libc before it exists) and honour the ignore annotations.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/runtime.hpp"

namespace raceaccel::rt {

// Through record_access, so a loop calling strlen on the same (short) string
// is checked once per sync-free region (region_filter.hpp), not once per call.
inline void program_access(const volatile void* p, size_t n, bool write, uint64_t pc) {
  if (n == 0 || p == nullptr) return;
  if (t_thread == nullptr && traced_thread_if_started() == nullptr) return;
  record_access(id_of(p), n, write, pc);
}
inline void program_read(const volatile void* p, size_t n, uint64_t pc) { program_access(p, n, false, pc); }
inline void program_write(const volatile void* p, size_t n, uint64_t pc) { program_access(p, n, true, pc); }

// The history of [p, p+n) is discarded (memory that is new at that address:
// a fresh mapping, an unmapped range).
inline void forget_range(const volatile void* p, size_t n) {
  if (n == 0) return;
  if (ThreadState* ts = traced_thread_if_started()) emit_event(ts, Event::range(Op::Free, ts->tid, id_of(p), n));
}

}  // namespace raceaccel::rt
