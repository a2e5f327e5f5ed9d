/* Many threads read the same data at the same time with no synchronization,
 * and main writes it again only after joining them all: reads never race
 * with reads, so clean. */
#include <pthread.h>

enum { kReaders = 6 };

int table[64];

static void *reader(void *arg) {
  (void)arg;
  long sum = 0;
  for (int round = 0; round < 50; round++)
    for (int i = 0; i < 64; i++) sum += table[i];
  return (void *)sum;
}

int main(void) {
  for (int i = 0; i < 64; i++) table[i] = i;
  pthread_t t[kReaders];
  for (int i = 0; i < kReaders; i++) pthread_create(&t[i], 0, reader, 0);
  int bad = 0;
  for (int i = 0; i < kReaders; i++) {
    void *sum;
    pthread_join(t[i], &sum);
    bad += (long)sum != 50 * 2016;
  }
  for (int i = 0; i < 64; i++) table[i] = 0;
  return bad;
}
