#pragma once
// The explicit-value strongest post (paper section II-C.3).
//
//   assume p:  bottom if p/v is unsatisfiable (evaluates to false); otherwise every
//              variable x for which p/v has exactly one satisfying value c is bound to
//              c (we find those through the conjuncts of p of the form `x = e`, `e = x`,
//              a Boolean `x` / `not x`, solving linear chains with `invert`);
//   w := e:    w gets e/v, or top when e/v is unknown (including int64 overflow);
//   havoc w:   w becomes top;
//   skip:      no change.

#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/explicit/explicit_domain.hpp"
#include "precis/expr/invert.hpp"

namespace precis {

namespace detail {

// Pushes the conjuncts of p (with negations pushed through not/or/neq) to `out`.
inline void conjuncts(Term p, bool positive, std::vector<std::pair<Term, bool>>& out) {
  if (p.op() == Op::Not) return conjuncts(p.arg(0), !positive, out);
  if ((positive && p.op() == Op::And) || (!positive && p.op() == Op::Or)) {
    for (std::size_t i = 0; i < p.num_args(); ++i) conjuncts(p.arg(i), positive, out);
    return;
  }
  out.emplace_back(p, positive);
}

// If exactly one variable of t is unknown under v, returns it.
inline std::optional<VarId> single_unknown(Term t, const ExplicitState& v) {
  std::vector<VarId> vars;
  collect_vars(t, vars);
  std::optional<VarId> found;
  for (VarId x : vars) {
    if (v.has(x)) continue;
    if (found) return std::nullopt;
    found = x;
  }
  return found;
}

// Tries to derive a binding from one literal; returns true if v changed.
inline bool bind_literal(Term lit, bool positive, ExplicitState& v) {
  if (lit.is_var() && lit.is_bool()) {
    if (v.has(lit.var())) return false;
    v.set(lit.var(), std::int64_t{positive ? 1 : 0});
    return true;
  }
  const bool is_eq = (positive && (lit.op() == Op::Eq || lit.op() == Op::Iff)) ||
                     (!positive && (lit.op() == Op::Neq || lit.op() == Op::Xor));
  if (!is_eq) {
    // A negated Boolean equality `not (p = q)` with p unknown and q known binds p too.
    const bool is_bool_neq = lit.num_args() == 2 && lit.arg(0).is_bool() &&
                             ((positive && (lit.op() == Op::Neq || lit.op() == Op::Xor)) ||
                              (!positive && (lit.op() == Op::Eq || lit.op() == Op::Iff)));
    if (!is_bool_neq) return false;
    for (int side = 0; side < 2; ++side) {
      Term a = lit.arg(side), b = lit.arg(1 - side);
      if (!a.is_var() || v.has(a.var())) continue;
      auto bv = evaluate(b, v);
      if (!bv) continue;
      v.set(a.var(), std::int64_t{*bv == 0 ? 1 : 0});
      return true;
    }
    return false;
  }
  for (int side = 0; side < 2; ++side) {
    Term a = lit.arg(side), b = lit.arg(1 - side);
    auto x = single_unknown(a, v);
    if (!x) continue;
    auto bv = evaluate(b, v);
    if (!bv) continue;
    auto val = invert(a, *x, *bv, v);
    if (!val) continue;
    if (a.is_bool() && *val != 0 && *val != 1) continue;
    v.set(*x, *val);
    return true;
  }
  return false;
}

}  // namespace detail

// SP_op(v); the result is bottom when op contradicts v. With count_changes, an
// assignment that gives a variable a new value counts in the state's history (the
// value limit of ExplicitAnalysis reads it; nobody else pays for it).
inline ExplicitState explicit_post(const ExplicitState& v, const Operation& op,
                                   bool count_changes = false) {
  if (v.is_bottom()) return v;
  ExplicitState r = v;
  std::visit(overloaded{
                 [](const Skip&) {},
                 [&](const Assign& a) {
                   auto nv = evaluate(a.value, v);
                   if (count_changes && nv && v.get(a.var) != nv) r.note_change(a.var);
                   r.set(a.var, nv);
                 },
                 [&](const Havoc& h) { r.forget(h.var); },
                 [&](const Assume& a) {
                   auto c = evaluate(a.cond, r);
                   if (c) {
                     if (*c == 0) r.make_bottom();
                     return;
                   }
                   std::vector<std::pair<Term, bool>> lits;
                   detail::conjuncts(a.cond, true, lits);
                   bool changed = true;
                   while (changed) {
                     changed = false;
                     for (auto [lit, pos] : lits) {
                       auto lv = evaluate(lit, r);
                       if (lv) {
                         if ((*lv != 0) != pos) {
                           r.make_bottom();
                           return;
                         }
                         continue;
                       }
                       changed |= detail::bind_literal(lit, pos, r);
                     }
                   }
                   if (auto c2 = evaluate(a.cond, r); c2 && *c2 == 0) r.make_bottom();
                 },
             },
             op);
  return r;
}

// SP of a sequence of operations; stops at bottom.
template <class Ops>
ExplicitState explicit_post_all(ExplicitState v, const Ops& ops) {
  for (const auto& op : ops) {
    if (v.is_bottom()) break;
    v = explicit_post(v, op);
  }
  return v;
}

}  // namespace precis
