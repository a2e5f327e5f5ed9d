/* Four threads bump shared counters with C11 atomic read-modify-writes of
 * several sizes (fetch_add, fetch_or, exchange) and relaxed order; main reads
 * them after joining. Atomics never race with each other: clean. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

enum { kThreads = 4, kRounds = 1000 };

_Atomic uint64_t hits64;
_Atomic uint32_t hits32;
_Atomic uint16_t bits16;
_Atomic uint8_t last8;

static void *bumper(void *arg) {
  long me = (long)arg;
  for (int i = 0; i < kRounds; i++) {
    atomic_fetch_add_explicit(&hits64, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&hits32, 2, memory_order_relaxed);
    atomic_fetch_or_explicit(&bits16, (uint16_t)(1u << me), memory_order_relaxed);
    atomic_exchange_explicit(&last8, (uint8_t)me, memory_order_relaxed);
  }
  return 0;
}

int main(void) {
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i++) pthread_create(&t[i], 0, bumper, (void *)i);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], 0);
  int ok = atomic_load(&hits64) == kThreads * kRounds && atomic_load(&hits32) == 2 * kThreads * kRounds &&
           atomic_load(&bits16) == 0xf && atomic_load(&last8) < kThreads;
  return ok ? 0 : 1;
}
