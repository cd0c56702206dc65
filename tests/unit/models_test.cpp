// Verdicts of the explicit-value CEGAR on the Theta models and on tests/models, in
// every search order, with pruning and restart, at location and scope granularity.
// A model the explicit domain cannot decide must come out UNKNOWN, never wrong.

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "../support/counterexample_checks.hpp"
#include "../support/model_suite.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/explicit_refiner.hpp"

using namespace precis;

namespace models_test {

namespace {

struct Config {
  SearchOrder order;
  bool prune;
  Granularity g;
};

std::vector<Config> configs() {
  std::vector<Config> cs;
  for (auto o : {SearchOrder::Bfs, SearchOrder::Dfs, SearchOrder::TargetDistance})
    for (bool prune : {true, false})
      for (auto g : {Granularity::Location, Granularity::Scope}) cs.push_back({o, prune, g});
  return cs;
}

VerificationResult verify(const Cfa& cfa, const Config& c, double time_limit = 60) {
  CegarOptions o;
  o.order = c.order;
  o.prune = c.prune;
  o.granularity = c.g;
  o.time_limit_s = time_limit;
  return CEGAR<Expl>(cfa, o).run();
}

using testing::check_counterexample;

}  // namespace

TEST_CASE("explicit CEGAR on the Theta models matches verdicts.tsv") {
  const std::string dir = std::string(PRECIS_TASKS) + "/theta/";
  auto cases = testing::read_verdicts(dir + "verdicts.tsv");
  REQUIRE(cases.size() >= 10);
  int decided = 0;
  for (const auto& m : cases) {
    CAPTURE(m.name);
    if (m.verdict == "NONE") continue;
    Cfa cfa = read_cfa_file(dir + m.name + ".cfa");
    for (const auto& c : configs()) {
      auto r = verify(cfa, c);
      CAPTURE(static_cast<int>(c.order));
      CAPTURE(c.prune);
      if (m.name == "locking") {
        // Needs a relation between old and new: beyond explicit values.
        CHECK(r.verdict == Verdict::Unknown);
        continue;
      }
      REQUIRE(r.verdict == (m.verdict == "SAFE" ? Verdict::Safe : Verdict::Unsafe));
      ++decided;
      if (r.verdict == Verdict::Unsafe) {
        check_counterexample(cfa, r);
        // A bit-vector model starts with precis' range assume (io/cfa_reader.hpp): one
        // step more than Theta counts.
        const std::size_t range_edge = m.name.find("_bv_") != std::string::npos ? 1 : 0;
        if (m.extra != "-")
          CHECK(r.counterexample->steps.size() == std::stoul(m.extra) + range_edge);
      }
    }
  }
  CHECK(decided == 8 * 12);
}

TEST_CASE("explicit CEGAR on tests/models matches tests/models/verdicts.tsv") {
  const std::string dir = std::string(PRECIS_TEST_MODELS) + "/";
  auto cases = testing::read_verdicts(dir + "verdicts.tsv");
  REQUIRE(cases.size() >= 10);
  for (const auto& m : cases) {
    CAPTURE(m.name);
    Cfa cfa = read_cfa_file(dir + m.name + ".cfa");
    const bool needs_predicates = m.extra.find("needs predicates") != std::string::npos;
    for (const auto& c : configs()) {
      // Models beyond explicit values may make it unroll a loop forever: a short limit.
      auto r = verify(cfa, c, needs_predicates ? 0.3 : 60);
      if (needs_predicates && r.verdict == Verdict::Unknown) continue;
      CHECK(r.verdict == (m.verdict == "SAFE" ? Verdict::Safe : Verdict::Unsafe));
      if (r.verdict == Verdict::Unsafe) check_counterexample(cfa, r);
    }
  }
}

}  // namespace models_test
