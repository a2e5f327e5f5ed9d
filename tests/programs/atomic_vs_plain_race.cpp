// One thread updates a word atomically, the other writes the same word with
// a plain store: only one side is atomic, so under the C++ memory model this
// is a data race.
#include <atomic>
#include <thread>

#include "test_barrier.h"

long word;
static unsigned order;

int main() {
  __tsan_testonly_barrier_init(&order, 2);
  std::thread atomic_side([] {
    __atomic_fetch_add(&word, 1, __ATOMIC_SEQ_CST);
    __tsan_testonly_barrier_wait(&order);
  });
  __tsan_testonly_barrier_wait(&order);
  word = 10;  // plain
  atomic_side.join();
  return word == 10 ? 0 : 1;
}
