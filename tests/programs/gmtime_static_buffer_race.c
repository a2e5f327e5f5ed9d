/* Two threads call gmtime(), which returns libc's one static struct tm:
 * each call writes it, so the two race on it (stock TSan reports it). The
 * program's own reads of the result could not show it: gmtime (and
 * localtime, ctime, asctime) record their result buffer as written. */
#include <pthread.h>
#include <time.h>

static void* convert(void* arg) {
  const time_t when = (time_t)(long)arg * 86400 * 40;
  struct tm* parts = gmtime(&when);
  return (void*)(long)parts->tm_yday;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, convert, (void*)1L);
  pthread_create(&b, 0, convert, (void*)2L);
  void* day_a = 0;
  void* day_b = 0;
  pthread_join(a, &day_a);
  pthread_join(b, &day_b);
  return (long)day_a + (long)day_b >= 0 ? 0 : 1;
}
