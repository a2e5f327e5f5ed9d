// An uninstrumented library whose memcpy (intercepted by both raceaccel and
// TSan) races when two threads call it on one buffer: what a
// `called_from_lib:` suppression is for (suppressions_tsan_test.sh builds it
// without instrumentation, with -fno-builtin and without sibling-call
// optimization, so the memcpy stays a call made from the library).
#include <string.h>

void lib_copy(void* dst, const void* src, unsigned long n) { memcpy(dst, src, n); }
