// Device memory for the simulated kernel: a sparse byte array over the
// 64-bit address space, in 4 KB pages allocated on first write. Unwritten
// bytes read as zero. Shared by the AXI slave models of every m_axi port
// and by the Verilator device's buffers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>

namespace raceaccel::sim {

class SparseMemory {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  void read(uint64_t addr, std::span<std::byte> out) const;
  void write(uint64_t addr, std::span<const std::byte> data);
  // One 64-byte beat with a byte strobe (bit i: byte i is written).
  void write_strobed(uint64_t addr, std::span<const std::byte, 64> data, uint64_t strobe);
  size_t pages() const { return pages_.size(); }

 private:
  using Page = std::array<std::byte, kPageBytes>;
  Page& page(uint64_t number);
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace raceaccel::sim
