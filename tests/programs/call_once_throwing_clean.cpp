// std::call_once whose first attempt throws: the flag stays unset, and the
// next caller runs the initializer again, which then succeeds. Every thread
// reads the table the successful run built, ordered after it by the once
// flag (the exceptional run orders nothing). Clean. Stock TSan 19 hangs here
// (its call_once model waits for a run that ended by throwing).
#include <atomic>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

static std::once_flag built;
static int* table;
static std::atomic<int> attempts{0};

static void build() {
  if (attempts.fetch_add(1) == 0) throw std::runtime_error("first attempt fails");
  table = new int[64];
  for (int i = 0; i < 64; i++) table[i] = i;
}

int main() {
  long sums[4] = {0, 0, 0, 0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&sums, t] {
      for (;;) {
        try {
          std::call_once(built, build);
          break;
        } catch (const std::runtime_error&) {
        }
      }
      for (int k = 0; k < 64; k++) sums[t] += table[k];
    });
  }
  for (std::thread& t : threads) t.join();
  delete[] table;
  const long total = sums[0] + sums[1] + sums[2] + sums[3];
  return total == 4 * 2016 && attempts.load() == 2 ? 0 : 1;
}
