/* A small bank: worker threads move money between accounts under per-account
 * locks, and an auditor sums the balances. The transfers are correct; the
 * "interest" pass at the end of each round updates one account without its
 * lock while workers may still read it, so raceaccel reports exactly that
 * race (and nothing else), every run, whatever the scheduling.
 *
 *   build/bin/raceaccel-cc -O1 examples/programs/bank.c -o bank
 *   build/bin/raceaccel run --backend verilator -- ./bank
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { kAccounts = 16, kWorkers = 4, kRounds = 200 };

struct account {
  pthread_mutex_t lock;
  long balance;
};

static struct account accounts[kAccounts];
static pthread_barrier_t round_start;

static void transfer(unsigned from, unsigned to, long amount) {
  /* Lock in index order so two transfers never deadlock. */
  unsigned first = from < to ? from : to, second = from < to ? to : from;
  pthread_mutex_lock(&accounts[first].lock);
  pthread_mutex_lock(&accounts[second].lock);
  accounts[from].balance -= amount;
  accounts[to].balance += amount;
  pthread_mutex_unlock(&accounts[second].lock);
  pthread_mutex_unlock(&accounts[first].lock);
}

static void* worker(void* arg) {
  unsigned seed = (unsigned)(size_t)arg;
  for (int round = 0; round < kRounds; ++round) {
    pthread_barrier_wait(&round_start);
    for (int i = 0; i < 8; ++i) {
      seed = seed * 1103515245u + 12345u;
      unsigned from = (seed >> 8) % kAccounts, to = (seed >> 16) % kAccounts;
      if (from != to) transfer(from, to, (long)(seed % 10));
    }
  }
  return NULL;
}

int main(void) {
  pthread_t threads[kWorkers];
  for (int i = 0; i < kAccounts; ++i) {
    pthread_mutex_init(&accounts[i].lock, NULL);
    accounts[i].balance = 1000;
  }
  pthread_barrier_init(&round_start, NULL, kWorkers + 1);
  for (int i = 0; i < kWorkers; ++i) pthread_create(&threads[i], NULL, worker, (void*)(size_t)(i + 1));
  for (int round = 0; round < kRounds; ++round) {
    pthread_barrier_wait(&round_start);
    /* BUG: interest is credited without taking the account's lock. */
    accounts[round % kAccounts].balance += 1;
  }
  for (int i = 0; i < kWorkers; ++i) pthread_join(threads[i], NULL);
  long total = 0;
  for (int i = 0; i < kAccounts; ++i) total += accounts[i].balance;
  printf("total balance %ld (expected %d)\n", total, kAccounts * 1000 + kRounds);
  return 0;
}
