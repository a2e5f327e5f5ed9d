/* Release/acquire publication through C11 atomics of 1, 2, 4 and 8 bytes,
 * one plain payload per size: clean. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

int payload8, payload16, payload32, payload64;
_Atomic uint8_t flag8;
_Atomic uint16_t flag16;
_Atomic uint32_t flag32;
_Atomic uint64_t flag64;

static void *producer(void *arg) {
  (void)arg;
  payload8 = 8;
  atomic_store_explicit(&flag8, 1, memory_order_release);
  payload16 = 16;
  atomic_store_explicit(&flag16, 1, memory_order_release);
  payload32 = 32;
  atomic_fetch_add_explicit(&flag32, 1, memory_order_release);
  payload64 = 64;
  uint64_t expected = 0;
  atomic_compare_exchange_strong_explicit(&flag64, &expected, 1, memory_order_release, memory_order_relaxed);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  int sum = 0;
  while (!atomic_load_explicit(&flag8, memory_order_acquire)) sched_yield();
  sum += payload8;
  while (!atomic_load_explicit(&flag16, memory_order_acquire)) sched_yield();
  sum += payload16;
  while (!atomic_load_explicit(&flag32, memory_order_acquire)) sched_yield();
  sum += payload32;
  while (!atomic_load_explicit(&flag64, memory_order_acquire)) sched_yield();
  sum += payload64;
  pthread_join(t, 0);
  return sum == 120 ? 0 : 1;
}
