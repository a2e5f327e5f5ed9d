// Polymorphic objects (virtual calls read the vptr, constructors write it)
// constructed in one thread, handed to another under a mutex, called and
// destroyed there: clean.
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Square : Shape {
  explicit Square(double s) : side(s) {}
  double area() const override { return side * side; }
  double side;
};
struct Rect : Shape {
  Rect(double w, double h) : width(w), height(h) {}
  double area() const override { return width * height; }
  double width, height;
};

static std::mutex shapes_mutex;
static std::vector<std::unique_ptr<Shape>> shapes;

int main() {
  std::thread maker([] {
    for (int i = 0; i < 100; i++) {
      std::unique_ptr<Shape> s;
      if (i % 2)
        s = std::make_unique<Square>(2.0);
      else
        s = std::make_unique<Rect>(1.0, 3.0);
      std::lock_guard<std::mutex> lock(shapes_mutex);
      shapes.push_back(std::move(s));
    }
  });
  double total = 0;
  int taken = 0;
  while (taken < 100) {
    std::unique_ptr<Shape> s;
    {
      std::lock_guard<std::mutex> lock(shapes_mutex);
      if (!shapes.empty()) {
        s = std::move(shapes.back());
        shapes.pop_back();
      }
    }
    if (!s) {
      std::this_thread::yield();
      continue;
    }
    total += s->area();
    taken++;
  }
  maker.join();
  return total == 50 * 4.0 + 50 * 3.0 ? 0 : 1;
}
