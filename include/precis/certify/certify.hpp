#pragma once
// Certified SAFE verdicts: after a CEGAR run (or any analysis with an ARG),
//
//   precis::VerificationResult r = cegar.run();
//   precis::certify_safe(cfa, cegar.analysis(), cegar.arg(), r);
//
// reads the certificate off the final ARG (certify/certificate.hpp), proves it on a
// fresh solver (certify/certificate_checker.hpp), and keeps SAFE only if the proof
// succeeds. A failed proof turns the verdict into UNKNOWN with the reason
// "certificate check failed at edge ...": that is a soundness bug of the analysis, and
// the test suites treat it as one. Statistics: the certificate's size and check time.

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "precis/certify/certificate.hpp"
#include "precis/certify/certificate_checker.hpp"
#include "precis/core/result.hpp"

namespace precis {

// Records a check's figures in the run statistics.
inline void report_certificate(const CertificateCheck& c, double build_seconds, Statistics& st) {
  auto& x = st.extra;
  x["certificate points"] = static_cast<double>(c.points);
  x["certificate disjuncts"] = static_cast<double>(c.disjuncts);
  x["certificate queries"] = static_cast<double>(c.queries);
  x["certificate evaluated steps"] = static_cast<double>(c.evaluated);
  if (c.candidate_queries > 0) {
    x["certificate candidate queries"] = static_cast<double>(c.candidate_queries);
    x["certificate proved by candidate"] = c.candidate.empty() ? 0 : 1;
  }
  x["certificate build time s"] = build_seconds;
  x["certificate time s"] = c.seconds;
  x["certificate valid"] = c.valid ? 1 : 0;
}

// Applies a check to a SAFE result: stays SAFE only if the certificate is valid.
inline void apply_certificate(const Cfa& cfa, const CertificateCheck& c, VerificationResult& r) {
  if (r.verdict != Verdict::Safe) return;
  if (c.valid) {
    r.certified = true;
    return;
  }
  r.verdict = Verdict::Unknown;
  r.certified = false;
  if (c.unfinished) {
    // The run's time limit ended the check: the analysis's verdict is not reported
    // without its proof.
    r.reason = c.failure + " (the analysis had found SAFE; it is not reported without a proof)";
    return;
  }
  // Appended piece by piece: GCC 12 warns (-Wstringop-overflow) on long operator+ chains.
  std::string why = c.undecided ? "certificate check undecided" : "certificate check failed";
  if (c.from && c.to) {
    if (c.kind == "consecution") {
      why.append(" at edge ").append(cfa.name(*c.from)).append(" -> ").append(cfa.name(*c.to));
    } else {
      why.append(" at ").append(cfa.name(*c.from));
    }
  }
  why.append(": ").append(c.failure);
  why.append(c.undecided
                 ? " (SAFE is not reported without a proof)"
                 : " (the analysis claimed SAFE; this is a soundness bug, please report it)");
  r.reason = std::move(why);
}

// A certificate and its check (the certificate is what witnesses are written from).
struct Certified {
  Certificate certificate;
  CertificateCheck check;
};

// Checks a given certificate for a SAFE result (e.g. VINTA's or abstract
// interpretation's invariants), records the figures and applies the outcome.
inline CertificateCheck certify_safe(const Cfa& cfa, const Certificate& cert, VerificationResult& r,
                                     Cvc5Options opts = {}, double build_seconds = 0,
                                     CheckOptions how = {}) {
  if (r.verdict != Verdict::Safe) return {};
  CertificateCheck c = check_certificate(cfa, cert, std::move(opts), how);
  report_certificate(c, build_seconds, r.stats);
  apply_certificate(cfa, c, r);
  return c;
}

// The certificate of an analysis's final ARG, checked; nullopt unless r is SAFE.
// When a candidate invariant proved safety, the certificate becomes that candidate (one
// disjunct per location), so that witnesses state what was proved.
template <class Analysis, class ArgT>
std::optional<Certified> certify_safe(const Cfa& cfa, const Analysis& analysis, const ArgT& arg,
                                      VerificationResult& r, Cvc5Options opts = {},
                                      CheckOptions how = {}) {
  if (r.verdict != Verdict::Safe) return std::nullopt;
  const auto t0 = std::chrono::steady_clock::now();
  Certified out;
  try {
    out.certificate = certificate_of(cfa, analysis, arg, &opts.deadline);
  } catch (const limit_reached& e) {
    // The run's time ended while the certificate was built: as when it ends during the
    // check, the analysis's SAFE is not reported without its proof.
    out.check.unfinished = true;
    out.check.undecided = true;
    out.check.kind = "unfinished";
    out.check.failure = std::string("certificate check not finished: ") + e.what();
    report_certificate(out.check,
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                       r.stats);
    apply_certificate(cfa, out.check, r);
    return out;
  }
  const double built = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.check = certify_safe(cfa, out.certificate, r, std::move(opts), built, how);
  if (!out.check.candidate.empty()) {
    ExprManager& em = *cfa.expr_manager();
    for (Loc l = 0; l < out.certificate.disjuncts.size(); ++l)
      out.certificate.disjuncts[l] = out.check.candidate[l] == em.false_()
                                         ? std::vector<Term>{}
                                         : std::vector<Term>{out.check.candidate[l]};
    out.certificate.successors.clear();
  }
  return out;
}

}  // namespace precis
