// A program that looks linked with another raceaccel version's access
// callbacks: it defines the fast path's forget epoch itself (as
// libraceaccel_rt_fast.a does, so the runtime binds to it) but not this
// version's layout symbol (host/runtime/hot_path.hpp). Built without the
// archive; the runtime must stop it before main with status 2
// (region_filter_test.cpp, CallbacksOfAnotherVersionAreRefused).
#include <stdio.h>

char forget_epoch_of_another_version[64] __asm__("_ZN9raceaccel2rt14g_forget_epochE") __attribute__((aligned(64)));

int main(void) {
  puts("main ran");
  return 0;
}
