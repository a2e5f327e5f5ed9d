// Fence-to-fence synchronization: the producer writes data, issues a
// release fence and stores the flag relaxed; the consumer loads the flag
// relaxed, then issues an acquire fence and reads the data. By
// [atomics.fences] the fences synchronize: clean.
#include <atomic>
#include <thread>

long data[2];
std::atomic<int> flag{0};

int main() {
  std::thread producer([] {
    data[0] = 3;
    data[1] = 4;
    std::atomic_thread_fence(std::memory_order_release);
    flag.store(1, std::memory_order_relaxed);
  });
  while (flag.load(std::memory_order_relaxed) == 0) std::this_thread::yield();
  std::atomic_thread_fence(std::memory_order_acquire);
  long seen = data[0] * data[1];
  producer.join();
  return seen == 12 ? 0 : 1;
}
