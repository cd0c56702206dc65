#pragma once
// Bit-vector operations as exact integer terms (SMT-LIB's QF_BV operators over precis'
// integer terms; used by the .cfa reader for Theta's `bv[N]` types).
//
//   precis::BitVectorTerms bv(em);
//   Term sum = bv.add(x, y, 8);          // (x + y) mod 2^8
//   Term lt = bv.slt(x, y, 8);           // x < y as 8-bit two's complement numbers
//
// A bit-vector of width N (1..64) is the integer in [0, 2^N) whose binary digits are its
// bits; every operation takes operands in that range and returns a term in it (a
// comparison returns a bool term). The encodings are those of the C front end
// (frontends/c/src/bit_operations.cpp; docs/c-frontend.md "Bit operations"): one bit
// primitive, iand_N (ExprManager::bit_and, cvc5's IAND), needed only for the AND of two
// non-constants (AND with a constant is a sum of differences of residues, linear); the
// rest is + - * div mod and pow2:
//   a | b = a + b - (a & b),  a ^ b = a + b - 2 (a & b),  ~a = 2^N - 1 - a,
//   a << s = (a * 2^s) mod 2^N,  a >>u s = a div 2^s,  a >>s s = floor(signed(a) / 2^s),
// a shift by s >= N gives 0 (>>s: the sign bits), a shift by a variable uses pow2.
// Division follows SMT-LIB: bvudiv by 0 is 2^N - 1, bvurem by 0 is the dividend, and
// the signed ones are defined from the unsigned ones on the operands' magnitudes.
// Terms whose operands are all constants are folded to constants.

#include <cstdint>
#include <utility>
#include <vector>

#include "precis/core/big_int.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// x & c for a constant mask c of width n, in linear arithmetic: each run of set bits
// i..j-1 of c adds (x mod 2^j) - (x mod 2^i), the bits of x in that run; `low_bits(j)`
// gives x mod 2^j (for j = n, x's residue modulo 2^n). The C front end's & uses it too.
template <class LowBits>
Term and_mask(ExprManager& em, std::uint64_t c, unsigned n, LowBits&& low_bits) {
  if (n < 64) c &= (std::uint64_t{1} << n) - 1;
  std::vector<Term> parts;
  for (unsigned i = 0; i < n;) {
    if (((c >> i) & 1U) == 0) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j < n && ((c >> j) & 1U) != 0) ++j;
    const Term hi = low_bits(j);
    parts.push_back(i == 0 ? hi : em.sub(hi, low_bits(i)));
    i = j;
  }
  if (parts.empty()) return em.int_val(0);
  return parts.size() == 1 ? parts[0] : em.mk(Op::Add, parts);
}

class BitVectorTerms {
 public:
  static constexpr unsigned max_width = ExprManager::max_bit_width;

  explicit BitVectorTerms(ExprManager& em) : em_(em) {}

  // 2^k as a term (pow2(k) beyond int64's constants).
  Term pow2k(unsigned k) {
    return k <= 62 ? em_.int_val(std::int64_t{1} << k) : em_.pow2(em_.int_val(k));
  }
  // The largest value of width n, 2^n - 1.
  Term ones(unsigned n) { return fold(em_.sub(pow2k(n), em_.int_val(1))); }
  // The bit-vector of width n that the integer v denotes (v taken modulo 2^n).
  Term literal(const BigInt& v, unsigned n) {
    const BigInt m = BigInt(1) << n;
    BigInt r = v % m;
    if (r < 0) r += m;
    return big_int_term(em_, r);
  }
  // x mod 2^n: any integer to the bit-vector of width n with the same low bits.
  Term wrap(Term x, unsigned n) { return fold(em_.mod(x, pow2k(n))); }
  // The two's complement number of a, and back. A case split, not a mod: both stay
  // linear and cvc5 handles the split far better (bit_operations.cpp).
  Term to_signed(Term a, unsigned n) {
    return fold(em_.ite(negative(a, n), em_.sub(a, pow2k(n)), a));
  }
  Term from_signed(Term s, unsigned n) {
    return fold(em_.ite(em_.lt(s, em_.int_val(0)), em_.add(s, pow2k(n)), s));
  }
  // The sign bit of a is set.
  Term negative(Term a, unsigned n) { return fold(em_.ge(a, pow2k(n - 1))); }

  // ---- arithmetic ----------------------------------------------------------------------
  Term add(Term a, Term b, unsigned n) { return wrap(em_.add(a, b), n); }
  Term sub(Term a, Term b, unsigned n) { return wrap(em_.sub(a, b), n); }
  Term mul(Term a, Term b, unsigned n) { return wrap(em_.mul(a, b), n); }
  Term neg(Term a, unsigned n) { return wrap(em_.neg(a), n); }
  // SMT-LIB's bvudiv and bvurem (total: by 0, 2^n - 1 and the dividend).
  Term udiv(Term a, Term b, unsigned n) {
    if (nonzero_const(b)) return fold(em_.div(a, b));
    return fold(em_.ite(em_.eq(b, em_.int_val(0)), ones(n), em_.div(a, b)));
  }
  Term urem(Term a, Term b, unsigned) {
    if (nonzero_const(b)) return fold(em_.mod(a, b));
    return fold(em_.ite(em_.eq(b, em_.int_val(0)), a, em_.mod(a, b)));
  }
  // bvsdiv: the unsigned quotient of the magnitudes, negated when the signs differ.
  Term sdiv(Term a, Term b, unsigned n) {
    const Term q = udiv(magnitude(a, n), magnitude(b, n), n);
    return fold(em_.ite(em_.xor_(negative(a, n), negative(b, n)), neg(q, n), q));
  }
  // bvsrem: the sign of the dividend.
  Term srem(Term a, Term b, unsigned n) {
    const Term r = urem(magnitude(a, n), magnitude(b, n), n);
    return fold(em_.ite(negative(a, n), neg(r, n), r));
  }
  // bvsmod: the sign of the divisor (0 stays 0).
  Term smod(Term a, Term b, unsigned n) {
    const Term u = urem(magnitude(a, n), magnitude(b, n), n);
    const Term na = negative(a, n), nb = negative(b, n);
    const Term zero = em_.eq(u, em_.int_val(0));
    Term r =
        em_.ite(na, em_.ite(nb, neg(u, n), add(neg(u, n), b, n)), em_.ite(nb, add(u, b, n), u));
    return fold(em_.ite(zero, u, r));
  }

  // ---- comparisons ---------------------------------------------------------------------
  Term ult(Term a, Term b) { return fold(em_.lt(a, b)); }
  Term ule(Term a, Term b) { return fold(em_.le(a, b)); }
  Term slt(Term a, Term b, unsigned n) { return fold(em_.lt(to_signed(a, n), to_signed(b, n))); }
  Term sle(Term a, Term b, unsigned n) { return fold(em_.le(to_signed(a, n), to_signed(b, n))); }

  // ---- bitwise -------------------------------------------------------------------------
  Term bit_not(Term a, unsigned n) { return fold(em_.sub(ones(n), a)); }
  Term bit_and(Term a, Term b, unsigned n) {
    if (b.is_const() && !a.is_const()) std::swap(a, b);
    if (!a.is_const()) return fold(em_.bit_and(a, b, n));
    if (b.is_const()) return fold(em_.bit_and(a, b, n));
    return fold(and_mask(em_, static_cast<std::uint64_t>(a.value()), n,
                         [&](unsigned j) { return low_bits(b, j, n); }));
  }
  Term bit_or(Term a, Term b, unsigned n) { return fold(em_.sub(em_.add(a, b), bit_and(a, b, n))); }
  Term bit_xor(Term a, Term b, unsigned n) {
    return fold(em_.sub(em_.add(a, b), em_.mul(em_.int_val(2), bit_and(a, b, n))));
  }

  // ---- shifts and rotations (the amount is a bit-vector of the same width) ---------------
  Term shl(Term a, Term s, unsigned n) {
    if (s.is_const()) {
      if (s.value() < 0 || s.value() >= static_cast<std::int64_t>(n)) return em_.int_val(0);
      return wrap(em_.mul(a, pow2k(static_cast<unsigned>(s.value()))), n);
    }
    return fold(em_.ite(too_far(s, n), em_.int_val(0), wrap(em_.mul(a, em_.pow2(s)), n)));
  }
  Term lshr(Term a, Term s, unsigned n) {
    if (s.is_const()) {
      if (s.value() < 0 || s.value() >= static_cast<std::int64_t>(n)) return em_.int_val(0);
      return fold(em_.div(a, pow2k(static_cast<unsigned>(s.value()))));
    }
    return fold(em_.ite(too_far(s, n), em_.int_val(0), em_.div(a, em_.pow2(s))));
  }
  // Arithmetic: a shift by n - 1 or more leaves only the sign (0 or 2^n - 1).
  Term ashr(Term a, Term s, unsigned n) {
    const Term last = em_.int_val(static_cast<std::int64_t>(n) - 1);
    Term p;
    if (s.is_const()) {
      const std::int64_t k = s.value() < 0 || s.value() >= static_cast<std::int64_t>(n) - 1
                                 ? static_cast<std::int64_t>(n) - 1
                                 : s.value();
      p = pow2k(static_cast<unsigned>(k));
    } else {
      p = em_.pow2(em_.ite(em_.ge(s, last), last, s));
    }
    return from_signed(fold(em_.div(to_signed(a, n), p)), n);
  }
  // Rotation by s mod n: the bits shifted out at one end come back at the other, and
  // the two parts have no bit in common, so + joins them.
  Term rol(Term a, Term s, unsigned n) {
    const Term r = fold(em_.mod(s, em_.int_val(n)));
    return fold(em_.add(shl(a, r, n), lshr(a, fold(em_.sub(em_.int_val(n), r)), n)));
  }
  Term ror(Term a, Term s, unsigned n) {
    const Term r = fold(em_.mod(s, em_.int_val(n)));
    return fold(em_.add(lshr(a, r, n), shl(a, fold(em_.sub(em_.int_val(n), r)), n)));
  }

  // ---- widths --------------------------------------------------------------------------
  // a (width n) followed by b (width m): width n + m.
  Term concat(Term a, Term b, unsigned m) { return fold(em_.add(em_.mul(a, pow2k(m)), b)); }
  // Bits lo..hi-1 of a (width n): width hi - lo.
  Term extract(Term a, unsigned hi, unsigned lo, unsigned n) {
    const Term shifted = lo == 0 ? a : fold(em_.div(a, pow2k(lo)));
    return hi == n ? shifted : wrap(shifted, hi - lo);
  }
  // Width n to width m >= n: the same number, unsigned or two's complement.
  Term zero_extend(Term a) { return a; }
  Term sign_extend(Term a, unsigned n, unsigned m) {
    return m == n ? a : from_signed(to_signed(a, n), m);
  }

  // A term whose operands are all constants, as a constant (for the exact value of
  // pow2(64), ...); anything else unchanged.
  Term fold(Term t) { return fold_ground(em_, t); }

 private:
  static bool nonzero_const(Term b) { return b.is_const() && b.value() != 0; }
  Term too_far(Term s, unsigned n) { return em_.ge(s, em_.int_val(n)); }
  // |signed(a)| as an unsigned number of width n (2^(n-1) for the least number).
  Term magnitude(Term a, unsigned n) { return fold(em_.ite(negative(a, n), neg(a, n), a)); }
  Term low_bits(Term x, unsigned j, unsigned n) {
    if (j == 0) return em_.int_val(0);
    if (j == n) return x;
    return fold(em_.mod(x, pow2k(j)));
  }

  ExprManager& em_;
};

}  // namespace precis
