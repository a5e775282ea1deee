#include <vector>

namespace outer {
namespace inner {

/// doc
template <typename T>
class Box {
 public:
  Box() {}
  ~Box() {}
  T get() const { return v; }
  bool operator==(const Box& o) const { return true; }
  void set(int x);
  void set(double x) {}
 private:
  T v;
};

struct Plain { int x; };

[[nodiscard]] int f(int a) { return a; }

}  // namespace inner
}  // namespace outer

void outer::inner::Box<int>::set(int x) {}

enum class Color { Red };
auto lam = [](int x) { return x; };
typedef struct { int y; } Legacy;
