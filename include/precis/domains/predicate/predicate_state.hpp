#pragma once
// Abstract states of predicate abstraction (product-abstraction paper, section 2.2.1;
// synergy paper, sections 2.2-2.3), one representation for both modes:
//
//   a Literal is a predicate or its negation;
//   a Cube is a conjunction of literals, sorted, at most one literal per predicate;
//   a PredicateState is a disjunction of cubes (a DNF over the predicates).
//
// Bottom is the empty disjunction, top the single empty cube. A Cartesian state is
// always one cube (each predicate, its negation, or neither). A Boolean state is the
// set of cubes that all-solutions enumeration found, so the DNF is exactly what the
// abstraction produces: no BDD package, no formula rebuilding, and a cheap syntactic
// covering check (every cube of a contains a cube of b) before any solver call. The
// literals refer to predicate Terms of the program's ExprManager, so states never
// build terms and stay valid however often they are copied.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/expr/printer.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct Literal {
  Term pred;
  bool positive = true;

  [[nodiscard]] Literal negated() const { return Literal{pred, !positive}; }
  friend bool operator==(const Literal&, const Literal&) = default;
  friend bool operator<(const Literal& a, const Literal& b) {
    if (a.pred != b.pred) return a.pred < b.pred;
    return a.positive < b.positive;
  }
};

// A std::vector, not a boost small_vector: sorting and moving small_vectors of cubes
// makes GCC 12 report false -Warray-bounds / -Wstringop-overread errors at -O2 in every
// program that includes this header (the conventional Release build failed on them).
using Cube = std::vector<Literal>;

// Sorted, duplicate-free; returns false if the cube contains p and not p.
inline bool normalize_cube(Cube& c) {
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end()), c.end());
  for (std::size_t i = 1; i < c.size(); ++i)
    if (c[i].pred == c[i - 1].pred) return false;
  return true;
}

// a contains every literal of b (so a implies b).
inline bool cube_includes(const Cube& a, const Cube& b) {
  return std::includes(a.begin(), a.end(), b.begin(), b.end());
}

class PredicateState {
 public:
  PredicateState() = default;  // bottom
  static PredicateState top() {
    PredicateState s;
    s.cubes_.emplace_back();
    return s;
  }
  static PredicateState bottom() { return {}; }
  static PredicateState of_cube(Cube c) {
    PredicateState s;
    if (normalize_cube(c)) s.cubes_.push_back(std::move(c));
    return s;
  }
  // A DNF; contradictory cubes are dropped, subsumed cubes removed, and cubes that
  // differ in the polarity of one literal merged (x.p \/ x.~p = x).
  static PredicateState of_cubes(std::vector<Cube> cs) {
    PredicateState s;
    for (Cube& c : cs)
      if (normalize_cube(c)) s.cubes_.push_back(std::move(c));
    s.simplify();
    return s;
  }

  [[nodiscard]] bool is_bottom() const noexcept { return cubes_.empty(); }
  [[nodiscard]] bool is_top() const noexcept { return cubes_.size() == 1 && cubes_[0].empty(); }
  [[nodiscard]] bool is_cube() const noexcept { return cubes_.size() == 1; }
  [[nodiscard]] const std::vector<Cube>& cubes() const noexcept { return cubes_; }
  // The single cube of a non-bottom Cartesian state.
  [[nodiscard]] const Cube& cube() const { return cubes_.front(); }

  [[nodiscard]] std::size_t hash() const noexcept {
    std::size_t h = cubes_.size();
    for (const Cube& c : cubes_) {
      h = h * 0x9E3779B97F4A7C15ULL + c.size();
      for (const Literal& l : c) h = (h ^ (l.pred.hash() + l.positive)) * 0x100000001B3ULL;
    }
    return h;
  }
  friend bool operator==(const PredicateState&, const PredicateState&) = default;

 private:
  // Absorption and resolution to a fixpoint, in O(n log n * L) per round (n cubes of
  // at most L literals; a round is linear but for the absorption's pairwise filter):
  // Boolean abstraction by clusters makes products of thousands of cubes, where the
  // quadratic rescans this replaced took most of the run.
  void simplify() {
    for (;;) {
      std::sort(cubes_.begin(), cubes_.end());
      cubes_.erase(std::unique(cubes_.begin(), cubes_.end()), cubes_.end());
      const bool resolved = resolve_round();
      const bool absorbed = absorb();
      if (!resolved && !absorbed) return;
    }
  }

  // Resolution on one literal: x.p \/ x.~p = x, for every such pair at once. The key
  // of (cube, position) is the cube without that literal but with its predicate; its
  // hash is additive over the literals, so all keys of a cube cost O(L) together.
  bool resolve_round() {
    auto mix = [](std::uint64_t x) {
      x ^= x >> 33;
      x *= 0xff51afd7ed558ccdULL;
      x ^= x >> 33;
      return x;
    };
    auto lit_hash = [&](const Literal& l) { return mix(l.pred.hash() * 2 + (l.positive ? 1 : 0)); };
    auto pred_hash = [&](const Literal& l) {
      return mix(l.pred.hash() * 0x9E3779B97F4A7C15ULL + 7);
    };
    struct Key {
      std::size_t cube;
      std::size_t skip;  // the position left out
      std::uint64_t hash;
    };
    struct KeyHash {
      std::size_t operator()(const Key& k) const noexcept { return k.hash; }
    };
    const std::vector<Cube>& cs = cubes_;
    auto key_eq = [&cs](const Key& a, const Key& b) {
      const Cube& x = cs[a.cube];
      const Cube& y = cs[b.cube];
      if (a.hash != b.hash || x.size() != y.size() || x[a.skip].pred != y[b.skip].pred)
        return false;
      for (std::size_t i = 0, j = 0;; ++i, ++j) {
        if (i == a.skip) ++i;
        if (j == b.skip) ++j;
        if (i >= x.size() || j >= y.size()) return i >= x.size() && j >= y.size();
        if (!(x[i] == y[j])) return false;
      }
    };
    std::unordered_map<Key, std::size_t, KeyHash, decltype(key_eq)> seen(cubes_.size() * 4 + 1,
                                                                         KeyHash{}, key_eq);
    std::vector<bool> used(cubes_.size(), false);
    std::vector<Cube> merged;
    for (std::size_t c = 0; c < cubes_.size(); ++c) {
      std::uint64_t total = cubes_[c].size();
      for (const Literal& l : cubes_[c]) total += lit_hash(l);
      for (std::size_t k = 0; k < cubes_[c].size(); ++k) {
        const Literal& l = cubes_[c][k];
        const Key key{c, k, total - lit_hash(l) + pred_hash(l)};
        auto [it, fresh] = seen.try_emplace(key, c);
        if (fresh) continue;
        const std::size_t o = it->second;
        if (used[o] || used[c] || cubes_[o][it->first.skip].positive == l.positive) continue;
        Cube m = cubes_[c];
        m.erase(m.begin() + static_cast<std::ptrdiff_t>(k));
        merged.push_back(std::move(m));
        used[c] = used[o] = true;
      }
    }
    if (merged.empty()) return false;
    std::size_t w = 0;
    for (std::size_t c = 0; c < cubes_.size(); ++c)
      if (!used[c]) {
        if (w != c) cubes_[w] = std::move(cubes_[c]);  // a self-move would empty it
        ++w;
      }
    cubes_.resize(w);
    for (Cube& m : merged) cubes_.push_back(std::move(m));
    return true;
  }

  // Absorption: drop a cube that includes another (it implies it). Smaller cubes first;
  // a 64-bit signature of the literals filters the inclusion tests.
  bool absorb() {
    std::vector<std::pair<std::size_t, std::uint64_t>> order;  // (index, signature)
    order.reserve(cubes_.size());
    for (std::size_t i = 0; i < cubes_.size(); ++i) {
      std::uint64_t sig = 0;
      for (const Literal& l : cubes_[i])
        sig |= std::uint64_t{1} << ((l.pred.hash() * 2 + l.positive) % 64);
      order.emplace_back(i, sig);
    }
    std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
      return cubes_[a.first].size() < cubes_[b.first].size();
    });
    std::vector<std::pair<std::size_t, std::uint64_t>> kept;
    std::vector<bool> drop(cubes_.size(), false);
    bool any = false;
    for (const auto& [i, sig] : order) {
      bool absorbed = false;
      for (const auto& [j, sj] : kept) {
        if (cubes_[j].size() >= cubes_[i].size()) break;  // same size: equal ones are gone
        if ((sj & ~sig) == 0 && cube_includes(cubes_[i], cubes_[j])) {
          absorbed = true;
          break;
        }
      }
      if (absorbed) {
        drop[i] = true;
        any = true;
      } else {
        kept.emplace_back(i, sig);
      }
    }
    if (!any) return false;
    std::size_t w = 0;
    for (std::size_t c = 0; c < cubes_.size(); ++c)
      if (!drop[c]) {
        if (w != c) cubes_[w] = std::move(cubes_[c]);
        ++w;
      }
    cubes_.resize(w);
    return true;
  }

  std::vector<Cube> cubes_;
};

inline std::string to_string(const PredicateState& s, const ExprManager& em) {
  if (s.is_bottom()) return "false";
  std::string out;
  for (std::size_t i = 0; i < s.cubes().size(); ++i) {
    if (i) out += " | ";
    const Cube& c = s.cubes()[i];
    if (c.empty()) out += "true";
    for (std::size_t k = 0; k < c.size(); ++k) {
      if (k) out += " & ";
      // Appended piece by piece: `"!" + std::string(...)` makes GCC 12 report a false
      // -Wrestrict inside std::string at -O2.
      if (!c[k].positive) out += '!';
      out += '(';
      out += to_string(c[k].pred, em);
      out += ')';
    }
  }
  return out;
}

// The state as a formula over the program variables (a certificate disjunct, certify/):
// its DNF over the predicates themselves (not the solver's SSA copies).
inline Term to_formula(const PredicateState& s, ExprManager& em) {
  std::vector<Term> ds;
  ds.reserve(s.cubes().size());
  for (const Cube& c : s.cubes()) {
    std::vector<Term> ls;
    ls.reserve(c.size());
    for (const Literal& l : c) ls.push_back(l.positive ? l.pred : em.not_(l.pred));
    ds.push_back(em.conj(ls));
  }
  return em.disj(ds);
}

}  // namespace precis
