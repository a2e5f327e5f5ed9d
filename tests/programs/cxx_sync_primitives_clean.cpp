// The C++ standard library's synchronization, which runs on pthreads:
// std::shared_mutex (both sides), std::condition_variable with a predicate,
// std::call_once and std::promise/future, with plain std::thread joins. Every
// access is ordered: clean.
#include <condition_variable>
#include <future>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

static std::shared_mutex table_mutex;
static std::vector<int> table(16);
static std::once_flag config_once;
static int config_value;
static std::mutex queue_mutex;
static std::condition_variable queue_cv;
static std::vector<int> queue;

int main() {
  std::promise<int> answer;
  std::future<int> answer_future = answer.get_future();
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; t++)
    threads.emplace_back([t, &answer] {
      std::call_once(config_once, [] { config_value = 5; });
      for (int i = 0; i < 50; i++) {
        if (i % 5 == 0) {
          std::unique_lock<std::shared_mutex> lock(table_mutex);
          table[static_cast<std::size_t>(i % 16)] += config_value;
        } else {
          std::shared_lock<std::shared_mutex> lock(table_mutex);
          volatile int sink = table[static_cast<std::size_t>(i % 16)];
          (void)sink;
        }
      }
      {
        std::lock_guard<std::mutex> lock(queue_mutex);
        queue.push_back(t);
      }
      queue_cv.notify_one();
      if (t == 0) answer.set_value(config_value * 2);
    });
  {
    std::unique_lock<std::mutex> lock(queue_mutex);
    queue_cv.wait(lock, [] { return queue.size() == 3; });
  }
  int doubled = answer_future.get();
  for (auto &t : threads) t.join();
  int sum = 0;
  for (int v : table) sum += v;
  return doubled == 10 && sum == 3 * 10 * 5 ? 0 : 1;
}
