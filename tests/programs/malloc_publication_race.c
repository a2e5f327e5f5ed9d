/* Allocation is a write of the block by the allocating thread (as in
 * ThreadSanitizer): a fresh block handed to another thread through a relaxed
 * atomic, and written there, races with its allocation. */
#include <pthread.h>
#include <stdlib.h>

static int* slot;

static void* user(void* arg) {
  (void)arg;
  int* p;
  while ((p = __atomic_load_n(&slot, __ATOMIC_RELAXED)) == NULL) {
  }
  *p = 7; /* races with the allocation */
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, user, NULL);
  int* block = malloc(sizeof *block);
  __atomic_store_n(&slot, block, __ATOMIC_RELAXED);
  pthread_join(t, NULL);
  free(block);
  return 0;
}
