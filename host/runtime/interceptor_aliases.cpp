// ThreadSanitizer also exports each interceptor as __interceptor_<name>, and
// some programs and tests call those names directly. Each alias here forwards
// to the symbol the program would reach (the runtime's interceptor). The file
// is built with -fno-builtin, so every forward stays a call; at -O1 and above
// it is a tail call, so the interceptor sees the program's return address.
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runtime/exported.hpp"

#define RACEACCEL_ALIAS(ret, name, params, args) \
  RACEACCEL_EXPORT ret __interceptor_##name params { return name args; }

// clang-format off
RACEACCEL_ALIAS(void*, malloc, (size_t n), (n))
RACEACCEL_ALIAS(void*, calloc, (size_t n, size_t size), (n, size))
RACEACCEL_ALIAS(void*, realloc, (void* p, size_t n), (p, n))
RACEACCEL_ALIAS(void*, reallocarray, (void* p, size_t n, size_t size), (p, n, size))
RACEACCEL_ALIAS(void, free, (void* p), (p))
RACEACCEL_ALIAS(int, posix_memalign, (void** out, size_t align, size_t n), (out, align, n))
RACEACCEL_ALIAS(void*, aligned_alloc, (size_t align, size_t n), (align, n))
RACEACCEL_ALIAS(void*, memalign, (size_t align, size_t n), (align, n))
RACEACCEL_ALIAS(void*, valloc, (size_t n), (n))
RACEACCEL_ALIAS(void*, pvalloc, (size_t n), (n))
RACEACCEL_ALIAS(void*, memcpy, (void* d, const void* s, size_t n), (d, s, n))
RACEACCEL_ALIAS(void*, memmove, (void* d, const void* s, size_t n), (d, s, n))
RACEACCEL_ALIAS(void*, memset, (void* d, int c, size_t n), (d, c, n))
RACEACCEL_ALIAS(int, memcmp, (const void* a, const void* b, size_t n), (a, b, n))
RACEACCEL_ALIAS(int, bcmp, (const void* a, const void* b, size_t n), (a, b, n))
RACEACCEL_ALIAS(size_t, strlen, (const char* s), (s))
RACEACCEL_ALIAS(size_t, strnlen, (const char* s, size_t n), (s, n))
RACEACCEL_ALIAS(int, strcmp, (const char* a, const char* b), (a, b))
RACEACCEL_ALIAS(int, strncmp, (const char* a, const char* b, size_t n), (a, b, n))
RACEACCEL_ALIAS(char*, strcpy, (char* d, const char* s), (d, s))
RACEACCEL_ALIAS(char*, strncpy, (char* d, const char* s, size_t n), (d, s, n))
RACEACCEL_ALIAS(char*, strcat, (char* d, const char* s), (d, s))
RACEACCEL_ALIAS(char*, strdup, (const char* s), (s))
RACEACCEL_ALIAS(char*, strchr, (char* s, int c), (s, c))
RACEACCEL_ALIAS(char*, strrchr, (char* s, int c), (s, c))
RACEACCEL_ALIAS(char*, strstr, (char* s, const char* sub), (s, sub))
RACEACCEL_ALIAS(void*, memchr, (void* s, int c, size_t n), (s, c, n))
RACEACCEL_ALIAS(int, puts, (const char* s), (s))
RACEACCEL_ALIAS(int, fputs, (const char* s, FILE* f), (s, f))
RACEACCEL_ALIAS(size_t, fwrite, (const void* p, size_t size, size_t n, FILE* f), (p, size, n, f))
RACEACCEL_ALIAS(size_t, fread, (void* p, size_t size, size_t n, FILE* f), (p, size, n, f))
RACEACCEL_ALIAS(ssize_t, read, (int fd, void* buf, size_t n), (fd, buf, n))
RACEACCEL_ALIAS(ssize_t, write, (int fd, const void* buf, size_t n), (fd, buf, n))
RACEACCEL_ALIAS(ssize_t, pread, (int fd, void* buf, size_t n, off_t off), (fd, buf, n, off))
RACEACCEL_ALIAS(ssize_t, pwrite, (int fd, const void* buf, size_t n, off_t off), (fd, buf, n, off))
RACEACCEL_ALIAS(ssize_t, readv, (int fd, const struct iovec* iov, int n), (fd, iov, n))
RACEACCEL_ALIAS(ssize_t, writev, (int fd, const struct iovec* iov, int n), (fd, iov, n))
RACEACCEL_ALIAS(ssize_t, recv, (int fd, void* buf, size_t n, int flags), (fd, buf, n, flags))
RACEACCEL_ALIAS(ssize_t, send, (int fd, const void* buf, size_t n, int flags), (fd, buf, n, flags))
RACEACCEL_ALIAS(int, close, (int fd), (fd))
RACEACCEL_ALIAS(int, pipe, (int* fds), (fds))
RACEACCEL_ALIAS(int, dup, (int fd), (fd))
RACEACCEL_ALIAS(int, dup2, (int fd, int to), (fd, to))
RACEACCEL_ALIAS(void*, mmap, (void* a, size_t n, int prot, int flags, int fd, off_t off), (a, n, prot, flags, fd, off))
RACEACCEL_ALIAS(int, munmap, (void* a, size_t n), (a, n))
// clang-format on
