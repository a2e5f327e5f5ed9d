/* One plain access of 1, 2, 4 or 8 bytes at p, made at that size (volatile:
 * the compiler keeps it, as one instruction of that width): a write stores
 * v, a read returns what it read (a write returns 0). Shared by the
 * runtime's randomized test programs. */
#ifndef RACEACCEL_TESTS_SIZED_ACCESS_H
#define RACEACCEL_TESTS_SIZED_ACCESS_H

#include <stdint.h>

static inline uint64_t sized_access(unsigned char* p, unsigned size, int write, uint64_t v) {
  switch (size) {
    case 1:
      if (write) *(volatile uint8_t*)p = (uint8_t)v;
      return write ? 0 : *(volatile uint8_t*)p;
    case 2:
      if (write) *(volatile uint16_t*)p = (uint16_t)v;
      return write ? 0 : *(volatile uint16_t*)p;
    case 4:
      if (write) *(volatile uint32_t*)p = (uint32_t)v;
      return write ? 0 : *(volatile uint32_t*)p;
    default:
      if (write) *(volatile uint64_t*)p = v;
      return write ? 0 : *(volatile uint64_t*)p;
  }
}

#endif
