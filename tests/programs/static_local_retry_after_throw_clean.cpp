// Clean: a function-local static whose first initialization throws is
// initialized again by the thread that waited for it. [stmt.dcl]/4 makes
// the waiting thread wait until the first attempt ends; libstdc++'s
// __cxa_guard_abort hands the guard back (a releasing exchange), and the
// waiter's __cxa_guard_acquire then returns 1 after an acquiring exchange.
// So the first attempt's writes happen before the second's. Stock TSan
// reports them (its __cxa_guard_abort releases nothing).
// The test barrier orders the threads without creating happens-before.
#include <pthread.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

extern "C" void __tsan_testonly_barrier_init(unsigned* barrier, unsigned count);
extern "C" void __tsan_testonly_barrier_wait(unsigned* barrier);

namespace {

unsigned inside;  // both threads: the first attempt has begun
int attempts;

struct Settings {
  int generation;
  Settings() : generation(++attempts) {
    if (generation == 1) {
      __tsan_testonly_barrier_wait(&inside);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the other thread waits on the guard
      throw std::runtime_error("first attempt fails");
    }
  }
};

Settings& settings() {
  static Settings s;
  return s;
}

}  // namespace

int main() {
  __tsan_testonly_barrier_init(&inside, 2);
  std::thread first([] {
    try {
      settings();
    } catch (const std::runtime_error&) {
    }
  });
  __tsan_testonly_barrier_wait(&inside);
  const int generation = settings().generation;  // waits for the first attempt, then retries
  first.join();
  std::printf("generation %d after %d attempts\n", generation, attempts);
  return generation == 2 ? 0 : 1;
}
