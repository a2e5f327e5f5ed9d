// Release sequences: A writes data and stores count=1 with release; B, a
// relaxed read-modify-write, bumps count to 2 (an RMW continues A's release
// sequence); C loads count==2 with acquire and is thereby synchronized with
// A's release store: reading the data is clean, although C never read A's
// store directly and B used only relaxed operations.
#include <atomic>
#include <thread>

int data;
std::atomic<int> count{0};

int main() {
  std::thread a([] {
    data = 7;
    count.store(1, std::memory_order_release);
  });
  std::thread b([] {
    int expected = 1;
    while (!count.compare_exchange_weak(expected, 2, std::memory_order_relaxed)) {
      expected = 1;
      std::this_thread::yield();
    }
  });
  while (count.load(std::memory_order_acquire) != 2) std::this_thread::yield();
  int seen = data;
  a.join();
  b.join();
  return seen == 7 ? 0 : 1;
}
