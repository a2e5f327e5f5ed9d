/* C11 threads (<threads.h>): data written before thrd_create is read by the
 * threads, a mtx_t guards a counter, a cnd_t hands a flag over, call_once
 * runs an initializer once, and thrd_join orders each thread's result
 * before main reads it. Clean. (glibc implements these on its internal
 * pthread functions, which the runtime must see through the C11 names;
 * stock TSan 19 crashes on this program.) */
#include <threads.h>

enum { kThreads = 3, kRounds = 1000 };

static int before;
static int counter;
static int handed_over;
static int config;
static int results[kThreads];
static mtx_t counter_mutex;
static cnd_t handover;
static once_flag config_once = ONCE_FLAG_INIT;

static void init_config(void) { config = 5; }

static int worker(void* arg) {
  const int index = (int)(long)arg;
  call_once(&config_once, init_config);
  for (int i = 0; i < kRounds; i++) {
    mtx_lock(&counter_mutex);
    counter++;
    mtx_unlock(&counter_mutex);
  }
  if (index == 0) {
    mtx_lock(&counter_mutex);
    handed_over = 1;
    cnd_signal(&handover);
    mtx_unlock(&counter_mutex);
  }
  results[index] = before + config + index;
  return index + 100;
}

int main(void) {
  mtx_init(&counter_mutex, mtx_plain);
  cnd_init(&handover);
  before = 37;
  thrd_t threads[kThreads];
  for (int t = 0; t < kThreads; t++) thrd_create(&threads[t], worker, (void*)(long)t);
  mtx_lock(&counter_mutex);
  while (!handed_over) cnd_wait(&handover, &counter_mutex);
  mtx_unlock(&counter_mutex);
  int sum = 0;
  for (int t = 0; t < kThreads; t++) {
    int code = 0;
    thrd_join(threads[t], &code);
    if (code != t + 100) return 1;
    sum += results[t];
  }
  cnd_destroy(&handover);
  mtx_destroy(&counter_mutex);
  return counter == kThreads * kRounds && sum == 3 * 42 + 3 ? 0 : 1;
}
