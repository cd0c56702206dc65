// A domain without join given to abstract interpretation: the first error names the
// concept it breaks (InterpretableDomain, through AbstractDomain's join).
#include <precis/precis.hpp>

struct NoJoin {
  using element = int;
  [[nodiscard]] int bottom() const { return 0; }
  [[nodiscard]] bool is_bottom(int e) const { return e == 0; }
  [[nodiscard]] bool leq(int a, int b) const { return a <= b; }
  [[nodiscard]] int widen(int, int b) const { return b; }
  [[nodiscard]] int post(int e, const precis::Operation&) const { return e; }
};

int main() {
  precis::Cfa cfa;
  precis::AbstractInterpreter<NoJoin> ai(cfa, NoJoin{});
  (void)ai;
}
