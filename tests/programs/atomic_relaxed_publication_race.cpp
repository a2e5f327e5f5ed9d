// As atomic_acq_rel_publication_clean, but the flag is stored and loaded
// with memory_order_relaxed: the consumer sees the flag but is not ordered
// after the data writes. A race, on every run (the spin makes the read come
// after the write in time).
#include <atomic>
#include <thread>

int payload;
std::atomic<int> ready{0};

int main() {
  std::thread producer([] {
    payload = 46;
    ready.store(1, std::memory_order_relaxed);
  });
  while (ready.load(std::memory_order_relaxed) == 0) std::this_thread::yield();
  int seen = payload;
  producer.join();
  return seen == 46 ? 0 : 1;
}
