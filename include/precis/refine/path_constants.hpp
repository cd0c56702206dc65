#pragma once
// Constant propagation along a path formula, to make non-linear paths linear before
// interpolation. `assume b = 3; assume a mod b > 2` is non-linear, and no
// interpolation tier decides it (Farkas drops the row, cvc5's QE does not terminate on
// `exists a. a mod b > 2`); with b@0 = 3 put into the non-linear subterm the suffix
// becomes `a mod 3 > 2`, which is linear and refuted by every tier.
//
// Facts are SSA variables with one value on the whole path: x@i = e is a top-level
// conjunct of some step d (its definition) and e evaluates to a constant under facts
// defined at or before d. Only non-linear subterms (smt/linearity.hpp) get facts
// substituted, so linear paths are left exactly as they are. With t_k the substituted
// steps, an inductive sequence I_0..I_n of t is turned into one of the original steps
// s_k by weaving the facts back in:
//
//   I'_k = F_k /\ (B_k -> I_k)
//   F_k  = facts defined before cut k and used at or after it (def < k <= last use),
//   B_k  = facts used before cut k and defined at or after it (first use < k <= def).
//
// I'_0 = true and I'_n = I_n (no fact spans cut 0 or n). The prefix of cut k implies
// F_k (their definitions lie in it), and under F_k, B_k and the facts step k defines,
// s_k and t_k are equivalent, so I'_k /\ s_k => I'_{k+1}. A fact's variable is shared
// by the prefix and the suffix of every cut it spans, at the SSA index current there, so
// I'_k still speaks of cut k. A fact defined from other facts uses them at its
// definition, which extends their span.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/expr/eval.hpp"
#include "precis/expr/term.hpp"
#include "precis/smt/linearity.hpp"
#include "precis/smt/path_formula.hpp"

namespace precis {

class PathConstants {
 public:
  struct Fact {
    std::int64_t value = 0;
    std::size_t def = 0;  // the step whose conjunct defines it
    std::size_t first_use = std::numeric_limits<std::size_t>::max();
    std::size_t last_use = 0;
    std::vector<VarId> deps;  // the facts its defining term read
  };

  // Finds the facts of `pf` and substitutes them into its non-linear subterms; when
  // the path is linear, or no fact reaches a non-linear subterm, changed() is false.
  PathConstants(ExprManager& em, const PathFormula& pf) : em_(em) {
    LinearityCheck lin;
    bool nonlinear = false;
    for (Term s : pf.steps)
      if (!lin.linear(s)) {
        nonlinear = true;
        break;
      }
    steps_ = pf.steps;
    if (!nonlinear) return;
    find_facts(pf);
    if (facts_.empty()) return;
    for (std::size_t k = 0; k < steps_.size(); ++k) {
      step_ = k;
      steps_[k] = substitute(pf.steps[k]);
    }
    // A used fact uses its dependencies at its definition (the closure: a dependency
    // that becomes used is processed in turn; each fact once).
    std::vector<VarId> used;
    for (const auto& [v, f] : facts_)
      if (f.first_use != npos) used.push_back(v);
    for (std::size_t i = 0; i < used.size(); ++i) {
      const std::size_t def = facts_.at(used[i]).def;
      const std::vector<VarId> deps = facts_.at(used[i]).deps;
      for (VarId d : deps) {
        Fact& g = facts_.at(d);
        if (g.first_use == npos) used.push_back(d);
        note_use(g, def);
      }
    }
    for (std::size_t k = 0; k < steps_.size() && !changed_; ++k)
      changed_ = steps_[k] != pf.steps[k];
  }

  [[nodiscard]] bool changed() const noexcept { return changed_; }
  // t_k: step k with the facts in its non-linear subterms.
  [[nodiscard]] const std::vector<Term>& steps() const noexcept { return steps_; }

  // The same substitution for a term of step k built elsewhere (the right-hand side of
  // an assignment, for weakest preconditions). Records no use: t_k already did.
  Term substitute_at(std::size_t k, Term t) {
    if (!changed_) return t;
    const bool rec = recording_;
    recording_ = false;
    step_ = k;
    Term r = substitute(t);
    recording_ = rec;
    return r;
  }

  // I'_k from I_k (see the header comment).
  Term weave(std::size_t k, Term itp) const {
    if (!changed_) return itp;
    // By variable, so that the terms do not depend on the map's order.
    std::vector<VarId> vars;
    for (const auto& [v, f] : facts_)
      if (f.first_use != npos) vars.push_back(v);
    std::sort(vars.begin(), vars.end());
    std::vector<Term> fwd, bwd;
    for (VarId v : vars) {
      const Fact& f = facts_.at(v);
      if (f.def < k && k <= f.last_use) fwd.push_back(fact_term(v, f));
      if (f.first_use < k && k <= f.def) bwd.push_back(fact_term(v, f));
    }
    Term body = itp;
    if (!bwd.empty() && itp != em_.true_()) body = em_.imply(em_.conj(bwd), itp);
    if (fwd.empty()) return body;
    if (body != em_.true_()) fwd.push_back(body);
    return em_.conj(fwd);
  }

 private:
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

  Term fact_term(VarId v, const Fact& f) const {
    return em_.eq(em_.var(v), em_.constant(em_.variable(v).type, f.value));
  }

  static void note_use(Fact& f, std::size_t k) {
    f.first_use = std::min(f.first_use, k);
    f.last_use = std::max(f.last_use, k);
  }

  static void conjuncts(Term t, std::vector<Term>& out) {
    if (t.op() == Op::And) {
      for (std::size_t i = 0; i < t.num_args(); ++i) conjuncts(t.arg(i), out);
      return;
    }
    out.push_back(t);
  }

  // Facts to a fixpoint: x@i = e (either side) with e constant under facts defined no
  // later than this step. A round finds every fact whose dependencies are defined at
  // earlier steps, so chains in path order need one round; the rounds are bounded.
  void find_facts(const PathFormula& pf) {
    std::vector<std::pair<std::size_t, Term>> eqs;
    for (std::size_t k = 0; k < pf.steps.size(); ++k) {
      std::vector<Term> cs;
      conjuncts(pf.steps[k], cs);
      for (Term c : cs)
        if (c.op() == Op::Eq && c.arg(0).type() == Type::Int) eqs.emplace_back(k, c);
    }
    bool grew = true;
    for (int round = 0; grew && round < 16; ++round) {
      grew = false;
      for (const auto& [k, c] : eqs) {
        for (int side = 0; side < 2; ++side) {
          const Term x = c.arg(side);
          const Term e = c.arg(1 - side);
          if (!x.is_var() || facts_.count(x.var()) != 0) continue;
          std::vector<VarId> deps;
          bool known = true;
          collect_vars(e, deps);
          for (VarId d : deps) {
            auto it = facts_.find(d);
            if (it == facts_.end() || it->second.def > k) {
              known = false;
              break;
            }
          }
          if (!known) continue;
          auto val = [&](VarId y) -> OptValue {
            auto it = facts_.find(y);
            return it == facts_.end() ? OptValue{} : OptValue{it->second.value};
          };
          const OptValue v = evaluate(e, val);
          if (!v) continue;
          Fact f;
          f.value = *v;
          f.def = k;
          f.deps = std::move(deps);
          facts_.emplace(x.var(), std::move(f));
          grew = true;
          break;
        }
      }
    }
  }

  // Rebuilds t with facts put into its non-linear subterms (memoised per term: the
  // substitution does not depend on the step; only the recorded uses do).
  Term substitute(Term t) {
    if (auto it = memo_.find(t); it != memo_.end()) {
      if (recording_ && it->second != t) record_uses(t);
      return it->second;
    }
    Term r = t;
    if (lin_.nonlinear_node(t)) {
      r = put_facts(t);
    } else if (t.num_args() > 0) {
      std::vector<Term> a;
      a.reserve(t.num_args());
      bool diff = false;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        a.push_back(substitute(t.arg(i)));
        diff |= a.back() != t.arg(i);
      }
      if (diff) r = em_.rebuild(t, a);
    }
    memo_.emplace(t, r);
    return r;
  }

  // Every fact variable in t becomes its value; records the uses at the current step.
  Term put_facts(Term t) {
    Term r = SsaVars::rebuild(t, em_, [&](VarId v) {
      auto it = facts_.find(v);
      return it == facts_.end() ? em_.var(v) : em_.constant(em_.variable(v).type, it->second.value);
    });
    if (r != t) {
      substituted_.emplace(t, true);
      if (recording_) record_uses(t);
    }
    return r;
  }

  // The facts a substituted subterm of t used, noted at the current step. A memoised
  // term is revisited from another step, so its uses are found again from the term.
  void record_uses(Term t) {
    std::vector<Term> stack{t};
    std::unordered_map<Term, bool, TermHash> seen;
    while (!stack.empty()) {
      const Term x = stack.back();
      stack.pop_back();
      if (!seen.emplace(x, true).second) continue;
      if (substituted_.count(x) != 0) {
        std::vector<VarId> vs;
        collect_vars(x, vs);
        for (VarId v : vs)
          if (auto it = facts_.find(v); it != facts_.end()) note_use(it->second, step_);
        continue;
      }
      for (std::size_t i = 0; i < x.num_args(); ++i) stack.push_back(x.arg(i));
    }
  }

  ExprManager& em_;
  LinearityCheck lin_;
  std::unordered_map<VarId, Fact> facts_;
  std::unordered_map<Term, Term, TermHash> memo_;
  std::unordered_map<Term, bool, TermHash> substituted_;  // non-linear terms that changed
  std::vector<Term> steps_;
  std::size_t step_ = 0;
  bool recording_ = true;
  bool changed_ = false;
};

}  // namespace precis
