// Three threads write three different fields (1, 2 and 4 bytes) of one
// 8-byte struct, with no synchronization: the fields do not overlap, so clean.
#include <cstdint>
#include <thread>

struct Packed8 {
  std::uint8_t flag;
  std::uint8_t pad;
  std::uint16_t count;
  std::uint32_t total;
};
static_assert(sizeof(Packed8) == 8);

static Packed8 record;

int main() {
  std::thread a([] {
    for (int i = 0; i < 100; i++) record.flag = static_cast<std::uint8_t>(i);
  });
  std::thread b([] {
    for (int i = 0; i < 100; i++) record.count = static_cast<std::uint16_t>(record.count + 1);
  });
  std::thread c([] {
    for (int i = 0; i < 100; i++) record.total = record.total + 2;
  });
  a.join();
  b.join();
  c.join();
  return record.count == 100 && record.total == 200 ? 0 : 1;
}
