// Message passing: the producer writes plain data, then stores a flag with
// memory_order_release; the consumer spins with memory_order_acquire until it
// sees the flag, then reads the data. Release/acquire orders them: clean.
#include <atomic>
#include <thread>

int payload[4];
std::atomic<int> ready{0};

int main() {
  std::thread producer([] {
    for (int i = 0; i < 4; i++) payload[i] = i + 10;
    ready.store(1, std::memory_order_release);
  });
  while (ready.load(std::memory_order_acquire) == 0) std::this_thread::yield();
  int sum = payload[0] + payload[1] + payload[2] + payload[3];
  producer.join();
  return sum == 46 ? 0 : 1;
}
