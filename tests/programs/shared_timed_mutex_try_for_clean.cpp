// std::shared_timed_mutex: readers take the shared side with
// try_lock_shared_for (libstdc++ calls pthread_rwlock_clockrdlock), the
// writer the exclusive side. Each reader reads the configuration under the
// lock, so it is ordered with the writer's update one way or the other.
// Clean. Stock TSan 19 does not intercept pthread_rwlock_clockrdlock and
// reports a race on most runs.
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

int main() {
  std::shared_timed_mutex lock;
  long config = 1;
  std::vector<long> seen(8, 0);
  std::vector<std::thread> readers;
  for (int t = 0; t < 8; t++) {
    readers.emplace_back([&, t] {
      while (!lock.try_lock_shared_for(std::chrono::microseconds(100))) {
      }
      seen[t] = config;
      lock.unlock_shared();
    });
  }
  {
    std::unique_lock<std::shared_timed_mutex> writer(lock);
    config = 2;
  }
  for (std::thread& r : readers) r.join();
  for (long s : seen) {
    if (s != 1 && s != 2) return 1;
  }
  return 0;
}
