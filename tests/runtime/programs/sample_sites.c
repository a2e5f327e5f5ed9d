// CARISMA's motivating example (Zhai et al., ISSTA 2012, section 2), in C:
// many "general" accounts from one allocation site, accessed a lot, and one
// "savings" account from another site, accessed a few times, on which the
// only race is. Two tellers each work on their own half of the general
// accounts, every round under their own mutex (so the accounts never race
// and the threads never synchronize with each other); then teller 1
// deposits into the savings account under its mutex while teller 2 reads
// its balance with no lock (an audit): a read/write race that no schedule
// orders. Under sample=RATE the hot site is sampled down and the rare one,
// whose population is tiny, is checked fully, so the race is found in every
// run (sampling_test.cpp, RareSiteIsCheckedFully).
//
// Usage: sample_sites [ROUNDS]   (default 200)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kAccounts = 64, kWords = 128 };  // 64 blocks of 1 KiB

static long* general[kAccounts];
static volatile long* savings;
static long rounds = 200;

struct Teller {
  int half;
  pthread_mutex_t mu;  // this teller's own: no happens-before between tellers
  unsigned seed;
  long sum;
};

static long* open_general(void) { return calloc(kWords, sizeof(long)); }  // the hot site
static long* open_savings(void) { return calloc(1, sizeof(long)); }       // the rare site

static void* teller(void* arg) {
  struct Teller* t = arg;
  for (long r = 0; r < rounds; ++r) {
    pthread_mutex_lock(&t->mu);
    // Scattered read-modify-writes: no two in a row are adjacent, so each
    // is its own check (not one coalesced range).
    for (int k = 0; k < 64; ++k) {
      t->seed = t->seed * 1103515245u + 12345u;
      const unsigned a = t->half * (kAccounts / 2) + (t->seed >> 8) % (kAccounts / 2);
      const unsigned w = (t->seed >> 20) % kWords;
      general[a][w] += k;
      t->sum += general[a][(w + 7) % kWords];
    }
    pthread_mutex_unlock(&t->mu);
  }
  pthread_mutex_lock(&t->mu);
  if (t->half == 0) {
    *savings += 100;  // deposit: a write under teller 1's own lock
  }
  pthread_mutex_unlock(&t->mu);
  if (t->half == 1) t->sum += *savings;  // audit: a read with no lock at all
  return NULL;
}

int main(int argc, char** argv) {
  if (argc > 1) rounds = atol(argv[1]);
  for (int i = 0; i < kAccounts; ++i) general[i] = open_general();
  savings = open_savings();
  struct Teller tellers[2] = {{0, PTHREAD_MUTEX_INITIALIZER, 1, 0}, {1, PTHREAD_MUTEX_INITIALIZER, 2, 0}};
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i) pthread_create(&threads[i], NULL, teller, &tellers[i]);
  for (int i = 0; i < 2; ++i) pthread_join(threads[i], NULL);
  printf("%ld\n", tellers[0].sum + tellers[1].sum);
  for (int i = 0; i < kAccounts; ++i) free(general[i]);
  free((void*)savings);
  return 0;
}
