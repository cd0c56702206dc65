// A refiner whose refine takes no statistics: CEGAR's constraint names the Refiner concept.
#include <precis/precis.hpp>

struct NoStatsRefiner {
  using increment_type = precis::ExplicitRefiner::increment_type;
  explicit NoStatsRefiner(const precis::Cfa&) {}
  precis::Refinement<increment_type> refine(const precis::ErrorPath&) { return {}; }
};

int main() {
  precis::Cfa cfa;
  precis::CEGAR<precis::Expl, NoStatsRefiner> cegar{cfa};
  (void)cegar;
}
