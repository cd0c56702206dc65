// The C front end's floating point: float and double as IEEE 754 binary32 and binary64
// (C11 Annex F, which gcc on x86-64 follows with SSE arithmetic), in the one rounding mode
// a C program starts in, to nearest with ties to even. Operators become precis's
// floating-point terms (expr/term.hpp); the math library functions that IEEE 754 defines
// exactly (fabs, sqrt, the roundings to an integral value, the classifications, copysign,
// fmin and fmax) are exact; the others (sin, exp, pow, ...) are nondeterministic values of
// their type, constrained where C's standard bounds them (sin and cos in [-1, 1] or NaN,
// exp at least +0 or NaN). A program that changes the rounding mode is refused.

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "precis/core/approximated_value.hpp"
#include "precis/expr/floating_point.hpp"
#include "translator.hpp"

namespace precis::c::detail {

Term Translator::float_literal(const clang::FloatingLiteral* fl) {
  const IntType t = type_of(fl);  // refuses long double
  const llvm::APInt bits = fl->getValue().bitcastToAPInt();
  return em_.fp_val(t.fp, static_cast<std::int64_t>(bits.getZExtValue()));
}

// C's binary operators on operands already converted to one floating type (C11 6.5.5 -
// 6.5.9): the arithmetic rounded once, the relations of IEEE 754 (unordered with a NaN:
// every relation but != is false).
Term Translator::float_arith(clang::BinaryOperatorKind op, Term a, Term b,
                             const clang::Expr* where) {
  switch (op) {
    case clang::BO_Add: return mk(Op::FpAdd, {a, b});
    case clang::BO_Sub: return mk(Op::FpSub, {a, b});
    case clang::BO_Mul: return mk(Op::FpMul, {a, b});
    case clang::BO_Div: return mk(Op::FpDiv, {a, b});
    case clang::BO_LT: return mk(Op::FpLt, {a, b});
    case clang::BO_GT: return mk(Op::FpLt, {b, a});
    case clang::BO_LE: return mk(Op::FpLe, {a, b});
    case clang::BO_GE: return mk(Op::FpLe, {b, a});
    case clang::BO_EQ: return mk(Op::FpEq, {a, b});
    case clang::BO_NE: return lnot(mk(Op::FpEq, {a, b}));
    default:
      unsupported(where, std::string("operator '") + clang::BinaryOperator::getOpcodeStr(op).str() +
                             "' on floating-point operands");
  }
}

namespace {

// The name without glibc's and gcc's prefixes and the float/long double suffix:
// __builtin_fabsf -> fabs; `suffix` is 'f', 'l' or 0.
std::string base_name(std::string_view name) {
  for (std::string_view p : {"__builtin_", "__"})
    if (name.rfind(p, 0) == 0) {
      name.remove_prefix(p.size());
      break;
    }
  return std::string(name);
}

}  // namespace

// A call of a math library function (or a gcc builtin, or the glibc function a <math.h>
// macro expands to) that precis models; nullopt for any other function.
std::optional<Term> Translator::math_call(const clang::CallExpr* ce, const std::string& name) {
  if (name == "fesetround" || name == "fesetenv" || name == "feupdateenv")
    unsupported(ce,
                "'" + name + "': precis models the rounding mode to nearest, ties to even, only");
  if (name == "fegetround" && ce->getNumArgs() == 0) return num(0);  // FE_TONEAREST on x86
  std::string f = base_name(name);
  const auto n = ce->getNumArgs();
  auto arg = [&](unsigned i) { return rvalue(ce->getArg(i)); };
  const clang::QualType rq = ce->getCallReturnType(ctx_);
  auto arg_type = [&](unsigned i) { return type_of(ce->getArg(i)); };
  auto result = [&](Term v) { return v.is_bool() ? as_int(v) : v; };
  auto strip_suffix = [&](std::string_view base) {  // fabsf, fabsl -> fabs
    return f == base || f == std::string(base) + "f" || f == std::string(base) + "l";
  };
  // The operand, after its side effects, in the call's floating parameter type. A float
  // or double widened to long double for a classification (the `l` branch of <math.h>'s
  // sizeof dispatch, `__isnanl (x)`) is classified in its own type: widening is exact and
  // keeps NaN, the infinities, the sign and zero.
  auto operand = [&](unsigned i) {
    const clang::Expr* a = ce->getArg(i);
    if (const auto* ic = llvm::dyn_cast<clang::ImplicitCastExpr>(a->IgnoreParens());
        ic && ic->getCastKind() == clang::CK_FloatingCast && f.back() == 'l' &&
        !rq->isRealFloatingType() && ic->getSubExpr()->getType()->isRealFloatingType())
      a = ic->getSubExpr();
    Term v = rvalue(a);
    const IntType t = type_of(a);
    if (!t.is_float()) unsupported(a, "'" + name + "' of a non-floating operand");
    return v;
  };
  // Both operands, left to right; the first kept safe from the second's side effects.
  auto two_operands = [&] {
    Term a = operand(0);
    if (impure(ce->getArg(1))) a = snapshot(a);
    return std::pair<Term, Term>{a, operand(1)};
  };
  // Constants: __builtin_inf(), __builtin_huge_val(), __builtin_nan("").
  if ((strip_suffix("inf") || strip_suffix("huge_val")) && n == 0 && rq->isRealFloatingType()) {
    const IntType t = int_type(rq, ce->getExprLoc());
    return fold(em_.fp_convert(em_.fp_val(Type::Float64, fp::bits_of(HUGE_VAL)), t.fp));
  }
  if ((strip_suffix("nan") || strip_suffix("nans")) && n == 1 && rq->isRealFloatingType() &&
      name.rfind("__builtin_", 0) == 0) {
    const IntType t = int_type(rq, ce->getExprLoc());
    return em_.fp_val(t.fp, t.fp == Type::Float32 ? fp::nan32 : fp::nan64);
  }
  if (n == 1 && rq->isRealFloatingType()) {
    static const std::pair<const char*, FpRounding> roundings[] = {
        {"floor", FpRounding::Down},       {"ceil", FpRounding::Up},
        {"trunc", FpRounding::TowardZero}, {"round", FpRounding::NearestAway},
        {"rint", FpRounding::NearestEven}, {"nearbyint", FpRounding::NearestEven}};
    if (strip_suffix("fabs")) return mk(Op::FpAbs, {operand(0)});
    if (strip_suffix("sqrt")) return mk(Op::FpSqrt, {operand(0)});
    for (const auto& [base, mode] : roundings)
      if (strip_suffix(base)) return fold(em_.fp_round(operand(0), mode));
  }
  if (n == 2 && rq->isRealFloatingType()) {
    if (strip_suffix("fmin") || strip_suffix("fmax")) {
      // C11 F.10.9.2-3: a NaN operand is ignored. Between +0 and -0 C lets either be
      // returned; precis returns the second operand.
      auto [a, b] = two_operands();
      const bool min = strip_suffix("fmin");
      Term pick_a = min ? mk(Op::FpLt, {a, b}) : mk(Op::FpLt, {b, a});
      return fold(em_.ite(mk(Op::FpIsNan, {a}), b,
                          fold(em_.ite(mk(Op::FpIsNan, {b}), a, fold(em_.ite(pick_a, a, b))))));
    }
    if (strip_suffix("copysign")) {
      auto [a, b] = two_operands();
      Term mag = mk(Op::FpAbs, {a});
      return fold(em_.ite(mk(Op::FpIsNeg, {b}), mk(Op::FpNeg, {mag}), mag));
    }
  }
  // The classifications: isnan(x) is __builtin_isnan(x) (gcc) or __isnan(x) (glibc), and
  // so on; their int results as glibc's functions give them.
  if (n == 1 && !rq->isRealFloatingType()) {
    if (f == "isnan" || f == "isnanf" || f == "isnanl")
      return result(mk(Op::FpIsNan, {operand(0)}));
    if (f == "isinf_sign" || f == "isinf" || f == "isinff" || f == "isinfl") {
      Term x = operand(0);
      Term inf = mk(Op::FpIsInf, {x});
      // glibc's __isinf and gcc's __builtin_isinf_sign: -1 for -inf, 1 for +inf.
      if (f == "isinf" && name.rfind("__builtin_", 0) == 0) return result(inf);
      return fold(em_.ite(inf, fold(em_.ite(mk(Op::FpIsNeg, {x}), num(-1), num(1))), num(0)));
    }
    if (f == "isfinite" || f == "finite" || f == "finitef" || f == "finitel") {
      Term x = operand(0);
      return result(lnot(em_.or_(mk(Op::FpIsNan, {x}), mk(Op::FpIsInf, {x}))));
    }
    if (f == "isnormal") return result(mk(Op::FpIsNormal, {operand(0)}));
    if (f == "signbit" || f == "signbitf" || f == "signbitl")
      return result(mk(Op::FpIsNeg, {operand(0)}));
    if (f == "fpclassify" || f == "fpclassifyf" || f == "fpclassifyl") {
      // glibc's FP_NAN 0, FP_INFINITE 1, FP_ZERO 2, FP_SUBNORMAL 3, FP_NORMAL 4.
      Term x = operand(0);
      return fold(em_.ite(
          mk(Op::FpIsNan, {x}), num(0),
          fold(em_.ite(mk(Op::FpIsInf, {x}), num(1),
                       fold(em_.ite(mk(Op::FpIsZero, {x}), num(2),
                                    fold(em_.ite(mk(Op::FpIsSubnormal, {x}), num(3), num(4)))))))));
    }
  }
  if (name == "__builtin_fpclassify" && n == 6) {
    // __builtin_fpclassify(nan, inf, normal, subnormal, zero, x): the caller's values.
    Term v[5];
    for (unsigned i = 0; i < 5; ++i) v[i] = as_int(arg(i));
    Term x = operand(5);
    return fold(em_.ite(
        mk(Op::FpIsNan, {x}), v[0],
        fold(em_.ite(mk(Op::FpIsInf, {x}), v[1],
                     fold(em_.ite(mk(Op::FpIsNormal, {x}), v[2],
                                  fold(em_.ite(mk(Op::FpIsSubnormal, {x}), v[3], v[4]))))))));
  }
  if ((name == "__builtin_isgreater" || name == "__builtin_isgreaterequal" ||
       name == "__builtin_isless" || name == "__builtin_islessequal" ||
       name == "__builtin_islessgreater" || name == "__builtin_isunordered") &&
      n == 2) {
    // The quiet comparisons: on operands of one type (C's usual conversions apply).
    auto [a, b] = two_operands();
    const IntType ta = arg_type(0), tb = arg_type(1);
    if (ta.fp != tb.fp) {
      const IntType wide = ta.fp == Type::Float64 ? ta : tb;
      a = convert(a, ta, wide), b = convert(b, tb, wide);
    }
    Term r;
    if (name == "__builtin_isgreater") r = mk(Op::FpLt, {b, a});
    if (name == "__builtin_isgreaterequal") r = mk(Op::FpLe, {b, a});
    if (name == "__builtin_isless") r = mk(Op::FpLt, {a, b});
    if (name == "__builtin_islessequal") r = mk(Op::FpLe, {a, b});
    if (name == "__builtin_islessgreater") r = em_.or_(mk(Op::FpLt, {a, b}), mk(Op::FpLt, {b, a}));
    if (name == "__builtin_isunordered") r = em_.or_(mk(Op::FpIsNan, {a}), mk(Op::FpIsNan, {b}));
    return result(fold(r));
  }
  // The functions IEEE 754 does not define exactly: a value of the result type; sin and
  // cos of a finite operand in [-1, 1], exp in [+0, inf] (or NaN for a NaN operand, as
  // C11 F.10 gives them). The arguments are evaluated for their side effects.
  // (An UNSAFE whose path takes such a value is no evidence: core/approximated_value.hpp.)
  if (rq->isRealFloatingType()) {
    for (std::string_view base : approximated_math_functions) {
      if (!strip_suffix(base)) continue;
      for (const clang::Expr* a : ce->arguments()) effect(a);
      const IntType t = int_type(rq, ce->getExprLoc());
      Term v = nondet_value(t, name);
      const Term nan = mk(Op::FpIsNan, {v});
      auto bound = [&](double lo, double hi) {
        const Term l = fold(em_.fp_convert(em_.fp_val(Type::Float64, fp::bits_of(lo)), t.fp));
        const Term h = fold(em_.fp_convert(em_.fp_val(Type::Float64, fp::bits_of(hi)), t.fp));
        emit(Assume{em_.or_(nan, em_.and_(mk(Op::FpLe, {l, v}), mk(Op::FpLe, {v, h})))});
      };
      if (strip_suffix("sin") || strip_suffix("cos") || strip_suffix("tanh")) bound(-1.0, 1.0);
      if (strip_suffix("exp") || strip_suffix("exp2") || strip_suffix("cosh")) bound(0.0, HUGE_VAL);
      return v;
    }
  }
  return std::nullopt;
}

}  // namespace precis::c::detail
