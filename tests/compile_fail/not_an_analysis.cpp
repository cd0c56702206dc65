// CEGAR over a bare domain instead of an analysis (a CPA): the first error names
// ConfigurableProgramAnalysis.
#include <precis/precis.hpp>

int main() {
  precis::Cfa cfa;
  precis::CEGAR<precis::BoxDomain, precis::ExplicitRefiner> cegar{cfa};
  (void)cegar;
}
