// The other half of split_main.c.
void __tsan_testonly_barrier_wait(unsigned* barrier);

extern long split_counter;
extern unsigned split_barrier;

void* split_worker(void* arg) {
  (void)arg;
  split_counter = 1;  // line 9
  __tsan_testonly_barrier_wait(&split_barrier);
  return 0;
}
