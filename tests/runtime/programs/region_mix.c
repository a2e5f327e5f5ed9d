// A seeded random program (argv[1] = seed, argv[2] = threads, default 4)
// made of the shapes the sync-free region filter must get right
// (docs/runtime.md, "Sync-free regions"): repeats of the same bytes with
// mixed sizes inside one granule, a write inside bytes the thread read
// before, byte loops over arrays, unrolled loops (runs of accesses from
// several instructions in turn), overlapping 16-byte loads and stores
// (each one's first half covered by the one before), memset/memcpy ranges that partly overlap
// earlier ones, the same under locks (some threads take the wrong lock),
// heap blocks used by one thread for a long time before they escape to
// another through an atomic slot, and blocks read twice, without
// synchronization, while another thread may free and reallocate them.
// region_filter_test.cpp records the unfiltered stream of each run and
// checks that the golden detector finds exactly the racy bytes the runtime
// reported live.
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sized_access.h"

enum { kMaxThreads = 8, kOps = 300, kBytes = 512, kLocks = 3, kSlots = 4 };

static unsigned char arr[kBytes] __attribute__((aligned(64)));
static pthread_mutex_t locks[kLocks] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                        PTHREAD_MUTEX_INITIALIZER};
static unsigned char* slots[kSlots];  // heap blocks handed between threads (atomic exchange)
static int flag;
static unsigned seed;
static volatile unsigned sink;

static uint64_t next(uint64_t* s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

// One access of 1, 2, 4 or 8 bytes at p (volatile: the compiler keeps it).
static void touch(unsigned char* p, unsigned size, int write, uint64_t v) {
  const uint64_t got = sized_access(p, size, write, v);
  if (!write) sink += (unsigned)got;
}

// 2..6 accesses of mixed sizes and kinds within [base, base + 16): repeats,
// narrower reads inside wider ones, a write inside read bytes.
static void repeats(uint64_t* s, unsigned char* base) {
  const int n = 2 + (int)(next(s) % 5);
  for (int i = 0; i < n; i++) {
    const unsigned size = 1u << (next(s) % 4);
    const unsigned offset = (unsigned)(next(s) % (16 / size)) * size;
    touch(base + offset, size, next(s) % 4 == 0, next(s));
  }
}

// 16 bytes at a time, at 8-byte steps (a vectorized stencil's loads).
typedef long long pair __attribute__((vector_size(16), aligned(8)));

// A byte loop, an unrolled loop, overlapping 16-byte loads or stores, or a
// memset/memcpy over [p, p + len).
static void range(uint64_t* s, unsigned char* p, unsigned len) {
  // The first 8-byte boundary in the range: overlapping 16-byte accesses
  // from there have covered first halves (BufferedEvent::lead).
  unsigned char* const aligned = p + ((8 - ((uintptr_t)p & 7)) & 7);
  const long pairs = (long)(p + len - aligned - 8) / 8;  // 16-byte accesses at 8-byte steps that fit
  switch (next(s) % 8) {
    case 0:
      for (unsigned i = 0; i < len; i++) sink += ((volatile unsigned char*)p)[i];
      break;
    case 1:
      for (unsigned i = 0; i < len; i++) ((volatile unsigned char*)p)[i] = (unsigned char)i;
      break;
    case 4: {  // unrolled by two: 2-byte stores from two instructions in turn, then a tail
      volatile uint16_t* q = (volatile uint16_t*)p;
      unsigned i = 0;
      for (; i + 2 <= len / 2; i += 2) {
        q[i] = (uint16_t)i;
        q[i + 1] = (uint16_t)i;
      }
      for (; i < len / 2; i++) q[i] = 0;
      break;
    }
    case 5: {  // unrolled by three: 4-byte loads from three instructions in turn, then a tail
      volatile uint32_t* q = (volatile uint32_t*)p;
      unsigned i = 0;
      for (; i + 3 <= len / 4; i += 3) {
        sink += q[i];
        sink += q[i + 1];
        sink += q[i + 2];
      }
      for (; i < len / 4; i++) sink += q[i];
      break;
    }
    case 6:  // overlapping 16-byte loads, two instructions in turn, then a tail
      for (long i = 0; i + 1 < pairs; i += 2) {
        sink += (unsigned)(*(volatile pair*)(aligned + 8 * i))[0];
        sink += (unsigned)(*(volatile pair*)(aligned + 8 * i + 8))[1];
      }
      if (pairs > 0 && pairs % 2) sink += (unsigned)(*(volatile pair*)(aligned + 8 * (pairs - 1)))[0];
      break;
    case 7:  // overlapping 16-byte stores, one instruction
      for (long i = 0; i < pairs; i++) *(volatile pair*)(aligned + 8 * i) = (pair){i, i};
      break;
    case 2: memset(p, (int)next(s), len); break;
    default: {
      unsigned char tmp[64];
      memcpy(tmp, p, len);
      sink += tmp[0];
      break;
    }
  }
}

static unsigned char* own_block(uint64_t* s, unsigned* size) {
  *size = 32 + (unsigned)(next(s) % 6) * 16;
  unsigned char* b = malloc(*size);
  for (int phase = 0; phase < 3; phase++) {  // a thread-local phase across several regions
    for (unsigned i = 0; i < *size; i += 8) touch(b + i, 8, 1, i);
    repeats(s, b + (next(s) % (*size / 16)) * 16);
    pthread_mutex_lock(&locks[phase % kLocks]);
    pthread_mutex_unlock(&locks[phase % kLocks]);
  }
  return b;
}

static void* worker(void* arg) {
  uint64_t s = seed * 7919u + (uint64_t)(uintptr_t)arg;
  for (int i = 0; i < kOps; i++) {
    const unsigned what = (unsigned)(next(&s) % 20);
    if (what < 5) {  // unprotected repeats in the first half of arr
      repeats(&s, arr + (next(&s) % (kBytes / 32)) * 16);
    } else if (what < 8) {  // unprotected ranges, overlapping at random
      const unsigned len = 1 + (unsigned)(next(&s) % 64);
      range(&s, arr + next(&s) % (kBytes / 2 - len), len);
    } else if (what < 12) {  // under a lock; one time in ten the wrong one
      const unsigned l = (unsigned)(next(&s) % kLocks);
      const unsigned taken = next(&s) % 10 == 0 ? (l + 1) % kLocks : l;
      pthread_mutex_lock(&locks[taken]);
      unsigned char* area = arr + kBytes / 2 + l * 64;
      repeats(&s, area + (next(&s) % 4) * 16);
      if (next(&s) % 2) range(&s, area + next(&s) % 32, 1 + (unsigned)(next(&s) % 32));
      pthread_mutex_unlock(&locks[taken]);
    } else if (what < 14) {  // publish or observe through a flag
      if (next(&s) % 2)
        __atomic_store_n(&flag, i, __ATOMIC_RELEASE);
      else
        (void)__atomic_load_n(&flag, __ATOMIC_ACQUIRE);
    } else if (what < 16) {  // a block escapes after a thread-local phase
      unsigned size;
      unsigned char* b = own_block(&s, &size);
      b[0] = (unsigned char)size;  // the taker learns the size from here; bytes 16.. are data
      unsigned char* old = __atomic_exchange_n(&slots[next(&s) % kSlots], b, __ATOMIC_ACQ_REL);
      if (old != NULL) {
        repeats(&s, old + 16);
        range(&s, old + 16, old[0] - 16u < 64 ? old[0] - 16u : 64);
        free(old);
      }
    } else if (what < 18) {  // take a block, use it, free it or put it back
      unsigned char* b = __atomic_exchange_n(&slots[next(&s) % kSlots], NULL, __ATOMIC_ACQ_REL);
      if (b != NULL) {
        repeats(&s, b + 16);
        if (next(&s) % 2) {
          free(b);
        } else {
          unsigned char* old = __atomic_exchange_n(&slots[next(&s) % kSlots], b, __ATOMIC_ACQ_REL);
          free(old);
        }
      }
    } else {  // read a block twice without synchronization: it may be freed (and reused) in between
      unsigned char* b = __atomic_load_n(&slots[next(&s) % kSlots], __ATOMIC_RELAXED);
      if (b != NULL) {
        touch(b + 8, 8, 0, 0);
        for (int k = 0; k < 50; k++) sink += k;
        touch(b + 8, 4, 0, 0);
      }
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  int threads = argc > 2 ? atoi(argv[2]) : 4;
  if (threads < 1 || threads > kMaxThreads) threads = 4;
  pthread_t t[kMaxThreads];
  for (long i = 0; i < threads; i++) pthread_create(&t[i], 0, worker, (void*)i);
  for (int i = 0; i < threads; i++) pthread_join(t[i], 0);
  for (int k = 0; k < kSlots; k++) free(slots[k]);
  return 0;
}
