/* The same hand-off as malloc_publication_race.c, with release/acquire: the
 * allocation happens before the other thread's write. Clean. */
#include <pthread.h>
#include <stdlib.h>

static int* slot;

static void* user(void* arg) {
  (void)arg;
  int* p;
  while ((p = __atomic_load_n(&slot, __ATOMIC_ACQUIRE)) == NULL) {
  }
  *p = 7;
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, user, NULL);
  int* block = malloc(sizeof *block);
  __atomic_store_n(&slot, block, __ATOMIC_RELEASE);
  pthread_join(t, NULL);
  free(block);
  return 0;
}
