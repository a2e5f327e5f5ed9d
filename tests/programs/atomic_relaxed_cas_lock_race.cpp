// The same CAS spinlock but with memory_order_relaxed everywhere: mutual
// exclusion still holds, yet nothing orders one critical section after
// another, so the protected counter races.
#include <atomic>
#include <thread>

#include "test_barrier.h"

long protected_count;
std::atomic<bool> locked{false};
static unsigned order;

static void lock() {
  bool expected = false;
  while (!locked.compare_exchange_weak(expected, true, std::memory_order_relaxed)) expected = false;
}

static void unlock() { locked.store(false, std::memory_order_relaxed); }

int main() {
  __tsan_testonly_barrier_init(&order, 2);
  std::thread first([] {
    lock();
    protected_count++;
    unlock();
    __tsan_testonly_barrier_wait(&order);
  });
  __tsan_testonly_barrier_wait(&order);
  lock();
  protected_count++;
  unlock();
  first.join();
  return protected_count == 2 ? 0 : 1;
}
