#pragma once
// Difference-bound matrices: the storage and the closure algorithms of the weakly
// relational domains (zones, octagons) of domains/relational/dbm_domain.hpp.
//
// A DBM over nodes V_0 .. V_{N-1} holds m[i][j], an upper bound of V_j - V_i (inf when
// there is none). Two shapes say what the nodes are:
//   ZoneShape: V_0 = 0 and V_{k+1} = x_k, so m stores x_j - x_i <= c and +-x_k <= c
//     (difference constraints, Dill 1989); N = n + 1.
//   OctagonShape: V_{2k} = x_k, V_{2k+1} = -x_k, so m stores +-x_k +-x_l <= c, a unary
//     bound x_k <= c as 2c in m[2k+1][2k] (Mine, "The octagon abstract domain", HOSC
//     2006); N = 2n, and every constraint sits in two coherent entries, m[i][j] and
//     m[j^1][i^1].
// Closure (the canonical form in which each entry is the tightest bound implied):
//   zones: Floyd-Warshall, O(N^3); integer zones are tight by themselves;
//   octagons: Floyd-Warshall, then tightening of the unary entries to even values and one
//     strengthening pass m[i][j] = min(m[i][j], (m[i][i^1] + m[j^1][j]) / 2): the tight
//     closure of integer octagons (Bagnara, Hill, Zaffanella, "An improved tight closure
//     algorithm for integer octagonal constraints", VMCAI 2008), O(N^3).
// Incremental closure after constraints on one variable x_k were added to a closed DBM:
// Floyd-Warshall restricted to x_k's pivots (every shorter path goes through one of
// them, and the segments between pivots were already shortest), then for octagons the
// tightening and strengthening passes: O(N^2).
//
// Bounds are 64-bit integers; a sum that leaves 64 bits becomes inf (the constraint is
// dropped, which over-approximates).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace precis::dbm {

using bound_t = std::int64_t;
inline constexpr bound_t inf = std::numeric_limits<bound_t>::max();

// a + b, inf when either is inf or the sum leaves 64 bits (sound: a weaker bound).
inline bound_t add(bound_t a, bound_t b) {
  if (a == inf || b == inf) return inf;
  bound_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return inf;
  return r;
}
inline constexpr std::size_t npos = static_cast<std::size_t>(-1);
inline bound_t twice(bound_t a) { return add(a, a); }
// floor(a / 2) (C++20: >> of a negative value is arithmetic, i.e. floor division).
inline bound_t floor_half(bound_t a) { return a == inf ? inf : a >> 1; }
// -a, inf when it does not fit.
inline bound_t neg(bound_t a) {
  return a == inf || a == std::numeric_limits<bound_t>::min() ? inf : -a;
}

// A square matrix of bounds, row-major; the diagonal is 0 in a non-empty closed DBM.
struct Matrix {
  std::size_t n = 0;
  std::vector<bound_t> m;

  Matrix() = default;
  explicit Matrix(std::size_t nodes) : n(nodes), m(nodes * nodes, inf) {
    for (std::size_t i = 0; i < n; ++i) at(i, i) = 0;
  }
  bound_t& at(std::size_t i, std::size_t j) { return m[i * n + j]; }
  [[nodiscard]] bound_t at(std::size_t i, std::size_t j) const { return m[i * n + j]; }
  void tighten(std::size_t i, std::size_t j, bound_t c) {
    bound_t& e = at(i, j);
    if (c < e) e = c;
  }
  friend bool operator==(const Matrix&, const Matrix&) = default;

  // Floyd-Warshall steps through the given pivots; false when a negative cycle shows
  // (the constraints are unsatisfiable).
  bool pivot(std::span<const std::size_t> pivots) {
    for (std::size_t k : pivots) {
      for (std::size_t i = 0; i < n; ++i) {
        const bound_t ik = at(i, k);
        if (ik == inf) continue;
        bound_t* row = &m[i * n];
        const bound_t* krow = &m[k * n];
        for (std::size_t j = 0; j < n; ++j) {
          const bound_t via = add(ik, krow[j]);
          if (via < row[j]) row[j] = via;
        }
      }
      if (at(k, k) < 0) return false;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (at(i, i) < 0) return false;
    return true;
  }
  bool floyd_warshall() {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    return pivot(all);
  }
};

// An octagonal constraint a * x_k + b * x_l <= c with a, b in {-1, +1} (b = 0: unary).
struct Constraint {
  int a = 1;
  std::size_t k = 0;
  int b = 0;
  std::size_t l = 0;
  bound_t c = 0;
};

struct ZoneShape {
  static constexpr bool octagonal = false;
  static constexpr const char* name = "zone";

  static std::size_t nodes(std::size_t vars) { return vars + 1; }
  static std::size_t node(std::size_t k) { return k + 1; }
  // The node of another DBM that node i is, where `old[k]` is the index in that DBM of
  // this DBM's k-th variable (npos: it has none).
  static std::size_t translate(std::size_t i, std::span<const std::size_t> old) {
    if (i == 0) return 0;
    return old[i - 1] == npos ? npos : old[i - 1] + 1;
  }
  static std::size_t var_of(std::size_t i) { return i == 0 ? npos : i - 1; }
  static std::size_t var_nodes(std::size_t k, std::size_t* out) {
    out[0] = node(k);
    return 1;
  }
  // Entries that hold unary bounds (their thresholds are the program's constants as is).
  static bool unary_entry(std::size_t i, std::size_t j) { return i == 0 || j == 0; }
  static bound_t threshold_scale(std::size_t, std::size_t) { return 1; }

  // The upper bound that m implies for a x_k + b x_l (inf: none).
  static bound_t upper(const Matrix& m, int a, std::size_t k, int b, std::size_t l) {
    const auto unary = [&](int s, std::size_t v) {
      return s > 0 ? m.at(0, node(v)) : m.at(node(v), 0);
    };
    if (b == 0) return unary(a, k);
    if (a > 0 && b < 0) return m.at(node(l), node(k));
    if (a < 0 && b > 0) return m.at(node(k), node(l));
    return add(unary(a, k), unary(b, l));  // x + y: not a zone constraint
  }
  // Adds the constraint where the shape can store it; false when it cannot (x + y).
  static bool constrain(Matrix& m, const Constraint& c) {
    if (c.b == 0) {
      if (c.a > 0)
        m.tighten(0, node(c.k), c.c);
      else
        m.tighten(node(c.k), 0, c.c);
      return true;
    }
    if (c.a > 0 && c.b < 0) {
      m.tighten(node(c.l), node(c.k), c.c);
      return true;
    }
    if (c.a < 0 && c.b > 0) {
      m.tighten(node(c.k), node(c.l), c.c);
      return true;
    }
    return false;
  }
  static bool close(Matrix& m) { return m.floyd_warshall(); }
  // Incremental closure after constraints among the variables `ks` were added.
  static bool close_at(Matrix& m, std::span<const std::size_t> ks) {
    std::vector<std::size_t> p;
    for (std::size_t k : ks) p.push_back(node(k));
    return m.pivot(p);
  }
  // x_k := x_k + c: V_k grows by c, so bounds of V_k - V_i grow and of V_i - V_k shrink.
  static void shift(Matrix& m, std::size_t k, bound_t c) {
    const std::size_t v = node(k);
    for (std::size_t i = 0; i < m.n; ++i) {
      if (i == v) continue;
      m.at(i, v) = add(m.at(i, v), c);
      m.at(v, i) = add(m.at(v, i), neg(c));
    }
  }
  static bool negate(Matrix&, std::size_t) { return false; }  // x := -x is not a zone op
  static void forget(Matrix& m, std::size_t k) {
    const std::size_t v = node(k);
    for (std::size_t i = 0; i < m.n; ++i) {
      m.at(i, v) = inf;
      m.at(v, i) = inf;
    }
    m.at(v, v) = 0;
  }
};

struct OctagonShape {
  static constexpr bool octagonal = true;
  static constexpr const char* name = "octagon";

  static std::size_t nodes(std::size_t vars) { return 2 * vars; }
  static std::size_t pos(std::size_t k) { return 2 * k; }
  static std::size_t negn(std::size_t k) { return 2 * k + 1; }
  static std::size_t translate(std::size_t i, std::span<const std::size_t> old) {
    return old[i / 2] == npos ? npos : 2 * old[i / 2] + (i & 1);
  }
  static std::size_t var_of(std::size_t i) { return i / 2; }
  static std::size_t var_nodes(std::size_t k, std::size_t* out) {
    out[0] = pos(k);
    out[1] = negn(k);
    return 2;
  }
  static bool unary_entry(std::size_t i, std::size_t j) { return (i ^ 1U) == j; }
  static bound_t threshold_scale(std::size_t i, std::size_t j) { return unary_entry(i, j) ? 2 : 1; }

  // The node that V = s * x_v is.
  static std::size_t signed_node(int s, std::size_t v) { return s > 0 ? pos(v) : negn(v); }

  static bound_t upper(const Matrix& m, int a, std::size_t k, int b, std::size_t l) {
    if (b == 0) return floor_half(m.at(signed_node(-a, k), signed_node(a, k)));
    // a x_k + b x_l = V_j - V_i with V_j = a x_k and V_i = -b x_l
    return m.at(signed_node(-b, l), signed_node(a, k));
  }
  static bool constrain(Matrix& m, const Constraint& c) {
    if (c.b == 0) {
      const std::size_t j = signed_node(c.a, c.k);
      m.tighten(j ^ 1U, j, twice(c.c));
      return true;
    }
    const std::size_t j = signed_node(c.a, c.k);
    const std::size_t i = signed_node(-c.b, c.l);
    m.tighten(i, j, c.c);
    m.tighten(j ^ 1U, i ^ 1U, c.c);  // the coherent entry
    return true;
  }
  // Tightening of the unary entries, strengthening, and the emptiness checks.
  static bool tighten_and_strengthen(Matrix& m) {
    const std::size_t n = m.n;
    for (std::size_t i = 0; i < n; ++i) {
      bound_t& u = m.at(i, i ^ 1U);
      if (u != inf) u = twice(floor_half(u));
    }
    for (std::size_t i = 0; i < n; ++i)
      if (m.at(i, i ^ 1U) != inf && m.at(i ^ 1U, i) != inf &&
          add(m.at(i, i ^ 1U), m.at(i ^ 1U, i)) < 0)
        return false;
    for (std::size_t i = 0; i < n; ++i) {
      const bound_t ui = m.at(i, i ^ 1U);
      if (ui == inf) continue;
      for (std::size_t j = 0; j < n; ++j) {
        const bound_t uj = m.at(j ^ 1U, j);
        if (uj == inf) continue;
        const bound_t s = add(ui, uj);
        if (s != inf) m.tighten(i, j, floor_half(s));
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (m.at(i, i) < 0) return false;
      m.at(i, i) = 0;
    }
    return true;
  }
  static bool close(Matrix& m) { return m.floyd_warshall() && tighten_and_strengthen(m); }
  static bool close_at(Matrix& m, std::span<const std::size_t> ks) {
    std::vector<std::size_t> p;
    for (std::size_t k : ks) {
      p.push_back(pos(k));
      p.push_back(negn(k));
    }
    return m.pivot(p) && tighten_and_strengthen(m);
  }
  // x_k := x_k + c: V_{2k} grows by c and V_{2k+1} shrinks by c.
  static void shift(Matrix& m, std::size_t k, bound_t c) {
    const bound_t mc = neg(c);
    const std::size_t p = pos(k), q = negn(k);
    for (std::size_t i = 0; i < m.n; ++i) {
      m.at(i, p) = add(m.at(i, p), c);
      m.at(p, i) = add(m.at(p, i), mc);
      m.at(i, q) = add(m.at(i, q), mc);
      m.at(q, i) = add(m.at(q, i), c);
    }
  }
  // x_k := -x_k: swap the two nodes of x_k.
  static bool negate(Matrix& m, std::size_t k) {
    const std::size_t p = pos(k), q = negn(k);
    for (std::size_t i = 0; i < m.n; ++i) std::swap(m.at(i, p), m.at(i, q));
    for (std::size_t j = 0; j < m.n; ++j) std::swap(m.at(p, j), m.at(q, j));
    return true;
  }
  static void forget(Matrix& m, std::size_t k) {
    for (std::size_t v : {pos(k), negn(k)})
      for (std::size_t i = 0; i < m.n; ++i) {
        m.at(i, v) = inf;
        m.at(v, i) = inf;
      }
    m.at(pos(k), pos(k)) = 0;
    m.at(negn(k), negn(k)) = 0;
  }
};

}  // namespace precis::dbm
