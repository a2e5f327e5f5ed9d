// A writes data and stores flag=1 with release. B, which never synchronized
// with A, then stores flag=2 with release: a store (unlike an RMW) starts a
// new release sequence headed by B, ending A's. Main loads flag==2 with
// acquire and synchronizes with B only, so its read of data races with A's
// write.
#include <atomic>
#include <thread>

#include "test_barrier.h"

int data;
std::atomic<int> flag{0};
static unsigned order;

int main() {
  __tsan_testonly_barrier_init(&order, 3);
  std::thread a([] {
    data = 1;
    flag.store(1, std::memory_order_release);
    __tsan_testonly_barrier_wait(&order);  // A's store is first
    __tsan_testonly_barrier_wait(&order);
  });
  std::thread b([] {
    __tsan_testonly_barrier_wait(&order);
    flag.store(2, std::memory_order_release);  // B's store is second
    __tsan_testonly_barrier_wait(&order);
  });
  __tsan_testonly_barrier_wait(&order);
  __tsan_testonly_barrier_wait(&order);
  int seen_flag = flag.load(std::memory_order_acquire);
  int seen = data;
  a.join();
  b.join();
  return seen_flag == 2 && seen == 1 ? 0 : 1;
}
