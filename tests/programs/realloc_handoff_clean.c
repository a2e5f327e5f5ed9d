/* Blocks grown with realloc and handed between threads through create and
 * join: every access is ordered, and the moved block's old bytes are
 * forgotten, so clean. Also calloc and posix_memalign. */
#include <pthread.h>
#include <stdlib.h>

struct Buffer {
  int *items;
  int count;
};

static void *append_more(void *arg) {
  struct Buffer *buf = arg;
  buf->items = realloc(buf->items, (size_t)(buf->count + 1000) * sizeof(int));
  for (int i = 0; i < 1000; i++) buf->items[buf->count + i] = buf->count + i;
  buf->count += 1000;
  return 0;
}

int main(void) {
  struct Buffer buf = {calloc(10, sizeof(int)), 10};
  for (int i = 0; i < 10; i++) buf.items[i] = i;
  for (int round = 0; round < 3; round++) {
    pthread_t t;
    pthread_create(&t, 0, append_more, &buf);
    pthread_join(t, 0);
    buf.items = realloc(buf.items, (size_t)(buf.count + 5) * sizeof(int));
  }
  long sum = 0;
  for (int i = 0; i < buf.count; i++) sum += buf.items[i];
  free(buf.items);
  void *aligned = 0;
  if (posix_memalign(&aligned, 64, 4096) != 0) return 2;
  ((char *)aligned)[4095] = 1;
  free(aligned);
  return sum == (long)buf.count * (buf.count - 1) / 2 ? 0 : 1;
}
