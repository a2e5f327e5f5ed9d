/* Built-in suppressions that do not parse: the runtime stops before main
 * with status 2 and says where they came from (report_test.cpp). */
#include <stdio.h>

const char* __tsan_default_suppressions(void) { return "race:fine\nnot a suppression\n"; }

int main(void) {
  puts("main ran");
  return 0;
}
