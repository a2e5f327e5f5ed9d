// A stress program for parallel checking (docs/runtime.md, "Parallel
// checking") whose racy bytes are known whatever the schedule: exactly the
// bytes of `racy`, one row of kRacyBytes per round. argv[1] = seed,
// argv[2] = threads (2..8, default 4).
//
// Each thread runs kRounds rounds, each ending in a pthread barrier; in a
// round it does kOps operations in an order drawn from its own seeded PRNG:
//  - read-modify-writes of `guarded` (slots spread over 256 blocks,
//    each under one of 16 mutexes), and reads or writes of `table` under a
//    read-write lock;
//  - plain accesses of its own parts of `hot.owned_units` (8-byte units
//    interleaved between the threads: they share a shard, with the atomics
//    below, and cache lines, never a byte) and of `owned_chunks` (block-sized chunks interleaved between
//    the threads, each straddling a block boundary: an access of one is
//    checked in two shards);
//  - message passing: once per round it publishes a payload through an
//    atomic release store or through a relaxed store after a release fence;
//    it reads other threads' payloads of the round after an acquire load
//    (or a relaxed load and an acquire fence) saw their flags, and now
//    and then loads its own flags (loads of the thread's own store);
//  - heap blocks handed to other threads through a mutex-protected queue:
//    the taker writes the block, reads it and frees it.
// None of that races. Then every thread synchronizes once more with the
// others (a mutex, a read or write lock, or an atomic read-modify-write
// they all use: a thread often acquires what another released just before
// its racy writes, and a release that did not advance the releasing
// thread's clock would hide their race) and, right before the barrier,
// writes its fixed share of the round's row of `racy`: each byte by two
// threads. Nothing can order two such writes (a thread's only
// synchronization after them is entering the barrier), so every byte of
// `racy` races in every schedule, and no other byte ever does; a row per
// round makes a race missed in any one round show.
// parallel_stress_test.cpp runs it live and checks the racy bytes.
//
// stdout: "racy 0xADDR SIZE" and, when the program's own bookkeeping adds
// up, "sums ok".
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sized_access.h"

enum {
  kMaxThreads = 8,
  kRounds = 32,
  kOps = 600,
  kBlock = 4096,  // the runtime's shard block (ShardedFastTrack::kBlockShift)
  kLocks = 16,
  kGuardedSlots = 256,  // one per 4 KiB of guarded: a block each
  kTableWords = 512,    // one per 512 bytes of table: 64 blocks
  kHotBlock = kBlock,
  kChunks = 16,  // of owned_chunks, kBlock bytes each
  kQueue = 16,
  kRacyBytes = 64,  // per round
  kPayload = 24,
};

// 256 blocks: slot j at j * 4 KiB, under locks[j % kLocks].
static uint64_t guarded[kGuardedSlots][4096 / sizeof(uint64_t)] __attribute__((aligned(kBlock)));
static pthread_mutex_t locks[kLocks];
// 64 blocks of words under table_lock.
static uint64_t table[kTableWords][512 / sizeof(uint64_t)] __attribute__((aligned(kBlock)));
static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
// Chunk c, [kBlock / 2 + c * kBlock, + kBlock), belongs to thread c % threads:
// it straddles the boundary between blocks c and c + 1.
static unsigned char owned_chunks[(kChunks + 1) * kBlock] __attribute__((aligned(kBlock)));

// Published once per round by each thread (flag = round + 1).
struct Mailbox {
  atomic_uint flag;  // release store / acquire load
  unsigned char payload[kPayload];
  atomic_uint fenced_flag;  // relaxed store after a release fence / relaxed load, then an acquire fence
  unsigned char fenced_payload[kPayload];
};
// One block, so one shard, that every thread uses all the time: plain
// accesses (unit u, 8 bytes, belongs to thread u % threads) and atomics.
static struct {
  unsigned char owned_units[kHotBlock - 1024];
  struct Mailbox mail[kMaxThreads];
  atomic_uint last_counter;
} hot __attribute__((aligned(kBlock)));

// Heap blocks in transit between threads.
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char* queue[kQueue];
static size_t queue_size[kQueue];
static int queued;

// kRounds rows of kRacyBytes, in an area nothing else uses; the middle
// round's row straddles a block boundary (its halves are checked in two
// shards).
static unsigned char racy_area[2 * kBlock] __attribute__((aligned(kBlock)));
static unsigned char* const racy = racy_area + kBlock - kRounds / 2 * kRacyBytes - kRacyBytes / 2;

static pthread_mutex_t last_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t last_rwlock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t barrier;
static int threads = 4;
static unsigned seed = 1;
static __thread volatile uint64_t sink;  // per thread: a shared one would race

// What each thread did, to check the program's own sums after the joins.
static uint64_t increments[kMaxThreads];
static uint64_t messages_read[kMaxThreads];

static uint64_t next(uint64_t* s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

static void locked_increment(uint64_t* s, int self) {
  const unsigned j = (unsigned)(next(s) % kGuardedSlots);
  const unsigned word = (unsigned)(next(s) % (4096 / sizeof(uint64_t)));
  pthread_mutex_lock(&locks[j % kLocks]);
  guarded[j][word] += 1;
  pthread_mutex_unlock(&locks[j % kLocks]);
  increments[self]++;
}

static void table_access(uint64_t* s) {
  const unsigned first = (unsigned)(next(s) % kTableWords);
  const unsigned n = 1 + (unsigned)(next(s) % 8);
  if (next(s) % 4 == 0) {
    pthread_rwlock_wrlock(&table_lock);
    for (unsigned i = 0; i < n; i++) table[(first + i * 37) % kTableWords][i % 8] += i;
  } else {
    pthread_rwlock_rdlock(&table_lock);
    for (unsigned i = 0; i < n; i++) sink += table[(first + i * 37) % kTableWords][i % 8];
  }
  pthread_rwlock_unlock(&table_lock);
}

// Accesses of 1..8 bytes inside the thread's own 8-byte units.
static void own_units(uint64_t* s, int self) {
  const unsigned units = (unsigned)sizeof hot.owned_units / 8 / (unsigned)threads;
  const int n = 1 + (int)(next(s) % 16);
  for (int i = 0; i < n; i++) {
    unsigned char* unit = hot.owned_units + ((next(s) % units) * (unsigned)threads + (unsigned)self) * 8;
    const unsigned size = 1u << (next(s) % 4);
    unsigned char* p = unit + (next(s) % (8 / size)) * size;
    const int write = next(s) % 2;
    const uint64_t got = sized_access(p, size, write, (uint64_t)i);
    if (!write) sink += got;
  }
}

// A range in one of the thread's chunks, often across the block boundary
// in its middle: memset, memcpy out of it, or a byte loop.
static void own_chunk(uint64_t* s, int self) {
  const unsigned mine = (kChunks - 1 - (unsigned)self) / (unsigned)threads + 1;  // chunks c = self + k * threads
  const unsigned c = (unsigned)self + (unsigned)(next(s) % mine) * (unsigned)threads;
  unsigned char* chunk = owned_chunks + kBlock / 2 + (size_t)c * kBlock;
  const unsigned len = 1 + (unsigned)(next(s) % 2048);
  const unsigned at = next(s) % 2 ? kBlock / 2 - (unsigned)(next(s) % len) : (unsigned)(next(s) % (kBlock - len));
  unsigned char* p = chunk + at;
  switch (next(s) % 3) {
    case 0: memset(p, (int)next(s), len); break;
    case 1: {
      unsigned char tmp[2048];
      memcpy(tmp, p, len);
      sink += tmp[len / 2];
      break;
    }
    default:
      for (unsigned i = 0; i < len; i += 7) ((volatile unsigned char*)p)[i] += 1;
      break;
  }
}

static void publish(uint64_t* s, int self, unsigned round) {
  struct Mailbox* m = &hot.mail[self];
  if (next(s) % 2) {
    for (int i = 0; i < kPayload; i++) m->payload[i] = (unsigned char)(round + (unsigned)i);
    atomic_store_explicit(&m->flag, round + 1, memory_order_release);
  } else {
    memset(m->fenced_payload, (int)round, kPayload);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&m->fenced_flag, round + 1, memory_order_relaxed);
  }
}

// Reads another thread's payload of this round if it is there (an older
// one may be being overwritten: it is not read).
static void receive(uint64_t* s, int self, unsigned round) {
  if (next(s) % 4 == 0) {
    // The thread's own flags, which only it stores: loads of its own store,
    // buffered and checked at its next drain (docs/runtime.md, "Loads of
    // a clock the thread holds"), in shards other threads' atomics use too.
    struct Mailbox* own = &hot.mail[self];
    sink += atomic_load_explicit(&own->flag, memory_order_acquire);
    sink += atomic_load_explicit(&own->fenced_flag, memory_order_relaxed);
  }
  struct Mailbox* m = &hot.mail[(self + 1 + (int)(next(s) % (unsigned)(threads - 1))) % threads];
  if (next(s) % 2) {
    if (atomic_load_explicit(&m->flag, memory_order_acquire) == round + 1) {
      for (int i = 0; i < kPayload; i++) sink += m->payload[i];
      messages_read[self]++;
    }
  } else if (atomic_load_explicit(&m->fenced_flag, memory_order_relaxed) == round + 1) {
    atomic_thread_fence(memory_order_acquire);
    unsigned char copy[kPayload];
    memcpy(copy, m->fenced_payload, kPayload);
    sink += copy[next(s) % kPayload];
    messages_read[self]++;
  }
}

// Allocates and fills a block and queues it for any thread (itself freeing
// it when the queue is full).
static void hand_over(uint64_t* s) {
  const size_t size = next(s) % 8 == 0 ? 70000 : 16 + next(s) % 2000;  // some straddle a block boundary
  unsigned char* b = malloc(size);
  memset(b, 0x5a, size);
  pthread_mutex_lock(&queue_lock);
  const int full = queued == kQueue;
  if (!full) {
    queue[queued] = b;
    queue_size[queued] = size;
    queued++;
  }
  pthread_mutex_unlock(&queue_lock);
  if (full) free(b);
}

static void take_over(uint64_t* s) {
  pthread_mutex_lock(&queue_lock);
  unsigned char* b = NULL;
  size_t size = 0;
  if (queued > 0) {
    const int k = (int)(next(s) % (unsigned)queued);
    b = queue[k];
    size = queue_size[k];
    queued--;
    queue[k] = queue[queued];
    queue_size[k] = queue_size[queued];
  }
  pthread_mutex_unlock(&queue_lock);
  if (b == NULL) return;
  for (size_t i = 0; i < size; i += 61) b[i] ^= 1;
  sink += b[size - 1];
  free(b);
}

// The thread's share of the round's row of racy: 8-byte unit u by the two threads t with
// (u + t) % threads in {0, 1} (both threads when there are two), written
// byte by byte from a unit that varies by round, as 8-byte stores, or as one
// memset per run of consecutive units (one across the block boundary for
// some threads).
static int owns_racy_unit(int self, unsigned u) { return (u + (unsigned)self) % (unsigned)threads < 2; }

static void racy_writes(uint64_t* s, int self, unsigned round) {
  unsigned char* const row = racy + round * kRacyBytes;
  enum { kUnits = kRacyBytes / 8 };
  switch (next(s) % 3) {
    case 0: {
      const unsigned start = (unsigned)(next(s) % kRacyBytes);
      for (unsigned k = 0; k < kRacyBytes; k++) {
        const unsigned i = (start + k) % kRacyBytes;
        if (owns_racy_unit(self, i / 8)) ((volatile unsigned char*)row)[i] = (unsigned char)self;
      }
      break;
    }
    case 1:
      for (unsigned u = 0; u < kUnits; u++)
        if (owns_racy_unit(self, u)) ((volatile uint64_t*)row)[u] = (uint64_t)self;
      break;
    default:
      for (unsigned u = 0; u < kUnits;) {
        if (!owns_racy_unit(self, u)) {
          u++;
          continue;
        }
        unsigned end = u + 1;
        while (end < kUnits && owns_racy_unit(self, end)) end++;
        memset(row + u * 8, self, (end - u) * 8);
        u = end;
      }
      break;
  }
}

// The thread's last synchronization of the round, on an object every thread
// uses then: its releases come before its racy writes, so they order none.
static void last_synchronization(uint64_t* s) {
  switch (next(s) % 4) {
    case 0:
      pthread_mutex_lock(&last_lock);
      pthread_mutex_unlock(&last_lock);
      break;
    case 1:
      pthread_rwlock_wrlock(&last_rwlock);
      pthread_rwlock_unlock(&last_rwlock);
      break;
    case 2:  // a later writer acquires the read's release
      pthread_rwlock_rdlock(&last_rwlock);
      pthread_rwlock_unlock(&last_rwlock);
      break;
    default: atomic_fetch_add_explicit(&hot.last_counter, 1, memory_order_acq_rel); break;
  }
}

static void* worker(void* arg) {
  const int self = (int)(intptr_t)arg;
  uint64_t s = (uint64_t)seed * 1000003u + (uint64_t)self * 7919u + 1;
  for (unsigned round = 0; round < kRounds; round++) {
    const int publish_at = (int)(next(&s) % kOps);
    for (int op = 0; op < kOps; op++) {
      if (op == publish_at) publish(&s, self, round);
      switch (next(&s) % 12) {
        case 0:
        case 1:
        case 2: locked_increment(&s, self); break;
        case 3:
        case 4: table_access(&s); break;
        case 5:
        case 6: own_units(&s, self); break;
        case 7: own_chunk(&s, self); break;
        case 8:
        case 9: receive(&s, self, round); break;
        case 10: hand_over(&s); break;
        default: take_over(&s); break;
      }
    }
    last_synchronization(&s);
    racy_writes(&s, self, round);
    pthread_barrier_wait(&barrier);
  }
  return 0;
}

int main(int argc, char** argv) {
  seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  threads = argc > 2 ? atoi(argv[2]) : 4;
  if (threads < 2 || threads > kMaxThreads) threads = 4;
  for (int i = 0; i < kLocks; i++) pthread_mutex_init(&locks[i], NULL);
  pthread_barrier_init(&barrier, NULL, (unsigned)threads);
  printf("racy %p %d\n", (void*)racy, kRounds * kRacyBytes);
  fflush(stdout);
  pthread_t t[kMaxThreads];
  for (intptr_t i = 0; i < threads; i++) pthread_create(&t[i], 0, worker, (void*)i);
  for (int i = 0; i < threads; i++) pthread_join(t[i], 0);
  for (int k = 0; k < queued; k++) free(queue[k]);
  uint64_t counted = 0, expected = 0, read = 0;
  for (int j = 0; j < kGuardedSlots; j++)
    for (unsigned w = 0; w < 4096 / sizeof(uint64_t); w++) counted += guarded[j][w];
  for (int i = 0; i < threads; i++) {
    expected += increments[i];
    read += messages_read[i];
  }
  if (counted == expected)
    printf("sums ok: %llu increments, %llu messages read\n", (unsigned long long)counted, (unsigned long long)read);
  return 0;
}
