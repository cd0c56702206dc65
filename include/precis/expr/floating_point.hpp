#pragma once
// IEEE 754 binary32 and binary64 values as precis holds them, and their exact evaluation.
//
// A floating-point value is its bit pattern in an std::int64_t (expr/term.hpp, Type): the
// binary32 pattern in [0, 2^32), the binary64 pattern reinterpreted as signed; every NaN is
// the canonical quiet NaN, as SMT-LIB's theory of floating point (Brain, Tinelli, Rümmer,
// Wahl, "An Automatable Formal Semantics for IEEE-754 Floating-Point Arithmetic", ARITH
// 2015) has a single NaN. The operations compute with the host's float and double: on
// x86-64 these are SSE's binary32 and binary64, rounded to nearest, ties to even, one
// rounding per operation, which is exactly what IEEE 754 and SMT-LIB define. Each function
// performs one operation on values it receives as arguments, so no contraction (fused
// multiply-add) or reassociation can merge two roundings; precis's CMake target adds
// -ffp-contract=off for its users as well. A build whose floating-point evaluation has
// excess precision (x87, FLT_EVAL_METHOD != 0) is refused below.

#include <cfenv>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>

#include "precis/expr/term.hpp"

#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ != 0
#error "precis evaluates float and double exactly only where FLT_EVAL_METHOD is 0 (SSE2, not x87)"
#endif

namespace precis::fp {

// The evaluation computes in the rounding mode to nearest, ties to even, the one C programs
// start in; a library that changed the process's mode (PPL's initializer rounds upward,
// domains/relational/polyhedra.hpp) is overridden before an operation.
inline void ensure_nearest() {
  if (std::fegetround() != FE_TONEAREST) std::fesetround(FE_TONEAREST);
}

inline constexpr std::int64_t nan32 = 0x7fc00000LL;
inline constexpr std::int64_t nan64 = 0x7ff8000000000000LL;

inline float to_float(std::int64_t bits) {
  const auto u = static_cast<std::uint32_t>(bits);
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
inline double to_double(std::int64_t bits) {
  const auto u = static_cast<std::uint64_t>(bits);
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}
inline std::int64_t bits_of(float f) {
  if (std::isnan(f)) return nan32;
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return static_cast<std::int64_t>(u);
}
inline std::int64_t bits_of(double d) {
  if (std::isnan(d)) return nan64;
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return static_cast<std::int64_t>(u);
}

// Whether `bits` is a value of type t: a binary32 pattern in [0, 2^32) and no NaN other
// than the canonical one.
inline bool valid_bits(Type t, std::int64_t bits) {
  if (t == Type::Float32) {
    if (bits < 0 || bits > 0xffffffffLL) return false;
    return !std::isnan(to_float(bits)) || bits == nan32;
  }
  return !std::isnan(to_double(bits)) || bits == nan64;
}

// The value of type t nearest to `bits` that is valid (a non-canonical NaN becomes the
// canonical one; a binary32 pattern is cut to 32 bits).
inline std::int64_t canonical(Type t, std::int64_t bits) {
  if (t == Type::Float32) return bits_of(to_float(bits & 0xffffffffLL));
  return bits_of(to_double(bits));
}

// Applies f to the operand(s) as the host type of t (float or double).
template <class F>
std::int64_t unary(Type t, std::int64_t a, F&& f) {
  if (t == Type::Float32) return bits_of(static_cast<float>(f(to_float(a))));
  return bits_of(static_cast<double>(f(to_double(a))));
}
template <class F>
std::int64_t binary(Type t, std::int64_t a, std::int64_t b, F&& f) {
  if (t == Type::Float32) return bits_of(static_cast<float>(f(to_float(a), to_float(b))));
  return bits_of(static_cast<double>(f(to_double(a), to_double(b))));
}
template <class F>
bool predicate(Type t, std::int64_t a, F&& f) {
  return t == Type::Float32 ? f(to_float(a)) : f(to_double(a));
}
template <class F>
bool relation(Type t, std::int64_t a, std::int64_t b, F&& f) {
  return t == Type::Float32 ? f(to_float(a), to_float(b)) : f(to_double(a), to_double(b));
}

// The arithmetic operators of Op (FpAdd ... FpRound) on operands of type t.
inline std::int64_t add(Type t, std::int64_t a, std::int64_t b) {
  return binary(t, a, b, [](auto x, auto y) { return x + y; });
}
inline std::int64_t sub(Type t, std::int64_t a, std::int64_t b) {
  return binary(t, a, b, [](auto x, auto y) { return x - y; });
}
inline std::int64_t mul(Type t, std::int64_t a, std::int64_t b) {
  return binary(t, a, b, [](auto x, auto y) { return x * y; });
}
inline std::int64_t div(Type t, std::int64_t a, std::int64_t b) {
  return binary(t, a, b, [](auto x, auto y) { return x / y; });
}
inline std::int64_t neg(Type t, std::int64_t a) {
  return unary(t, a, [](auto x) { return -x; });
}
inline std::int64_t abs(Type t, std::int64_t a) {
  return unary(t, a, [](auto x) { return std::fabs(x); });
}
inline std::int64_t sqrt(Type t, std::int64_t a) {
  return unary(t, a, [](auto x) { return std::sqrt(x); });
}
inline std::int64_t round(Type t, std::int64_t a, FpRounding mode) {
  return unary(t, a, [mode](auto x) {
    switch (mode) {
      case FpRounding::NearestEven: return std::nearbyint(x);  // the default mode: RNE
      case FpRounding::NearestAway: return std::round(x);
      case FpRounding::Up: return std::ceil(x);
      case FpRounding::Down: return std::floor(x);
      case FpRounding::TowardZero: return std::trunc(x);
    }
    return x;
  });
}
inline bool eq(Type t, std::int64_t a, std::int64_t b) {
  return relation(t, a, b, [](auto x, auto y) { return x == y; });
}
inline bool lt(Type t, std::int64_t a, std::int64_t b) {
  return relation(t, a, b, [](auto x, auto y) { return x < y; });
}
inline bool le(Type t, std::int64_t a, std::int64_t b) {
  return relation(t, a, b, [](auto x, auto y) { return x <= y; });
}
// The classification predicates of Op (FpIsNan ... FpIsNeg).
inline bool classify(Op op, Type t, std::int64_t a) {
  return predicate(t, a, [op](auto x) {
    switch (op) {
      case Op::FpIsNan: return std::isnan(x);
      case Op::FpIsInf: return std::isinf(x);
      case Op::FpIsZero: return x == 0;
      case Op::FpIsSubnormal: return std::fpclassify(x) == FP_SUBNORMAL;
      case Op::FpIsNormal: return std::fpclassify(x) == FP_NORMAL;
      case Op::FpIsNeg: return !std::isnan(x) && std::signbit(x);  // SMT-LIB: NaN is neither
      default: return false;
    }
  });
}
// Between the formats: widening is exact, narrowing rounds to nearest even.
inline std::int64_t convert(Type from, Type to, std::int64_t a) {
  if (from == to) return a;
  if (to == Type::Float64) return bits_of(static_cast<double>(to_float(a)));
  return bits_of(static_cast<float>(to_double(a)));
}
// An integer in [-2^63, 2^64), rounded once to nearest even (the conversions of SSE and
// of gcc's code for unsigned 64-bit operands are correctly rounded).
inline std::int64_t from_int(Type to, std::int64_t v) {
  if (to == Type::Float32) return bits_of(static_cast<float>(v));
  return bits_of(static_cast<double>(v));
}
inline std::int64_t from_uint(Type to, std::uint64_t v) {
  if (to == Type::Float32) return bits_of(static_cast<float>(v));
  return bits_of(static_cast<double>(v));
}

// The value truncated toward zero as m * 2^e with an integer m (|m| < 2^53) and e >= 0;
// nullopt for NaN and the infinities.
struct Truncated {
  std::int64_t mantissa;
  int exponent;
};
inline std::optional<Truncated> truncate(Type t, std::int64_t a) {
  const double x = t == Type::Float32 ? static_cast<double>(to_float(a)) : to_double(a);
  if (!std::isfinite(x)) return std::nullopt;
  const double r = std::trunc(x);
  if (std::fabs(r) < 9007199254740992.0) return Truncated{static_cast<std::int64_t>(r), 0};
  int e = 0;
  const double m = std::frexp(r, &e);  // r = m * 2^e, 0.5 <= |m| < 1, e > 53
  return Truncated{static_cast<std::int64_t>(std::ldexp(m, 53)), e - 53};
}

// The shortest decimal that reads back to the same value (std::to_chars), as a C literal:
// `1.5f`, `-0.0`, `1e+10f`; NaN and the infinities as C expressions over constants,
// `(0.0f / 0.0f)`, `(-1.0 / 0.0)`. Exact in both directions: a C compiler rounds a decimal
// literal correctly.
inline std::string c_literal(Type t, std::int64_t bits) {
  const char* suffix = t == Type::Float32 ? "f" : "";
  const bool nan = t == Type::Float32 ? std::isnan(to_float(bits)) : std::isnan(to_double(bits));
  if (nan) return std::string("(0.0") + suffix + " / 0.0" + suffix + ")";
  char buf[64];
  std::to_chars_result r{};
  bool inf = false;
  bool negative = false;
  if (t == Type::Float32) {
    const float f = to_float(bits);
    inf = std::isinf(f), negative = std::signbit(f);
    r = std::to_chars(buf, buf + sizeof buf, f);
  } else {
    const double d = to_double(bits);
    inf = std::isinf(d), negative = std::signbit(d);
    r = std::to_chars(buf, buf + sizeof buf, d);
  }
  if (inf)
    return std::string("(") + (negative ? "-" : "") + "1.0" + suffix + " / 0.0" + suffix + ")";
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + suffix;
}

// The value for people and for the .cfa printer: the shortest round-trip decimal, `nan`,
// `inf`, `-inf`.
inline std::string to_text(Type t, std::int64_t bits) {
  char buf[64];
  std::to_chars_result r{};
  if (t == Type::Float32)
    r = std::to_chars(buf, buf + sizeof buf, to_float(bits));
  else
    r = std::to_chars(buf, buf + sizeof buf, to_double(bits));
  return std::string(buf, r.ptr);
}

// Reads what to_text and c_literal write (and any decimal or hexadecimal C floating
// literal without suffix), rounded once to type t; nullopt if `text` is not one.
inline std::optional<std::int64_t> parse(Type t, std::string_view text) {
  ensure_nearest();
  std::string s(text);
  while (!s.empty() && (s.back() == 'f' || s.back() == 'F' || s.back() == 'l' || s.back() == 'L'))
    s.pop_back();
  if (s == "nan" || s == "-nan" || s == "(0.0 / 0.0)") return t == Type::Float32 ? nan32 : nan64;
  bool negative = !s.empty() && s[0] == '-';
  std::string_view body(s);
  if (negative || (!s.empty() && s[0] == '+')) body.remove_prefix(1);
  auto hex = body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
  if (hex) body.remove_prefix(2);
  const auto fmt = hex ? std::chars_format::hex : std::chars_format::general;
  if (t == Type::Float32) {
    float f = 0;
    if (body == "inf" || body == "infinity") {
      f = INFINITY;
    } else {
      auto r = std::from_chars(body.data(), body.data() + body.size(), f, fmt);
      if (r.ec != std::errc() || r.ptr != body.data() + body.size()) return std::nullopt;
    }
    return bits_of(negative ? -f : f);
  }
  double d = 0;
  if (body == "inf" || body == "infinity") {
    d = INFINITY;
  } else {
    auto r = std::from_chars(body.data(), body.data() + body.size(), d, fmt);
    if (r.ec != std::errc() || r.ptr != body.data() + body.size()) return std::nullopt;
  }
  return bits_of(negative ? -d : d);
}

}  // namespace precis::fp
