// Hand-rolled lazy initialization published through a RELAXED atomic
// pointer: the reader sees the pointer but is not ordered after the
// object's construction, so reading its fields races with the constructor.
#include <atomic>
#include <thread>

#include "test_barrier.h"

struct Settings {
  int verbosity;
  int retries;
};

std::atomic<Settings *> settings{nullptr};
static unsigned order;

int main() {
  __tsan_testonly_barrier_init(&order, 2);
  std::thread creator([] {
    Settings *s = new Settings;
    s->verbosity = 2;
    s->retries = 5;
    settings.store(s, std::memory_order_relaxed);
    __tsan_testonly_barrier_wait(&order);
  });
  __tsan_testonly_barrier_wait(&order);
  Settings *seen = settings.load(std::memory_order_relaxed);
  int retries = seen->retries;
  creator.join();
  delete seen;
  return retries == 5 ? 0 : 1;
}
