/* Race-free: a producer allocates and fills blocks and hands them to a
 * consumer under a mutex; the consumer writes and frees them. Later the
 * producer allocates again and writes the new blocks, which glibc takes
 * from the consumer's frees (more blocks than a thread's cache holds).
 * The allocator orders each free before the allocation that returns the
 * same memory; the runtime sees that through its malloc and free, which
 * must come first even though the program is linked with a library that
 * defines them too (replacement_malloc.c). Expected: no report. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kBlocks = 300, kSize = 96 };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t handed = PTHREAD_COND_INITIALIZER;
static char *queue[kBlocks];
static int queued;
static int consumed_all;

static void *consumer(void *arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  while (queued < kBlocks) pthread_cond_wait(&handed, &mu);
  pthread_mutex_unlock(&mu);
  for (int i = 0; i < kBlocks; i++) {
    memset(queue[i], 2, kSize);
    free(queue[i]);
  }
  __atomic_store_n(&consumed_all, 1, __ATOMIC_RELAXED);
  return 0;
}

int main(void) {
  extern unsigned long replacement_malloc_calls(void);
  pthread_t t;
  pthread_create(&t, 0, consumer, 0);
  char *blocks[kBlocks];
  for (int i = 0; i < kBlocks; i++) {
    blocks[i] = malloc(kSize);
    memset(blocks[i], 1, kSize);
  }
  pthread_mutex_lock(&mu);
  memcpy(queue, blocks, sizeof blocks);
  queued = kBlocks;
  pthread_cond_signal(&handed);
  pthread_mutex_unlock(&mu);
  /* Wait for the frees through a relaxed flag, which orders nothing: the
   * new blocks are ordered after the consumer's writes by the allocator
   * alone. */
  while (!__atomic_load_n(&consumed_all, __ATOMIC_RELAXED)) {
  }
  long sum = 0;
  for (int i = 0; i < kBlocks; i++) {
    blocks[i] = malloc(kSize);
    memset(blocks[i], 3, kSize);
    sum += blocks[i][0];
  }
  pthread_join(t, 0);
  for (int i = 0; i < kBlocks; i++) free(blocks[i]);
  printf("sum %ld, replacement calls %s\n", sum, replacement_malloc_calls() > 0 ? "made" : "none");
  return 0;
}
