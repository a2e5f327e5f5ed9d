/* Readers read under the read lock, then a writer writes under the write
 * lock: the write lock orders the writer after every earlier reader (and a
 * later reader after the writer), so clean in every interleaving. */
#include <pthread.h>

enum { kReaders = 4 };

int setting = 1;
static pthread_rwlock_t setting_lock = PTHREAD_RWLOCK_INITIALIZER;

static void *reader(void *arg) {
  (void)arg;
  pthread_rwlock_rdlock(&setting_lock);
  long seen = setting;
  pthread_rwlock_unlock(&setting_lock);
  return (void *)seen;
}

static void *writer(void *arg) {
  (void)arg;
  pthread_rwlock_wrlock(&setting_lock);
  setting = 2;
  pthread_rwlock_unlock(&setting_lock);
  return 0;
}

int main(void) {
  pthread_t readers[kReaders], w;
  for (int i = 0; i < kReaders; i++) pthread_create(&readers[i], 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  int bad = 0;
  for (int i = 0; i < kReaders; i++) {
    void *seen;
    pthread_join(readers[i], &seen);
    bad += (long)seen != 1 && (long)seen != 2;
  }
  pthread_join(w, 0);
  return bad == 0 && setting == 2 ? 0 : 1;
}
