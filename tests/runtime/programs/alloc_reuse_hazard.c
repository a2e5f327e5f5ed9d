// The use-after-free hazard of the sync-free region filter
// (host/runtime/region_filter.hpp): thread T reads a freed block (a1), its
// buffer is drained, then the main thread allocates the same block again
// (an Alloc, which discards the block's history, and the allocating
// thread's write), and T reads the same bytes again (a2) in the same region,
// with no synchronization between T and main after the free. a2 races with
// the allocation; a1, checked before the Alloc, cannot stand in for it. The
// runtime must report the race on bytes 8..15 of the block. Timing by
// sleeps (not synchronization): main allocates 100 ms in, T reads again at
// 250 ms. Exit 3 if glibc did not hand the same block back.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned char* block;
static pthread_mutex_t unrelated = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned sink;

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&t, NULL);
}

static void* reader(void* arg) {
  (void)arg;
  volatile unsigned char local[2048];
  sink += *(volatile unsigned long*)(block + 8);  // a1: the freed block
  // Fills the buffer, so a1 is drained (checked) before main's Alloc. In
  // descending order: coalescing extends runs upward only, so each write is
  // its own entry (ascending, the 2,048 writes were one run, a1 stayed
  // buffered until T's exit, and a1 itself raced with the Alloc).
  for (int i = 2047; i >= 0; i--) local[i] = (unsigned char)i;
  sleep_ms(250);
  sink += *(volatile unsigned long*)(block + 8);  // a2: the block allocated again by main
  return NULL;
}

int main(void) {
  block = malloc(344);
  // Through a volatile integer: the compiler may assume a fresh malloc
  // result differs from every other pointer and fold the comparison below.
  volatile uintptr_t first = (uintptr_t)block;
  free(block);
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  sleep_ms(100);
  unsigned char* again = malloc(344);
  // Synchronization of main alone (T never takes this lock): main's buffer,
  // with the Alloc, is checked now, before T's a2.
  pthread_mutex_lock(&unrelated);
  pthread_mutex_unlock(&unrelated);
  pthread_join(t, NULL);
  if ((uintptr_t)again != first) {
    fprintf(stderr, "alloc_reuse_hazard: malloc did not return the freed block\n");
    return 3;
  }
  free(again);
  return 0;
}
