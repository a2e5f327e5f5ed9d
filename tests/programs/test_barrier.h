/* The test barrier: makes threads wait for each other WITHOUT creating
 * happens-before. Race programs use it to put their unordered accesses in a
 * fixed order in time, so that no verdict ever depends on scheduling.
 * raceaccel's runtime and stock ThreadSanitizer both export these symbols.
 * The barrier is one `unsigned` (a 32-bit word), as ThreadSanitizer's own
 * test header declares it: declare it `static unsigned order;`. count must be
 * below 1024; a barrier can be waited on for many rounds. */
#ifndef RACEACCEL_TEST_BARRIER_H
#define RACEACCEL_TEST_BARRIER_H

#ifdef __cplusplus
extern "C" {
#endif

void __tsan_testonly_barrier_init(unsigned *b, unsigned count);
void __tsan_testonly_barrier_wait(unsigned *b);

#ifdef __cplusplus
}
#endif

#endif
