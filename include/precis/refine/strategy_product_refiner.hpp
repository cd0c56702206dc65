#pragma once
// The product refiner of the product-abstraction paper, chapter 3: it asks both
// components, R(path) = (R_e(path) minus dropouts, R_p(path) restricted to predicates
// that mention a dropped variable). So a variable first goes to the explicit precision;
// once the transfer drops it (Alg. 1-3) it never returns through R_e, and only its
// predicates are kept.
//
//  * R_e is explicit interpolation (Alg. 3/4 of the explicit-value paper). For a path it
//    cannot refute (relations, inequalities) the explicit increment is the variables of
//    R_p's predicates, as Theta does with its interpolants: Fig. 3.1 first tracks x.
//  * R_p is the predicate refiner (exact feasibility, interpolation): a feasible path is
//    a replayed counterexample. For a path explicit values refute, R_p interpolates its
//    shortest infeasible suffix (from any state): a dropout is unknown to the abstract
//    states from where it was dropped, and interpolants of the whole path describe the
//    iterations before the drop (x <= n after n iterations of a counting loop: one
//    predicate, and one more unrolling, per refinement), those of the suffix describe
//    why the rest fails (Fig. 3.3: x > 1000 at the check, as in Fig. 3.4).
//  * Never weaker than the explicit analysis (see
//    domains/product/strategy_product.hpp): when R_e refutes a path with a dropout, that
//    is a refusal; after more refusals than the control's patience the dropout returns
//    one level up (a limit escalation times larger), as an explicit increment.
//  * If the filtered increments change nothing (CEGAR finds no pivot), refine_further
//    hands out R_p's predicates unfiltered.
//
// Today's "explicit first, predicates when explicit values cannot refute" (the
// explicit-value paper's EXPLitp-PRED) stays refine/product_refiner.hpp.

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"
#include "precis/domains/product/strategy_product.hpp"
#include "precis/path/error_path.hpp"
#include "precis/path/refiner.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_feasibility.hpp"
#include "precis/smt/path_formula.hpp"

namespace precis {

template <class Re = ExplicitRefiner, class Rp = PredicateRefiner>
class StrategyProductRefiner {
 public:
  using increment_type = ProductIncrement<LeveledVariables, PredicateSet>;

  // `solver`: the options of the suffix checks' solver; its deadline (the run's) ends a
  // check that would outlive the run (bench/limits_sweep.sh found one).
  StrategyProductRefiner(const Cfa& cfa, std::shared_ptr<StrategyControl> control, Re re, Rp rp,
                         Cvc5Options solver = {})
      : cfa_(&cfa),
        control_(std::move(control)),
        re_(std::move(re)),
        rp_(std::move(rp)),
        ctx_(std::make_shared<Context>(cfa, std::move(solver))) {}
  StrategyProductRefiner(const Cfa& cfa, std::shared_ptr<StrategyControl> control) requires(
      std::constructible_from<Re, const Cfa&>&& std::constructible_from<Rp, const Cfa&>)
      : StrategyProductRefiner(cfa, std::move(control), Re(cfa), Rp(cfa)) {}

  Refinement<increment_type> refine(const ErrorPath& path, Statistics& stats) {
    last_predicates_.reset();
    Refinement<increment_type> out;
    auto re = re_.refine(path, stats);
    if (re.kind == RefinementKind::Feasible) {
      out.kind = RefinementKind::Feasible;
      out.counterexample = std::move(re.counterexample);
      return out;
    }
    const bool explicit_refutes = re.kind == RefinementKind::Spurious && !re.increments.empty();
    std::vector<std::pair<std::size_t, VariableSet>> vars;
    if (explicit_refutes) vars = std::move(re.increments);
    // Does the explicit refutation need a dropout? Then it is refused (item 4).
    VariableSet refused;
    if (explicit_refutes) {
      for (const auto& [i, vs] : vars)
        for (VarId v : vs)
          if (control_->is_dropout(v)) refused.insert(v);
      for (VarId v : refused)
        if (control_->refuse(v)) stats.extra["prod reinstated variables"] += 1;
    }
    // R_p: for paths explicit values cannot refute, and whenever there are dropouts
    // (their predicates are what the product keeps of R_p).
    std::vector<std::pair<std::size_t, PredicateSet>> preds;
    if (!explicit_refutes || control_->any_dropout()) {
      // A path explicit values refute is infeasible: R_p interpolates its shortest
      // infeasible suffix (see the top of this file).
      const std::size_t from = explicit_refutes ? infeasible_suffix(path, stats) : 0;
      ErrorPath suffix{path.location(from),
                       {path.steps.begin() + static_cast<std::ptrdiff_t>(from), path.steps.end()}};
      auto rp = rp_.refine(from == 0 ? path : suffix, stats);
      for (auto& [i, ps] : rp.increments) i += from;
      if (rp.kind == RefinementKind::Feasible) {
        out.kind = RefinementKind::Feasible;
        out.counterexample = std::move(rp.counterexample);
        return out;
      }
      if (rp.kind == RefinementKind::Unknown && !explicit_refutes) {
        out.reason = rp.reason;
        if (!re.reason.empty()) out.reason = re.reason + "; " + out.reason;
        return out;
      }
      if (rp.kind == RefinementKind::Spurious) preds = std::move(rp.increments);
    }
    if (!explicit_refutes) {
      // Theta's explicit refinement: the variables of the interpolants.
      for (const auto& [i, ps] : preds) {
        VariableSet vs;
        for (Term p : ps) {
          std::vector<VarId> xs;
          collect_vars(p, xs);
          for (VarId x : xs) vs.insert(x);
        }
        if (!vs.empty()) vars.emplace_back(i, std::move(vs));
      }
    }
    out.kind = RefinementKind::Spurious;
    bool any_explicit = false;
    for (const auto& [i, vs] : vars) {
      LeveledVariables lv;
      for (VarId v : vs)
        if (!control_->is_dropout(v)) lv.insert(v, static_cast<std::uint8_t>(control_->level(v)));
      if (lv.empty()) continue;
      any_explicit = true;
      increment_type inc;
      std::get<0>(inc.parts) = std::move(lv);
      out.increments.emplace_back(i, std::move(inc));
    }
    bool any_predicate = false;
    for (const auto& [i, ps] : preds) {
      PredicateSet kept;
      for (Term p : ps) {
        std::vector<VarId> xs;
        collect_vars(p, xs);
        bool keep = false;
        for (VarId x : xs)
          if (control_->ever_dropped().contains(x)) {
            keep = true;
            control_->note_predicate(x, p);
          }
        if (keep) kept.insert(p);
      }
      if (kept.empty()) continue;
      any_predicate = true;
      increment_type inc;
      std::get<1>(inc.parts) = std::move(kept);
      out.increments.emplace_back(i, std::move(inc));
    }
    if (any_explicit) stats.extra["prod explicit refinements"] += 1;
    if (any_predicate) stats.extra["prod predicate refinements"] += 1;
    if (!refused.empty()) stats.extra["prod refused explicit refutations"] += 1;
    last_predicates_ = std::move(preds);
    return out;
  }

  // CEGAR found no pivot (the filtered increments changed nothing on the path): all of
  // R_p's predicates, once.
  Refinement<increment_type> refine_further(const ErrorPath& path, Statistics& stats) {
    Refinement<increment_type> out;
    if (!last_predicates_) {
      auto rp = rp_.refine(path, stats);
      if (rp.kind != RefinementKind::Spurious) {
        if (rp.kind == RefinementKind::Feasible) {
          out.kind = RefinementKind::Feasible;
          out.counterexample = std::move(rp.counterexample);
        }
        return out;
      }
      last_predicates_ = std::move(rp.increments);
    }
    if (last_predicates_->empty()) return out;
    out.kind = RefinementKind::Spurious;
    for (auto& [i, ps] : *last_predicates_) {
      increment_type inc;
      std::get<1>(inc.parts) = std::move(ps);
      out.increments.emplace_back(i, std::move(inc));
    }
    last_predicates_->clear();
    stats.extra["prod unfiltered predicate refinements"] += 1;
    return out;
  }

  [[nodiscard]] const std::shared_ptr<StrategyControl>& control() const { return control_; }

 private:
  // The largest i such that the path from step i on, started in any state, is
  // infeasible (0 if none is known): suffixes of an infeasible suffix's extensions are
  // infeasible, so a binary search between the unsat core's first step and the end.
  std::size_t infeasible_suffix(const ErrorPath& path, Statistics& stats) {
    const auto ops = path.operations();
    Context& c = *ctx_;
    const auto check = [&](std::size_t i) {
      Stopwatch sw(stats.time_feasibility);
      stats.extra["prod suffix checks"] += 1;
      return check_path_feasibility(c.ssa, std::span<const Operation>(ops).subspan(i), c.solver);
    };
    const auto whole = check(0);
    if (!whole.infeasible()) return 0;
    std::size_t lo = whole.core.empty() ? 0 : whole.core.front();
    std::size_t hi = ops.size();  // the empty suffix is feasible
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (check(mid).infeasible())
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }

  struct Context {
    Context(const Cfa& cfa, Cvc5Options o)
        : em(cfa.expr_manager()), ssa(*em), solver(ssa.ssa(), std::move(o)) {}
    std::shared_ptr<ExprManager> em;  // keeps the base manager of `ssa` alive
    SsaVars ssa;
    Cvc5Solver solver;
  };

  const Cfa* cfa_;
  std::shared_ptr<StrategyControl> control_;
  Re re_;
  Rp rp_;
  std::shared_ptr<Context> ctx_;  // suffix checks (the refiner is moved into CEGAR)
  // R_p's answer for the last path (refine_further hands it out unfiltered).
  std::optional<std::vector<std::pair<std::size_t, PredicateSet>>> last_predicates_;
};

static_assert(Refiner<StrategyProductRefiner<>>);

template <class Strategy, class PredA>
struct default_refiner<StrategyProduct<Strategy, PredA>> {
  using type = StrategyProductRefiner<>;
};

}  // namespace precis
