// C's bit operations (& | ^ ~ << >>) as exact integer terms (the table in
// docs/c-frontend.md "Bit operations").
//
// Values are mathematical integers; an N-bit value has the two's complement bits of its
// residue modulo 2^N. The one bit primitive is precis' iand_N(a, b) = (a mod 2^N) &
// (b mod 2^N) (expr/term.hpp, cvc5's IAND), needed only for & of two non-constants; an &
// with a constant is a sum of differences of residues (linear). The rest is arithmetic,
// on the operands' residues in [0, 2^N):
//   a | b = a + b - (a & b),  a ^ b = a + b - 2 (a & b),  ~a = -a - 1,
//   a << n = a * 2^n,         a >> n = floor(a / 2^n)  (precis' `/` is Euclidean: the floor
//                                                      for a positive divisor)
// and a signed result is taken back from [0, 2^N) into its type's range. `>>` of a
// negative value is arithmetic (gcc's choice). A left shift of a signed value is not
// wrapped, as signed `*` is not (signed overflow is undefined; precis follows the
// mathematical value). A shift by a constant is a product or quotient by a constant
// (linear); by a variable it uses pow2. Shift counts outside 0..N-1 are undefined: a
// constant one is refused, a variable one gets pow2's value (0 below 0, so a right shift
// by a negative count divides by 0, which the path semantics excludes).

#include <algorithm>
#include <cstdint>
#include <string>

#include "precis/expr/bit_vector.hpp"
#include "translator.hpp"

namespace precis::c::detail {

// Between a signed N-bit value and its residue modulo 2^N, by a case split instead of a
// mod: both are linear, and cvc5 found a model of `x & (x - 1) = 0, 1000 < x < 1025`
// for a signed x in 0.1 s with the split and not within 20 s with the mod.
Term Translator::to_unsigned(Term a, IntType t) {
  if (!t.is_signed) return a;
  return fold(em_.ite(em_.lt(a, num(0)), mk(Op::Add, {a, pow2k(t.width)}), a));
}
Term Translator::from_unsigned(Term u, IntType t) {
  if (!t.is_signed) return u;
  return fold(em_.ite(em_.ge(u, pow2k(t.width - 1)), mk(Op::Sub, {u, pow2k(t.width)}), u));
}

Term Translator::bit_not(Term a, IntType t) {
  if (t.is_signed) return mk(Op::Sub, {mk(Op::Neg, {a}), num(1)});
  return mk(Op::Sub, {big(t.max()), a});  // a in [0, 2^N): no wrap needed
}

Term Translator::bit_op(clang::BinaryOperatorKind op, Term a, Term b, IntType t,
                        const clang::Expr* where) {
  const std::string name = clang::BinaryOperator::getOpcodeStr(op).str();
  const unsigned w = t.width;
  if (op == clang::BO_Shl || op == clang::BO_Shr) {
    if (b.is_const()) {
      const std::int64_t n = b.value();
      if (n < 0 || n >= static_cast<std::int64_t>(w))
        unsupported(where, "shift by " + std::to_string(n) + ", outside 0.." +
                               std::to_string(w - 1) + " (undefined behaviour in C)");
      // 2^63 is no precis constant: a shift by 63 is two shifts (floor of floor is floor).
      auto shift = [&](Term x, std::int64_t k) {
        const Term p = num(std::int64_t{1} << k);
        return op == clang::BO_Shl ? mk(Op::Mul, {x, p}) : mk(Op::Div, {x, p});
      };
      Term r = shift(a, std::min<std::int64_t>(n, 62));
      if (n > 62) r = shift(r, n - 62);
      return op == clang::BO_Shl ? wrap(r, t) : r;
    }
    const Term p = fold(em_.pow2(b));
    return op == clang::BO_Shl ? wrap(mk(Op::Mul, {a, p}), t) : mk(Op::Div, {a, p});
  }
  // & | ^ work on the operands' residues modulo 2^N (2^64 is the term pow2(64)), and a
  // signed result comes back from [0, 2^N) into the type's range.
  // a & c for a constant c is linear (and_mask, expr/bit_vector.hpp): masks (flags,
  // nibbles, clearing low bits) stay in linear arithmetic, which every tier handles; only
  // a & b of two non-constants needs iand.
  auto low_bits = [&](Term x, unsigned j) -> Term {  // a mod 2^j, the j low bits
    if (j == 0) return num(0);
    if (j == w) return to_unsigned(x, t);
    return mk(Op::Mod, {x, pow2k(j)});
  };
  auto band = [&](Term x, Term y) -> Term {
    if (y.is_const() && !x.is_const()) std::swap(x, y);
    if (!x.is_const()) return em_.bit_and(x, y, w);
    if (y.is_const()) return fold(em_.bit_and(x, y, w));
    return fold(and_mask(em_, static_cast<std::uint64_t>(x.value()), w,
                         [&](unsigned j) { return low_bits(y, j); }));
  };
  const Term u = band(a, b);  // in [0, 2^N)
  // | and ^ on the residues ua, ub in [0, 2^N), where the identities are exact.
  switch (op) {
    case clang::BO_And: return from_unsigned(u, t);
    case clang::BO_Or: {
      const Term ua = to_unsigned(a, t), ub = to_unsigned(b, t);
      return from_unsigned(mk(Op::Sub, {mk(Op::Add, {ua, ub}), u}), t);
    }
    case clang::BO_Xor: {
      const Term ua = to_unsigned(a, t), ub = to_unsigned(b, t);
      return from_unsigned(mk(Op::Sub, {mk(Op::Add, {ua, ub}), mk(Op::Mul, {num(2), u})}), t);
    }
    default: unsupported(where, "operator '" + name + "'");
  }
}

}  // namespace precis::c::detail
