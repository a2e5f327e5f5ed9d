/* A new thread runs in the memory of a finished thread's state (the runtime
 * keeps a few for the next threads: docs/runtime.md, "Threads, start-up and
 * exit"), whose region table still holds the finished thread's entries. The
 * new thread must not take them as its own. Thread A writes a 4 KiB buffer
 * byte by byte (64 lines: its region table, not only the young one) and is
 * joined; thread B then does the same, in A's old state, and races with
 * thread C's write of the buffer's last byte (a line the region reaches
 * after it left its young table, so in the whole table A's entries are
 * in): nothing orders B and C.
 * Had B started at A's region generation, its writes would have been
 * decided as covered by A's entries, never checked, and the race lost. */
#include <pthread.h>
#include <stdio.h>

enum { kBytes = 4096 };
static char buf[kBytes];

static void* touch(void* arg) {
  for (int i = 0; i < kBytes; i++)
    buf[i] = (char)(i ^ (long)arg);  // not a memset: the lines go through the region table
  return 0;
}

static void* write_last(void* arg) {
  buf[kBytes - 1] = (char)(long)arg;
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, touch, (void*)1);
  pthread_join(a, 0);
  pthread_create(&b, 0, touch, (void*)2);
  pthread_create(&c, 0, write_last, (void*)3);
  pthread_join(b, 0);
  pthread_join(c, 0);
  printf("%d\n", buf[1]);
  return 0;
}
