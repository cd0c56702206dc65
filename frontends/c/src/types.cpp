// The C front end's integer types, conversions and the arithmetic of C's operators as
// precis terms (with constant folding), and integer constant expressions.

#include <cstdint>
#include <optional>
#include <string>

#include "precis/expr/eval.hpp"
#include "precis/expr/eval_big.hpp"
#include "translator.hpp"

namespace precis::c::detail {

// ---- types ------------------------------------------------------------------------------

IntType Translator::int_type(clang::QualType qt, clang::SourceLocation where) const {
  clang::QualType t = qt.getCanonicalType().getUnqualifiedType();
  const std::string name = qt.getAsString();
  if (t->isBooleanType()) return IntType{1, false, true};
  // A pointer to an integer (or void) holds the address of an object (pointers.cpp): an
  // integer that no arithmetic wraps.
  if (is_pointer(t)) return IntType{62, true, false};
  if (t->isPointerType() || t->isFunctionPointerType())
    unsupported(where, "pointer type '" + name + "'");
  if (t->isArrayType()) unsupported(where, "array type '" + name + "'");
  if (t->isRecordType()) unsupported(where, "struct or union type '" + name + "'");
  if (t->isAnyComplexType()) unsupported(where, "complex type '" + name + "'");
  if (t->isRealFloatingType()) {
    if (t->isSpecificBuiltinType(clang::BuiltinType::Float))
      return IntType{32, true, false, Type::Float32};
    if (t->isSpecificBuiltinType(clang::BuiltinType::Double))
      return IntType{64, true, false, Type::Float64};
    unsupported(where, "floating-point type '" + name +
                           "' (float and double are modelled; long double, x87 extended "
                           "precision, and the half and 128-bit types are not)");
  }
  if (t->isVoidType()) unsupported(where, "use of a void value");
  if (const auto* et = t->getAs<clang::EnumType>()) t = et->getDecl()->getIntegerType();
  if (!t->isIntegerType()) unsupported(where, "type '" + name + "'");
  const auto w = static_cast<unsigned>(ctx_.getIntWidth(t));
  const bool s = t->isSignedIntegerType();
  if (w > 64) unsupported(where, std::to_string(w) + "-bit integer type '" + name + "'");
  return IntType{w, s, false};
}

// ---- terms with constant folding --------------------------------------------------------

// Exactly, as for mod(-1, pow2(64)), the constant -1 converted to a 64-bit unsigned type.
Term Translator::fold(Term t) { return fold_ground(em_, t); }

Term Translator::as_int(Term t) {
  if (!t.is_bool()) return t;
  if (t.is_const()) return num(t.value());
  return em_.ite(t, num(1), num(0));
}

Term Translator::as_bool(Term t) {
  if (t.is_bool()) return t;
  if (is_float(t.type())) return fold(em_.not_(em_.mk(Op::FpIsZero, {t})));  // NaN is true
  if (t.is_const()) return em_.bool_val(t.value() != 0);
  // ite(c, 1, 0) != 0 is c: keeps conditions on C's 0/1 results readable.
  if (t.op() == Op::Ite && t.arg(1).is_const() && t.arg(2).is_const() && t.arg(1).value() == 1 &&
      t.arg(2).value() == 0)
    return t.arg(0);
  return em_.neq(t, num(0));
}

Term Translator::lnot(Term b) {
  if (b.is_const()) return em_.bool_val(b.value() == 0);
  if (b.op() == Op::Not) return b.arg(0);
  if (b.op() == Op::Eq) return em_.neq(b.arg(0), b.arg(1));
  if (b.op() == Op::Neq) return em_.eq(b.arg(0), b.arg(1));
  if (b.op() == Op::Lt) return em_.ge(b.arg(0), b.arg(1));
  if (b.op() == Op::Le) return em_.gt(b.arg(0), b.arg(1));
  if (b.op() == Op::Gt) return em_.le(b.arg(0), b.arg(1));
  if (b.op() == Op::Ge) return em_.lt(b.arg(0), b.arg(1));
  return em_.not_(b);
}

Term Translator::in_range(Term x, IntType t) {
  if (t.is_float()) return em_.true_();  // every value, NaN and the infinities included
  return em_.and_(em_.le(big(t.min()), x), em_.le(x, big(t.max())));
}

// Conversion between integer types: wrap-around modulo 2^N into the target's range
// where the source's range does not fit (gcc's behaviour for signed targets).
//
// Floating point (C11 6.3.1.4, 6.3.1.5): to a floating type, the value rounded to nearest
// even (exact where it is representable); from one to an integer type, truncated toward
// zero. Where the truncated value is outside the integer type (or the operand is NaN or
// infinite) C's behaviour is undefined; precis takes it modulo 2^N as for an integer
// conversion (fp.to_int gives 0 for NaN and the infinities), the same value in the solver,
// the evaluator and the concrete interpreter.
Term Translator::convert(Term v, IntType from, IntType to) {
  if (to.is_bool) return as_bool(v);
  if (to.is_float()) return fold(em_.fp_convert(from.is_float() ? v : as_int(v), to.fp));
  if (from.is_float()) return convert(fold(em_.fp_to_int(v)), IntType{65, true, false}, to);
  if (from.fits_in(to)) return v;
  Term x = as_int(v);
  const Term modulus = pow2k(to.width);
  if (!to.is_signed) return mk(Op::Mod, {x, modulus});
  const Term half = pow2k(to.width - 1);
  return mk(Op::Sub, {mk(Op::Mod, {mk(Op::Add, {x, half}), modulus}), half});
}

Term Translator::wrap(Term v, IntType t) {
  if (t.is_signed || t.is_bool) return v;
  return mk(Op::Mod, {v, pow2k(t.width)});
}

// Arithmetic of a C binary operator in type `t` (operands are already converted).
Term Translator::arith(clang::BinaryOperatorKind op, Term l, Term r, IntType t,
                       const clang::Expr* where) {
  if (t.is_float()) return float_arith(op, l, r, where);
  Term a = as_int(l), b = as_int(r);
  switch (op) {
    case clang::BO_Add: return wrap(mk(Op::Add, {a, b}), t);
    case clang::BO_Sub: return wrap(mk(Op::Sub, {a, b}), t);
    case clang::BO_Mul: return wrap(mk(Op::Mul, {a, b}), t);
    case clang::BO_Div:
      if (!t.is_signed) return mk(Op::Div, {a, b});
      // C truncates towards zero; precis' div is Euclidean. Both agree for a >= 0.
      if (a.is_const() && a.value() >= 0) return mk(Op::Div, {a, b});
      return fold(em_.ite(em_.ge(a, num(0)), mk(Op::Div, {a, b}),
                          mk(Op::Neg, {mk(Op::Div, {mk(Op::Neg, {a}), b})})));
    case clang::BO_Rem:
      if (!t.is_signed) return mk(Op::Mod, {a, b});
      if (a.is_const() && a.value() >= 0) return mk(Op::Mod, {a, b});
      return fold(em_.ite(em_.ge(a, num(0)), mk(Op::Mod, {a, b}),
                          mk(Op::Neg, {mk(Op::Mod, {mk(Op::Neg, {a}), b})})));
    case clang::BO_LT: return mk(Op::Lt, {a, b});
    case clang::BO_GT: return mk(Op::Gt, {a, b});
    case clang::BO_LE: return mk(Op::Le, {a, b});
    case clang::BO_GE: return mk(Op::Ge, {a, b});
    case clang::BO_EQ:
      if (l.is_bool() && r.is_bool()) return mk(Op::Eq, {l, r});
      return mk(Op::Eq, {a, b});
    case clang::BO_NE:
      if (l.is_bool() && r.is_bool()) return mk(Op::Neq, {l, r});
      return mk(Op::Neq, {a, b});
    case clang::BO_Shl:
    case clang::BO_Shr:
    case clang::BO_And:
    case clang::BO_Or:
    case clang::BO_Xor: return bit_op(op, a, b, t, where);
    default:
      unsupported(where,
                  std::string("operator '") + clang::BinaryOperator::getOpcodeStr(op).str() + "'");
  }
}

// ---- constants --------------------------------------------------------------------------

BigInt Translator::to_big(const llvm::APSInt& v, const clang::Expr* where) const {
  if (v.getBitWidth() > 64 && (v.isSigned() ? v.getMinSignedBits() : v.getActiveBits()) > 64)
    unsupported(where, "integer constant out of range");
  if (v.isSigned()) return BigInt(v.getSExtValue());
  return BigInt(v.getZExtValue());
}

std::optional<BigInt> Translator::constant_value(const clang::Expr* e) const {
  clang::Expr::EvalResult r;
  if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx_)) return std::nullopt;
  return to_big(r.Val.getInt(), e);
}

std::optional<Term> Translator::constant_term(const clang::Expr* e) {
  auto v = constant_value(e);
  if (!v) return std::nullopt;
  return big(*v);
}

Term Translator::constant_or_refuse(const clang::Expr* e, const std::string& what) {
  if (auto c = constant_term(e)) return *c;
  unsupported(e, what);
}

std::optional<std::int64_t> Translator::constant(const clang::Expr* e) const {
  auto v = constant_value(e);
  if (!v) return std::nullopt;
  const auto small = to_int64(*v);  // core/big_int.hpp
  if (!small) unsupported(e, "integer constant out of range");
  return small;
}

}  // namespace precis::c::detail
