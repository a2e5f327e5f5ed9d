// Mappings. A successful mmap is new memory at its address: the range's old
// history (an earlier mapping there, unmapped behind the runtime's back or
// not) is cleared, and the mapping is then a write by the calling thread, as
// ThreadSanitizer models it, so another thread touching it without
// synchronization with the mmap is a race. munmap clears the range before the
// real munmap (as free does), so no later mapping at the address is checked
// against the old one; mremap clears the old range and makes the new one
// fresh, like mmap.
#include <stdarg.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/fd_table.hpp"
#include "runtime/libc_access.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

using namespace raceaccel;
using namespace raceaccel::rt;

namespace {

// The write that stands for the mapping covers it up to this size; of a
// larger mapping only the first and last kWrittenEdge bytes are written and
// the rest is only cleared. The detectors keep a shadow cell per 8 bytes
// written, so a whole 1 GiB mapping would cost gigabytes; programs touch the
// edges of big mappings first (headers, guard areas) far more often.
constexpr uint64_t kWrittenWhole = uint64_t{1} << 20;
constexpr uint64_t kWrittenEdge = uint64_t{64} << 10;

void fresh(void* p, size_t n, uint64_t pc) {
  if (p == MAP_FAILED || n == 0 || t_in_runtime) return;
  forget_range(p, n);
  if (n <= kWrittenWhole) {
    program_write(p, n, pc);
    return;
  }
  auto* bytes = static_cast<char*>(p);
  program_write(bytes, kWrittenEdge, pc);
  program_write(bytes + (n - kWrittenEdge), kWrittenEdge, pc);
}

}  // namespace

RACEACCEL_EXPORT void* mmap(void* addr, size_t n, int prot, int flags, int fd, off_t off) noexcept {
  const uint64_t pc = RACEACCEL_CALLER;
  if ((flags & MAP_ANONYMOUS) == 0) descriptor_used(fd, pc);
  void* mapped = RACEACCEL_REAL(mmap)(addr, n, prot, flags, fd, off);
  fresh(mapped, n, pc);
  return mapped;
}
RACEACCEL_EXPORT void* mmap64(void* addr, size_t n, int prot, int flags, int fd, off64_t off) noexcept {
  const uint64_t pc = RACEACCEL_CALLER;
  if ((flags & MAP_ANONYMOUS) == 0) descriptor_used(fd, pc);
  void* mapped = RACEACCEL_REAL(mmap64)(addr, n, prot, flags, fd, off);
  fresh(mapped, n, pc);
  return mapped;
}
RACEACCEL_EXPORT int munmap(void* addr, size_t n) noexcept {
  // Only a range the kernel accepts loses its history (a failing munmap,
  // EINVAL, leaves the mapping and its history alone).
  const auto start = reinterpret_cast<uintptr_t>(addr);
  const bool valid = n != 0 && start % static_cast<uintptr_t>(sysconf(_SC_PAGESIZE)) == 0 && start + n > start;
  if (!t_in_runtime && valid) forget_range(addr, n);
  return RACEACCEL_REAL(munmap)(addr, n);
}
RACEACCEL_EXPORT void* mremap(void* old, size_t old_size, size_t new_size, int flags, ...) noexcept {
  void* wanted = nullptr;
  if ((flags & MREMAP_FIXED) != 0) {
    va_list ap;
    va_start(ap, flags);
    wanted = va_arg(ap, void*);
    va_end(ap);
  }
  const uint64_t pc = RACEACCEL_CALLER;
  void* moved = RACEACCEL_REAL(mremap)(old, old_size, new_size, flags, wanted);
  if (moved != MAP_FAILED && !t_in_runtime) {
    forget_range(old, old_size);
    fresh(moved, new_size, pc);
  }
  return moved;
}
