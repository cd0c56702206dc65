#pragma once
// The explicit-value precision: the set of variables to track (paper section II-C.2,
// Pi_C = 2^X). `all()` tracks every variable without enumerating them (the CPA-EXPL
// baseline).

#include <boost/container/flat_set.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "precis/expr/term.hpp"

namespace precis {

class VariableSet {
 public:
  VariableSet() = default;
  VariableSet(std::initializer_list<VarId> vs) : vars_(vs) {}
  static VariableSet all() {
    VariableSet s;
    s.all_ = true;
    return s;
  }

  [[nodiscard]] bool contains(VarId v) const { return all_ || vars_.contains(v); }
  [[nodiscard]] bool is_all() const { return all_; }
  [[nodiscard]] bool empty() const { return !all_ && vars_.empty(); }
  [[nodiscard]] std::size_t size() const { return vars_.size(); }
  void insert(VarId v) {
    if (!all_) vars_.insert(v);
  }
  [[nodiscard]] auto begin() const { return vars_.begin(); }
  [[nodiscard]] auto end() const { return vars_.end(); }

  [[nodiscard]] bool leq(const VariableSet& o) const {
    if (o.all_) return true;
    if (all_) return false;
    for (VarId v : vars_)
      if (!o.vars_.contains(v)) return false;
    return true;
  }
  [[nodiscard]] VariableSet join(const VariableSet& o) const {
    if (all_ || o.all_) return all();
    VariableSet r = *this;
    r.vars_.insert(o.vars_.begin(), o.vars_.end());
    return r;
  }
  // For scoped precision: locals go to their function, globals everywhere.
  [[nodiscard]] std::vector<std::pair<std::uint32_t, VariableSet>> split_by_scope(
      const ExprManager& em) const {
    std::vector<std::pair<std::uint32_t, VariableSet>> out;
    if (all_) {
      out.emplace_back(global_scope, all());
      return out;
    }
    for (VarId v : vars_) {
      std::uint32_t s = em.variable(v).scope;
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == s; });
      if (it == out.end())
        out.emplace_back(s, VariableSet{v});
      else
        it->second.insert(v);
    }
    return out;
  }
  friend bool operator==(const VariableSet&, const VariableSet&) = default;

 private:
  boost::container::flat_set<VarId> vars_;
  bool all_ = false;
};

}  // namespace precis
