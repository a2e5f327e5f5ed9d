// Repeated atomic loads (the runtime decides repeats without the checker's
// lock, tsan_atomics.cpp): a producer writes a plain slot, then publishes its
// index with a release store; the consumer spins on acquire loads of the
// index (many repeats), reads the slot once the index moved and acknowledges
// with a release store, on which the producer spins before it reuses a slot.
// Race-free: every read is ordered after its write, and every rewrite after
// the read, by a load that saw a new value, which must not be mistaken for a
// repeat. argv[1] = rounds (default 2000).
#include <pthread.h>
#include <stdlib.h>

static long data[64];
static long published = -1;  // atomic: index of the last slot written
static long consumed = -1;   // atomic: index of the last slot read
static volatile long sink;

static void* producer(void* arg) {
  const long rounds = (long)arg;
  for (long i = 0; i < rounds; i++) {
    while (i - __atomic_load_n(&consumed, __ATOMIC_ACQUIRE) > 32) {
    }  // repeats
    data[i % 64] = i;
    __atomic_store_n(&published, i, __ATOMIC_RELEASE);
  }
  return 0;
}

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? atol(argv[1]) : 2000;
  pthread_t t;
  pthread_create(&t, 0, producer, (void*)rounds);
  long seen = -1;
  while (seen < rounds - 1) {
    long now;
    while ((now = __atomic_load_n(&published, __ATOMIC_ACQUIRE)) == seen) {
    }  // repeats
    sink += data[now % 64];
    seen = now;
    __atomic_store_n(&consumed, now, __ATOMIC_RELEASE);
  }
  pthread_join(t, 0);
  return 0;
}
