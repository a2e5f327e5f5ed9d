// Many threads call a function whose function-local static object has a
// constructor that writes its members; the threads then read them. The
// compiler guards the initialization with __cxa_guard_acquire/release, which
// orders it before every use: clean.
#include <thread>
#include <vector>

struct Registry {
  Registry() {
    for (int i = 0; i < 16; i++) codes[i] = i * 3;
  }
  int codes[16];
};

static const Registry &registry() {
  static Registry instance;
  return instance;
}

static int lookup_limit() {
  static int limit = static_cast<int>(std::thread::hardware_concurrency()) + 100;
  return limit;
}

int main() {
  std::vector<std::thread> threads;
  std::vector<long> sums(8);
  for (int i = 0; i < 8; i++)
    threads.emplace_back([i, &sums] {
      long sum = lookup_limit() > 100 ? 0 : -1000;
      for (int c : registry().codes) sum += c;
      sums[i] = sum;
    });
  for (auto &t : threads) t.join();
  for (long s : sums)
    if (s != 360) return 1;
  return 0;
}
