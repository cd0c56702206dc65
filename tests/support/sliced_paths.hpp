#pragma once
// Generated error paths with k independent contradictions, for the sliced-prefix tests
// (sliced-prefixes paper, Alg. 3): a straight-line CFA P0 -> P1 -> ... -> ERR whose one
// path is the error path.
//
// Contradiction j is about its own variable x_j only: x_j gets a value (explicit kind:
// x_j := c) or a range (SMT kind: havoc x_j; assume x_j >= c), later assumes agree with
// it (noise) and exactly one assume contradicts it. Havocked helper variables with
// satisfiable constraints and skips are mixed in. Since the contradictions share no
// variable, Alg. 3 must return exactly one prefix per contradiction, each ending at it.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/builder.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/path/error_path.hpp"

namespace precis::testing {

enum class ContradictionKind : std::uint8_t {
  Explicit,  // x := c ... assume x /= c: the explicit strongest post refutes it
  Range      // havoc x; assume x >= c ... assume x < c: only SMT refutes it
};

struct GeneratedPath {
  Cfa cfa;
  std::vector<Operation> ops;
  std::vector<std::size_t> contradictions;  // positions, ascending

  // The error path, read off the CFA where it now lives (steps point into it; edge
  // descriptors of the builder's graph do not survive moving the CFA).
  [[nodiscard]] ErrorPath path() const {
    ErrorPath p;
    p.start = cfa.initial_location();
    Loc l = p.start;
    while (p.steps.size() < ops.size()) {
      const CfaEdge e = *cfa.out_edges(l).begin();
      p.steps.push_back(cfa.ref(e));
      l = cfa.target(e);
    }
    return p;
  }
};

inline GeneratedPath generate_path(std::size_t k, std::uint32_t seed,
                                   ContradictionKind kind = ContradictionKind::Explicit,
                                   bool mixed = false) {
  std::mt19937 rng(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  CfaBuilder b;
  ExprManager& em = b.exprs();
  std::vector<VarId> xs, hs;
  for (std::size_t j = 0; j < k; ++j) {
    xs.push_back(b.int_var("x" + std::to_string(j)));
    hs.push_back(b.int_var("h" + std::to_string(j)));
  }
  std::vector<Operation> ops;
  std::vector<std::size_t> contra;
  std::vector<std::int64_t> value(k);
  std::vector<ContradictionKind> kinds(k, kind);
  if (mixed)
    for (auto& kd : kinds) kd = pick(0, 1) ? ContradictionKind::Explicit : ContradictionKind::Range;
  auto noise = [&] {
    const std::size_t j = static_cast<std::size_t>(pick(0, static_cast<int>(k) - 1));
    switch (pick(0, 3)) {
      case 0: ops.emplace_back(Skip{}); break;
      case 1: ops.emplace_back(Havoc{hs[j]}); break;
      case 2: ops.emplace_back(Assume{em.gt(em.var(hs[j]), em.int_val(pick(-5, 5)))}); break;
      default: ops.emplace_back(Havoc{hs[j]}); break;
    }
  };
  // Definitions first (in random order, with noise), then agreeing assumes and the
  // contradictions in random order.
  std::vector<std::size_t> order(k);
  for (std::size_t j = 0; j < k; ++j) order[j] = j;
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t j : order) {
    value[j] = pick(-20, 20);
    const Term x = em.var(xs[j]), c = em.int_val(value[j]);
    if (kinds[j] == ContradictionKind::Explicit) {
      ops.emplace_back(Assign{xs[j], c});
    } else {
      ops.emplace_back(Havoc{xs[j]});
      ops.emplace_back(Assume{em.ge(x, c)});
    }
    if (pick(0, 1)) noise();
  }
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t j : order) {
    const Term x = em.var(xs[j]), c = em.int_val(value[j]);
    if (pick(0, 1)) {  // an assume that agrees
      ops.emplace_back(Assume{kinds[j] == ContradictionKind::Explicit
                                  ? em.eq(x, c)
                                  : em.gt(em.add(x, em.int_val(1)), c)});
    }
    noise();
    Term bad;
    if (kinds[j] == ContradictionKind::Explicit) {
      switch (pick(0, 3)) {
        case 0: bad = em.neq(x, c); break;
        case 1: bad = em.gt(x, c); break;
        case 2: bad = em.lt(x, c); break;
        default: bad = em.eq(x, em.int_val(value[j] + pick(1, 3))); break;
      }
    } else {
      bad = pick(0, 1) ? em.lt(x, c) : em.le(em.add(x, em.int_val(pick(1, 3))), c);
    }
    contra.push_back(ops.size());
    ops.emplace_back(Assume{bad});
    if (pick(0, 2) == 0) noise();
  }
  // The CFA: one location per cut, the last one the error location.
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const std::string from = "P" + std::to_string(i);
    const std::string to = i + 1 == ops.size() ? std::string("ERR") : "P" + std::to_string(i + 1);
    b.edge(from, to, ops[i]);
  }
  b.initial("P0");
  b.error("ERR");
  return GeneratedPath{std::move(b).build(), std::move(ops), std::move(contra)};
}

}  // namespace precis::testing
