// Writes a binary trace of one large heap block's life, as the runtime
// records it (malloc = Alloc + a write of the block by its allocator, free =
// a write of the block + Free; ranges above kMaxAccessBytes as consecutive
// 16 MiB events), to measure the detectors' memory and time on large ranges:
//
//   Alloc(N), Write(N), Read(first N/2), Write(N) (the free's), Free(N)
//
// by one thread, N = argv[2] MiB (default 2048), the block at a page-aligned
// address + 16 as glibc's mmapped chunks are. `--racy` adds a second,
// unordered thread that writes one byte in the middle before the free.
// Usage: large_range_trace OUT.rtrace [MiB] [--racy]
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "core/event.hpp"
#include "core/symbols.hpp"
#include "trace/binary_format.hpp"

using namespace raceaccel;

namespace {

// Emits [addr, addr+size) as accesses of at most kMaxAccessBytes each.
void access(BinaryWriter& out, const SymbolTable& symbols, Op op, uint64_t addr, uint64_t size, uint64_t site) {
  while (size > 0) {
    const uint64_t n = size < kMaxAccessBytes ? size : kMaxAccessBytes;
    out.write(Event::range(op, 0, addr, n, site), symbols);
    addr += n;
    size -= n;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: large_range_trace OUT.rtrace [MiB] [--racy]\n";
    return 2;
  }
  const uint64_t mib = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2048;
  const bool racy = argc > 3 && std::strcmp(argv[3], "--racy") == 0;
  const uint64_t size = mib << 20;
  const uint64_t base = 0x7f0000000000 + 16;
  std::ofstream file(argv[1], std::ios::binary);
  if (!file) {
    std::cerr << "large_range_trace: cannot write " << argv[1] << "\n";
    return 74;
  }
  SymbolTable symbols;
  BinaryWriter out(file);
  out.write(Event::range(Op::Alloc, 0, base, size, 1), symbols);
  access(out, symbols, Op::Write, base, size, 1);
  access(out, symbols, Op::Read, base, size / 2, 2);
  if (racy) out.write(Event::write(1, base + size / 2, 1, 3), symbols);
  access(out, symbols, Op::Write, base, size, 4);
  out.write(Event::range(Op::Free, 0, base, size, 4), symbols);
  out.finish();
  return file ? 0 : 74;
}
