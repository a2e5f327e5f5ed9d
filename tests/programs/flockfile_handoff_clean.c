/* flockfile/funlockfile lock a stdio stream: two threads update a counter
 * only while holding the stream's lock. Clean: each holder is ordered after
 * the previous one. (Stock TSan does not model the stream lock and reports
 * a race.) */
#include <pthread.h>
#include <stdio.h>

enum { kRounds = 200 };

static FILE* stream;
long counter;

static void* writer(void* arg) {
  (void)arg;
  for (int i = 0; i < kRounds; i++) {
    flockfile(stream);
    counter++;
    fputc('x', stream);
    funlockfile(stream);
  }
  return 0;
}

int main(void) {
  stream = tmpfile();
  if (stream == 0) return 2;
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, writer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  fclose(stream);
  return counter == 2 * kRounds ? 0 : 1;
}
