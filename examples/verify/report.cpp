// The verdict report and the witness of precis-verify.

#include "report.hpp"

#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "precis/core/input_error.hpp"
#include "precis/io/report.hpp"
#include "precis/io/sha256.hpp"
#include "watchdog.hpp"
#include "witnesses.hpp"

namespace precis_cli {
namespace {

const char* sv_verdict(precis::Verdict v) {
  switch (v) {
    case precis::Verdict::Safe: return "true";
    case precis::Verdict::Unsafe: return "false";
    case precis::Verdict::Unknown: return "unknown";
  }
  return "unknown";
}

#ifdef PRECIS_HAVE_CVC5
// Writes the witness of a certified SAFE (from its certificate) or of an UNSAFE (from its
// replayed counterexample), if --witness asked for one. (Certificates and witnesses are
// written without cvc5 too, but only a cvc5 build certifies a SAFE verdict.)
void write_witness(const Model& model, const Config& cfg, const precis::VerificationResult& r,
                   const precis::Certificate* cert) {
  if (cfg.witness.empty() && cfg.witness_dir.empty()) return;
  const bool certified_safe = r.verdict == precis::Verdict::Safe && r.certified;
  // A C program's SAFE with a certificate a witness cannot state (k-inductive, bounded, a
  // complete run) gets a correctness witness all the same: the complete run's value
  // ranges at the loop heads, or no invariant at all (SV-COMP's validators, and
  // --validate, then verify the program themselves).
  const bool safe = certified_safe && (cert != nullptr || !model.c_file.empty());
  const bool unsafe = r.verdict == precis::Verdict::Unsafe && r.counterexample;
  // --witness-dir: the names SV-COMP and BenchExec expect.
  const std::string path = !cfg.witness.empty()   ? cfg.witness
                           : model.c_file.empty() ? cfg.witness_dir + "/witness.json"
                           : safe                 ? cfg.witness_dir + "/witness.yml"
                                                  : cfg.witness_dir + "/witness.graphml";
  if (!safe && !unsafe) {
    std::cerr << "note: no witness written (" << precis::to_string(r.verdict)
              << (certified_safe ? " of a model with a k-inductive, bounded or complete-run "
                                   "certificate, which a witness cannot state"
                  : r.verdict == precis::Verdict::Safe ? " without a checked certificate"
                                                       : "")
              << ")\n";
    return;
  }
  precis::WitnessTask task;
  task.program_file = model.c_file.empty() ? cfg.model : model.c_file;
  task.program_hash = precis::sha256_file_hex(task.program_file);
  task.architecture = model.lp64 ? "64bit" : "32bit";
  std::ofstream out(path);
  if (!out) throw precis::input_error({path, 0, 0}, "cannot open the witness file for writing");
  const precis::Cfa& cfa = model.cfa;
  if (model.c_file.empty()) {
    if (safe)
      write_cfa_correctness(out, cfa, *cert, task);
    else
      write_cfa_violation(out, cfa, *r.counterexample, task);
  } else if (safe && cert != nullptr) {
    write_correctness_witness(out, cfa, *cert, task, model.lp64 ? "LP64" : "ILP32", model.c_file);
  } else if (safe) {
    const auto steps = r.stats.extra.find("certificate steps");  // a complete run's
    std::optional<std::vector<std::string>> texts;
    if (steps != r.stats.extra.end() && steps->second > 0)
      texts = complete_run_invariants(cfa, static_cast<std::size_t>(steps->second), nullptr);
    if (!texts) texts.emplace(cfa.num_locations(), "1");
    const std::size_t n = write_loop_invariants(
        out, cfa, [&](precis::Loc l) { return (*texts)[l]; }, task, model.lp64 ? "LP64" : "ILP32",
        model.c_file);
    std::cerr << "note: the certificate has no invariants a witness can state; the witness "
              << (n == 0 ? std::string("has none")
                         : "states the value ranges of the program's only execution at " +
                               std::to_string(n) + " loop" + (n == 1 ? "" : "s"))
              << '\n';
  } else {
    write_violation_witness(out, cfa, *r.counterexample, task);
  }
  out.close();
  if (!out) throw precis::input_error({path, 0, 0}, "cannot write the witness file");
}
#endif

}  // namespace

int report(const Model& model, const RunContext& ctx, const precis::VerificationResult& r,
           const precis::Certificate* cert) {
  const Config& cfg = ctx.cfg;
  if (ctx.watchdog && !ctx.watchdog->claim_output()) {
    // The watchdog is printing UNKNOWN and ending the process.
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }

#ifdef PRECIS_HAVE_CVC5
  write_witness(model, cfg, r, cert);
#else
  (void)cert;
  if (!cfg.witness.empty() || !cfg.witness_dir.empty())
    std::cerr << "note: witnesses need cvc5 (certificates); none written\n";
#endif
  if (r.verdict == precis::Verdict::Safe && !r.certified)
    std::cerr << "warning: this SAFE verdict is not checked by a certificate ("
#ifdef PRECIS_HAVE_CVC5
              << "--certify off"
#else
              << "this build has no cvc5"
#endif
              << ")\n";
  const std::string analysis_name = cfg.baseline ? cfg.analysis + " (baseline)" : cfg.analysis;
  std::optional<precis::SvCompInfo> sv;
  if (model.is_task) {
    sv = precis::SvCompInfo{sv_verdict(r.verdict),
                            model.expected
                                ? std::optional<std::string>(*model.expected ? "true" : "false")
                                : std::nullopt};
  }
  if (cfg.json) {
    precis::write_json(std::cout, r, cfg.model, analysis_name, sv);
  } else {
    std::cout << precis::to_string(r.verdict) << '\n';
    if (sv) {
      std::cout << "SV-COMP verdict: " << sv->verdict;
      if (sv->expected) {
        std::cout << " (expected " << *sv->expected << ": "
                  << (r.verdict == precis::Verdict::Unknown ? "undecided"
                      : sv->verdict == *sv->expected        ? "correct"
                                                            : "WRONG")
                  << ")";
      }
      std::cout << '\n';
    }
    if (r.verdict == precis::Verdict::Unknown) std::cout << "Reason: " << r.reason << '\n';
    if (r.verdict == precis::Verdict::Safe && r.certified) {
      const auto& x = r.stats.extra;
      const auto num = [&](const char* k) {
        auto it = x.find(k);
        return it == x.end() ? 0.0 : it->second;
      };
      if (num("certificate k") > 1)  // k-induction (certify/k_inductive.hpp)
        std::cout << "Certificate: " << num("certificate k") << "-inductive, checked ("
                  << num("certificate queries") << " queries, " << num("certificate time s")
                  << " s)\n";
      else if (num("certificate depth") > 0)  // a complete unrolling (certify/bounded.hpp)
        std::cout << "Certificate: bounded, no execution of " << num("certificate depth")
                  << " steps, checked (" << num("certificate queries") << " queries, "
                  << num("certificate time s") << " s)\n";
      else if (num("certificate steps") > 0)  // one execution (certify/complete_run.hpp)
        std::cout << "Certificate: the program's only execution, "
                  << static_cast<long long>(num("certificate steps")) << " steps, checked ("
                  << num("certificate time s") << " s)\n";
      else
        std::cout << "Certificate: checked (" << num("certificate points") << " locations, "
                  << num("certificate disjuncts") << " disjuncts, " << num("certificate queries")
                  << " queries, " << num("certificate time s") << " s)\n";
    }
    if (auto it = r.stats.lists.find("portfolio stages"); it != r.stats.lists.end()) {
      std::cout << "Stages:\n";
      for (const auto& line : it->second) std::cout << "  " << line << '\n';
    }
    if (r.counterexample) precis::print_counterexample(std::cout, *r.counterexample);
    if (!cfg.quiet) precis::print_statistics(std::cerr, r.stats);
  }
  switch (r.verdict) {
    case precis::Verdict::Safe: return kSafe;
    case precis::Verdict::Unsafe: return kUnsafe;
    case precis::Verdict::Unknown: return kUnknown;
  }
  return kUnknown;
}

std::string unknown_report(const Config& cfg, const std::string& reason, bool is_task) {
  std::ostringstream os;
  precis::VerificationResult r;
  r.reason = reason;
  if (!cfg.validate.empty()) {
    os << "undecided: " << reason << '\n';  // --validate prints as its own result does
    return os.str();
  }
  if (cfg.json) {
    std::optional<precis::SvCompInfo> sv;
    if (is_task) sv = precis::SvCompInfo{"unknown", std::nullopt};
    precis::write_json(os, r, cfg.model, cfg.analysis, sv);
  } else {
    os << "UNKNOWN\n";
    if (is_task) os << "SV-COMP verdict: unknown\n";
    os << "Reason: " << reason << '\n';
  }
  return os.str();
}

}  // namespace precis_cli
