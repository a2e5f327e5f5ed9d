/* A malloc replacement shared library (the shape of jemalloc, tcmalloc or
 * mimalloc linked with -l), built without instrumentation: it defines the
 * allocation functions over glibc's own entry points and counts calls. A
 * program linked with it must still have its allocations seen by the
 * runtime, which the compiler wrapper links first
 * (malloc_replacement_clean.c, report_test.cpp). */
#include <stddef.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void __libc_free(void *p);

static unsigned long calls;

unsigned long replacement_malloc_calls(void) { return __atomic_load_n(&calls, __ATOMIC_RELAXED); }

static void count_call(void) { __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
  count_call();
  return __libc_malloc(size);
}
void *calloc(size_t count, size_t size) {
  count_call();
  return __libc_calloc(count, size);
}
void *realloc(void *p, size_t size) {
  count_call();
  return __libc_realloc(p, size);
}
void *memalign(size_t alignment, size_t size) {
  count_call();
  return __libc_memalign(alignment, size);
}
void free(void *p) {
  count_call();
  __libc_free(p);
}
