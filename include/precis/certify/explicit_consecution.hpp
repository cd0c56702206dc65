#pragma once
// Consecution by evaluation: the certificate checker's fast path for
// disjuncts that bind variables to values, as the explicit-value analysis writes them
// (x = 3 and b and not c). For such a source disjunct d and a CFA edge, the successors
// of d along the edge are evaluated exactly (expr/eval_big.hpp, the concrete
// interpreter's arithmetic) instead of asking the solver, and the successor valuation is
// looked up among the target's disjuncts by hashing.
//
// Soundness. The successor is over-approximated, never under-approximated:
//   - assume c: if c evaluates to false under d, d has no successor; if it evaluates to
//     true, the successors are d itself; if c reads a variable d does not bind, the
//     successors are a subset of d with the values c's conjuncts x = v (b, not b) fix,
//     and that is used (over-approximation);
//   - x := e: x gets e's value if e evaluates, else x becomes unbound;
//   - havoc x: x becomes unbound.
// A valuation P (the set of states that agree with it) is contained in a target
// disjunct D that binds B exactly when every binding of B is a binding of P: so if the
// lookup finds such a D, every successor lies in the target's invariant. A failed lookup
// proves nothing: the checker then asks the solver, as it does for every other disjunct.
// The fast path only reads the certificate's formulas and the CFA; it knows nothing of
// the analysis that produced them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/core/big_int.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// A conjunction of bindings x = v (Booleans as 0/1), sorted by variable, one per variable.
struct Bindings {
  std::vector<std::pair<VarId, std::int64_t>> bound;

  [[nodiscard]] const std::int64_t* find(VarId x) const {
    auto it = std::lower_bound(bound.begin(), bound.end(), x,
                               [](const auto& b, VarId v) { return b.first < v; });
    return it != bound.end() && it->first == x ? &it->second : nullptr;
  }
  void set(VarId x, std::int64_t v) {
    auto it = std::lower_bound(bound.begin(), bound.end(), x,
                               [](const auto& b, VarId y) { return b.first < y; });
    if (it != bound.end() && it->first == x)
      it->second = v;
    else
      bound.insert(it, {x, v});
  }
  void erase(VarId x) {
    auto it = std::lower_bound(bound.begin(), bound.end(), x,
                               [](const auto& b, VarId y) { return b.first < y; });
    if (it != bound.end() && it->first == x) bound.erase(it);
  }
};

namespace detail {
// One literal of a valuation: b, not b, x = c or c = x (c an integer or Boolean constant).
inline bool add_binding(Term t, Bindings& v) {
  if (t.op() == Op::Var && t.is_bool()) {
    v.bound.emplace_back(t.var(), 1);
    return true;
  }
  if (t.op() == Op::Not && t.arg(0).op() == Op::Var) {
    v.bound.emplace_back(t.arg(0).var(), 0);
    return true;
  }
  if (t.op() == Op::Eq && t.num_args() == 2) {
    Term a = t.arg(0), b = t.arg(1);
    if (!a.is_var()) std::swap(a, b);
    if (a.is_var() && (b.op() == Op::IntConst || b.op() == Op::BoolConst)) {
      v.bound.emplace_back(a.var(), b.value());
      return true;
    }
  }
  return false;
}
}  // namespace detail

// The valuation a disjunct is, if it is a conjunction of bindings (true binds nothing);
// nullopt for any other formula and for one that binds a variable to two values.
inline std::optional<Bindings> as_bindings(Term d) {
  Bindings v;
  if (d.op() == Op::And) {
    for (std::size_t i = 0; i < d.num_args(); ++i)
      if (!detail::add_binding(d.arg(i), v)) return std::nullopt;
  } else if (d.op() == Op::BoolConst) {
    if (d.value() == 0) return std::nullopt;  // false: not a valuation (and never a disjunct)
  } else if (!detail::add_binding(d, v)) {
    return std::nullopt;
  }
  std::sort(v.bound.begin(), v.bound.end());
  for (std::size_t i = 1; i < v.bound.size(); ++i)
    if (v.bound[i].first == v.bound[i - 1].first) return std::nullopt;
  return v;
}

// The successors of a valuation along one operation, over-approximated as above;
// nullopt when there is none (an assume that evaluates to false).
inline std::optional<Bindings> evaluate_step(const Bindings& pre, const Operation& op) {
  const auto val = [&pre](VarId x) -> OptBigInt {
    if (const std::int64_t* v = pre.find(x)) return BigInt(*v);
    return std::nullopt;
  };
  if (const auto* a = std::get_if<Assume>(&op)) {
    const OptBigInt c = evaluate_big(a->cond, val);
    if (c && *c == 0) return std::nullopt;
    if (c) return pre;
    // The condition reads unbound variables. Its conjuncts x = v, b and not b bind them:
    // every state that passes the assume has those values, so binding them keeps the
    // over-approximation and matches what an explicit analysis stores after the assume.
    Bindings post = pre;
    const auto bind = [&post](Term t) {
      Bindings one;
      if (!detail::add_binding(t, one) || one.bound.size() != 1) return;
      const auto [x, v] = one.bound.front();
      if (!post.find(x)) post.set(x, v);
    };
    if (a->cond.op() == Op::And)
      for (std::size_t i = 0; i < a->cond.num_args(); ++i) bind(a->cond.arg(i));
    else
      bind(a->cond);
    if (post.bound.size() == pre.bound.size()) return pre;
    const auto pval = [&post](VarId x) -> OptBigInt {
      if (const std::int64_t* v = post.find(x)) return BigInt(*v);
      return std::nullopt;
    };
    const OptBigInt again = evaluate_big(a->cond, pval);
    if (again && *again == 0) return std::nullopt;
    return post;
  }
  Bindings post = pre;
  if (const auto* s = std::get_if<Assign>(&op)) {
    const OptBigInt v = evaluate_big(s->value, val);
    // A value outside int64 binds nothing: no certificate constant can equal it, and an
    // unbound variable only weakens the successor.
    const std::optional<std::int64_t> small = v ? to_int64(*v) : std::nullopt;
    if (small)
      post.set(s->var, *small);
    else
      post.erase(s->var);
  } else if (const auto* h = std::get_if<Havoc>(&op)) {
    post.erase(h->var);
  }
  return post;
}

// The valuation disjuncts of one location, grouped by the variables they bind, each
// group a hash map from the values to the disjunct's index.
class BindingIndex {
 public:
  // With a deadline, polls it every 4,096 disjuncts (a location of a counter's ARG has
  // a million): limit_reached past it.
  explicit BindingIndex(std::span<const Term> disjuncts, const Deadline* deadline = nullptr) {
    valuations_.reserve(disjuncts.size());
    for (std::size_t j = 0; j < disjuncts.size(); ++j) {
      if (deadline && (j & 4095U) == 4095U) deadline->check();
      valuations_.push_back(as_bindings(disjuncts[j]));
      const auto& v = valuations_.back();
      if (!v) continue;
      std::vector<VarId> vars;
      std::vector<std::int64_t> values;
      vars.reserve(v->bound.size());
      values.reserve(v->bound.size());
      for (const auto& [x, c] : v->bound) {
        vars.push_back(x);
        values.push_back(c);
      }
      auto g = std::find_if(groups_.begin(), groups_.end(),
                            [&](const Group& gr) { return gr.vars == vars; });
      if (g == groups_.end()) {
        groups_.push_back({std::move(vars), {}});
        g = std::prev(groups_.end());
      }
      g->at.emplace(std::move(values), static_cast<std::uint32_t>(j));
    }
  }

  // The disjunct's bindings, if it is a conjunction of them.
  [[nodiscard]] const std::optional<Bindings>& bindings(std::size_t j) const {
    return valuations_.at(j);
  }

  // Is every state that agrees with `p` in one of the disjuncts? Looks at the hinted
  // disjuncts first (when given), then at every group whose variables p binds.
  [[nodiscard]] bool contains(const Bindings& p,
                              const std::vector<std::uint32_t>* hints = nullptr) const {
    if (hints)
      for (std::uint32_t j : *hints)
        if (j < valuations_.size() && valuations_[j] && binds_all(p, *valuations_[j])) return true;
    std::vector<std::int64_t> key;
    for (const Group& g : groups_) {
      key.clear();
      bool all = true;
      for (VarId x : g.vars) {
        const std::int64_t* v = p.find(x);
        if (!v) {
          all = false;
          break;
        }
        key.push_back(*v);
      }
      if (all && g.at.count(key) != 0) return true;
    }
    return false;
  }

 private:
  struct KeyHash {
    std::size_t operator()(const std::vector<std::int64_t>& k) const noexcept {
      std::size_t h = k.size();
      for (std::int64_t v : k)
        h ^= std::hash<std::int64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      return h;
    }
  };
  struct Group {
    std::vector<VarId> vars;
    std::unordered_map<std::vector<std::int64_t>, std::uint32_t, KeyHash> at;
  };

  // Every binding of d is one of p.
  static bool binds_all(const Bindings& p, const Bindings& d) {
    for (const auto& [x, c] : d.bound) {
      const std::int64_t* v = p.find(x);
      if (!v || *v != c) return false;
    }
    return true;
  }

  std::vector<std::optional<Bindings>> valuations_;
  std::vector<Group> groups_;
};

// The box hull of disjuncts that all bind values: for each variable every disjunct
// binds, lo <= x <= hi over its values (x = v when they agree; a Boolean only when they
// agree); variables some disjunct leaves unbound are unconstrained. It contains every
// disjunct. nullopt when some disjunct is not a conjunction of bindings.
inline std::optional<Term> box_hull(std::span<const Term> disjuncts, ExprManager& em) {
  if (disjuncts.empty()) return std::nullopt;
  std::optional<Bindings> lo, hi;
  for (Term d : disjuncts) {
    auto b = as_bindings(d);
    if (!b) return std::nullopt;
    if (!lo) {
      lo = *b;
      hi = std::move(*b);
      continue;
    }
    // Keep the variables bound in both, widening their range.
    Bindings nlo, nhi;
    for (std::size_t i = 0; i < lo->bound.size(); ++i) {
      const VarId x = lo->bound[i].first;
      if (const std::int64_t* v = b->find(x)) {
        nlo.bound.emplace_back(x, std::min(lo->bound[i].second, *v));
        nhi.bound.emplace_back(x, std::max(hi->bound[i].second, *v));
      }
    }
    lo = std::move(nlo);
    hi = std::move(nhi);
  }
  std::vector<Term> cs;
  for (std::size_t i = 0; i < lo->bound.size(); ++i) {
    const Term x = em.var(lo->bound[i].first);
    const std::int64_t a = lo->bound[i].second, b = hi->bound[i].second;
    if (x.is_bool()) {
      if (a == b) cs.push_back(a != 0 ? x : em.not_(x));
    } else if (a == b) {
      cs.push_back(em.eq(x, em.constant(x.type(), a)));
    } else if (x.type() == Type::Int) {  // (bit patterns of floats have no order to bound)
      cs.push_back(em.le(em.int_val(a), x));
      cs.push_back(em.le(x, em.int_val(b)));
    }
  }
  return em.conj(cs);
}

}  // namespace precis
