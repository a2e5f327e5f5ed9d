/* Eight threads each write their own byte of the same 8-byte word, with no
 * synchronization among them. No byte is shared: clean. A detector that
 * tracks whole words would report a false race here. */
#include <pthread.h>
#include <stdint.h>

enum { kThreads = 8, kRounds = 200 };

union {
  uint64_t word;
  uint8_t bytes[8];
} cell;

static void *byte_owner(void *arg) {
  long index = (long)arg;
  for (int i = 0; i < kRounds; i++) cell.bytes[index] = (uint8_t)(index + i);
  return 0;
}

int main(void) {
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i++) pthread_create(&t[i], 0, byte_owner, (void *)i);
  for (int i = 0; i < kThreads; i++) pthread_join(t[i], 0);
  for (int i = 0; i < kThreads; i++)
    if (cell.bytes[i] != (uint8_t)(i + kRounds - 1)) return 1;
  return 0;
}
