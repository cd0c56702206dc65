#pragma once
// Static variable classification (after CPAchecker's VariableClassification), for the
// refinement-selection heuristics of the sliced-prefixes paper (domain-type score:
// boolean < equality-only < arithmetic, and avoiding loop counters).
//
//   precis::VariableClassification vc = precis::classify_variables(cfa);
//   if (vc.is_loop_counter(x)) ...
//
// Kinds form a chain: Boolean (only ever 0/1, only tested against 0/1), Equality (only
// assigned constants or copies and only compared with == and /=), Arithmetic
// (anything else). Variables connected by a copy x := y or a comparison x = y share a
// kind. The C front end's range constraint after a havoc ("havoc x; assume lo <= x and
// x <= hi") counts as the range of a nondeterministic value, not as an arithmetic use.
// A loop counter is a variable incremented or decremented by a constant on a cycle of
// the CFA and tested in a condition on that cycle. The result is a heuristic: nothing
// depends on it for soundness.

#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/expr/term.hpp"

namespace precis {

enum class VariableKind : std::uint8_t { Boolean = 0, Equality = 1, Arithmetic = 2 };

inline const char* to_string(VariableKind k) {
  switch (k) {
    case VariableKind::Boolean: return "boolean";
    case VariableKind::Equality: return "equality";
    case VariableKind::Arithmetic: return "arithmetic";
  }
  return "?";
}

struct VariableClass {
  VariableKind kind = VariableKind::Boolean;
  bool loop_counter = false;
};

class VariableClassification {
 public:
  VariableClassification() = default;
  explicit VariableClassification(std::vector<VariableClass> classes)
      : classes_(std::move(classes)) {}

  [[nodiscard]] const VariableClass& operator[](VarId v) const { return classes_.at(v); }
  [[nodiscard]] VariableKind kind(VarId v) const { return classes_.at(v).kind; }
  [[nodiscard]] bool is_boolean(VarId v) const { return kind(v) == VariableKind::Boolean; }
  [[nodiscard]] bool is_equality(VarId v) const { return kind(v) == VariableKind::Equality; }
  [[nodiscard]] bool is_arithmetic(VarId v) const { return kind(v) == VariableKind::Arithmetic; }
  [[nodiscard]] bool is_loop_counter(VarId v) const { return classes_.at(v).loop_counter; }
  [[nodiscard]] std::size_t size() const noexcept { return classes_.size(); }

 private:
  std::vector<VariableClass> classes_;
};

namespace detail {

class VariableClassifier {
 public:
  explicit VariableClassifier(const Cfa& cfa)
      : cfa_(cfa),
        parent_(cfa.exprs().num_vars()),
        need_(cfa.exprs().num_vars(), VariableKind::Boolean) {
    std::iota(parent_.begin(), parent_.end(), VarId{0});
  }

  VariableClassification run() {
    for (auto e : cfa_.edges()) edge(e);
    const std::size_t n = parent_.size();
    std::vector<VariableKind> group(n, VariableKind::Boolean);
    for (VarId v = 0; v < n; ++v) group[find(v)] = std::max(group[find(v)], need_[v]);
    std::vector<VariableClass> out(n);
    for (VarId v = 0; v < n; ++v) {
      out[v].kind =
          cfa_.exprs().variable(v).type == Type::Bool ? VariableKind::Boolean : group[find(v)];
    }
    loop_counters(out);
    return VariableClassification(std::move(out));
  }

 private:
  VarId find(VarId v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }
  void unite(VarId a, VarId b) { parent_[find(a)] = find(b); }
  void raise(VarId v, VariableKind k) { need_[v] = std::max(need_[v], k); }
  static bool is_01(Term c) { return c.is_const() && (c.value() == 0 || c.value() == 1); }

  void all_arith(Term t) {
    std::vector<VarId> vs;
    collect_vars(t, vs);
    for (VarId v : vs) raise(v, VariableKind::Arithmetic);
  }

  // A value assigned to x: a constant, a copy, or (C's 0/1 results) ite(c, k1, k2).
  void value(VarId x, Term t) {
    if (t.is_const()) {
      if (!is_01(t)) raise(x, VariableKind::Equality);
    } else if (t.is_var()) {
      unite(x, t.var());
    } else if (t.op() == Op::Ite && t.arg(1).is_const() && t.arg(2).is_const()) {
      cond(t.arg(0));
      if (!is_01(t.arg(1)) || !is_01(t.arg(2))) raise(x, VariableKind::Equality);
    } else {
      raise(x, VariableKind::Arithmetic);
      all_arith(t);
    }
  }

  // A use in a condition.
  void cond(Term t) {
    switch (t.op()) {
      case Op::Var:
      case Op::BoolConst: return;
      case Op::Not:
      case Op::And:
      case Op::Or:
      case Op::Imply:
      case Op::Iff:
      case Op::Xor:
        for (std::size_t i = 0; i < t.num_args(); ++i) cond(t.arg(i));
        return;
      case Op::Eq:
      case Op::Neq: {
        Term a = t.arg(0), b = t.arg(1);
        if (a.is_bool()) {
          cond(a), cond(b);
        } else if (a.is_var() && b.is_var()) {
          unite(a.var(), b.var());
        } else if (a.is_var() && b.is_const()) {
          if (!is_01(b)) raise(a.var(), VariableKind::Equality);
        } else if (b.is_var() && a.is_const()) {
          if (!is_01(a)) raise(b.var(), VariableKind::Equality);
        } else {
          all_arith(t);
        }
        return;
      }
      default: all_arith(t); return;
    }
  }

  // "lo <= x and x <= hi" on the edge after "havoc x": the range of the new value.
  bool range_after_havoc(CfaEdge e, Term c) {
    if (c.op() != Op::And || c.num_args() != 2) return false;
    Term lo = c.arg(0), hi = c.arg(1);
    if (lo.op() != Op::Le || hi.op() != Op::Le || !lo.arg(0).is_const() || !lo.arg(1).is_var() ||
        hi.arg(0) != lo.arg(1) || !hi.arg(1).is_const())
      return false;
    const VarId x = lo.arg(1).var();
    bool after_havoc = false;
    for (auto in : cfa_.in_edges(cfa_.source(e))) {
      const auto* h = std::get_if<Havoc>(&cfa_.operation(in));
      if (h == nullptr || h->var != x) return false;
      after_havoc = true;
    }
    if (!after_havoc) return false;
    if (lo.arg(0).value() < 0 || hi.arg(1).value() > 1) raise(x, VariableKind::Equality);
    return true;
  }

  void edge(CfaEdge e) {
    const Operation& op = cfa_.operation(e);
    if (const auto* a = std::get_if<Assign>(&op)) {
      value(a->var, a->value);
    } else if (const auto* s = std::get_if<Assume>(&op)) {
      if (!range_after_havoc(e, s->cond)) cond(s->cond);
    }
  }

  // x := x ± c (possibly wrapped: (x ± c) mod m) on a cycle, with x tested on that cycle.
  static std::optional<VarId> counter_step(const Assign& a) {
    Term t = a.value;
    if (t.op() == Op::Mod && t.arg(1).is_const()) t = t.arg(0);
    if ((t.op() != Op::Add && t.op() != Op::Sub) || t.num_args() != 2) return std::nullopt;
    Term x = t.arg(0), c = t.arg(1);
    if (t.op() == Op::Add && x.is_const()) std::swap(x, c);
    if (!x.is_var() || x.var() != a.var || !c.is_const()) return std::nullopt;
    return a.var;
  }

  void loop_counters(std::vector<VariableClass>& out) {
    const auto& g = cfa_.graph();
    std::vector<std::size_t> comp(boost::num_vertices(g));
    boost::strong_components(
        g, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, g)));
    std::vector<std::size_t> comp_size(
        comp.empty() ? 0 : *std::max_element(comp.begin(), comp.end()) + 1, 0);
    for (std::size_t c : comp) ++comp_size[c];
    auto on_cycle = [&](CfaEdge e) {
      Loc s = cfa_.source(e), t = cfa_.target(e);
      return comp[s] == comp[t] && (comp_size[comp[s]] > 1 || s == t);
    };
    // Per component: the stepped variables and the tested variables.
    std::vector<std::vector<VarId>> stepped(comp_size.size()), tested(comp_size.size());
    for (auto e : cfa_.edges()) {
      const Operation& op = cfa_.operation(e);
      const std::size_t c = comp[cfa_.source(e)];
      if (const auto* a = std::get_if<Assign>(&op); a && on_cycle(e)) {
        if (auto x = counter_step(*a)) stepped[c].push_back(*x);
      } else if (const auto* s = std::get_if<Assume>(&op)) {
        // A condition at a location of the cycle: inside it or leaving it.
        if (comp_size[c] > 1 || on_cycle(e)) collect_vars(s->cond, tested[c]);
      }
    }
    for (std::size_t c = 0; c < stepped.size(); ++c) {
      std::sort(tested[c].begin(), tested[c].end());
      for (VarId x : stepped[c])
        if (std::binary_search(tested[c].begin(), tested[c].end(), x)) out[x].loop_counter = true;
    }
  }

  const Cfa& cfa_;
  std::vector<VarId> parent_;
  std::vector<VariableKind> need_;
};

}  // namespace detail

inline VariableClassification classify_variables(const Cfa& cfa) {
  return detail::VariableClassifier(cfa).run();
}

}  // namespace precis
