/* A reader-writer spin lock written with atomics and annotated with
 * ThreadSanitizer's custom-mutex API (__tsan_mutex_*, which raceaccel's
 * runtime implements; declared here rather than taken from another
 * project's header). Its atomics use acquire/release orders, so without the
 * annotations' "ignore the mutex's internals" two readers would look
 * ordered through the reader count. */
#ifndef RACEACCEL_CUSTOM_MUTEX_H
#define RACEACCEL_CUSTOM_MUTEX_H

void __tsan_mutex_create(void *addr, unsigned flags);
void __tsan_mutex_pre_lock(void *addr, unsigned flags);
void __tsan_mutex_post_lock(void *addr, unsigned flags, int recursion);
int __tsan_mutex_pre_unlock(void *addr, unsigned flags);
void __tsan_mutex_post_unlock(void *addr, unsigned flags);

enum { custom_mutex_read_lock = 1u << 3 };

/* writer: -1; readers: their count */
typedef struct {
  int state;
} custom_rwlock;

static inline void custom_rwlock_init(custom_rwlock *l) {
  l->state = 0;
  __tsan_mutex_create(l, 0);
}

static inline void custom_read_lock(custom_rwlock *l) {
  __tsan_mutex_pre_lock(l, custom_mutex_read_lock);
  for (;;) {
    int s = __atomic_load_n(&l->state, __ATOMIC_ACQUIRE);
    if (s >= 0 && __atomic_compare_exchange_n(&l->state, &s, s + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) break;
  }
  __tsan_mutex_post_lock(l, custom_mutex_read_lock, 0);
}

static inline void custom_read_unlock(custom_rwlock *l) {
  __tsan_mutex_pre_unlock(l, custom_mutex_read_lock);
  __atomic_fetch_sub(&l->state, 1, __ATOMIC_ACQ_REL);
  __tsan_mutex_post_unlock(l, custom_mutex_read_lock);
}

static inline void custom_write_lock(custom_rwlock *l) {
  __tsan_mutex_pre_lock(l, 0);
  for (;;) {
    int s = 0;
    if (__atomic_compare_exchange_n(&l->state, &s, -1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) break;
  }
  __tsan_mutex_post_lock(l, 0, 0);
}

static inline void custom_write_unlock(custom_rwlock *l) {
  __tsan_mutex_pre_unlock(l, 0);
  __atomic_store_n(&l->state, 0, __ATOMIC_RELEASE);
  __tsan_mutex_post_unlock(l, 0);
}

#endif
