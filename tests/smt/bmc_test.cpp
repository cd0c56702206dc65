// Bounded model checking: a bug at depth >= 1,000 of a generated model found
// with its counterexample replayed (and its values checked), a bug that needs chosen
// inputs, the shallowest of two error paths, a complete
// unrolling (SAFE with a bounded certificate), the time and depth limits (UNKNOWN with the depth
// reached), and no UNSAFE on any SAFE model of the repository within a small bound.

#include <doctest/doctest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "../support/counterexample_checks.hpp"
#include "../support/model_suite.hpp"
#include "precis/algorithms/bmc.hpp"
#include "precis/io/cfa_reader.hpp"

using namespace precis;

namespace bmc_test {

namespace {

// x counts to n in steps of one; the error when it reaches n, after n loop iterations
// (n + 2 steps of the cutpoint graph: into the loop, n times round it, to the error).
std::string deep_counter(int n) {
  return "main process deep {\n"
         "  var x : int\n"
         "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
         "  L0 -> L1 { x := 0 }\n"
         "  L1 -> L1 { assume x < " +
         std::to_string(n) +
         "  x := x + 1 }\n"
         "  L1 -> ERR { assume x = " +
         std::to_string(n) +
         " }\n"
         "}\n";
}

VerificationResult bmc(const Cfa& cfa, double seconds = 60, std::size_t max_depth = 0) {
  BmcOptions o;
  o.max_depth = max_depth;
  Bmc b(cfa, o);
  Limits limits;
  limits.time_limit_s = seconds;
  VerificationResult r = b.run(&limits);
  if (r.verdict == Verdict::Unsafe) testing::check_counterexample(cfa, r);
  return r;
}

}  // namespace

TEST_CASE("bmc: a bug at depth 1,000 of a generated counter, replayed" *
          doctest::test_suite("sweep")) {
  const Cfa cfa = parse_cfa(deep_counter(1000), "deep.cfa");
  const VerificationResult r = bmc(cfa);
  REQUIRE(r.verdict == Verdict::Unsafe);
  REQUIRE(r.counterexample);
  const Counterexample& c = *r.counterexample;
  // x := 0, then 1,000 iterations of assume + assignment, then the assume to ERR.
  CHECK(c.steps.size() == 1 + 2 * 1000 + 1);
  CHECK(c.steps.back().to == "ERR");
  CHECK(c.final_values().at(0) == 1000);
  CHECK(r.stats.extra.at("bmc depth") >= 1001);
  CHECK(r.reason.find("at depth 1002 of the cutpoint graph") != std::string::npos);
}

TEST_CASE("bmc: inputs the bug needs come from the model and replay") {
  // The error needs y = 7 and z = 2 * y + 1 at the third iteration.
  const Cfa cfa = parse_cfa(
      "main process inputs {\n"
      "  var i : int\n  var y : int\n  var z : int\n"
      "  init loc L0\n  loc L1\n  loc L2\n  final loc END\n  error loc ERR\n"
      "  L0 -> L1 { i := 0 }\n"
      "  L1 -> L2 { havoc y  havoc z }\n"
      "  L2 -> L1 { assume not (y = 7 and z = 2 * y + 1 and i = 3)  i := i + 1 }\n"
      "  L2 -> ERR { assume y = 7 and z = 2 * y + 1 and i = 3 }\n"
      "}\n",
      "inputs.cfa");
  const VerificationResult r = bmc(cfa);
  REQUIRE(r.verdict == Verdict::Unsafe);
  const auto v = r.counterexample->final_values();
  CHECK(v.at(0) == 3);
  CHECK(v.at(1) == 7);
  CHECK(v.at(2) == 15);
}

TEST_CASE("bmc: the shallowest error path is the one reported") {
  // Two ways to the error: at once (x = 3 needs the input), or by counting to 3.
  const Cfa cfa = parse_cfa(
      "main process two_ways {\n"
      "  var x : int\n  var y : int\n"
      "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
      "  L0 -> L1 { havoc y  x := 0 }\n"
      "  L1 -> L1 { assume x < 5  x := x + 1 }\n"
      "  L1 -> ERR { assume x = 3 or y = x + 9 }\n"
      "}\n",
      "two_ways.cfa");
  const VerificationResult r = bmc(cfa);
  REQUIRE(r.verdict == Verdict::Unsafe);
  CHECK(r.counterexample->steps.size() == 3);  // havoc y, x := 0, the assume
  CHECK(r.counterexample->final_values().at(1) == 9);
  CHECK(r.stats.extra.at("bmc checked depth") == 1);
}

TEST_CASE(
    "bmc: a complete unrolling without an error is SAFE, with a checked bounded certificate") {
  // The loop runs exactly 5 times: no execution takes more than 7 steps.
  const Cfa cfa = parse_cfa(
      "main process bounded {\n"
      "  var x : int\n"
      "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
      "  L0 -> L1 { x := 0 }\n"
      "  L1 -> L1 { assume x < 5  x := x + 1 }\n"
      "  L1 -> END { assume x >= 5 }\n"
      "  L1 -> ERR { assume x > 5 }\n"
      "}\n",
      "bounded.cfa");
  BmcOptions o;
  Bmc b(cfa, o);
  const VerificationResult r = b.run();
  CHECK(r.verdict == Verdict::Safe);
  CHECK(r.certified);
  CHECK(b.complete());
  CHECK(r.reason.find("the unrolling is complete at depth") != std::string::npos);
  CHECK(r.stats.extra.at("certificate valid") == 1);
  const auto depth = static_cast<std::size_t>(r.stats.extra.at("certificate depth"));
  CHECK(b.checked_depth() >= 6);
  CHECK(b.checked_depth() <= 8);
  // The checker re-proves the depth on its own solver; a smaller depth is rejected (an
  // execution of 6 steps exists: x := 0, then five turns of the loop).
  CHECK(check_bounded(cfa, BoundedCertificate{depth}).valid);
  const KInductiveCheck shallow = check_bounded(cfa, BoundedCertificate{6});
  CHECK_FALSE(shallow.valid);
  CHECK(shallow.failure == "no execution of 6 steps fails");
  CHECK(check_bounded(cfa, BoundedCertificate{7}).valid);
}

TEST_CASE("bounded certificates: a claim over a reachable error is rejected") {
  // Complete at depth 7 too, but the error is reached (x > 4 after the loop).
  const Cfa cfa = parse_cfa(
      "main process bounded {\n"
      "  var x : int\n"
      "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
      "  L0 -> L1 { x := 0 }\n"
      "  L1 -> L1 { assume x < 5  x := x + 1 }\n"
      "  L1 -> END { assume x >= 5 }\n"
      "  L1 -> ERR { assume x > 4 }\n"
      "}\n",
      "bounded_unsafe.cfa");
  const KInductiveCheck c = check_bounded(cfa, BoundedCertificate{8});
  CHECK_FALSE(c.valid);
  CHECK(c.failure == "no error at depth 7 fails");
  const VerificationResult r = bmc(cfa);
  CHECK(r.verdict == Verdict::Unsafe);
}

TEST_CASE("bmc: the time and the depth limit end the run with the depth reached") {
  // Safe and unbounded: x only grows, the error needs x < 0.
  const Cfa cfa = parse_cfa(
      "main process unbounded {\n"
      "  var x : int\n  var y : int\n"
      "  init loc L0\n  loc L1\n  final loc END\n  error loc ERR\n"
      "  L0 -> L1 { x := 0  y := 0 }\n"
      "  L1 -> L1 { havoc y  assume y > 0  x := x + y }\n"
      "  L1 -> ERR { assume x < 0 }\n"
      "}\n",
      "unbounded.cfa");
  const VerificationResult byDepth = bmc(cfa, 60, 40);
  CHECK(byDepth.verdict == Verdict::Unknown);
  CHECK(byDepth.reason.find("depth limit of 40 reached; no error path up to depth 40") !=
        std::string::npos);
  const VerificationResult byTime = bmc(cfa, 0.5);
  CHECK(byTime.verdict == Verdict::Unknown);
  CHECK(byTime.reason.find("time limit") != std::string::npos);
  CHECK(byTime.reason.find("no error path up to depth") != std::string::npos);
  CHECK(byTime.stats.extra.at("bmc depth") > 40);
}

TEST_CASE("bmc: the known verdict or UNKNOWN, every UNSAFE replayed (repository models)") {
  // The UNSAFE models whose every error path is longer than BMC's bound here (30 steps of
  // the cutpoint graph): each must end UNKNOWN at the bound, never SAFE; every other
  // UNSAFE model must be found. deep_loop_bug_unsafe reaches its error only in the 50th
  // iteration of its loop (i = 50), 51 steps deep. The time limit (10 s a model) is a
  // margin: the whole loop takes about a second on the 2-core machine.
  const std::set<std::string> deeper_than_bound{"deep_loop_bug_unsafe"};
  std::set<std::string> missed;
  const std::vector<std::string> dirs{std::string(PRECIS_TEST_MODELS) + "/",
                                      std::string(PRECIS_TEST_MODELS) + "/box/",
                                      std::string(PRECIS_TASKS) + "/theta/"};
  for (const std::string& dir : dirs) {
    for (const auto& c : testing::read_verdicts(dir + "verdicts.tsv")) {
      if (c.verdict != "SAFE" && c.verdict != "UNSAFE") continue;
      CAPTURE(c.name);
      const std::optional<Cfa> read = read_cfa_file(dir + c.name + ".cfa");
      const VerificationResult r = bmc(*read, 10, 30);
      INFO(r.reason);
      // The opposite of the known verdict is never right; UNKNOWN says why.
      CHECK(r.verdict != (c.verdict == "SAFE" ? Verdict::Unsafe : Verdict::Safe));
      if (r.verdict == Verdict::Unknown) CHECK_FALSE(r.reason.empty());
      if (c.verdict == "UNSAFE" && r.verdict != Verdict::Unsafe) missed.insert(c.name);
    }
  }
  CHECK(missed == deeper_than_bound);
  for (const auto& m : missed) MESSAGE("undecided by BMC at depth 30: " << m);
}

}  // namespace bmc_test
