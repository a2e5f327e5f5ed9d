// Reserves address space as allocators, JITs and garbage collectors do:
// argv[1] (default 20) rounds of a 64 GiB PROT_NONE reservation, 16 MiB of
// it made writable, written page by page by a thread, read by main after the
// join, then unmapped. Clean. The runtime forgets the history of every
// mapping and unmapping; that must cost what the touched memory costs, not
// the reservation's size (the walk over every 4 KiB of 64 GiB took minutes).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

enum { kWindow = 16 << 20, kPage = 4096 };
static const size_t kReservation = (size_t)64 << 30;

static char* window;

static void* fill(void* arg) {
  for (long i = 0; i < kWindow; i += kPage) window[i] = (char)(long)arg;
  return 0;
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 20;
  long sum = 0;
  for (int r = 0; r < rounds; r++) {
    char* base = mmap(0, kReservation, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
      perror("mmap");
      return 1;
    }
    window = base + (size_t)(r % 8) * ((size_t)1 << 30);
    if (mprotect(window, kWindow, PROT_READ | PROT_WRITE) != 0) {
      perror("mprotect");
      return 1;
    }
    pthread_t t;
    pthread_create(&t, 0, fill, (void*)(long)(r + 1));
    pthread_join(t, 0);
    for (long i = 0; i < kWindow; i += kPage) sum += window[i];
    munmap(base, kReservation);
  }
  printf("%ld\n", sum);
  return 0;
}
