/* Two threads store 16-byte vectors to adjacent 16-byte slots, and a third
 * reads an int just past them, with no synchronization: no byte is shared,
 * so clean. */
#include <pthread.h>

typedef int int4 __attribute__((vector_size(16)));

static struct {
  int4 slot[2];
  int after;
} area;

static void *slot_writer(void *arg) {
  long index = (long)arg;
  int4 value = {(int)index, 1, 2, 3};
  for (int i = 0; i < 100; i++) area.slot[index] = value + i;
  return 0;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, slot_writer, (void *)i);
  area.after = 7;
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return area.slot[1][0] == 100 && area.after == 7 ? 0 : 1;
}
