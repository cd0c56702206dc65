// The C front end as a library (precis::cfront): translate a C file to a CFA and verify it
// with explicit values and predicates, as precis-verify's expl+pred does.
//
//   read_c PROGRAM.c       prints SAFE, UNSAFE or UNKNOWN
#include <precis/frontends/c/c_frontend.hpp>
#include <precis/precis.hpp>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: read_c PROGRAM.c\n";
    return 4;
  }
  try {
    const precis::Cfa cfa = precis::c::translate_file(argv[1]);
    precis::CegarOptions options;
    options.time_limit_s = 60;
    precis::CEGAR<precis::ProductDomain<precis::Expl, precis::Pred>> cegar{cfa, options};
    precis::VerificationResult result = cegar.run();
    precis::certify_safe(cfa, cegar.analysis(), cegar.arg(), result);
    std::cout << precis::to_string(result.verdict) << '\n';
    return static_cast<int>(result.verdict);
  } catch (const precis::input_error& e) {
    std::cerr << e.what() << '\n';
    return 3;
  }
}
