// A thread updates an object's member; main deletes the object without
// synchronizing with that update. delete frees the memory, which counts as a
// write of the whole object: a race.
#include <thread>

#include "test_barrier.h"

struct Session {
  long bytes_sent = 0;
  long bytes_received = 0;
};

static unsigned order;

int main() {
  __tsan_testonly_barrier_init(&order, 2);
  Session *session = new Session;
  std::thread io([session] {
    session->bytes_received = 512;
    __tsan_testonly_barrier_wait(&order);
    __tsan_testonly_barrier_wait(&order);
  });
  __tsan_testonly_barrier_wait(&order);
  delete session;
  __tsan_testonly_barrier_wait(&order);
  io.join();
  return 0;
}
