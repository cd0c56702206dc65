#pragma once
// The portfolio's choice of stages from cheap facts about the program. The
// stages run through algorithms/sequential.hpp; this header only measures the CFA and
// orders analyses by name (the names of precis-verify's --analysis), so that a tool
// maps each name to its own instantiation.
//
// The rule table (measured: bench/README.md, "Portfolio" and "The papers' table"):
//
//   facts                      stages (share of the time left)
//   -------------------------  ----------------------------------------------------
//   loops, arithmetic vars     ai-cong (1/20, at most 1 s), ai-poly (1/10, at most
//                              2 s; ai-oct without PPL), then as with loops
//   loops                      sim (1/10, at most 10 s), then the default
//   no loops, no inputs        sim (1/10, at most 10 s), then the default
//   any                        expl+pred-abe (1/2), bmc (1/2), expl+pred (1/2),
//                              vinta-box (the rest)
//
// bmc second (bench/README.md, "The portfolio with BMC"): the deep state
// machines (systemc token_ring, transmitter) have their bug a few scheduler rounds deep
// in an interleaving the refining analyses do not reach in time, and BMC finds it in
// 0.4-13 s. On the papers' table over every set at 5 s (137 tasks, bench/portfolio_sim.py
// on each configuration's times) bmc second with half the time left decides 98, the
// stages before it 91, and loses no task at shares up to 0.7; measured, auto decides 98
// (before: 92; 0 wrong, CPU 139 s instead of 164 s). k-induction decides 86 alone but
// none the other stages miss: not a stage.
//
// ai-poly first on loops over arithmetic (bench/README.md, "Relational domains
// on the loop categories"): on the 24 loop tasks of sv-comp-more at 15 s it decides 10
// in 0.6 s of CPU altogether and fails in 30-110 ms where it fails; the default stages
// alone decided 8, with ai-poly first the portfolio decides 14, the virtual best of all
// configurations (Spacer: 15). ai-oct first decided no more than the default (8): the
// tasks need k = 2i, a + b = n and the like. vinta-poly decides 12 alone, but where it
// fails it spends its whole budget, and its extra task (css2003) the default solves too.
// expl+pred-abe first: on the 78 models and SV-COMP tasks it solves 74, the virtual
// best's count over all 16 configurations of the papers, and it is the fastest on the
// control-heavy ones (locks_14-1 0.07 s, RERS 0.3 s, systemc 0.1-3 s). expl+pred (single-
// block encoding) is the second strongest (71) with a different mechanism; VINTA's
// intervals last, for counting loops (vBox solves sum01-1 and trex01-2 15-40x faster).
// Rules measured and dropped: ">= 12 nondeterministic flags: pred-abe first" (right for
// locks_14-1 while expl+pred came first, dominated once expl+pred-abe does; it cost 3.5 s
// on kbfiltr) and "loop counters and arithmetic: vinta-box first (1/3)" (fires on 32 of
// the 78, same 74 solved, but 44 s instead of 24 s of CPU, simulated from the table's
// per-configuration times: vBox is slow where it does not win). A row must win on the
// suite numbers to be added; the features below are
// what rows may test, and what --json reports ("portfolio features").

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/variable_classification.hpp"
#include "precis/cfa/weak_topological_order.hpp"
#include "precis/core/bound_marker.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct ProgramFeatures {
  std::size_t locations = 0;
  std::size_t edges = 0;
  std::size_t branches = 0;  // locations with more than one out-edge
  std::size_t variables = 0;
  std::size_t boolean_vars = 0;
  std::size_t equality_vars = 0;
  std::size_t arithmetic_vars = 0;
  std::size_t loop_counters = 0;
  // Inputs: variables a call of a nondeterministic function assigns (when the CFA marks
  // such calls, as the C front end does; else every havoc, as in .cfa models). An
  // uninitialized C local is a havoc too, but not an input.
  std::size_t nondet_vars = 0;
  std::size_t nondet_flags = 0;      // of those, Boolean or equality variables
  std::size_t loops = 0;             // heads of the weak topological order
  std::size_t max_loop_nesting = 0;  // 0: no loop
  bool nonlinear = false;            // a product of two variables, or / % by a variable
  bool floating = false;             // a float or double variable (IEEE arithmetic)
};

namespace detail {

inline bool nonlinear_term(Term t) {
  bool found = false;
  for_each_subterm(t, [&](Term x) {
    std::size_t non_const = 0;
    switch (x.op()) {
      case Op::Mul:
        for (std::size_t i = 0; i < x.num_args(); ++i)
          non_const += x.arg(i).op() == Op::IntConst ? 0 : 1;
        found = non_const > 1;
        break;
      case Op::Div:
      case Op::Mod:
      case Op::Rem: found = x.arg(1).op() != Op::IntConst; break;
      case Op::BitAnd:
      case Op::Pow2: found = true; break;
      default: break;
    }
    return !found;
  });
  return found;
}

}  // namespace detail

// One pass over the CFA, its variable classification and its weak topological order.
inline ProgramFeatures program_features(const Cfa& cfa) {
  ProgramFeatures f;
  f.locations = cfa.num_locations();
  f.edges = cfa.num_edges();
  std::vector<bool> havocked(cfa.exprs().num_vars(), false);
  const bool marked = !cfa.nondet_functions().empty();
  for (Loc l = 0; l < cfa.num_locations(); ++l) {
    std::size_t out = 0;
    for (auto e : cfa.out_edges(l)) {
      ++out;
      const Operation& op = cfa.operation(e);
      // Inputs: a nondeterministic function's value (any havoc in a model without
      // them), not a bound marker (core/bound_marker.hpp).
      if (const auto* h = std::get_if<Havoc>(&op);
          h && (!marked || cfa.nondet_function(e)) &&
          !is_bound_marker(cfa.exprs().variable(h->var).name))
        havocked[h->var] = true;
      if (f.nonlinear) continue;
      if (const auto* a = std::get_if<Assign>(&op))
        f.nonlinear = detail::nonlinear_term(a->value);
      else if (const auto* c = std::get_if<Assume>(&op))
        f.nonlinear = detail::nonlinear_term(c->cond);
    }
    f.branches += out > 1 ? 1 : 0;
  }
  for (const auto& v : cfa.exprs().variables()) f.floating = f.floating || is_float(v.type);
  const VariableClassification vc = classify_variables(cfa);
  f.variables = vc.size();
  for (VarId v = 0; v < vc.size(); ++v) {
    f.boolean_vars += vc.is_boolean(v) ? 1 : 0;
    f.equality_vars += vc.is_equality(v) ? 1 : 0;
    f.arithmetic_vars += vc.is_arithmetic(v) ? 1 : 0;
    f.loop_counters += vc.is_loop_counter(v) ? 1 : 0;
    if (v < havocked.size() && havocked[v]) {
      ++f.nondet_vars;
      f.nondet_flags += vc.is_arithmetic(v) ? 0 : 1;
    }
  }
  const WeakTopologicalOrder wto(cfa);
  std::vector<std::uint32_t> open;  // ends of the components around the current element
  const auto& el = wto.elements();
  for (std::uint32_t i = 0; i < el.size(); ++i) {
    while (!open.empty() && i >= open.back()) open.pop_back();
    if (!el[i].head) continue;
    ++f.loops;
    open.push_back(el[i].end);
    if (open.size() > f.max_loop_nesting) f.max_loop_nesting = open.size();
  }
  return f;
}

struct PortfolioStage {
  std::string analysis;    // a precis-verify --analysis name
  double share = 1.0;      // of the time left when the stage starts (the last: all)
  double max_seconds = 0;  // an absolute cap on that share (0: none)
};

struct PortfolioChoice {
  std::vector<PortfolioStage> stages;
  std::string rule;  // which row of the table chose them
};

// The cap on the first stage's tenth: on every set at `-t 5`, ai-poly decided
// 36 tasks, none in more than 1.3 s, and ran to its budget on the state machines
// (systemc, RERS, locks) without deciding one; at `-t 60` its tenth was 6 s of waste
// there, taken from the stages that decide them (bench/README.md, "The portfolio at
// -t 60").
inline constexpr double kAiFirstMaxSeconds = 2.0;
// ai-cong (intervals and congruences) took at most 0.1 s on every
// task of the sets, decided or not (bench/README.md, "Congruences").
inline constexpr double kAiCongMaxSeconds = 1.0;
// Random simulation on programs with loops (bench/README.md, "Random simulation"): it
// decided 25 of the probe's 47 UNSAFE tasks alone, 22 of them in under 0.1 s; the rest
// of its time goes to bugs deep in loops without inputs, where a run of millions of
// steps takes seconds.
inline constexpr double kSimShare = 0.1;
inline constexpr double kSimMaxSeconds = 10.0;

// `polyhedra`: whether the tool has ai-poly (precis-verify needs PPL for it).
inline PortfolioChoice choose_stages(const ProgramFeatures& f, bool polyhedra = true) {
  PortfolioChoice c{{{"expl+pred-abe", 0.5}, {"bmc", 0.5}, {"expl+pred", 0.5}, {"vinta-box", 1.0}},
                    "default"};
  // Loops over arithmetic variables get the polyhedra AI first, a tenth of the
  // time (milliseconds where it fails, no refinement where it proves k == 2i or
  // x + y == n); octagons where the tool has no polyhedra.
  // Intervals and congruences before it (parity and stride invariants; tens of
  // milliseconds where they fail).
  // Loops: random simulation before the refining analyses (bugs too deep to unroll).
  if (f.loops > 0) {
    c.stages.insert(c.stages.begin(), {"sim", kSimShare, kSimMaxSeconds});
    c.rule = "loops: sim first";
  }
  // No loops and no inputs (recursion inlined, fib(10)): the program's one execution is
  // its proof (certify/complete_run.hpp), found by sim's first run in milliseconds; the
  // unrolling of thousands of inlined calls took BMC and the refining analyses longer
  // than 10 s.
  if (f.loops == 0 && f.nondet_vars == 0) {
    c.stages.insert(c.stages.begin(), {"sim", kSimShare, kSimMaxSeconds});
    c.rule = "no loops, no inputs: sim first";
  }
  if (f.loops > 0 && f.arithmetic_vars > 0) {
    const char* ai = polyhedra ? "ai-poly" : "ai-oct";
    c.stages.insert(c.stages.begin(),
                    {{"ai-cong", 0.05, kAiCongMaxSeconds}, {ai, 0.1, kAiFirstMaxSeconds}});
    c.rule = std::string("loops with arithmetic: ai-cong and ") + ai + " first, then sim";
  }
  return c;
}

}  // namespace precis
