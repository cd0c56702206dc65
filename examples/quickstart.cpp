// The library's face: read a model, run explicit-value CEGAR, print the result.
//
//   quickstart model.cfa
#include <precis/io/cfa_reader.hpp>
#include <precis/io/report.hpp>
#include <precis/precis.hpp>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: quickstart MODEL.cfa\n";
    return 4;
  }
  try {
    precis::Cfa cfa = precis::read_cfa_file(argv[1]);
    precis::CEGAR<precis::Expl> cegar{cfa, precis::CegarOptions{}};
    precis::VerificationResult result = cegar.run();
    std::cout << precis::to_string(result.verdict) << '\n';
    if (result.counterexample) precis::print_counterexample(std::cout, *result.counterexample);
    if (result.verdict == precis::Verdict::Unknown) std::cout << result.reason << '\n';
    return static_cast<int>(result.verdict);
  } catch (const precis::input_error& e) {
    std::cerr << e.what() << '\n';
    return 3;
  }
}
