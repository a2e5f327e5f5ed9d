// Three independent races for the suppression tests: each between two
// threads that run the racing function directly, so each access stack is
// that function alone and a pattern can name one race by its function, its
// global or its file (suppressions_tsan_test.sh, sarif_schema_test.sh).
// The globals sit in separate 64-byte blocks: stock TSan tracks memory in
// 8-byte cells, and a suppressed race on one variable would otherwise hide
// a race on its neighbour in the same cell.
#include <pthread.h>
#include <stdlib.h>

#include "suppressions_helper.h"

_Alignas(64) int racy_counter;  // raced by racy_counter_bump
_Alignas(64) int named_global;  // raced by other_writer

__attribute__((noinline)) static void* racy_counter_bump(void* arg) {
  (void)arg;
  racy_counter++;
  return NULL;
}

__attribute__((noinline)) static void* other_writer(void* arg) {
  (void)arg;
  named_global = 7;
  return NULL;
}

static void race_with(void* (*fn)(void*), void* arg) {
  pthread_t a, b;
  pthread_create(&a, NULL, fn, arg);
  pthread_create(&b, NULL, fn, arg);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
}

int main(void) {
  race_with(racy_counter_bump, NULL);
  race_with(other_writer, NULL);
  int* block = malloc(sizeof *block);
  race_with(helper_heap_writer, block);
  free(block);
  return 0;
}
