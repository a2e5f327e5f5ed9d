// The producer side is fenced correctly (release fence, relaxed store), but
// the consumer reads the data after a relaxed load with no acquire fence:
// nothing synchronizes, so a race.
#include <atomic>
#include <thread>

long data;
std::atomic<int> flag{0};

int main() {
  std::thread producer([] {
    data = 12;
    std::atomic_thread_fence(std::memory_order_release);
    flag.store(1, std::memory_order_relaxed);
  });
  while (flag.load(std::memory_order_relaxed) == 0) std::this_thread::yield();
  long seen = data;
  producer.join();
  return seen == 12 ? 0 : 1;
}
