#pragma once
// Per-variable value limits with escalation, shared by an explicit analysis and its
// refiner (product-abstraction paper, chapter 3; a product must never lose what its
// explicit component proves alone).
//
// A variable at level L may take base * escalation^L values before the explicit
// analysis stops tracking it (and, in a product, predicates take over). When the
// explicit refiner refutes an error path but for a variable the limit cut off on that
// path, that is a refusal: the predicates get `patience` chances to converge; after
// that the variable goes one level up, so a bounded counter (x counts to 1000) returns
// to explicit values after a logarithmic number of refinements, while a variable that
// explicit values cannot refute about stays with the predicates.
//
// Standard library only: the explicit analysis includes it without the product.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>

#include "precis/expr/term.hpp"

namespace precis {

struct ValueLimitOptions {
  std::uint64_t base = 64;       // values at level 0
  std::uint32_t escalation = 8;  // each level multiplies the limit
  std::uint32_t patience = 2;    // refusals tolerated per level
  std::uint8_t max_level = 8;    // no escalation beyond this level
};

class ValueLimits {
 public:
  ValueLimits() = default;
  explicit ValueLimits(ValueLimitOptions o) : opts_(o) {}

  [[nodiscard]] const ValueLimitOptions& options() const noexcept { return opts_; }
  // The number of values a variable at this level may take (saturating).
  [[nodiscard]] std::uint64_t limit_at(int level) const {
    std::uint64_t l = opts_.base;
    for (int i = 0; i < level; ++i) {
      if (opts_.escalation > 1 && l > std::numeric_limits<std::uint64_t>::max() / opts_.escalation)
        return std::numeric_limits<std::uint64_t>::max();
      l *= opts_.escalation;
    }
    return l;
  }
  [[nodiscard]] std::uint64_t limit(VarId v) const { return limit_at(level(v)); }
  [[nodiscard]] int level(VarId v) const {
    auto it = level_.find(v);
    return it == level_.end() ? 0 : it->second;
  }
  // A refusal for v (see the top of this file); true when v went one level up. The
  // patience counts from the last reset (a drop, in the strategy product): once the
  // predicates had their chances, every further refusal raises the level.
  bool refuse(VarId v) {
    if (level(v) >= opts_.max_level) return false;
    if (++refusals_[v] <= opts_.patience) return false;
    level_[v] = static_cast<std::uint8_t>(level(v) + 1);
    ++escalations_;
    return true;
  }
  void reset_refusals(VarId v) { refusals_.erase(v); }
  [[nodiscard]] std::size_t escalations() const noexcept { return escalations_; }
  [[nodiscard]] const std::map<VarId, std::uint8_t>& levels() const noexcept { return level_; }

 private:
  ValueLimitOptions opts_;
  std::map<VarId, std::uint8_t> level_;
  std::map<VarId, std::uint32_t> refusals_;
  std::size_t escalations_ = 0;
};

}  // namespace precis
