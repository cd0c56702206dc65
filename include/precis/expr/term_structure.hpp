#pragma once
// The structure of terms that several analyses read: the variables of a term (cached by
// term, the walk polling a deadline) and the top-level conjuncts of a formula. Used by
// the Boolean abstraction's clusters (domains/predicate/independent_clusters.hpp) and
// the certificate check's sliced consecution queries (certify/invariant_check.hpp).

#include <algorithm>
#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/core/limits.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// The variables of terms, cached: conjuncts and predicates recur across abstractions.
class TermVarCache {
 public:
  // With a deadline, the walk over a new term polls it every 4,096 nodes (a guard of
  // hundreds of thousands of nodes is walked once per post): limit_reached past it.
  void set_deadline(Deadline d) { deadline_ = std::move(d); }

  const std::vector<VarId>& vars(Term t) {
    auto it = cache_.find(t);
    if (it != cache_.end()) return it->second;
    std::vector<VarId> v;
    std::size_t seen = 0;
    for_each_subterm(t, [&](Term x) {
      if ((++seen & 4095U) == 0) deadline_.check();
      if (x.is_var()) v.push_back(x.var());
      return true;
    });
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return cache_.emplace(t, std::move(v)).first->second;
  }
  [[nodiscard]] std::size_t size() const noexcept { return cache_.size(); }

 private:
  std::unordered_map<Term, std::vector<VarId>, TermHash> cache_;
  Deadline deadline_;
};

// Top-level conjuncts of t, appended to out (nested conjunctions flattened; the
// constant true dropped).
inline void flatten_conjunction(Term t, std::vector<Term>& out) {
  std::vector<Term> stack{t};
  while (!stack.empty()) {
    const Term x = stack.back();
    stack.pop_back();
    if (x.op() == Op::And) {
      for (std::size_t i = x.num_args(); i-- > 0;) stack.push_back(x.arg(i));
    } else if (!(x.is_const() && x.value() != 0)) {
      out.push_back(x);
    }
  }
}

}  // namespace precis
