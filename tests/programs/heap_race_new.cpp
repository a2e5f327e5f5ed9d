// An object allocated with new, whose member two threads write without
// synchronization: a race on the heap.
#include <thread>

#include "test_barrier.h"

struct Account {
  long balance = 0;
  long fees = 0;
};

static unsigned order;

int main() {
  __tsan_testonly_barrier_init(&order, 2);
  Account *account = new Account;
  std::thread depositor([account] {
    account->balance += 100;
    __tsan_testonly_barrier_wait(&order);
  });
  __tsan_testonly_barrier_wait(&order);
  account->balance -= 30;
  depositor.join();
  delete account;
  return 0;
}
