// docs/new-domain.md's congruence domain, written outside the library
// (examples/domains/congruence.hpp), under the three algorithms that take a domain:
// abstract interpretation, VINTA and CEGAR (as DomainAnalysis in a product with explicit
// values). Prints one line per algorithm: "ai SAFE", "vinta SAFE", "cegar SAFE", ...
//
//   new_domain MODEL.cfa
#include <precis/precis.hpp>

#include <congruence.hpp>
#include <iostream>

using precis_tutorial::CongruenceDomain;

namespace {

// Abstract interpretation has no certificate of its own: the values at every location
// become one, proved by the checker before SAFE is said.
precis::VerificationResult interpret(const precis::Cfa& cfa) {
  const CongruenceDomain domain;
  precis::AbstractInterpreter<CongruenceDomain> ai(cfa, domain);
  const auto run = ai.run();
  precis::VerificationResult r;
  r.reason = run.reason;
  if (!run.complete || !domain.is_bottom(run.values[*cfa.error_location()])) return r;
  precis::Certificate cert;
  cert.point.assign(cfa.num_locations(), true);
  cert.disjuncts.assign(cfa.num_locations(), {});
  for (precis::Loc l = 0; l < cfa.num_locations(); ++l)
    if (!domain.is_bottom(run.values[l]))
      cert.disjuncts[l].push_back(to_formula(run.values[l], *cfa.expr_manager()));
  r.verdict = precis::Verdict::Safe;
  precis::certify_safe(cfa, cert, r);
  return r;
}

precis::VerificationResult vinta(const precis::Cfa& cfa) {
  precis::Vinta<CongruenceDomain> v(cfa, CongruenceDomain{});
  precis::Limits limits;
  limits.time_limit_s = 30;
  return v.run(&limits);  // SAFE only after it checked its invariant
}

precis::VerificationResult cegar(const precis::Cfa& cfa) {
  using Cong = precis::DomainAnalysis<CongruenceDomain, precis::MergeJoin>;
  using ExplCong = precis::ProductDomain<precis::Expl, Cong>;
  precis::CegarOptions options;
  options.time_limit_s = 30;
  precis::CEGAR<ExplCong> c{cfa, options};
  precis::VerificationResult r = c.run();
  precis::certify_safe(cfa, c.analysis(), c.arg(), r);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: new_domain MODEL.cfa\n";
    return 4;
  }
  const precis::Cfa cfa = precis::read_cfa_file(argv[1]);
  std::cout << "ai " << precis::to_string(interpret(cfa).verdict) << '\n'
            << "vinta " << precis::to_string(vinta(cfa).verdict) << '\n'
            << "cegar " << precis::to_string(cegar(cfa).verdict) << '\n';
  return 0;
}
