/* Writers update a table under the write lock; readers read it under the
 * read lock: clean. */
#include <pthread.h>

enum { kReaders = 3, kWriters = 2, kRounds = 200, kEntries = 16 };

long table[kEntries];
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;

static void *writer(void *arg) {
  long id = (long)arg;
  for (int r = 0; r < kRounds; r++) {
    pthread_rwlock_wrlock(&table_lock);
    for (int i = 0; i < kEntries; i++) table[i] += id;
    pthread_rwlock_unlock(&table_lock);
  }
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  long sum = 0;
  for (int r = 0; r < kRounds; r++) {
    pthread_rwlock_rdlock(&table_lock);
    for (int i = 0; i < kEntries; i++) sum += table[i];
    pthread_rwlock_unlock(&table_lock);
  }
  return (void *)sum;
}

int main(void) {
  pthread_t t[kReaders + kWriters];
  for (long i = 0; i < kWriters; i++) pthread_create(&t[i], 0, writer, (void *)(i + 1));
  for (int i = 0; i < kReaders; i++) pthread_create(&t[kWriters + i], 0, reader, 0);
  for (int i = 0; i < kReaders + kWriters; i++) pthread_join(t[i], 0);
  return table[0] == kRounds * 3 ? 0 : 1;
}
