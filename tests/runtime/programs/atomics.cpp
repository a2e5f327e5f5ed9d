// Publication through atomics: with release/acquire (argv[1] == "acqrel")
// the hand-off is race-free; with relaxed orders it is a race. Also
// exercises every atomic width and operation kind.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>

namespace {
int data = 0;
std::atomic<int> flag{0};
std::atomic<uint8_t> a8{0};
std::atomic<uint16_t> a16{0};
std::atomic<uint64_t> a64{0};
}  // namespace

int main(int argc, char** argv) {
  const bool acqrel = argc > 1 && std::strcmp(argv[1], "acqrel") == 0;
  const auto store_order = acqrel ? std::memory_order_release : std::memory_order_relaxed;
  const auto load_order = acqrel ? std::memory_order_acquire : std::memory_order_relaxed;
  std::thread producer([&] {
    for (int i = 0; i < 1000; ++i) {
      a8.fetch_add(1);
      a16.fetch_or(static_cast<uint16_t>(i));
      uint64_t expected = a64.load();
      while (!a64.compare_exchange_weak(expected, expected + 2)) {
      }
    }
    data = 1;
    flag.store(1, store_order);
  });
  for (int i = 0; i < 1000; ++i) a64.fetch_add(1, std::memory_order_relaxed);
  while (flag.load(load_order) == 0) std::this_thread::yield();
  data = 2;
  producer.join();
  std::printf("a8=%u a64=%llu data=%d\n", static_cast<unsigned>(a8.load()), static_cast<unsigned long long>(a64.load()),
              data);
  return a64.load() == 3000 && a8.load() == static_cast<uint8_t>(1000) ? 0 : 1;
}
