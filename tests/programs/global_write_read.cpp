// A std::thread writes a global; main reads it with no synchronization: a race.
#include <thread>

#include "test_barrier.h"

long counter;
static unsigned order;

int main() {
  __tsan_testonly_barrier_init(&order, 2);
  std::thread writer([] {
    counter = 42;
    __tsan_testonly_barrier_wait(&order);
  });
  __tsan_testonly_barrier_wait(&order);
  long seen = counter;
  writer.join();
  return seen == 42 ? 0 : 1;
}
