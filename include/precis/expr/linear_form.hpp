#pragma once
// Linear forms over integer terms: t = sum(coef_i * atom_i) + k with 64-bit coefficients.
// An atom is an integer variable or an opaque subterm the form cannot split (x * y,
// x mod 3, an ite); the numeric domains (Box, the DBMs of domains/relational/, the
// polyhedra) read a condition or an assigned value through it, treat variables exactly
// and bound the opaque atoms by intervals.
//
// linearize() adds scale * t to a form; it fails (false) only when a coefficient or the
// constant leaves 64 bits, and then the caller over-approximates some other way.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "precis/expr/term.hpp"

namespace precis {

struct LinearForm {
  std::vector<std::pair<Term, std::int64_t>> atoms;  // sorted by term id after normalize
  std::int64_t k = 0;

  [[nodiscard]] bool is_constant() const { return atoms.empty(); }
  // Every atom is a variable.
  [[nodiscard]] bool over_variables() const {
    return std::all_of(atoms.begin(), atoms.end(), [](const auto& a) { return a.first.is_var(); });
  }
};

namespace linear {

inline bool checked_mul(std::int64_t a, std::int64_t b, std::int64_t& r) {
  return !__builtin_mul_overflow(a, b, &r);
}
inline bool checked_add(std::int64_t a, std::int64_t b, std::int64_t& r) {
  return !__builtin_add_overflow(a, b, &r);
}

}  // namespace linear

// The modulus M of a wrap-around `u mod M` (the C front end's, M = 2^N): the largest B
// such that u mod M = u for every u in [0, B]; nullopt when M is no positive constant.
// 2^64 of a 64-bit unsigned type is the term pow2(64): B = 2^63 - 1 there, the largest
// int64 (smaller than M - 1, which leaves int64).
inline std::optional<std::int64_t> mod_identity_bound(Term m) {
  if (m.op() == Op::IntConst && m.value() > 0) return m.value() - 1;
  if (const auto k = constant_pow2_exponent(m); k && *k >= 63)
    return std::numeric_limits<std::int64_t>::max();
  return std::nullopt;
}

// Adds scale * t to f; false when a coefficient leaves 64 bits. `in_range(u, B)` says
// whether u is known to lie in [0, B]: then `u mod M` with mod_identity_bound(M) = B (the
// C front end's wrap-around of an unsigned or signed result) is u itself and is split
// further; otherwise it stays an opaque atom.
template <class InRange>
bool linearize(Term t, std::int64_t scale, LinearForm& f, const InRange& in_range) {
  using linear::checked_add;
  using linear::checked_mul;
  if (scale == 0) return true;
  if (is_float(t.type())) return false;  // a float's bit pattern is no linear quantity
  switch (t.op()) {
    case Op::IntConst: {
      std::int64_t p = 0;
      return checked_mul(scale, t.value(), p) && checked_add(f.k, p, f.k);
    }
    case Op::Add:
      for (std::size_t i = 0; i < t.num_args(); ++i)
        if (!linearize(t.arg(i), scale, f, in_range)) return false;
      return true;
    case Op::Sub:
      if (scale == std::numeric_limits<std::int64_t>::min()) return false;
      return linearize(t.arg(0), scale, f, in_range) && linearize(t.arg(1), -scale, f, in_range);
    case Op::Neg:
      if (scale == std::numeric_limits<std::int64_t>::min()) return false;
      return linearize(t.arg(0), -scale, f, in_range);
    case Op::Mul: {
      // Linear if at most one factor is not a constant.
      std::int64_t c = scale;
      Term other;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        const Term a = t.arg(i);
        if (a.op() == Op::IntConst) {
          if (!checked_mul(c, a.value(), c)) return false;
        } else if (!other.valid()) {
          other = a;
        } else {
          f.atoms.emplace_back(t, scale);  // non-linear product
          return true;
        }
      }
      if (!other.valid()) return checked_add(f.k, c, f.k);
      return linearize(other, c, f, in_range);
    }
    case Op::Mod:
      if (const auto b = mod_identity_bound(t.arg(1)); b && in_range(t.arg(0), *b))
        return linearize(t.arg(0), scale, f, in_range);
      f.atoms.emplace_back(t, scale);
      return true;
    default: f.atoms.emplace_back(t, scale); return true;
  }
}
inline bool linearize(Term t, std::int64_t scale, LinearForm& f) {
  return linearize(t, scale, f, [](Term, std::int64_t) { return false; });
}

// Merges repeated atoms (sorted by term id) and drops zero coefficients; false when a
// merged coefficient leaves 64 bits.
inline bool normalize(LinearForm& f) {
  std::sort(f.atoms.begin(), f.atoms.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::size_t w = 0;
  for (std::size_t i = 0; i < f.atoms.size(); ++i) {
    if (w > 0 && f.atoms[w - 1].first == f.atoms[i].first) {
      if (!linear::checked_add(f.atoms[w - 1].second, f.atoms[i].second, f.atoms[w - 1].second))
        return false;
    } else {
      f.atoms[w++] = f.atoms[i];
    }
  }
  f.atoms.resize(w);
  std::erase_if(f.atoms, [](const auto& a) { return a.second == 0; });
  return true;
}

// The normalized form of lhs - rhs (a comparison lhs op rhs is then form op 0), or false.
inline bool linearize_difference(Term lhs, Term rhs, LinearForm& f) {
  return linearize(lhs, 1, f) && linearize(rhs, -1, f) && normalize(f);
}

}  // namespace precis
