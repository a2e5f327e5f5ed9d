// The runtime's table of file descriptors (intercept_fd.cpp), for what other
// parts of the runtime need to know about it.
#pragma once

#include <cstdint>
#include <optional>

namespace raceaccel::rt {

// The descriptor whose table entry holds addr, if any: races on an entry are
// races on the descriptor ("Location is file descriptor N").
std::optional<int> descriptor_at(uint64_t addr);
// The program used fd (mmap of a file): a read of its table entry, so a use
// racing with close() is reported.
void descriptor_used(int fd, uint64_t pc);
// Where the table is, for a recording (entry i at base + i * entry_bytes):
// `raceaccel check` tells races on descriptors from it.
struct DescriptorTableLayout {
  uint64_t base = 0, entry_bytes = 0, count = 0;
};
DescriptorTableLayout descriptor_table_layout();

}  // namespace raceaccel::rt
