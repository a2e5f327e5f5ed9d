// Objects created with new (scalar and array) in one thread, handed to
// another with a mutex-protected queue, used and deleted there; the
// allocator then reuses their memory. Clean.
#include <deque>
#include <mutex>
#include <thread>

struct Order {
  int id;
  double amount[6];
};

static std::mutex queue_mutex;
static std::deque<Order *> queue;

int main() {
  std::thread producer([] {
    for (int i = 0; i < 500; i++) {
      Order *order = new Order{i, {}};
      order->amount[5] = i * 0.5;
      std::lock_guard<std::mutex> lock(queue_mutex);
      queue.push_back(order);
    }
  });
  double total = 0;
  int received = 0;
  while (received < 500) {
    Order *order = nullptr;
    {
      std::lock_guard<std::mutex> lock(queue_mutex);
      if (!queue.empty()) {
        order = queue.front();
        queue.pop_front();
      }
    }
    if (!order) {
      std::this_thread::yield();
      continue;
    }
    total += order->amount[5];
    delete order;
    int *scratch = new int[64];
    scratch[63] = received++;
    delete[] scratch;
  }
  producer.join();
  return total == 499 * 500 / 2 * 0.5 ? 0 : 1;
}
