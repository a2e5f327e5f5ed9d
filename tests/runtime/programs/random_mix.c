// A seeded random mix of racy and synchronized operations (argv[1] = seed):
// plain reads and writes of 1, 2, 4 and 8 bytes at random offsets, under
// one of four mutexes or none, release/acquire and relaxed atomics (and
// plain writes of the atomics' flags, which race with them unless ordered),
// and a barrier. runtime_tests record the stream and check that the golden
// detector, replaying it, finds exactly the races the runtime reported.
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 4, kOps = 3000, kBytes = 64 };

static unsigned char shared[kBytes] __attribute__((aligned(16)));
static pthread_mutex_t locks[4] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                   PTHREAD_MUTEX_INITIALIZER};
static int flags[2];
static pthread_barrier_t barrier;
static unsigned seed;

static uint64_t next(uint64_t* s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

static void access_bytes(uint64_t* s) {
  const unsigned size = 1u << (next(s) % 4);
  const unsigned offset = (unsigned)(next(s) % (kBytes - size + 1));
  unsigned char* p = shared + offset;
  const int write = next(s) % 3 == 0;
  switch (size) {
    case 1:
      if (write)
        *p = (unsigned char)next(s);
      else
        (void)*(volatile unsigned char*)p;
      break;
    case 2:
      if (write) {
        uint16_t v = (uint16_t)next(s);
        memcpy(p, &v, 2);
      } else {
        uint16_t v;
        memcpy(&v, p, 2);
        (void)v;
      }
      break;
    case 4:
      if (write) {
        uint32_t v = (uint32_t)next(s);
        memcpy(p, &v, 4);
      } else {
        uint32_t v;
        memcpy(&v, p, 4);
        (void)v;
      }
      break;
    default:
      if (write) {
        uint64_t v = next(s);
        memcpy(p, &v, 8);
      } else {
        uint64_t v;
        memcpy(&v, p, 8);
        (void)v;
      }
      break;
  }
}

static void* worker(void* arg) {
  uint64_t s = seed * 7919u + (uint64_t)(uintptr_t)arg;
  for (int i = 0; i < kOps; i++) {
    const unsigned what = (unsigned)(next(&s) % 16);
    if (what < 9) {  // under a lock (which one is random: some pairs do not share it)
      pthread_mutex_t* m = &locks[next(&s) % 4];
      pthread_mutex_lock(m);
      access_bytes(&s);
      pthread_mutex_unlock(m);
    } else if (what < 10) {  // unprotected
      access_bytes(&s);
    } else if (what < 13) {  // publish or observe through a flag
      int* f = &flags[next(&s) % 2];
      if (next(&s) % 2)
        __atomic_store_n(f, i, next(&s) % 2 ? __ATOMIC_RELEASE : __ATOMIC_RELAXED);
      else
        (void)__atomic_load_n(f, next(&s) % 2 ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED);
    } else if (what < 15) {
      __atomic_fetch_add(&flags[0], 1, __ATOMIC_ACQ_REL);
    } else {  // a plain write of a flag: races with its atomic accesses unless ordered
      flags[next(&s) % 2] = i;
    }
    if (i == kOps / 2) pthread_barrier_wait(&barrier);
  }
  return 0;
}

int main(int argc, char** argv) {
  seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  pthread_barrier_init(&barrier, 0, kThreads);
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i++) pthread_create(&t[i], 0, worker, (void*)i);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], 0);
  pthread_barrier_destroy(&barrier);
  return 0;
}
