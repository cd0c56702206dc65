// The library's headline, as a verifier author writes it (README.md, "The library"):
// explicit values with predicate abstraction in one product analysis under CEGAR, from
// one include, every SAFE proved by the independent certificate checker.
//
//   headline MODEL.cfa     prints SAFE, UNSAFE (with the counterexample) or UNKNOWN
#include <precis/precis.hpp>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: headline MODEL.cfa\n";
    return 4;
  }
  // README: begin
  const precis::Cfa cfa = precis::read_cfa_file(argv[1]);
  precis::CegarOptions options;
  options.time_limit_s = 60;
  precis::CEGAR<precis::ProductDomain<precis::Expl, precis::Pred>> cegar{cfa, options};
  precis::VerificationResult result = cegar.run();
  precis::certify_safe(cfa, cegar.analysis(), cegar.arg(), result);  // SAFE only with a proof
  std::cout << precis::to_string(result.verdict) << '\n';
  // README: end
  if (result.counterexample) precis::print_counterexample(std::cout, *result.counterexample);
  if (result.verdict == precis::Verdict::Unknown) std::cout << result.reason << '\n';
  return static_cast<int>(result.verdict);
}
