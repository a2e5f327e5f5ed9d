// Two threads copy into one global buffer through suppressions_lib.c's
// lib_copy: a race inside the library's memcpy.
#include <pthread.h>

void lib_copy(void* dst, const void* src, unsigned long n);

char lib_buffer[64];

static void* copier(void* arg) {
  char local[16] = "0123456789abcde";
  lib_copy(lib_buffer, local, (unsigned long)arg);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, copier, (void*)16UL);
  pthread_create(&b, 0, copier, (void*)16UL);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
