// A C++ thread_local whose address main receives through a promise/future
// handoff (which is synchronization): main and the owner then both write it
// without synchronization: a race.
#include <future>
#include <thread>

#include "test_barrier.h"

thread_local long scratch;
static unsigned order;

int main() {
  __tsan_testonly_barrier_init(&order, 2);
  std::promise<long *> address;
  std::future<long *> address_future = address.get_future();
  std::thread owner([&address] {
    address.set_value(&scratch);
    scratch = 1;
    __tsan_testonly_barrier_wait(&order);  // main writes after this
    __tsan_testonly_barrier_wait(&order);  // keep the thread (and its TLS) alive
  });
  long *target = address_future.get();
  __tsan_testonly_barrier_wait(&order);
  *target = 2;
  __tsan_testonly_barrier_wait(&order);
  owner.join();
  return 0;
}
