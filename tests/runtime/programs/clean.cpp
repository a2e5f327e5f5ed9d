// Correctly synchronized C++: mutexes, condition variables, release/acquire
// atomics, a function-local static, heap reuse across threads, std::async
// style hand-offs, fork. Any report is a false alarm.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

namespace {
std::mutex mu;
std::shared_mutex rw;
std::condition_variable cv;
int counter = 0;
int table[16];
std::atomic<int> ready{0};
int payload = 0;

int& lazily_initialized() {
  static int value = static_cast<int>(std::string("seven").size());
  return value;
}
}  // namespace

int main() {
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([i] {
      for (int j = 0; j < 200; ++j) {
        std::lock_guard<std::mutex> guard(mu);
        ++counter;
      }
      {
        std::shared_lock<std::shared_mutex> reader(rw);
        volatile int sum = 0;
        for (int k : table) sum = sum + k;
      }
      if (lazily_initialized() != 5) std::abort();
      auto* block = new std::vector<int>(64, i);  // heap reuse across threads
      delete block;
    });
  }
  {
    std::unique_lock<std::shared_mutex> writer(rw);
    for (int& k : table) k = 1;
  }
  for (auto& t : threads) t.join();

  std::thread producer([] {
    payload = 99;
    ready.store(1, std::memory_order_release);
  });
  while (ready.load(std::memory_order_acquire) == 0) std::this_thread::yield();
  const int got = payload;
  producer.join();

  bool go = false;
  int handed = 0;
  std::thread consumer([&] {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return go; });
    handed += 1;
  });
  {
    std::lock_guard<std::mutex> guard(mu);
    handed = 41;
    go = true;
  }
  cv.notify_one();
  consumer.join();

  char buffer[64];
  std::memset(buffer, 'a', sizeof buffer);
  std::thread copier([&buffer] {
    char local[64];
    std::memcpy(local, buffer, sizeof local);
  });
  copier.join();

  const pid_t child = fork();
  if (child == 0) {
    std::thread in_child([] {
      std::lock_guard<std::mutex> guard(mu);
      ++counter;
    });
    in_child.join();
    _exit(counter == 1601 ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  std::printf("counter=%d payload=%d handed=%d child=%d\n", counter, got, handed, WEXITSTATUS(status));
  return 0;
}
