#pragma once
// Binary Craig interpolation between two quantifier-free linear-integer formulas with
// Boolean structure: what VINTA's DAG interpolants (Albarghouthi, Gurfinkel,
// Chechik, "Craig Interpretation", SAS 2012, section 4.3) need of the tiers that exist.
// The formulas are block formulas (smt/block_formula.hpp) with Boolean control
// variables, and disjunctions of them; the path tiers (refine/farkas_interpolation.hpp)
// only take conjunctions.
//
// Lazy DNF interpolation, model-guided. The DNF of a (and of b) is never built: cubes
// are drawn one at a time from models, and each cube's interpolant excludes all the
// models that led to it and many more.
//
//   I := false
//   while a /\ not I is satisfiable (model m):
//     ca := an implicant cube of a true in m (literals of a's atoms; ca => a)
//     ca := the unsat core of b under the assumptions ca          (b /\ ca is unsat)
//     J  := true
//     while b /\ J is satisfiable (model m'):
//       cb := an implicant cube of b true in m'
//       J  := J /\ Farkas(ca, cb)       (the partial sum of ca's rows, over rationals)
//       -- if Farkas finds no certificate (integer-only or Boolean conflict, non-linear
//       -- atoms) or its interpolant leaves `shared`: J := exists (vars(ca) \ shared). ca
//       -- by quantifier elimination, checked against b, and the inner loop stops
//     I := I \/ J
//   return simplify(I)
//
// The checks are incremental: one solver scope per call holds ga => a and gb => b
// behind guard literals, each J is excluded by ga => !J, and the Farkas conjuncts of the
// current J sit behind a guard of their own, so the solver keeps what it learned about
// a and b (each check of b is a check of a whole suffix of the ARG in VINTA: tens of ms
// on the systemc tasks). If b alone is unsatisfiable, I = true at once. A projection is
// generalized by b: its conjuncts (equalities as two inequalities) are assumptions of
// one check against b, and only the unsat core is kept.
//
// Every J is implied by its cube (so by a) and inconsistent with b (the inner loop
// ends when b /\ J is unsat; a projection is checked), and the outer loop ends only
// when a => I: the result is an interpolant by construction, whatever the cubes. Each
// J is false in the model m' that produced the last B-cube and true in m, so both
// loops make progress; the cube limits bound them.
//
// Implicants come from the solver's model: the values of the variables (solver.value)
// and precis's evaluator for the atoms, solver.value on an atom where the evaluator
// does not know (overflow, division by zero); one memoised walk per cube, linear in the
// formula's DAG: And takes all children, Or one true child (preferring one already in
// the cube), Not flips the polarity, Imply / Iff / Xor / Ite follow their operands'
// truth values, and comparisons and Bool variables are the literals.

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "precis/expr/eval.hpp"
#include "precis/expr/term.hpp"
#include "precis/refine/farkas_interpolation.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

struct FormulaInterpolationOptions {
  std::size_t max_a_cubes = 64;  // give up (nullopt) beyond this many A-cubes
  // Per A-cube: beyond this many B-cubes the cube is interpolated by projection.
  std::size_t max_b_cubes = 64;
  std::size_t farkas_splits = 4;  // as farkas_sequence's max_splits
  std::uint32_t farkas_timeout_ms = 2000;
};

// Added to (not reset) by each call, so one object can sum up a run.
struct FormulaInterpolationStats {
  std::size_t a_cubes = 0;       // implicant cubes of a
  std::size_t b_cubes = 0;       // implicant cubes of b, over all A-cubes
  std::size_t farkas = 0;        // Farkas interpolants used (one per B-cube)
  std::size_t projections = 0;   // A-cubes interpolated by quantifier elimination
  std::size_t solver_calls = 0;  // calls of `solver` (checks, QE, simplify)
};

namespace formula_itp_detail {

struct GiveUp {
  std::string why;
};

// Truth values of a formula's nodes in the solver's current model, and implicants.
// Lives only as long as that model.
template <SmtSolver S>
class ModelCube {
 public:
  explicit ModelCube(S& solver) : solver_(solver), em_(solver.manager()) {}

  // Literals true in the model whose conjunction implies f, which must be true in it.
  std::vector<Term> implicant(Term f) {
    if (!truth(f)) throw GiveUp{"the formula is false in the solver's model"};
    walk(f, true);
    return std::move(lits_);
  }

 private:
  OptValue var_value(VarId v) {
    auto [it, fresh] = vals_.try_emplace(v);
    if (fresh) it->second = solver_.value(em_.var(v));
    return it->second;
  }

  static bool bool_pair(Term t) {
    return (t.op() == Op::Eq || t.op() == Op::Neq) && t.arg(0).is_bool();
  }

  bool truth(Term t) {
    if (auto it = truth_.find(t); it != truth_.end()) return it->second;
    bool r = false;
    switch (t.op()) {
      case Op::BoolConst: r = t.value() != 0; break;
      case Op::Not: r = !truth(t.arg(0)); break;
      case Op::And:
      case Op::Or: {
        const bool is_and = t.op() == Op::And;
        r = is_and;
        for (std::size_t i = 0; i < t.num_args(); ++i)
          if (truth(t.arg(i)) != is_and) {
            r = !is_and;
            break;
          }
        break;
      }
      case Op::Imply: r = !truth(t.arg(0)) || truth(t.arg(1)); break;
      case Op::Iff: r = truth(t.arg(0)) == truth(t.arg(1)); break;
      case Op::Xor: r = truth(t.arg(0)) != truth(t.arg(1)); break;
      case Op::Ite: r = truth(t.arg(0)) ? truth(t.arg(1)) : truth(t.arg(2)); break;
      default: {
        if (bool_pair(t)) {
          r = (truth(t.arg(0)) == truth(t.arg(1))) == (t.op() == Op::Eq);
          break;
        }
        // An atom: a Bool variable or a comparison of integer terms.
        OptValue v = evaluate(t, [this](VarId x) { return var_value(x); });
        if (!v) v = solver_.value(t);
        if (!v) throw GiveUp{"no model value for an atom"};
        r = *v != 0;
        break;
      }
    }
    truth_.emplace(t, r);
    return r;
  }

  void add(Term lit) {
    if (lit_set_.insert(lit).second) lits_.push_back(lit);
  }

  static bool is_comparison(Op op) {
    return op == Op::Eq || op == Op::Neq || op == Op::Lt || op == Op::Le || op == Op::Gt ||
           op == Op::Ge;
  }

  // Adds literals that make t have truth value `pol` (which it has in the model).
  void walk(Term t, bool pol) {
    assert(truth(t) == pol);
    auto& seen = pol ? seen_true_ : seen_false_;
    if (!seen.insert(t).second) return;
    switch (t.op()) {
      case Op::BoolConst: return;
      case Op::Not: walk(t.arg(0), !pol); return;
      case Op::And:
      case Op::Or: {
        if ((t.op() == Op::And) == pol) {
          for (std::size_t i = 0; i < t.num_args(); ++i) walk(t.arg(i), pol);
          return;
        }
        // One child with value `pol` decides; one already in the cube costs nothing.
        std::optional<Term> pick;
        for (std::size_t i = 0; i < t.num_args(); ++i) {
          const Term c = t.arg(i);
          if (truth(c) != pol) continue;
          if (seen.count(c) != 0) {
            pick = c;
            break;
          }
          if (!pick) pick = c;
        }
        assert(pick.has_value());
        walk(*pick, pol);
        return;
      }
      case Op::Imply:
        if (!pol) {
          walk(t.arg(0), true);
          walk(t.arg(1), false);
        } else if (!truth(t.arg(0))) {
          walk(t.arg(0), false);  // an untaken edge's constraint: only its control variable
        } else {
          walk(t.arg(1), true);
        }
        return;
      case Op::Iff:
      case Op::Xor:
        walk(t.arg(0), truth(t.arg(0)));
        walk(t.arg(1), truth(t.arg(1)));
        return;
      case Op::Ite: {
        const bool c = truth(t.arg(0));
        walk(t.arg(0), c);
        walk(t.arg(c ? 1 : 2), pol);
        return;
      }
      default: break;
    }
    if (bool_pair(t)) {
      walk(t.arg(0), truth(t.arg(0)));
      walk(t.arg(1), truth(t.arg(1)));
      return;
    }
    if (pol)
      add(t);
    else if (is_comparison(t.op()))
      add(em_.mk(negate_comparison(t.op()), {t.arg(0), t.arg(1)}));
    else
      add(em_.not_(t));
  }

  S& solver_;
  ExprManager& em_;
  std::unordered_map<VarId, OptValue> vals_;
  std::unordered_map<Term, bool, TermHash> truth_;
  std::unordered_set<Term, TermHash> seen_true_, seen_false_;
  std::unordered_set<Term, TermHash> lit_set_;
  std::vector<Term> lits_;
};

template <SmtSolver S>
class FormulaInterpolator {
 public:
  FormulaInterpolator(S& solver, Term a, Term b, std::span<const VarId> shared,
                      const FormulaInterpolationOptions& opts, FormulaInterpolationStats& st)
      : solver_(solver),
        em_(solver.manager()),
        a_(a),
        b_(b),
        shared_(shared.begin(), shared.end()),
        opts_(opts),
        st_(st),
        deadline_(solver_deadline(solver)) {
    std::sort(shared_.begin(), shared_.end());
    shared_.erase(std::unique(shared_.begin(), shared_.end()), shared_.end());
  }

  // One solver scope for the whole call, incremental inside it: a and b are asserted
  // once behind guard literals (ga => a, gb => b), so the solver keeps what it learned
  // about them between the checks; each J is excluded from the A side by ga => !J, and
  // the Farkas conjuncts of the current J sit behind a guard of their own.
  Term run() {
    SolverScope<S> scope(solver_);
    ga_ = guard("a");
    gb_ = guard("b");
    solver_.assert_(em_.imply(ga_, a_));
    solver_.assert_(em_.imply(gb_, b_));
    // b alone unsatisfiable (VINTA: the AI label already refutes the suffix): true.
    if (check({gb_}) == SatResult::Unsat) return em_.true_();
    std::vector<Term> disjuncts;
    for (;;) {
      const SatResult r = check({ga_});
      if (r == SatResult::Unsat) break;
      if (r == SatResult::Unknown)
        throw GiveUp{"a /\\ not I: unknown (" + std::string(solver_.reason_unknown()) + ")"};
      if (++st_.a_cubes > opts_.max_a_cubes)
        throw GiveUp{"more than " + std::to_string(opts_.max_a_cubes) + " cubes of a"};
      std::vector<Term> ca = ModelCube<S>(solver_).implicant(a_);
      ca.push_back(gb_);
      const SatResult rc = solver_.check_assuming(ca);
      if (rc == SatResult::Sat) throw GiveUp{"a /\\ b is satisfiable"};
      if (rc == SatResult::Unknown)
        throw GiveUp{"b /\\ cube of a: unknown (" + std::string(solver_.reason_unknown()) + ")"};
      std::vector<Term> core;
      for (Term t : solver_.unsat_core())
        if (t != gb_) core.push_back(t);
      const Term j = cube_interpolant(core);
      disjuncts.push_back(j);
      solver_.assert_(em_.imply(ga_, em_.not_(j)));
    }
    const Term itp = em_.disj(disjuncts);
    if (itp.is_const()) return itp;
    const Term s = solver_.simplify(itp);
    return within_shared(s) ? s : itp;
  }

 private:
  Term guard(const char* what) {
    return em_.var(
        em_.declare(std::string("__itp.") + what + std::to_string(guards_++), Type::Bool));
  }
  SatResult check(std::initializer_list<Term> assumptions) {
    return solver_.check_assuming(std::span<const Term>(assumptions.begin(), assumptions.size()));
  }

  bool within_shared(Term t) const {
    std::vector<VarId> vs;
    collect_vars(t, vs);
    return std::includes(shared_.begin(), shared_.end(), vs.begin(), vs.end());
  }

  // An interpolant of the cube `ca` (b /\ ca unsat) against b.
  Term cube_interpolant(const std::vector<Term>& ca) {
    std::vector<farkas_detail::Row> a_rows;
    std::vector<farkas_detail::Diseq> a_diseqs;
    for (Term lit : ca) farkas_detail::collect(lit, true, 0, a_rows, a_diseqs);
    Term j = em_.true_();
    const Term gj = guard("j");
    for (std::size_t n = 0;; ++n) {
      const SatResult r = check({gb_, gj});
      if (r == SatResult::Unsat) return j;
      if (r == SatResult::Unknown)
        throw GiveUp{"b /\\ J: unknown (" + std::string(solver_.reason_unknown()) + ")"};
      if (n >= opts_.max_b_cubes) break;
      ++st_.b_cubes;
      const std::vector<Term> cb = ModelCube<S>(solver_).implicant(b_);
      std::vector<farkas_detail::Row> rows = a_rows;
      std::vector<farkas_detail::Diseq> diseqs = a_diseqs;
      for (Term lit : cb) farkas_detail::collect(lit, true, 1, rows, diseqs);
      auto seq = farkas_detail::farkas_rec(em_, std::move(rows), std::move(diseqs), 2,
                                           opts_.farkas_splits, opts_.farkas_timeout_ms, deadline_);
      // A partial sum mentions only variables of both cubes; `shared` may be smaller.
      if (!seq || !within_shared((*seq)[1])) break;
      ++st_.farkas;
      j = farkas_detail::mk_and(em_, j, (*seq)[1]);
      solver_.assert_(em_.imply(gj, (*seq)[1]));
    }
    return project(ca);
  }

  // exists (vars(ca) \ shared). ca, checked against b.
  Term project(const std::vector<Term>& ca) {
    ++st_.projections;
    std::vector<std::vector<VarId>> lit_vars(ca.size());
    std::unordered_map<VarId, std::size_t> occurrences;
    for (std::size_t i = 0; i < ca.size(); ++i) {
      collect_vars(ca[i], lit_vars[i]);
      for (VarId v : lit_vars[i]) ++occurrences[v];
    }
    // exists p. (p /\ rest) = rest when p occurs nowhere else: no QE for control variables.
    auto is_shared = [&](VarId v) { return std::binary_search(shared_.begin(), shared_.end(), v); };
    std::vector<Term> rest;
    std::vector<VarId> x;
    for (std::size_t i = 0; i < ca.size(); ++i) {
      const Term lit = ca[i];
      const Term atom = lit.op() == Op::Not ? lit.arg(0) : lit;
      if (atom.is_var() && !is_shared(atom.var()) && occurrences[atom.var()] == 1) continue;
      rest.push_back(lit);
      for (VarId v : lit_vars[i])
        if (!is_shared(v)) x.push_back(v);
    }
    std::sort(x.begin(), x.end());
    x.erase(std::unique(x.begin(), x.end()), x.end());
    auto e = solver_.eliminate_exists(x, em_.conj(rest));
    if (!e) throw GiveUp{"quantifier elimination failed or was declined (non-linear cube?)"};
    const Term j = *e;
    if (!within_shared(j)) throw GiveUp{"quantifier elimination left a non-shared variable"};
    // Generalized by b: the projection's conjuncts (an equality as its two inequalities)
    // as assumptions, and only those in the unsat core kept.
    std::vector<Term> lits{gb_};
    split_conjuncts(j, lits);
    const SatResult r = solver_.check_assuming(lits);
    if (r == SatResult::Sat)
      throw GiveUp{"the shared variables do not separate a and b (a projection meets b)"};
    if (r == SatResult::Unknown)
      throw GiveUp{"b /\\ projection: unknown (" + std::string(solver_.reason_unknown()) + ")"};
    std::vector<Term> kept;
    for (Term t : solver_.unsat_core())
      if (t != gb_) kept.push_back(t);
    return em_.conj(kept);
  }

  void split_conjuncts(Term t, std::vector<Term>& out) {
    if (t.op() == Op::And) {
      for (std::size_t i = 0; i < t.num_args(); ++i) split_conjuncts(t.arg(i), out);
    } else if (t.op() == Op::Eq && t.arg(0).type() == Type::Int) {
      out.push_back(em_.le(t.arg(0), t.arg(1)));
      out.push_back(em_.ge(t.arg(0), t.arg(1)));
    } else {
      out.push_back(t);
    }
  }

  S& solver_;
  ExprManager& em_;
  Term a_, b_;
  std::vector<VarId> shared_;
  const FormulaInterpolationOptions& opts_;
  FormulaInterpolationStats& st_;
  Deadline deadline_;
  Term ga_, gb_;
  std::size_t guards_ = 0;
};

}  // namespace formula_itp_detail

// a /\ b must be unsatisfiable. Returns I with a => I, I /\ b unsatisfiable, and every
// variable of I in `shared` (VarIds of the solver's manager; any order). nullopt (with
// *why) when a /\ b is satisfiable, the solver answers unknown, quantifier elimination
// is declined (non-linear cube), a projection meets b (`shared` misses a variable the
// conflict needs), or more than opts.max_a_cubes cubes of a are needed. Formulas the
// solver has asserted act as background: the properties hold under them. The solver's
// assertion stack is left as it was; limit_reached (the solver's deadline) propagates.
template <SmtSolver S>
std::optional<Term> interpolate_formulas(S& solver, Term a, Term b, std::span<const VarId> shared,
                                         const FormulaInterpolationOptions& opts = {},
                                         FormulaInterpolationStats* stats = nullptr,
                                         std::string* why = nullptr) {
  FormulaInterpolationStats local;
  FormulaInterpolationStats& st = stats ? *stats : local;
  const std::uint64_t calls0 = solver.stats().calls();
  std::optional<Term> r;
  try {
    r = formula_itp_detail::FormulaInterpolator<S>(solver, a, b, shared, opts, st).run();
  } catch (const formula_itp_detail::GiveUp& g) {
    if (why) *why = g.why;
  }
  st.solver_calls += static_cast<std::size_t>(solver.stats().calls() - calls0);
  return r;
}

}  // namespace precis
