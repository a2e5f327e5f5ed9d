// Benchmark kernel: a pipeline of stages connected by single-producer /
// single-consumer rings whose indices are std::atomic (release on publish,
// acquire on consume) — lock-free message passing. Each stage transforms the
// plain item data it receives and passes it on.
// Usage: atomic_pipeline [ITEMS=2000000] [STAGES=4]; prints a checksum.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t kRingSize = 256;

struct Item {
  long value;
  long history[3];
};

class Ring {
 public:
  void push(const Item &item) {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    while (tail - head_.load(std::memory_order_acquire) == kRingSize) std::this_thread::yield();
    slots_[tail % kRingSize] = item;
    tail_.store(tail + 1, std::memory_order_release);
  }
  Item pop() {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    while (tail_.load(std::memory_order_acquire) == head) std::this_thread::yield();
    Item item = slots_[head % kRingSize];
    head_.store(head + 1, std::memory_order_release);
    return item;
  }

 private:
  Item slots_[kRingSize];
  alignas(64) std::atomic<std::size_t> head_{0};
  alignas(64) std::atomic<std::size_t> tail_{0};
};

}  // namespace

int main(int argc, char **argv) {
  const long items = argc > 1 ? std::atol(argv[1]) : 2000000;
  const int stages = argc > 2 ? std::atoi(argv[2]) : 4;
  if (items <= 0 || stages < 1 || stages > 32) {
    std::fprintf(stderr, "usage: atomic_pipeline [ITEMS>0] [STAGES 1..32]\n");
    return 2;
  }
  std::vector<std::unique_ptr<Ring>> rings;
  for (int s = 0; s <= stages; s++) rings.push_back(std::make_unique<Ring>());
  std::vector<std::thread> workers;
  for (int s = 0; s < stages; s++)
    workers.emplace_back([s, items, &rings] {
      for (long i = 0; i < items; i++) {
        Item item = rings[static_cast<std::size_t>(s)]->pop();
        item.history[s % 3] += item.value;
        item.value = item.value * 3 + s;
        rings[static_cast<std::size_t>(s) + 1]->push(item);
      }
    });
  std::thread sink([items, stages, &rings] {
    long checksum = 0;
    for (long i = 0; i < items; i++) {
      Item item = rings[static_cast<std::size_t>(stages)]->pop();
      checksum += (item.value + item.history[0] + item.history[1] + item.history[2]) % 1000003;
    }
    std::printf("atomic_pipeline items=%ld checksum=%ld\n", items, checksum);
  });
  for (long i = 0; i < items; i++) rings[0]->push(Item{i, {0, 0, 0}});
  for (auto &w : workers) w.join();
  sink.join();
  return 0;
}
