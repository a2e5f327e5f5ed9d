/* Threads allocate, fill and free blocks of the same sizes in a loop, with
 * no synchronization between them, so the allocator hands freed blocks to
 * other threads. A freed block's history is gone: reuse is clean. Large
 * (mmap'ed) blocks are included, which are likely to come back at the same
 * address. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 4, kRounds = 200 };

static void *churner(void *arg) {
  long me = (long)arg;
  long sum = 0;
  for (int i = 0; i < kRounds; i++) {
    size_t size = (i % 10 == 0) ? 256 * 1024 : (size_t)(16 + 48 * (i % 5));
    unsigned char *block = malloc(size);
    memset(block, (int)me, size);
    block[size - 1] = (unsigned char)i;
    sum += block[0] + block[size - 1];
    free(block);
  }
  return (void *)sum;
}

int main(void) {
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i++) pthread_create(&t[i], 0, churner, (void *)i);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], 0);
  return 0;
}
