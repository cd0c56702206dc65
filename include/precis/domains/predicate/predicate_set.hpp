#pragma once
// The predicate precision: a flat set of Boolean terms of the program's ExprManager
// (product-abstraction paper, section 2.2.1: Pi_p = 2^{FOL^B}). Per-location maps of it
// are LocalPrecision<PredicateSet>. Ordered by term creation id, so iteration is
// deterministic and the abstract post enumerates predicates in a stable order.

#include <boost/container/flat_set.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "precis/expr/term.hpp"

namespace precis {

class PredicateSet {
 public:
  PredicateSet() = default;
  PredicateSet(std::initializer_list<Term> ps) {
    for (Term p : ps) insert(p);
  }

  // Adds a Bool term (constants are not predicates: they carry no information).
  bool insert(Term p) {
    if (!p.valid() || !p.is_bool()) throw std::invalid_argument("a predicate must be a Bool term");
    if (p.op() == Op::BoolConst) return false;
    return preds_.insert(p).second;
  }
  [[nodiscard]] bool contains(Term p) const { return preds_.contains(p); }
  [[nodiscard]] std::size_t size() const { return preds_.size(); }
  [[nodiscard]] bool empty() const { return preds_.empty(); }
  [[nodiscard]] auto begin() const { return preds_.begin(); }
  [[nodiscard]] auto end() const { return preds_.end(); }
  [[nodiscard]] Term operator[](std::size_t i) const {
    return *(preds_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  // The position of p (as operator[] counts), or nullopt.
  [[nodiscard]] std::optional<std::size_t> index_of(Term p) const {
    auto it = preds_.find(p);
    if (it == preds_.end()) return std::nullopt;
    return static_cast<std::size_t>(it - preds_.begin());
  }

  [[nodiscard]] bool leq(const PredicateSet& o) const {
    return std::includes(o.preds_.begin(), o.preds_.end(), preds_.begin(), preds_.end());
  }
  [[nodiscard]] PredicateSet join(const PredicateSet& o) const {
    PredicateSet r = *this;
    r.preds_.insert(o.preds_.begin(), o.preds_.end());
    return r;
  }

  // Scoped precision (explicit-value paper, section III-F): a predicate over a local
  // variable belongs to that variable's function, one over globals only is global.
  [[nodiscard]] std::vector<std::pair<std::uint32_t, PredicateSet>> split_by_scope(
      const ExprManager& em) const {
    std::vector<std::pair<std::uint32_t, PredicateSet>> out;
    for (Term p : preds_) {
      std::vector<VarId> vs;
      collect_vars(p, vs);
      std::uint32_t s = global_scope;
      for (VarId v : vs)
        if (em.variable(v).scope != global_scope) {
          s = em.variable(v).scope;
          break;
        }
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == s; });
      if (it == out.end())
        out.emplace_back(s, PredicateSet{p});
      else
        it->second.insert(p);
    }
    return out;
  }

  [[nodiscard]] std::size_t hash() const noexcept {
    std::size_t h = preds_.size();
    for (Term p : preds_) h = h * 0x100000001B3ULL ^ p.hash();
    return h;
  }
  friend bool operator==(const PredicateSet&, const PredicateSet&) = default;

 private:
  boost::container::flat_set<Term> preds_;
};

}  // namespace precis
