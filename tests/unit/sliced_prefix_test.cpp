// Infeasible sliced prefixes (sliced-prefixes paper, Alg. 3) with the explicit strongest
// post, and refinement selection (Alg. 4, section IV-A) around the explicit-value
// refiner: the paper's Fig. 2 is proved with no loop unrolling by the domain-type score,
// while the plain refiner tracks the loop counter and unrolls the loop.

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/model_suite.hpp"
#include "../support/sliced_paths.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/cfa/variable_classification.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/refine/explicit_interpolation.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/refinement_selection.hpp"
#include "precis/refine/sliced_prefixes.hpp"

using namespace precis;

namespace sliced_prefix_test {

namespace {

using Selecting = SelectingRefiner<ExplicitRefiner>;
static_assert(Refiner<Selecting>);
static_assert(
    Refiner<SelectingRefiner<ExplicitRefiner, Lexicographic<DomainTypeScore, DeepPivot>>>);
static_assert(std::same_as<prefix_provider_t<ExplicitRefiner>, ExplicitPrefixes>);

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// tests/models/sliced_fig2_safe.cfa with the loop bound 10 replaced by `bound`.
Cfa fig2(long bound) {
  std::string text = read_text(std::string(PRECIS_TEST_MODELS) + "/sliced_fig2_safe.cfa");
  for (const char* edge : {"assume i < ", "assume i >= "}) {
    const std::string from = std::string(edge) + "10 }";
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), std::string(edge) + std::to_string(bound) + " }");
  }
  return parse_cfa(text, "sliced_fig2_safe.cfa");
}

struct Outcome {
  VerificationResult result;
  std::size_t arg_nodes = 0;
  std::vector<std::string> tracked;  // variables tracked anywhere
};

template <class R>
Outcome run(const Cfa& cfa, R refiner, Granularity g = Granularity::Scope, bool prune = true) {
  CegarOptions o;
  o.granularity = g;
  o.prune = prune;
  o.time_limit_s = 60;
  CEGAR<Expl, R> cegar(cfa, o, Expl(cfa), std::move(refiner));
  connect_precision(cegar.refiner(), cegar.current_precision());
  Outcome out{cegar.run(), 0, {}};
  out.arg_nodes = out.result.stats.arg_nodes;
  const auto& pi = *cegar.current_precision();
  std::vector<VarId> vs;
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    for (VarId v : pi.at(l)) vs.push_back(v);
  std::sort(vs.begin(), vs.end());
  vs.erase(std::unique(vs.begin(), vs.end()), vs.end());
  for (VarId v : vs) out.tracked.push_back(cfa.exprs().variable(v).name);
  return out;
}

Selecting selecting(const Cfa& cfa, const std::string& spec) {
  return Selecting(cfa, ExplicitRefiner(cfa), parse_prefix_selection(spec, cfa));
}

// Explicit-state implication (paper II-A): a implies b if a is bottom or every binding of
// b is in a.
bool implies(const ExplicitState& a, const ExplicitState& b) {
  if (a.is_bottom()) return true;
  if (b.is_bottom()) return false;
  for (const auto& [x, v] : b.values())
    if (!a.has(x) || a.get(x) != v) return false;
  return true;
}

}  // namespace

TEST_CASE("sliced prefixes: k independent contradictions give exactly k prefixes") {
  for (std::size_t k = 1; k <= 6; ++k) {
    for (std::uint32_t seed = 0; seed < 8; ++seed) {
      CAPTURE(k);
      CAPTURE(seed);
      const auto g = testing::generate_path(k, seed * 101 + static_cast<std::uint32_t>(k));
      const ErrorPath path = g.path();
      REQUIRE(explicit_post_all(ExplicitState{}, g.ops).is_bottom());
      ExplicitPrefixes provider;
      const auto prefixes = provider.extract(path);
      REQUIRE(prefixes.size() == k);
      for (std::size_t p = 0; p < k; ++p) {
        const SlicedPrefix& sp = prefixes[p];
        CAPTURE(p);
        // It ends in its contradicting assume: the same step of the original path.
        CHECK(sp.end == g.contradictions[p]);
        REQUIRE(sp.length() == sp.end + 1);
        CHECK(sp.path.steps.back().op == path.steps[sp.end].op);
        CHECK(std::holds_alternative<Assume>(*sp.path.steps.back().op));
        // The earlier contradictions are no-ops, everything else is the original step.
        CHECK(sp.sliced ==
              std::vector<std::size_t>(g.contradictions.begin(), g.contradictions.begin() + p));
        CHECK(sp.path.start == path.start);
        for (std::size_t i = 0; i <= sp.end; ++i) {
          CHECK(sp.path.location(i) == path.location(i));
          const bool sliced = std::find(sp.sliced.begin(), sp.sliced.end(), i) != sp.sliced.end();
          if (sliced)
            CHECK(std::holds_alternative<Skip>(*sp.path.steps[i].op));
          else if (i < sp.end)
            CHECK(sp.path.steps[i].op == path.steps[i].op);
        }
        // Infeasible, and feasible without its last step (the walk stays feasible).
        const auto ops = sp.path.operations();
        CHECK(explicit_post_all(ExplicitState{}, ops).is_bottom());
        CHECK_FALSE(explicit_post_all(ExplicitState{}, std::span(ops).first(sp.end)).is_bottom());
      }
    }
  }
}

TEST_CASE("sliced prefixes: a feasible path has none, contradictions beyond SP are not seen") {
  // Only range contradictions: the explicit strongest post cannot refute them.
  const auto g = testing::generate_path(3, 7, testing::ContradictionKind::Range);
  ExplicitPrefixes provider;
  CHECK(provider.extract(g.path()).empty());
  // Mixed kinds: exactly the explicit ones.
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    const auto m = testing::generate_path(5, seed, testing::ContradictionKind::Explicit, true);
    const auto prefixes = ExplicitPrefixes().extract(m.path());
    std::size_t expl = 0;
    for (std::size_t c : m.contradictions) {
      ExplicitState s;
      for (std::size_t i = 0; i < c; ++i)
        if (!explicit_post(s, m.ops[i]).is_bottom()) s = explicit_post(s, m.ops[i]);
      expl += explicit_post(s, m.ops[c]).is_bottom();
    }
    CHECK(prefixes.size() == expl);
  }
}

TEST_CASE("sliced prefixes: explicit interpolants of a prefix are interpolants of the path") {
  // The paper's proposition (III-B1) in the explicit domain: Gamma_0 = true,
  // SP(Gamma_i, op_i) implies Gamma_{i+1} over the ORIGINAL steps, Gamma_n = false.
  for (std::uint32_t seed = 0; seed < 20; ++seed) {
    const auto g = testing::generate_path(2 + seed % 4, seed);
    const auto prefixes = ExplicitPrefixes().extract(g.path());
    REQUIRE(prefixes.size() == 2 + seed % 4);
    for (const auto& sp : prefixes) {
      const auto itps = explicit_interpolants(sp.path.operations());
      REQUIRE(itps.infeasible);
      std::vector<ExplicitState> seq = itps.interpolants;
      while (seq.size() < g.ops.size() + 1) seq.push_back(ExplicitState::bottom());
      CHECK(seq.front().size() == 0);
      CHECK_FALSE(seq.front().is_bottom());
      CHECK(seq.back().is_bottom());
      for (std::size_t i = 0; i < g.ops.size(); ++i) {
        CAPTURE(i);
        CHECK(implies(explicit_post(seq[i], g.ops[i]), seq[i + 1]));
      }
    }
  }
}

TEST_CASE("prefix selection: parsing") {
  Cfa cfa = fig2(10);
  CHECK(parse_prefix_selection("none", cfa).mode() == SelectionMode::None);
  CHECK(parse_prefix_selection("all", cfa).mode() == SelectionMode::All);
  auto d = parse_prefix_selection("domain, shallow", cfa);
  CHECK(d.mode() == SelectionMode::Select);
  CHECK(d.needs_interpolants());
  CHECK(d.spec() == "domain, shallow");
  CHECK_FALSE(parse_prefix_selection("shortest", cfa).needs_interpolants());
  CHECK_FALSE(parse_prefix_selection("longest,shortest", cfa).needs_interpolants());
  for (const char* ok : {"shortest", "longest", "domain", "fewest-vars", "shallow", "deep",
                         "domain,fewest-vars,deep", "fewest-vars,longest"})
    CHECK_NOTHROW(parse_prefix_selection(ok, cfa));
  for (const char* bad :
       {"", "bogus", "domain,", ",domain", "none,domain", "all,shortest", "domain,,shallow"})
    CHECK_THROWS_AS(parse_prefix_selection(bad, cfa), std::invalid_argument);
}

TEST_CASE("prefix selection: the domain-type score of a candidate") {
  Cfa cfa = fig2(10);
  const VarId b = cfa.exprs().find("b")->id, i = cfa.exprs().find("i")->id;
  DomainTypeScore d(cfa);
  CHECK(d.classification().is_boolean(b));
  CHECK(d.classification().is_loop_counter(i));
  CHECK(d.rank(b) == 0);
  CHECK(d.rank(i) == 3);
  PrefixCandidate cb, ci, both;
  cb.vars = {b};
  ci.vars = {i};
  both.vars = {b, i};
  SelectionScore sb, si, s2;
  d.score(cb, sb);
  d.score(ci, si);
  d.score(both, s2);
  CHECK(sb < si);
  CHECK(si < s2);  // the worst variable first, then how many
}

TEST_CASE("Fig. 2: the domain-type score proves it without unrolling the loop") {
  // Refinements and ARG size do not depend on the loop bound. With scoped precision (the
  // default) b, a global, is tracked everywhere after one refinement; per location, a
  // second error path once round the loop adds b at the loop body.
  for (auto g : {Granularity::Scope, Granularity::Location}) {
    for (bool prune : {true, false}) {
      CAPTURE(to_string(g));
      CAPTURE(prune);
      std::vector<std::size_t> sizes, refinements;
      for (long bound : {10L, 50L, 400L}) {
        CAPTURE(bound);
        Cfa cfa = fig2(bound);
        auto r = run(cfa, selecting(cfa, "domain"), g, prune);
        CHECK(r.result.verdict == Verdict::Safe);
        CHECK(r.result.stats.refinements == (g == Granularity::Scope ? 1 : 2));
        CHECK(r.tracked == std::vector<std::string>{"b"});
        CHECK(r.arg_nodes < 20);
        sizes.push_back(r.arg_nodes);
        refinements.push_back(r.result.stats.refinements);
        const auto& ex = r.result.stats.extra;
        CHECK(ex.at("sliced prefixes (expl): min per refinement") == 2);
        CHECK(ex.at("sliced prefixes (expl): max per refinement") == 2);
        CHECK(ex.at("sliced prefixes (expl): avg per refinement") == 2);
        CHECK(ex.at("sliced prefixes (expl): chosen index (last)") == 1);
        CHECK(ex.at("sliced prefixes (expl): chosen score (last)") == 0);  // Boolean
        CHECK(ex.at("sliced prefixes (expl): interpolated") == 2 * r.result.stats.refinements);
        CHECK(ex.at("sliced prefixes (expl): time interpolating unchosen (s)") >= 0);
      }
      CHECK(sizes[0] == sizes[1]);
      CHECK(sizes[1] == sizes[2]);
      CHECK(refinements[0] == refinements[2]);
    }
  }
}

TEST_CASE("Fig. 2: without selection the loop counter is tracked and the ARG grows") {
  std::vector<std::size_t> sizes;
  for (long bound : {10L, 50L}) {
    Cfa cfa = fig2(bound);
    auto plain = run(cfa, ExplicitRefiner(cfa));
    CHECK(plain.result.verdict == Verdict::Safe);
    CHECK(plain.result.stats.refinements >= 2);
    CHECK(std::find(plain.tracked.begin(), plain.tracked.end(), "i") != plain.tracked.end());
    CHECK(plain.arg_nodes > 2 * static_cast<std::size_t>(bound));
    // "none" is the plain refiner.
    auto none = run(cfa, selecting(cfa, "none"));
    CHECK(none.result.verdict == Verdict::Safe);
    CHECK(none.arg_nodes == plain.arg_nodes);
    CHECK(none.result.stats.refinements == plain.result.stats.refinements);
    sizes.push_back(plain.arg_nodes);
  }
  CHECK(sizes[1] > sizes[0]);
}

TEST_CASE("Fig. 2: the other selectors") {
  Cfa cfa = fig2(30);
  // shortest: the first prefix, refuted by the counter: the loop is unrolled.
  auto s = run(cfa, selecting(cfa, "shortest"));
  CHECK(s.result.verdict == Verdict::Safe);
  CHECK(std::find(s.tracked.begin(), s.tracked.end(), "i") != s.tracked.end());
  CHECK(s.arg_nodes > 60);
  CHECK(s.result.stats.extra.at("sliced prefixes (expl): interpolated") >= 1);
  // longest: the last prefix, the flag.
  auto l = run(cfa, selecting(cfa, "longest"));
  CHECK(l.result.verdict == Verdict::Safe);
  CHECK(l.tracked == std::vector<std::string>{"b"});
  CHECK(l.result.stats.refinements == 1);
  // all: both.
  auto a = run(cfa, selecting(cfa, "all"));
  CHECK(a.result.verdict == Verdict::Safe);
  CHECK(a.tracked == std::vector<std::string>{"b", "i"});
  CHECK(a.result.stats.refinements == 1);
  // shallow / deep: the flag's increments start at b := 0's target (position 1), the
  // counter's at the loop head (position 2): shallow takes the flag, deep the counter.
  auto sh = run(cfa, selecting(cfa, "shallow"));
  CHECK(sh.result.verdict == Verdict::Safe);
  CHECK(sh.tracked == std::vector<std::string>{"b"});
  CHECK(sh.result.stats.refinements == 1);
  auto dp = run(cfa, selecting(cfa, "deep"));
  CHECK(dp.result.verdict == Verdict::Safe);
  CHECK(std::find(dp.tracked.begin(), dp.tracked.end(), "i") != dp.tracked.end());
  // fewest-vars: one variable each, the tie goes to the earlier prefix (the counter);
  // domain breaks it.
  auto fv = run(cfa, selecting(cfa, "fewest-vars"));
  CHECK(fv.result.verdict == Verdict::Safe);
  CHECK(std::find(fv.tracked.begin(), fv.tracked.end(), "i") != fv.tracked.end());
  auto fvd = run(cfa, selecting(cfa, "fewest-vars,domain"));
  CHECK(fvd.tracked == std::vector<std::string>{"b"});
  // Compile-time composition, built by CEGAR from the CFA alone.
  CegarOptions o;
  CEGAR<Expl, SelectingRefiner<ExplicitRefiner, Lexicographic<DomainTypeScore, DeepPivot>>> c(cfa,
                                                                                              o);
  auto r = c.run();
  CHECK(r.verdict == Verdict::Safe);
  CHECK(r.stats.refinements == 1);
}

TEST_CASE("Fig. 2 with the bound 10^6 is proved by the domain-type score") {
  Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/large/sliced_fig2_1e6_safe.cfa");
  auto r = run(cfa, selecting(cfa, "domain"));
  CHECK(r.result.verdict == Verdict::Safe);
  CHECK(r.result.stats.refinements == 1);
  CHECK(r.tracked == std::vector<std::string>{"b"});
  CHECK(r.arg_nodes == run(fig2(10), selecting(fig2(10), "domain")).arg_nodes);
}

TEST_CASE("selection reports a feasible path exactly as the inner refiner") {
  Cfa cfa = read_cfa_file(std::string(PRECIS_TEST_MODELS) + "/count_to_ten_unsafe.cfa");
  auto plain = run(cfa, ExplicitRefiner(cfa));
  for (const char* spec : {"domain", "shortest", "all", "none", "deep,longest"}) {
    CAPTURE(spec);
    auto sel = run(cfa, selecting(cfa, spec));
    REQUIRE(sel.result.verdict == Verdict::Unsafe);
    REQUIRE(plain.result.verdict == Verdict::Unsafe);
    const auto& a = *plain.result.counterexample;
    const auto& b = *sel.result.counterexample;
    CHECK(a.initial == b.initial);
    REQUIRE(a.steps.size() == b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
      CHECK(a.steps[i].operation == b.steps[i].operation);
      CHECK(std::ranges::equal(a.steps[i].changes, b.steps[i].changes));
    }
  }
  // A path the explicit domain can neither refute nor replay (contradictions between
  // ranges of havocked values): Unknown with the inner refiner's reason.
  const auto g = testing::generate_path(3, 11, testing::ContradictionKind::Range);
  Statistics st;
  auto sel = selecting(g.cfa, "domain");
  ExplicitRefiner inner(g.cfa);
  const auto a = sel.refine(g.path(), st);
  const auto b = inner.refine(g.path(), st);
  CHECK(a.kind == RefinementKind::Unknown);
  CHECK(a.kind == b.kind);
  CHECK(a.reason == b.reason);
}

TEST_CASE("selection on tests/models: every verdict as expected") {
  const std::string dir = std::string(PRECIS_TEST_MODELS) + "/";
  for (const auto& m : testing::read_verdicts(dir + "verdicts.tsv")) {
    CAPTURE(m.name);
    Cfa cfa = read_cfa_file(dir + m.name + ".cfa");
    const bool needs_predicates = m.extra.find("needs predicates") != std::string::npos;
    for (const char* spec : {"domain", "shortest", "longest", "all", "domain,deep"}) {
      CAPTURE(spec);
      CegarOptions o;
      o.time_limit_s = needs_predicates ? 0.3 : 60;
      CEGAR<Expl, Selecting> cegar(cfa, o, Expl(cfa), selecting(cfa, spec));
      connect_precision(cegar.refiner(), cegar.current_precision());
      auto r = cegar.run();
      if (needs_predicates && r.verdict == Verdict::Unknown) continue;
      CHECK(r.verdict == (m.verdict == "SAFE" ? Verdict::Safe : Verdict::Unsafe));
    }
  }
}

TEST_CASE("refine_further offers the next prefixes in the selector's order, then nothing") {
  // The first error path of Fig. 2: b := 0, i := 0, assume i >= 10, assume b /= 0.
  Cfa cfa = fig2(10);
  ErrorPath path;
  path.start = cfa.initial_location();
  for (const char* name : {"L1", "LOOP", "EXIT", "ERR"}) {
    for (auto e : cfa.out_edges(path.location(path.size())))
      if (cfa.name(cfa.target(e)) == name) path.steps.push_back(cfa.ref(e));
  }
  REQUIRE(path.size() == 4);
  const VarId b = cfa.exprs().find("b")->id, i = cfa.exprs().find("i")->id;
  auto vars = [](const Refinement<VariableSet>& r) {
    std::vector<VarId> vs;
    for (const auto& [pos, inc] : r.increments) increment_variables(inc, vs);
    std::sort(vs.begin(), vs.end());
    vs.erase(std::unique(vs.begin(), vs.end()), vs.end());
    return vs;
  };
  for (const char* spec : {"shortest", "fewest-vars"}) {  // by length, by increments
    CAPTURE(spec);
    Statistics st;
    auto sel = selecting(cfa, spec);
    auto first = sel.refine(path, st);
    REQUIRE(first.kind == RefinementKind::Spurious);
    CHECK(vars(first) == std::vector<VarId>{i});
    auto next = sel.refine_further(path, st);
    REQUIRE(next.kind == RefinementKind::Spurious);
    CHECK(vars(next) == std::vector<VarId>{b});
    CHECK(sel.refine_further(path, st).kind == RefinementKind::Unknown);
    CHECK(st.extra.at("sliced prefixes (expl): further prefixes tried") == 1);
  }
}

}  // namespace sliced_prefix_test
