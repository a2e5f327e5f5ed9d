// std::shared_ptr copies handed to several threads, each of which reads the
// object and drops its copy; whichever thread drops the last one destroys
// the object (which the constructor wrote in main). The reference count's
// atomic decrements order every use before the destruction: clean.
#include <memory>
#include <thread>
#include <vector>

struct Config {
  explicit Config(int base) {
    for (int i = 0; i < 16; i++) values[i] = base + i;
  }
  ~Config() {
    for (int &v : values) v = -1;
  }
  int values[16];
};

int main() {
  std::vector<std::thread> threads;
  std::vector<long> sums(4);
  {
    auto config = std::make_shared<Config>(100);
    for (int t = 0; t < 4; t++)
      threads.emplace_back([config, t, &sums]() mutable {
        long sum = 0;
        for (int v : config->values) sum += v;
        sums[static_cast<std::size_t>(t)] = sum;
        config.reset();
      });
  }  // main drops its copy while the threads may still be running
  for (auto &t : threads) t.join();
  for (long s : sums)
    if (s != 16 * 100 + 120) return 1;
  return 0;
}
