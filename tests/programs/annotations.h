/* The dynamic annotations (the Valgrind/ThreadSanitizer "Annotate*" API) that
 * raceaccel's runtime implements. Programs declare them here rather than
 * include a header of another project. */
#ifndef RACEACCEL_ANNOTATIONS_H
#define RACEACCEL_ANNOTATIONS_H

#ifdef __cplusplus
extern "C" {
#endif

void AnnotateHappensBefore(const char *file, int line, const volatile void *addr);
void AnnotateHappensAfter(const char *file, int line, const volatile void *addr);
void AnnotateBenignRaceSized(const char *file, int line, const volatile void *addr, unsigned long size,
                             const char *description);
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);
void AnnotateThreadName(const char *file, int line, const char *name);

#ifdef __cplusplus
}
#endif

#endif
