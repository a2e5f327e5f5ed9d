// A thread publishes the address of its own local through a mutex-protected
// pointer; main writes that local later, while the thread reads it without
// taking the mutex again: a race on the thread's stack.
#include <mutex>
#include <thread>

#include "test_barrier.h"

static std::mutex pointer_mutex;
static int *published;
static unsigned order;

int main() {
  __tsan_testonly_barrier_init(&order, 2);
  int seen = 0;
  std::thread owner([&seen] {
    int local = 1;
    {
      std::lock_guard<std::mutex> lock(pointer_mutex);
      published = &local;
    }
    __tsan_testonly_barrier_wait(&order);  // main has the pointer
    __tsan_testonly_barrier_wait(&order);  // main wrote the local
    seen = local;
  });
  __tsan_testonly_barrier_wait(&order);
  int *target;
  {
    std::lock_guard<std::mutex> lock(pointer_mutex);
    target = published;
  }
  *target = 2;
  __tsan_testonly_barrier_wait(&order);
  owner.join();
  return seen == 2 ? 0 : 1;
}
