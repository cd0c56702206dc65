#pragma once
// LocalPrecision<P>: a precision per CFA location (explicit-value paper, section III-A:
// "The precision for a program is a function Pi : L -> 2^X").
//
// A refinement yields increments at single locations; the granularity decides where an
// increment is added:
//   Location  - at that location only (the paper's Alg. 4);
//   Function  - at every location of the same function;
//   Scope     - at every location in the scope of each fact (section III-F "scoped
//               precision"): a fact about a local goes to its function, a fact about a
//               global goes everywhere; and always at the location itself;
//   Global    - at every location.
// P must be a Precision and provide `split_by_scope(const ExprManager&)`, returning
// (scope, part) pairs where scope is a function index or global_scope.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"

namespace precis {

enum class Granularity : std::uint8_t { Location, Function, Scope, Global };

inline Granularity parse_granularity(const std::string& s) {
  if (s == "location") return Granularity::Location;
  if (s == "function") return Granularity::Function;
  if (s == "scope") return Granularity::Scope;
  if (s == "global") return Granularity::Global;
  throw std::invalid_argument("unknown precision granularity '" + s +
                              "' (location, function, scope, global)");
}
inline const char* to_string(Granularity g) {
  switch (g) {
    case Granularity::Location: return "location";
    case Granularity::Function: return "function";
    case Granularity::Scope: return "scope";
    case Granularity::Global: return "global";
  }
  return "?";
}

template <Precision P>
class LocalPrecision {
 public:
  LocalPrecision() = default;
  LocalPrecision(const Cfa& cfa, Granularity g, P initial = P{})
      : granularity_(g), per_loc_(cfa.num_locations(), std::move(initial)) {
    functions_.reserve(cfa.num_locations());
    for (Loc l = 0; l < cfa.num_locations(); ++l) functions_.push_back(cfa.function_of(l));
  }

  [[nodiscard]] const P& at(Loc l) const { return per_loc_[l]; }
  [[nodiscard]] Granularity granularity() const { return granularity_; }
  [[nodiscard]] std::size_t num_locations() const { return per_loc_.size(); }

  // Adds `inc` as the granularity prescribes; returns whether anything changed.
  bool add(Loc l, const P& inc, const ExprManager& em) {
    switch (granularity_) {
      case Granularity::Location: return add_at(l, inc);
      case Granularity::Function: return add_to_function(functions_[l], inc);
      case Granularity::Global: return add_everywhere(inc);
      case Granularity::Scope: {
        // Always at l itself: a fact may be needed outside its variables' function
        // (e.g. a caller's local read while binding an inlined callee's parameter).
        bool changed = add_at(l, inc);
        for (auto& [scope, part] : inc.split_by_scope(em)) {
          if (scope == global_scope)
            changed |= add_everywhere(part);
          else
            changed |= add_to_function(scope, part);
        }
        return changed;
      }
    }
    return false;
  }

  [[nodiscard]] bool leq(const LocalPrecision& o) const {
    for (std::size_t i = 0; i < per_loc_.size(); ++i)
      if (!per_loc_[i].leq(o.per_loc_[i])) return false;
    return true;
  }
  [[nodiscard]] LocalPrecision join(const LocalPrecision& o) const {
    LocalPrecision r = *this;
    for (std::size_t i = 0; i < per_loc_.size(); ++i)
      r.per_loc_[i] = per_loc_[i].join(o.per_loc_[i]);
    r.everywhere_ = everywhere_.join(o.everywhere_);
    if (r.in_function_.size() < o.in_function_.size()) r.in_function_.resize(o.in_function_.size());
    for (std::size_t f = 0; f < o.in_function_.size(); ++f)
      r.in_function_[f] = r.in_function_[f].join(o.in_function_[f]);
    return r;
  }

  // Sum of the sizes of the per-location precisions (for statistics).
  [[nodiscard]] std::size_t total_size() const {
    std::size_t s = 0;
    for (const auto& p : per_loc_) s += p.size();
    return s;
  }

 private:
  bool add_at(Loc l, const P& inc) {
    if (inc.leq(per_loc_[l])) return false;
    per_loc_[l] = per_loc_[l].join(inc);
    return true;
  }
  // An increment for every location (of a function) is added in one pass over the
  // locations, and only if it is not already below what every such location holds: a
  // refinement yields one increment per position of its path, mostly the same facts,
  // and adding each to every location was O(path x locations x precision) (a path
  // through 2,000 inlined calls spent seconds here, past the run's time limit).
  bool add_everywhere(const P& inc) {
    return add_once(everywhere_, inc, [](Loc) { return true; });
  }
  bool add_to_function(std::uint32_t f, const P& inc) {
    if (f >= in_function_.size()) in_function_.resize(std::size_t{f} + 1);
    return add_once(in_function_[f], inc, [&](Loc k) { return functions_[k] == f; });
  }
  // `held` is what every location in scope already holds.
  template <class InScope>
  bool add_once(P& held, const P& inc, InScope&& in_scope) {
    if (inc.leq(held)) return false;
    held = held.join(inc);
    bool changed = false;
    for (Loc k = 0; k < per_loc_.size(); ++k)
      if (in_scope(k)) changed |= add_at(k, inc);
    return changed;
  }

  Granularity granularity_ = Granularity::Location;
  std::vector<P> per_loc_;
  std::vector<std::uint32_t> functions_;
  // Invariant: below the precision of every location (of function f): what
  // add_everywhere and add_to_function have added.
  P everywhere_{};
  std::vector<P> in_function_;
};

}  // namespace precis
