#pragma once
// Inductive sequences of interpolants for infeasible paths, in tiers:
//
//  1. Farkas: the path's linear constraints, normalised to a.x <= b (strict integer
//     inequalities tightened, equalities as two inequalities, disequalities split into
//     their two strict sides), and non-negative multipliers that sum them to 0 <= -1,
//     found by cvc5 as a QF_LRA problem. Every cut's interpolant is the partial sum of
//     the multiplied rows before it, so one LP gives the whole inductive sequence
//     (Farkas' lemma; McMillan's interpolation for linear arithmetic).
//  2. Core + weakest preconditions, when the path is not linear or has no rational
//     certificate (integer-only conflicts such as parity): a minimal unsat core of the
//     path's assumes, then I_k = wp(rest of the weakened path, false), with cvc5's
//     quantifier elimination for havoc and to project away variables the prefix does
//     not constrain (so each I_k speaks only of variables shared by prefix and suffix).
//  3. cvc5's own getInterpolant, opt-in: syntax-guided and slow (10-300 ms per cut,
//     measured by bench/smt_bench.cpp), so it is bounded by a path length and a time limit.
//
// Non-linear paths: Farkas drops non-linear constraints (a weaker path), and
// the solver declines QE on non-linear input, so no tier hangs; before the tiers see a
// non-linear path, constants are propagated into its non-linear subterms
// (refine/path_constants.hpp: b = 3 makes `a mod b` the linear `a mod 3`) and the facts
// used are woven back into the sequence. Every solver call, the Farkas LP included,
// runs under the solver's deadline (Cvc5Options::deadline) and throws limit_reached
// once it has passed.
//
// Interpolants are returned over the program's variables: I_k speaks of the values at
// cut k (the point before step k); I_0 = true, I_n = false, and I_k /\ step_k => I_{k+1}.

#include <cvc5/cvc5.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/teardown.hpp"
#include "precis/expr/printer.hpp"
#include "precis/refine/path_constants.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

enum class InterpolantTier : std::uint8_t { Farkas, CoreWp, Cvc5 };

inline const char* to_string(InterpolantTier t) {
  switch (t) {
    case InterpolantTier::Farkas: return "farkas";
    case InterpolantTier::CoreWp: return "core+wp";
    case InterpolantTier::Cvc5: return "cvc5";
  }
  return "?";
}

struct PathInterpolationOptions {
  bool farkas = true;
  bool core_wp = true;
  bool cvc5 = false;                       // experimental, needs an InterpolatingSolver
  std::size_t max_disequality_splits = 4;  // 2^k LPs at most
  std::size_t cvc5_max_steps = 64;
  bool simplify_wp = true;  // cvc5 simplification of each weakest precondition
  // cvc5's simplex needs ~0.3 s for 600 rows but ~10 s for 3000: past this limit the
  // LP gives up and the core + wp tier answers.
  std::uint32_t farkas_timeout_ms = 2000;
};

struct PathInterpolants {
  std::vector<Term> interpolants;  // n + 1 terms over the program's variables
  InterpolantTier tier = InterpolantTier::Farkas;
  bool constants_propagated = false;  // found on the path with constants propagated
};

namespace farkas_detail {

struct Overflow {};

inline std::int64_t add(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw Overflow{};
  return r;
}
inline std::int64_t mul(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw Overflow{};
  return r;
}
inline std::int64_t neg(std::int64_t a) {
  if (a == INT64_MIN) throw Overflow{};
  return -a;
}

// sum coef[v] * v + c
struct Lin {
  std::map<VarId, std::int64_t> coef;
  std::int64_t c = 0;
  void add_scaled(const Lin& o, std::int64_t k) {
    for (auto [v, a] : o.coef) {
      std::int64_t& x = coef[v];
      x = add(x, mul(a, k));
      if (x == 0) coef.erase(v);
    }
    c = add(c, mul(o.c, k));
  }
};

// Linear integer terms; nullopt for anything else (or on overflow).
inline std::optional<Lin> linearize(Term t) {
  try {
    Lin r;
    switch (t.op()) {
      case Op::Var: r.coef[t.var()] = 1; return r;
      case Op::IntConst: r.c = t.value(); return r;
      case Op::Add:
      case Op::Sub:
        for (std::size_t i = 0; i < t.num_args(); ++i) {
          auto a = linearize(t.arg(i));
          if (!a) return std::nullopt;
          r.add_scaled(*a, t.op() == Op::Sub && i > 0 ? -1 : 1);
        }
        return r;
      case Op::Neg: {
        auto a = linearize(t.arg(0));
        if (!a) return std::nullopt;
        r.add_scaled(*a, -1);
        return r;
      }
      case Op::Mul: {
        r.c = 1;
        for (std::size_t i = 0; i < t.num_args(); ++i) {
          auto a = linearize(t.arg(i));
          if (!a) return std::nullopt;
          if (a->coef.empty()) {
            Lin s;
            s.add_scaled(r, a->c);
            r = s;
          } else if (r.coef.empty()) {
            Lin s;
            s.add_scaled(*a, r.c);
            r = s;
          } else {
            return std::nullopt;  // nonlinear
          }
        }
        return r;
      }
      default: return std::nullopt;
    }
  } catch (const Overflow&) {
    return std::nullopt;
  }
}

// a.x <= b (or a.x = b when `eq`: one multiplier of any sign instead of two
// non-negative ones, which makes cvc5's LP several times faster), from step `step`.
struct Row {
  Lin lhs;  // lhs.c == 0
  std::int64_t b = 0;
  std::size_t step = 0;
  bool eq = false;
};
// lin /= 0 from step `step`: lin <= -1 or -lin <= -1.
struct Diseq {
  Lin lin;
  std::size_t step = 0;
};

// lin <= k as a row.
inline Row row_le(Lin lin, std::int64_t k, std::size_t step, bool eq = false) {
  Row r;
  r.eq = eq;
  r.b = add(k, neg(lin.c));
  lin.c = 0;
  r.lhs = std::move(lin);
  r.step = step;
  return r;
}
inline Lin negated(const Lin& l) {
  Lin r;
  r.add_scaled(l, -1);
  return r;
}

// Collects rows of a formula asserted with the given polarity. What is not linear is
// dropped: that weakens the path, and interpolants of a weaker path still fit.
inline void collect(Term f, bool pos, std::size_t step, std::vector<Row>& rows,
                    std::vector<Diseq>& diseqs) {
  switch (f.op()) {
    case Op::BoolConst:
      if ((f.value() != 0) != pos) rows.push_back(Row{Lin{}, -1, step});
      return;
    case Op::Not: collect(f.arg(0), !pos, step, rows, diseqs); return;
    case Op::And:
    case Op::Or:
      if ((f.op() == Op::And) == pos)
        for (std::size_t i = 0; i < f.num_args(); ++i) collect(f.arg(i), pos, step, rows, diseqs);
      return;
    case Op::Imply:
      if (!pos) {
        collect(f.arg(0), true, step, rows, diseqs);
        collect(f.arg(1), false, step, rows, diseqs);
      }
      return;
    case Op::Eq:
    case Op::Neq:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: break;
    default: return;
  }
  if (f.arg(0).type() != Type::Int) return;
  auto l = linearize(f.arg(0));
  auto r = l ? linearize(f.arg(1)) : std::nullopt;
  if (!l || !r) return;
  try {
    Lin d = *l;
    d.add_scaled(*r, -1);  // d = l - r
    Op op = f.op();
    if (!pos) op = negate_comparison(op);
    switch (op) {
      case Op::Le: rows.push_back(row_le(d, 0, step)); break;
      case Op::Lt: rows.push_back(row_le(d, -1, step)); break;  // integers: tightened
      case Op::Ge: rows.push_back(row_le(negated(d), 0, step)); break;
      case Op::Gt: rows.push_back(row_le(negated(d), -1, step)); break;
      case Op::Eq: rows.push_back(row_le(d, 0, step, true)); break;
      case Op::Neq: diseqs.push_back(Diseq{d, step}); break;
      default: break;
    }
  } catch (const Overflow&) {
  }
}

inline std::int64_t floor_div(std::int64_t a, std::int64_t g) {  // g > 0
  std::int64_t q = a / g;
  if (a % g < 0) --q;
  return q;
}

// sum c[v] v <= b as a readable term: positive side <= negative side + constant.
inline Term inequality_term(ExprManager& em, std::map<VarId, std::int64_t> c, std::int64_t b) {
  for (auto it = c.begin(); it != c.end();) it = it->second == 0 ? c.erase(it) : std::next(it);
  if (c.empty()) return em.bool_val(0 <= b);
  std::int64_t g = 0;
  for (auto [v, a] : c) g = std::gcd(g, a < 0 ? neg(a) : a);
  for (auto& [v, a] : c) a /= g;
  b = floor_div(b, g);  // integer tightening
  std::vector<Term> lhs, rhs;
  auto mono = [&](VarId v, std::int64_t a) {
    return a == 1 ? em.var(v) : em.mul(em.int_val(a), em.var(v));
  };
  for (auto [v, a] : c) (a > 0 ? lhs : rhs).push_back(mono(v, a > 0 ? a : neg(a)));
  auto sum = [&](const std::vector<Term>& xs) {
    return xs.size() == 1 ? xs[0] : em.mk(Op::Add, xs);
  };
  if (lhs.empty()) return em.ge(sum(rhs), em.int_val(neg(b)));
  if (rhs.empty()) return em.le(sum(lhs), em.int_val(b));
  Term r = sum(rhs);
  if (b > 0) r = em.add(r, em.int_val(b));
  if (b < 0) r = em.sub(r, em.int_val(neg(b)));
  return em.le(sum(lhs), r);
}

inline Term mk_and(ExprManager& em, Term a, Term b) {
  if (a == em.true_() || b == em.false_() || a == b) return b;
  if (b == em.true_() || a == em.false_()) return a;
  return em.and_(a, b);
}
inline Term mk_or(ExprManager& em, Term a, Term b) {
  if (a == em.false_() || b == em.true_() || a == b) return b;
  if (b == em.false_() || a == em.true_()) return a;
  return em.or_(a, b);
}

// Parses a rational model value.
inline std::optional<std::pair<std::int64_t, std::int64_t>> rational(const cvc5::Term& v) {
  if (!v.isReal64Value()) return std::nullopt;
  auto [num, den] = v.getReal64Value();
  if (den == 0 || den > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
  return std::pair{num, static_cast<std::int64_t>(den)};
}

// The LP of Farkas' lemma over the rows; the sequence over SSA variables, or nullopt
// when the rows have no rational refutation.
inline std::optional<std::vector<Term>> solve_lp(ExprManager& em, const std::vector<Row>& rows,
                                                 std::size_t n, std::uint32_t timeout_ms,
                                                 const Deadline& deadline) {
  if (rows.empty()) return std::nullopt;
  std::uint64_t entries = 0;
  for (const Row& r : rows) entries += r.lhs.coef.size() + 1;
  if (!fits_before_deadline(deadline, 2 * entries))
    throw limit_reached(LimitKind::Time, deadline.reason);
  const CallLimit limit = call_limit(deadline, timeout_ms);
  // Shared so that a check the deadline ends can park it (core/teardown.hpp): freeing an
  // LP of thousands of rows costs tenths of a second, past the run's limit.
  auto owner = std::make_shared<cvc5::Solver>();
  cvc5::Solver& s = *owner;
  s.setOption("produce-models", "true");
  if (limit.ms > 0) s.setOption("tlimit-per", std::to_string(limit.ms));
  s.setLogic("QF_LRA");
  using K = cvc5::Kind;
  const cvc5::Sort real = s.getRealSort();
  const cvc5::Term zero = s.mkReal(0);
  std::vector<cvc5::Term> lambda;
  std::map<VarId, std::vector<cvc5::Term>> by_var;
  std::vector<cvc5::Term> bsum;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if ((r & 1023U) == 1023U) deadline.check();
    cvc5::Term l = s.mkConst(real, "l" + std::to_string(r));
    lambda.push_back(l);
    if (!rows[r].eq) s.assertFormula(s.mkTerm(K::GEQ, {l, zero}));
    for (auto [v, a] : rows[r].lhs.coef) by_var[v].push_back(s.mkTerm(K::MULT, {s.mkReal(a), l}));
    if (rows[r].b != 0) bsum.push_back(s.mkTerm(K::MULT, {s.mkReal(rows[r].b), l}));
  }
  auto sum = [&](const std::vector<cvc5::Term>& xs) {
    if (xs.empty()) return zero;
    return xs.size() == 1 ? xs[0] : s.mkTerm(K::ADD, xs);
  };
  for (auto& [v, xs] : by_var) s.assertFormula(s.mkTerm(K::EQUAL, {sum(xs), zero}));
  s.assertFormula(s.mkTerm(K::LEQ, {sum(bsum), s.mkReal(-1)}));
  const cvc5::Result res = s.checkSat();
  if (res.isUnknown()) {
    try {
      throw_if_out_of_time(deadline, limit);
    } catch (const limit_reached&) {
      defer_teardown(owner);
      throw;
    }
  }
  if (!res.isSat()) return std::nullopt;
  try {
    // Integer multipliers: scale the rational ones by the lcm of their denominators.
    std::vector<std::pair<std::int64_t, std::int64_t>> q;
    std::int64_t lcm = 1;
    for (const auto& l : lambda) {
      auto v = rational(s.getValue(l));
      if (!v) return std::nullopt;
      q.push_back(*v);
      lcm = mul(lcm / std::gcd(lcm, v->second), v->second);
    }
    std::vector<Term> seq(n + 1, em.true_());
    std::map<VarId, std::int64_t> c;
    std::int64_t b = 0;
    std::size_t r = 0;
    for (std::size_t k = 0; k < n; ++k) {
      // rows of step k join the partial sum for cut k + 1
      for (; r < rows.size() && rows[r].step == k; ++r) {
        const std::int64_t mu = mul(q[r].first, lcm / q[r].second);
        if (mu == 0) continue;
        for (auto [v, a] : rows[r].lhs.coef) c[v] = add(c[v], mul(mu, a));
        b = add(b, mul(mu, rows[r].b));
      }
      seq[k + 1] = inequality_term(em, c, b);
    }
    if (seq[n] != em.false_()) return std::nullopt;  // cannot happen for a certificate
    return seq;
  } catch (const Overflow&) {
    return std::nullopt;
  }
}

inline std::optional<std::vector<Term>> farkas_rec(ExprManager& em, std::vector<Row> rows,
                                                   std::vector<Diseq> diseqs, std::size_t n,
                                                   std::size_t splits, std::uint32_t timeout_ms,
                                                   const Deadline& deadline) {
  auto by_step = [](const Row& a, const Row& b) { return a.step < b.step; };
  std::stable_sort(rows.begin(), rows.end(), by_step);
  if (auto seq = solve_lp(em, rows, n, timeout_ms, deadline)) return seq;
  if (diseqs.empty() || splits == 0) return std::nullopt;
  // Split the last disequality: lin <= -1 or lin >= 1. Sequences S1, S2 of the two
  // paths combine to (S1 and S2) up to its step and (S1 or S2) after it.
  Diseq d = diseqs.back();
  diseqs.pop_back();
  std::vector<Row> r1 = rows, r2 = rows;
  try {
    r1.push_back(row_le(d.lin, -1, d.step));
    r2.push_back(row_le(negated(d.lin), -1, d.step));
  } catch (const Overflow&) {
    return std::nullopt;
  }
  auto s1 = farkas_rec(em, std::move(r1), diseqs, n, splits - 1, timeout_ms, deadline);
  if (!s1) return std::nullopt;
  auto s2 = farkas_rec(em, std::move(r2), diseqs, n, splits - 1, timeout_ms, deadline);
  if (!s2) return std::nullopt;
  std::vector<Term> seq(n + 1);
  for (std::size_t k = 0; k <= n; ++k)
    seq[k] = k <= d.step ? mk_and(em, (*s1)[k], (*s2)[k]) : mk_or(em, (*s1)[k], (*s2)[k]);
  return seq;
}

// Maps an SSA sequence to program variables, checking that I_k speaks of cut k.
inline std::optional<std::vector<Term>> unshift_sequence(SsaVars& ssa, const PathFormula& pf,
                                                         const std::vector<Term>& seq) {
  std::vector<Term> out;
  out.reserve(seq.size());
  for (std::size_t k = 0; k < seq.size(); ++k) {
    std::vector<VarId> vs;
    collect_vars(seq[k], vs);
    for (VarId v : vs) {
      auto o = ssa.origin(v);
      if (o.var == SsaVars::no_var) return std::nullopt;  // an auxiliary variable
      if (pf.index_at(k, o.var) != o.index) return std::nullopt;
    }
    out.push_back(ssa.unshift(seq[k]));
  }
  return out;
}

}  // namespace farkas_detail

// Tier 1 over SSA variables (n + 1 terms), or nullopt.
inline std::optional<std::vector<Term>> farkas_sequence(SsaVars& ssa, const PathFormula& pf,
                                                        std::size_t max_splits = 4,
                                                        std::uint32_t timeout_ms = 2000,
                                                        const Deadline& deadline = {}) {
  std::vector<farkas_detail::Row> rows;
  std::vector<farkas_detail::Diseq> diseqs;
  for (std::size_t k = 0; k < pf.size(); ++k)
    farkas_detail::collect(pf.steps[k], true, k, rows, diseqs);
  return farkas_detail::farkas_rec(ssa.ssa(), std::move(rows), std::move(diseqs), pf.size(),
                                   max_splits, timeout_ms, deadline);
}

// Tier 2 over SSA variables, or nullopt (path not infeasible, solver unknown, QE failed
// or declined; `why` says which). With `constants`, pf's steps are constants.steps() and
// assignments' right-hand sides get the same substitution.
template <SmtSolver S>
std::optional<std::vector<Term>> core_wp_sequence(SsaVars& ssa, const PathFormula& pf,
                                                  std::span<const Operation> ops, S& solver,
                                                  bool simplify = true,
                                                  PathConstants* constants = nullptr,
                                                  std::string* why = nullptr) {
  ExprManager& em = ssa.ssa();
  const std::size_t n = pf.size();
  auto fail = [&](const char* reason) -> std::optional<std::vector<Term>> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (n == 0 || ops.size() != n) return fail("no path");
  std::vector<bool> kept(n, true);
  {
    SolverScope scope(solver);
    std::vector<Term> as;
    std::unordered_map<Term, std::size_t, TermHash> step_of;
    for (std::size_t k = 0; k < n; ++k) {
      if (std::holds_alternative<Assume>(ops[k])) {
        kept[k] = false;
        if (step_of.emplace(pf.steps[k], k).second) as.push_back(pf.steps[k]);
      } else if (pf.steps[k] != em.true_()) {
        solver.assert_(pf.steps[k]);
      }
    }
    if (solver.check_assuming(as) != SatResult::Unsat)
      return fail("the path's assumptions are not unsat for the solver");
    std::vector<Term> core = solver.unsat_core();
    // Deletion-based minimisation: a conflict needs every element that stays.
    for (std::size_t j = 0; j < core.size();) {
      std::vector<Term> trial = core;
      trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(j));
      SatResult r = solver.check_assuming(trial);
      if (r == SatResult::Unsat)
        core = solver.unsat_core();
      else
        ++j;
    }
    for (Term c : core) kept[step_of.at(c)] = true;
  }
  // Weakest preconditions of the weakened path, backwards from false.
  std::vector<Term> seq(n + 1, em.true_());
  seq[n] = em.false_();
  for (std::size_t k = n; k-- > 0;) {
    Term post = seq[k + 1];
    Term pre = post;
    const Operation& op = ops[k];
    if (std::holds_alternative<Assume>(op)) {
      if (kept[k]) pre = farkas_detail::mk_or(em, em.not_(pf.steps[k]), post);
    } else if (const auto* a = std::get_if<Assign>(&op)) {
      const VarId target = ssa.at(a->var, pf.index_at(k + 1, a->var));
      Term rhs = ssa.shift(a->value, [&](VarId x) { return pf.index_at(k, x); });
      if (constants) rhs = constants->substitute_at(k, rhs);
      pre = SsaVars::rebuild(post, em, [&](VarId v) { return v == target ? rhs : em.var(v); });
    } else if (const auto* h = std::get_if<Havoc>(&op)) {
      const VarId fresh = ssa.at(h->var, pf.index_at(k + 1, h->var));
      std::vector<VarId> vs;
      collect_vars(post, vs);
      if (std::binary_search(vs.begin(), vs.end(), fresh)) {
        std::vector<VarId> q{fresh};
        auto e = solver.eliminate_exists(q, em.not_(post));  // forall = not exists not
        if (!e) return fail("quantifier elimination (havoc) failed or was declined");
        pre = em.not_(*e);
      }
    }
    if (simplify && pre != post && !pre.is_const()) pre = solver.simplify(pre);
    seq[k] = pre;
  }
  // Project each I_k onto the variables the (weakened) prefix constrains: the prefix
  // implies forall X. I_k for the others, and the projected sequence stays inductive.
  std::set<VarId> prefix_vars;
  for (std::size_t k = 1; k < n; ++k) {
    if (kept[k - 1]) {
      std::vector<VarId> vs;
      collect_vars(pf.steps[k - 1], vs);
      prefix_vars.insert(vs.begin(), vs.end());
    }
    std::vector<VarId> vs, x;
    collect_vars(seq[k], vs);
    for (VarId v : vs)
      if (prefix_vars.count(v) == 0) x.push_back(v);
    if (x.empty()) continue;
    auto e = solver.eliminate_exists(x, em.not_(seq[k]));
    if (!e) return fail("quantifier elimination (projection) failed or was declined");
    seq[k] = simplify ? solver.simplify(em.not_(*e)) : em.not_(*e);
  }
  seq[0] = em.true_();  // valid: the weakened path is infeasible
  return seq;
}

// Tier 3 over SSA variables: I_{k+1} = itp(I_k /\ step_k, rest), which keeps the
// sequence inductive even though each call is a binary interpolant.
template <InterpolatingSolver S>
std::optional<std::vector<Term>> cvc5_sequence(SsaVars& ssa, const PathFormula& pf, S& solver) {
  ExprManager& em = ssa.ssa();
  const std::size_t n = pf.size();
  if (n == 0) return std::nullopt;
  std::vector<Term> seq(n + 1, em.true_());
  seq[n] = em.false_();
  for (std::size_t k = 0; k + 1 < n; ++k) {
    Term a = farkas_detail::mk_and(em, seq[k], pf.steps[k]);
    std::vector<Term> rest(pf.steps.begin() + static_cast<std::ptrdiff_t>(k + 1), pf.steps.end());
    auto i = solver.interpolate(a, em.conj(rest));
    if (!i) return std::nullopt;
    seq[k + 1] = *i;
  }
  return seq;
}

// The tiers in order; nullopt when none produced a sequence (feasible path, unknown);
// then `why` (if given) says what each tier found. `solver` must be over `ssa.ssa()`;
// its assertion stack is left unchanged. A non-linear path is tried as it is by Farkas
// (which drops what is not linear) and then with its constants propagated.
template <SmtSolver S>
std::optional<PathInterpolants> interpolate_path(SsaVars& ssa, std::span<const Operation> ops,
                                                 S& solver,
                                                 const PathInterpolationOptions& opt = {},
                                                 std::string* why = nullptr) {
  if (&solver.manager() != &ssa.ssa() || ops.empty()) return std::nullopt;
  const Deadline deadline = solver_deadline(solver);
  ssa.set_deadline(deadline);
  PathFormula pf = encode_path(ssa, ops);
  PathConstants constants(ssa.ssa(), pf);
  PathFormula lin;
  if (constants.changed()) {
    lin = pf;
    lin.steps = constants.steps();
  }
  std::string notes;
  auto note = [&](const std::string& tier, const std::string& what) {
    if (!notes.empty()) notes += "; ";
    notes += tier + ": " + what;
  };
  auto finish = [&](const std::optional<std::vector<Term>>& seq, InterpolantTier tier,
                    bool woven) -> std::optional<PathInterpolants> {
    if (!seq) return std::nullopt;
    std::vector<Term> s = *seq;
    if (woven)
      for (std::size_t k = 0; k < s.size(); ++k) s[k] = constants.weave(k, s[k]);
    auto out = farkas_detail::unshift_sequence(ssa, pf, s);
    if (!out) {
      note(to_string(tier), "its sequence does not speak of the cuts' variables");
      return std::nullopt;
    }
    return PathInterpolants{std::move(*out), tier, woven};
  };
  // A path through array operations (C arrays) is infeasible by them as a rule; Farkas
  // would drop them and prove the rest infeasible with an LP that cvc5 does not
  // interrupt at its time limit (measured: 3 s past a 2.5 s budget on array-examples'
  // copy tasks). core+wp treats array reads as atoms.
  const bool arrays = std::any_of(ops.begin(), ops.end(), [](const Operation& op) {
    bool found = false;
    const auto look = [&found](Term t) {
      for_each_subterm(t, [&found](Term x) { return !(found = x.type() == Type::Array); });
    };
    if (const auto* a = std::get_if<Assume>(&op)) look(a->cond);
    if (const auto* a = std::get_if<Assign>(&op)) look(a->value);
    return found;
  });
  if (opt.farkas && arrays) note("farkas", "not tried on a path with array operations");
  if (opt.farkas && !arrays) {
    if (auto r = finish(
            farkas_sequence(ssa, pf, opt.max_disequality_splits, opt.farkas_timeout_ms, deadline),
            InterpolantTier::Farkas, false))
      return r;
    if (constants.changed()) {
      if (auto r = finish(farkas_sequence(ssa, lin, opt.max_disequality_splits,
                                          opt.farkas_timeout_ms, deadline),
                          InterpolantTier::Farkas, true))
        return r;
    }
    note("farkas", "no rational certificate (non-linear constraints are dropped)");
  }
  if (opt.core_wp) {
    std::string w;
    if (constants.changed()) {
      if (auto r = finish(core_wp_sequence(ssa, lin, ops, solver, opt.simplify_wp, &constants, &w),
                          InterpolantTier::CoreWp, true))
        return r;
      note("core+wp with constants propagated", w);
    }
    if (auto r = finish(core_wp_sequence(ssa, pf, ops, solver, opt.simplify_wp, nullptr, &w),
                        InterpolantTier::CoreWp, false))
      return r;
    note("core+wp", w);
  }
  if constexpr (InterpolatingSolver<S>) {
    if (opt.cvc5) {
      if (ops.size() > opt.cvc5_max_steps) {
        note("cvc5", "path longer than " + std::to_string(opt.cvc5_max_steps) + " steps");
      } else {
        const bool woven = constants.changed();
        if (auto r =
                finish(cvc5_sequence(ssa, woven ? lin : pf, solver), InterpolantTier::Cvc5, woven))
          return r;
        note("cvc5", "no interpolant within its time limit");
      }
    }
  }
  if (why) *why = notes;
  return std::nullopt;
}

// Checks a sequence over program variables with the solver: I_0 valid, I_n unsat,
// I_k /\ step_k => I_{k+1} (SSA-shifted) and the variables of I_k shared by the prefix
// and the suffix of cut k. Returns an empty string if all hold, else what failed.
template <SmtSolver S>
std::string check_interpolant_sequence(SsaVars& ssa, std::span<const Operation> ops,
                                       std::span<const Term> seq, S& solver) {
  ExprManager& em = ssa.ssa();
  ssa.set_deadline(solver_deadline(solver));
  PathFormula pf = encode_path(ssa, ops);
  const std::size_t n = pf.size();
  if (seq.size() != n + 1) return "wrong length";
  std::vector<Term> at(n + 1);
  for (std::size_t k = 0; k <= n; ++k)
    at[k] = ssa.shift(seq[k], [&](VarId x) { return pf.index_at(k, x); });
  auto unsat = [&](std::vector<Term> fs) { return solver.check_assuming(fs) == SatResult::Unsat; };
  if (!unsat({em.not_(at[0])})) return "I_0 is not valid";
  if (!unsat({at[n]})) return "I_n is satisfiable";
  for (std::size_t k = 0; k < n; ++k)
    if (!unsat({at[k], pf.steps[k], em.not_(at[k + 1])}))
      return "not inductive at step " + std::to_string(k) + ": " + to_string(seq[k], ssa.base()) +
             " -> " + to_string(seq[k + 1], ssa.base());
  // shared variables: prefix = steps < k, suffix = steps >= k
  for (std::size_t k = 1; k < n; ++k) {
    std::vector<VarId> iv, pv, sv;
    collect_vars(at[k], iv);
    for (std::size_t j = 0; j < n; ++j) collect_vars(pf.steps[j], j < k ? pv : sv);
    for (VarId v : iv)
      if (!std::binary_search(pv.begin(), pv.end(), v) ||
          !std::binary_search(sv.begin(), sv.end(), v))
        return "I_" + std::to_string(k) + " mentions " + em.variable(v).name +
               ", not shared by prefix and suffix";
  }
  return {};
}

}  // namespace precis
