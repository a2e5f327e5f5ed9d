/* A heap block freed while another thread, unordered with the free, uses
 * it: a race (the free counts as a write of the whole block).
 *   pending  the worker writes the block and goes on without synchronizing
 *            (its write stays in its buffer); main frees the block later
 *   after    the worker frees the block; main reads it later, with nothing
 *            ordering the free before the read (a use after free)
 * The runtime cleared a freed block's history at the free, so an access
 * checked after it (still buffered at the free, or made after it) met an
 * empty history: both races were lost in every run. The free's write now
 * stays until the memory is allocated again. The sleeps only make the
 * lost case the likely order; the race holds in every order. Stock TSan
 * reports `pending` as a race and `after` as a heap-use-after-free. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long* block;
static volatile long sink;

static void* write_then_idle(void* arg) {
  (void)arg;
  block[3] = 42;
  usleep(100 * 1000);
  return 0;
}

static void* free_block(void* arg) {
  (void)arg;
  free(block);
  return 0;
}

int main(int argc, char** argv) {
  const int after = argc > 1 && strcmp(argv[1], "after") == 0;
  block = malloc(8 * sizeof(long));
  if (block == NULL) return 1;
  block[0] = 1;
  pthread_t t;
  pthread_create(&t, 0, after ? free_block : write_then_idle, 0);
  usleep(50 * 1000);
  if (after) {
    sink = block[3];  // freed, not reallocated: the chunk stays mapped
  } else {
    free(block);
  }
  pthread_join(t, 0);
  printf("done\n");
  return 0;
}
