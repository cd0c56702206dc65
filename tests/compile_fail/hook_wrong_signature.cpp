// An analysis whose statistics hook has the wrong parameter: it would never be called, so
// CEGAR stops with a static_assert naming the hook's concept, ReportsStatistics.
#include <precis/precis.hpp>

struct CountingExpl : precis::ExplicitAnalysis {
  using precis::ExplicitAnalysis::ExplicitAnalysis;
  void report(std::size_t& expansions) const { expansions = 0; }  // meant report(Statistics&)
};

int main() {
  precis::Cfa cfa;
  precis::CEGAR<CountingExpl, precis::ExplicitRefiner> cegar{cfa};
  (void)cegar;
}
