// A spinlock built from compare_exchange (acquire on success) and a release
// store protects a plain counter; a second counter is incremented by a
// relaxed CAS loop. Clean: the CAS lock orders the critical sections, and the
// atomic counter is only read after the joins.
#include <atomic>
#include <thread>
#include <vector>

long protected_count;
std::atomic<bool> locked{false};
std::atomic<long> cas_count{0};

static void lock() {
  bool expected = false;
  while (!locked.compare_exchange_weak(expected, true, std::memory_order_acquire, std::memory_order_relaxed)) {
    expected = false;
    std::this_thread::yield();
  }
}

static void unlock() { locked.store(false, std::memory_order_release); }

int main() {
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; t++)
    threads.emplace_back([] {
      for (int i = 0; i < 500; i++) {
        lock();
        protected_count++;
        unlock();
        long old = cas_count.load(std::memory_order_relaxed);
        while (!cas_count.compare_exchange_weak(old, old + 1, std::memory_order_relaxed)) {
        }
      }
    });
  for (auto &t : threads) t.join();
  return protected_count == 1500 && cas_count.load() == 1500 ? 0 : 1;
}
