// realloc of a large block to twice its size (argv[1] MiB, default 1024),
// touching only its first page. Clean. The runtime must not build
// per-byte state for the untouched bytes.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 1024;
  char* p = malloc(mib << 20);
  if (p == NULL) return 2;
  memset(p, 1, 4096);
  char* q = realloc(p, (mib << 20) * 2);
  if (q == NULL) return 2;
  q[(mib << 20) * 2 - 1] = 3;
  int sum = q[0] + q[(mib << 20) * 2 - 1];
  free(q);
  printf("%d\n", sum);
  return 0;
}
