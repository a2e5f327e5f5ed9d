// A seeded random program (argv[1] = seed, argv[2] = threads, default 3,
// argv[3] = a timer's interval in microseconds, default 0: none)
// made of loops over arrays — the streams of accesses the callbacks extend
// inline (docs/runtime.md, "Runs extended inline") — and of everything that
// must stop such a stream: a call that continues it from another function,
// an atomic access, an allocation and a free, a lock of the thread's own
// mutex, a change of kind or size, and the young table running out in a
// long loop. Shapes: byte, 2-, 4- and 8-byte loops, read-modify-write loops
// (a read and a write run ending at the same byte), loops unrolled by two or
// three (runs from several instructions in turn), a vectorized stencil's
// overlapping 16-byte loads and stores, descending loops, and a loop of two
// streams, one descending, long enough to fill the thread's buffer.
//
// Threads synchronize only through a barrier between phases (and their own
// mutexes and atomics), so which bytes race does not depend on the
// schedule: region_filter_test.cpp compares the racy bytes of a live run
// with every technique on against those the golden detector finds in a
// recording of another run of the same seed. Each thread works mostly in
// its own part of the shared array (the parts move every phase), ending
// streams at the part's edge, and sometimes anywhere (racing with other
// threads). It prints the shared array's address, so that the bytes of two
// runs can be compared under address randomization.
//
// With a timer, the signal interrupts the threads' loops (and the
// callbacks that extend their streams); the handler runs a stream of its
// own over thread-local bytes and locks a thread-local mutex (a
// synchronization event: the thread's buffer is drained and its region
// ends), so that a handler landing between a callback's test and its update
// would change the run it tested. Neither creates happens-before between
// threads, so the racy bytes stay those of the run without signals.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kMaxThreads = 4, kPhases = 5, kOps = 40, kBytes = 8192 };

static unsigned char arr[kBytes] __attribute__((aligned(64)));
static pthread_barrier_t phase_done;
static unsigned seed;
static int threads;
static volatile unsigned sink;

typedef long long pair __attribute__((vector_size(16), aligned(8)));

static uint64_t next(uint64_t* s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

// What may come between two halves of a stream.
struct interrupt {
  pthread_mutex_t own_mutex;
  int own_counter;
};

// Continues a byte stream from another function (another call stack).
__attribute__((noinline)) static void bytes_elsewhere(volatile unsigned char* p, unsigned n, int write) {
  for (unsigned i = 0; i < n; i++) {
    if (write)
      p[i] = (unsigned char)i;
    else
      sink += p[i];
  }
}

// The stream's next byte is p[at], of the loop's range [p, p + len).
static void interrupt_stream(uint64_t* s, struct interrupt* in, unsigned char* range, unsigned len, unsigned at,
                             int write) {
  volatile unsigned char* const p = range + at;
  const unsigned left = len - at;
  switch (next(s) % 6) {
    case 0: bytes_elsewhere(p, left < 8 ? left : 8, write); break;
    case 1: __atomic_fetch_add(&in->own_counter, 1, __ATOMIC_RELAXED); break;
    case 2: {
      unsigned char* b = malloc(48);
      b[0] = 1;
      free(b);
      break;
    }
    case 3:
      pthread_mutex_lock(&in->own_mutex);
      pthread_mutex_unlock(&in->own_mutex);
      break;
    case 4:  // another size and pc at the stream's next bytes
      if (left >= 4) sink += *(volatile uint16_t*)(p + 2);
      break;
    default: break;
  }
}

// One loop over [p, p + len), len > 0; the stream is interrupted halfway
// (or not) by interrupt_stream.
static void loop(uint64_t* s, struct interrupt* in, unsigned char* p, unsigned len) {
  const int write = (int)(next(s) % 2);
  const unsigned half = len / 2;
  switch (next(s) % 8) {
    case 0: {  // bytes
      volatile unsigned char* q = p;
      for (unsigned i = 0; i < len; i++) {
        if (i == half) interrupt_stream(s, in, p, len, i, write);
        if (write)
          q[i] = (unsigned char)i;
        else
          sink += q[i];
      }
      break;
    }
    case 1: {  // 2-, 4- or 8-byte elements
      const unsigned size = 2u << (next(s) % 3);
      for (unsigned i = 0; i + size <= len; i += size) {
        if (i / size == half / size) interrupt_stream(s, in, p, len, i, write);
        if (size == 2) {
          if (write)
            *(volatile uint16_t*)(p + i) = (uint16_t)i;
          else
            sink += *(volatile uint16_t*)(p + i);
        } else if (size == 4) {
          if (write)
            *(volatile uint32_t*)(p + i) = i;
          else
            sink += *(volatile uint32_t*)(p + i);
        } else {
          if (write)
            *(volatile uint64_t*)(p + i) = i;
          else
            sink += (unsigned)*(volatile uint64_t*)(p + i);
        }
      }
      break;
    }
    case 2: {  // read-modify-write of 4-byte elements
      volatile uint32_t* q = (volatile uint32_t*)p;
      for (unsigned i = 0; i < len / 4; i++) {
        if (i == half / 4) interrupt_stream(s, in, p, len, 4 * i, 1);
        q[i] = q[i] + 1;
      }
      break;
    }
    case 3: {  // unrolled by two: 2-byte stores from two instructions in turn, then a tail
      volatile uint16_t* q = (volatile uint16_t*)p;
      unsigned i = 0;
      for (; i + 2 <= len / 2; i += 2) {
        if (i == half / 2) interrupt_stream(s, in, p, len, 2 * i, 1);
        q[i] = (uint16_t)i;
        q[i + 1] = (uint16_t)i;
      }
      for (; i < len / 2; i++) q[i] = 0;
      break;
    }
    case 4: {  // unrolled by three: 4-byte loads from three instructions in turn, then a tail
      volatile uint32_t* q = (volatile uint32_t*)p;
      unsigned i = 0;
      for (; i + 3 <= len / 4; i += 3) {
        if (i == half / 4) interrupt_stream(s, in, p, len, 4 * i, 0);
        sink += q[i];
        sink += q[i + 1];
        sink += q[i + 2];
      }
      for (; i < len / 4; i++) sink += q[i];
      break;
    }
    case 5: {  // a vectorized stencil: overlapping 16-byte loads from three instructions, 16-byte stores
      unsigned char* const a = p + ((8 - ((uintptr_t)p & 7)) & 7);
      const long cells = (long)(p + len - a) / 8;  // 8-byte cells from a within the range
      for (long i = 0; i + 6 <= cells; i += 4) {
        if (i == cells / 2) interrupt_stream(s, in, p, len, (unsigned)(a - p) + 8 * i, write);
        const pair x = *(volatile pair*)(a + 8 * i);
        const pair y = *(volatile pair*)(a + 8 * i + 16);
        const pair z = *(volatile pair*)(a + 8 * i + 8);
        const pair w = *(volatile pair*)(a + 8 * i + 24);
        const pair u = *(volatile pair*)(a + 8 * i + 16);
        const pair v = *(volatile pair*)(a + 8 * i + 32);
        if (write) {
          *(volatile pair*)(a + 8 * i + 8) = x + z + u;
          *(volatile pair*)(a + 8 * i + 24) = y + w + v;
        } else {
          sink += (unsigned)(x + y + z + w + u + v)[0];
        }
      }
      break;
    }
    case 6: {  // overlapping 16-byte stores at 8-byte steps (each one's first half covered)
      unsigned char* const a = p + ((8 - ((uintptr_t)p & 7)) & 7);
      const long pairs = (long)(p + len - a - 8) / 8;
      for (long i = 0; i < pairs; i++) {
        if (i == pairs / 2) interrupt_stream(s, in, p, len, (unsigned)(a - p) + 8 * i, 1);
        *(volatile pair*)(a + 8 * i) = (pair){i, i};
      }
      break;
    }
    default: {  // descending bytes
      volatile unsigned char* q = p;
      for (unsigned i = len; i-- > 0;) {
        if (write)
          q[i] = (unsigned char)i;
        else
          sink += q[i];
      }
      break;
    }
  }
}

// An ascending stream and, in the same loop, a descending one (a buffer
// entry per byte) over the two halves of [p, p + len): with len over 2 KiB
// the buffer fills and is drained while the ascending run is still open.
static void two_way_loop(uint64_t* s, unsigned char* p, unsigned len) {
  const int write = (int)(next(s) % 2);
  volatile unsigned char* q = p;
  for (unsigned i = 0; i < len / 2; i++) {
    if (write)
      q[i] = (unsigned char)i;
    else
      sink += q[i];
    q[len - 1 - i] = (unsigned char)i;
  }
}

static __thread unsigned char handler_bytes[192];
static __thread unsigned handler_sink;
static __thread pthread_mutex_t handler_mutex = PTHREAD_MUTEX_INITIALIZER;
static __thread volatile sig_atomic_t ticks;  // per thread: handlers on two threads are not ordered
static sigset_t timer_signal;

static void on_tick(int sig) {
  (void)sig;
  volatile unsigned char* q = handler_bytes;
  for (unsigned i = 0; i < sizeof handler_bytes; i++) q[i] = (unsigned char)(q[i] + 1);
  pthread_mutex_lock(&handler_mutex);
  pthread_mutex_unlock(&handler_mutex);
  for (unsigned i = 0; i < sizeof handler_bytes; i++) handler_sink += q[i];
  ticks = ticks + 1;
}

static void* worker(void* arg) {
  const long t = (long)arg;
  // Handlers run only while the worker runs its phases, so that they land
  // in the loops this test is about (a thread's start and exit under
  // signals: tests/programs/signal_at_thread_start_clean.c).
  pthread_sigmask(SIG_UNBLOCK, &timer_signal, 0);
  struct interrupt in = {PTHREAD_MUTEX_INITIALIZER, 0};
  const unsigned part = kBytes / (unsigned)threads;
  for (int phase = 0; phase < kPhases; phase++) {
    uint64_t s = (uint64_t)seed * 7919u + (uint64_t)phase * 104729u + (uint64_t)t;
    // The thread's part this phase: another one each phase.
    unsigned char* const own = arr + (unsigned)((t + phase) % threads) * part;
    for (int i = 0; i < kOps; i++) {
      if (next(&s) % 12 == 0) {  // the whole own part
        two_way_loop(&s, own, part);
      } else if (next(&s) % 6 == 0) {  // anywhere: may race with any thread
        const unsigned len = 1 + (unsigned)(next(&s) % 256);
        loop(&s, &in, arr + next(&s) % (kBytes - len), len);
      } else {  // in the own part, often up to its last byte
        const unsigned len = 1 + (unsigned)(next(&s) % (next(&s) % 4 == 0 ? part : 512));
        const unsigned start = next(&s) % 2 ? part - len : (unsigned)(next(&s) % (part - len + 1));
        loop(&s, &in, own + start, len);
      }
    }
    pthread_barrier_wait(&phase_done);
  }
  pthread_sigmask(SIG_BLOCK, &timer_signal, 0);
  return (void*)(intptr_t)ticks;
}

int main(int argc, char** argv) {
  seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  threads = argc > 2 ? atoi(argv[2]) : 3;
  if (threads < 1 || threads > kMaxThreads) threads = 3;
  const long interval_us = argc > 3 ? atol(argv[3]) : 0;
  printf("arr=%p\n", (void*)arr);
  fflush(stdout);
  timer_t timer;
  sigemptyset(&timer_signal);
  sigaddset(&timer_signal, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &timer_signal, 0);  // the workers unblock it
  if (interval_us > 0) {                         // a high-resolution timer (a profiling timer ticks with the scheduler)
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, 0);
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGALRM;
    timer_create(CLOCK_MONOTONIC, &ev, &timer);
    const struct itimerspec every = {{0, interval_us * 1000}, {0, interval_us * 1000}};
    timer_settime(timer, 0, &every, 0);
  }
  pthread_barrier_init(&phase_done, 0, (unsigned)threads);
  pthread_t tid[kMaxThreads];
  for (long i = 0; i < threads; i++) pthread_create(&tid[i], 0, worker, (void*)i);
  long all_ticks = 0;
  for (int i = 0; i < threads; i++) {
    void* thread_ticks;
    pthread_join(tid[i], &thread_ticks);
    all_ticks += (long)(intptr_t)thread_ticks;
  }
  pthread_barrier_destroy(&phase_done);
  if (interval_us > 0) {
    timer_delete(timer);
    printf("ticks=%ld\n", all_ticks);
  }
  return 0;
}
