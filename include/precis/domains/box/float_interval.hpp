#pragma once
// Intervals over IEEE 754 binary32 or binary64 values, the floating-point half of the BOX
// domain (domains/box/box.hpp): a range [lo, hi] of the extended reals (the infinities are
// its ends when they belong to it) and a flag for NaN, which no range holds. The zeros are
// one point: a range that contains 0 contains both -0 and +0.
//
// Soundness without outward rounding: the operations are those of the variable's own
// format, each rounded to nearest, ties to even (expr/floating_point.hpp). Rounding is
// monotone (x <= y implies round(x) <= round(y)), and + - * / and sqrt are monotone in
// each operand on the sets this considers (a divisor range that holds 0 gives the whole
// line), so the rounded results of all operand values lie between the rounded results at
// the ends, which the host computes exactly as the program does (the same format, the same
// rounding, one operation). NaN arises from a NaN operand or from inf - inf, 0 * inf,
// 0 / 0, inf / inf and sqrt of a negative; an end whose computation gives NaN makes the
// range the whole line (never narrower than the truth). Miné, "Relational Abstract Domains
// for the Detection of Floating-Point Run-Time Errors" (ESOP 2004), section 3, treats the
// general case where abstract and concrete rounding differ; here they coincide.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "precis/expr/floating_point.hpp"
#include "precis/expr/term.hpp"

namespace precis {

class FloatInterval {
 public:
  // Every value of the format, NaN included.
  FloatInterval() = default;
  static FloatInterval top() { return {}; }
  static FloatInterval bottom() { return FloatInterval(kInf, -kInf, false); }
  static FloatInterval range(double lo, double hi, bool nan = false) {
    return FloatInterval(lo, hi, nan);
  }
  static FloatInterval nan_only() { return FloatInterval(kInf, -kInf, true); }
  // The value whose bit pattern of type t is `bits`.
  static FloatInterval constant(Type t, std::int64_t bits) {
    const double d =
        t == Type::Float32 ? static_cast<double>(fp::to_float(bits)) : fp::to_double(bits);
    if (std::isnan(d)) return nan_only();
    return range(d == 0 ? 0.0 : d, d == 0 ? 0.0 : d);
  }

  [[nodiscard]] bool has_range() const { return lo_ <= hi_; }
  [[nodiscard]] bool may_be_nan() const { return nan_; }
  [[nodiscard]] bool is_bottom() const { return !has_range() && !nan_; }
  [[nodiscard]] bool is_top() const { return lo_ == -kInf && hi_ == kInf && nan_; }
  [[nodiscard]] double lo() const { return lo_; }
  [[nodiscard]] double hi() const { return hi_; }
  [[nodiscard]] bool contains(double x) const { return has_range() && lo_ <= x && x <= hi_; }
  [[nodiscard]] bool contains_zero() const { return contains(0.0); }
  [[nodiscard]] bool contains_inf() const { return has_range() && (lo_ == -kInf || hi_ == kInf); }

  [[nodiscard]] bool leq(const FloatInterval& o) const {
    if (nan_ && !o.nan_) return false;
    if (!has_range()) return true;
    return o.has_range() && o.lo_ <= lo_ && hi_ <= o.hi_;
  }
  [[nodiscard]] FloatInterval join(const FloatInterval& o) const {
    if (!has_range()) return FloatInterval(o.lo_, o.hi_, nan_ || o.nan_);
    if (!o.has_range()) return FloatInterval(lo_, hi_, nan_ || o.nan_);
    return FloatInterval(std::min(lo_, o.lo_), std::max(hi_, o.hi_), nan_ || o.nan_);
  }
  [[nodiscard]] FloatInterval meet(const FloatInterval& o) const {
    return FloatInterval(std::max(lo_, o.lo_), std::min(hi_, o.hi_), nan_ && o.nan_);
  }
  // Widening: an end that moved jumps to the next threshold beyond it (+-1, +-10, ...,
  // +-1e38, the largest finite value of binary64), then to the infinity; the thresholds
  // are finite, so chains are finite.
  [[nodiscard]] FloatInterval widen(const FloatInterval& o) const {
    if (!has_range()) return join(o);
    if (!o.has_range()) return FloatInterval(lo_, hi_, nan_ || o.nan_);
    const double lo = o.lo_ < lo_ ? -threshold_above(-o.lo_) : lo_;
    const double hi = o.hi_ > hi_ ? threshold_above(o.hi_) : hi_;
    return FloatInterval(lo, hi, nan_ || o.nan_);
  }
  // Narrowing: only infinite ends are replaced.
  [[nodiscard]] FloatInterval narrow(const FloatInterval& o) const {
    if (!has_range() || !o.has_range()) return meet(o);
    return FloatInterval(lo_ == -kInf ? o.lo_ : lo_, hi_ == kInf ? o.hi_ : hi_, nan_ && o.nan_);
  }

  friend bool operator==(const FloatInterval& a, const FloatInterval& b) {
    if (a.nan_ != b.nan_) return false;
    if (!a.has_range() || !b.has_range()) return a.has_range() == b.has_range();
    return a.lo_ == b.lo_ && a.hi_ == b.hi_;
  }

  // ---- arithmetic in the format t ----------------------------------------------------------
  static FloatInterval add(Type t, const FloatInterval& a, const FloatInterval& b) {
    return binary(t, a, b, Op::FpAdd);
  }
  static FloatInterval sub(Type t, const FloatInterval& a, const FloatInterval& b) {
    return binary(t, a, b, Op::FpSub);
  }
  static FloatInterval mul(Type t, const FloatInterval& a, const FloatInterval& b) {
    return binary(t, a, b, Op::FpMul);
  }
  static FloatInterval div(Type t, const FloatInterval& a, const FloatInterval& b) {
    return binary(t, a, b, Op::FpDiv);
  }
  static FloatInterval neg(const FloatInterval& a) {
    if (!a.has_range()) return a;
    return FloatInterval(-a.hi_, -a.lo_, a.nan_);
  }
  static FloatInterval abs(const FloatInterval& a) {
    if (!a.has_range()) return a;
    if (a.lo_ >= 0) return a;
    if (a.hi_ <= 0) return neg(a);
    return FloatInterval(0.0, std::max(-a.lo_, a.hi_), a.nan_);
  }
  static FloatInterval sqrt(Type t, const FloatInterval& a) {
    if (!a.has_range()) return a;
    const bool negative = a.lo_ < 0;
    if (a.hi_ < 0) return nan_only();
    return FloatInterval(round_to(t, std::sqrt(std::max(a.lo_, 0.0))),
                         round_to(t, std::sqrt(a.hi_)), a.nan_ || negative);
  }
  // A monotone map applied at the ends (roundings to an integral value, conversions).
  template <class F>
  static FloatInterval monotone(const FloatInterval& a, F&& f) {
    if (!a.has_range()) return a;
    return FloatInterval(f(a.lo_), f(a.hi_), a.nan_);
  }
  static FloatInterval round(Type t, const FloatInterval& a, FpRounding mode) {
    return monotone(a, [t, mode](double x) {
      return t == Type::Float32
                 ? fp::to_float(fp::round(t, fp::bits_of(static_cast<float>(x)), mode))
                 : fp::to_double(fp::round(t, fp::bits_of(x), mode));
    });
  }
  static FloatInterval convert(Type to, const FloatInterval& a) {
    return monotone(a, [to](double x) { return round_to(to, x); });
  }

  // The values below (strictly, or not) `bound`, of format t; NaN excluded.
  [[nodiscard]] FloatInterval below(Type t, double bound, bool strict) const {
    const double b = strict ? previous(t, bound) : bound;
    return FloatInterval(lo_, std::min(hi_, b), false);
  }
  [[nodiscard]] FloatInterval above(Type t, double bound, bool strict) const {
    const double b = strict ? -previous(t, -bound) : bound;
    return FloatInterval(std::max(lo_, b), hi_, false);
  }
  [[nodiscard]] FloatInterval without_nan() const { return FloatInterval(lo_, hi_, false); }
  [[nodiscard]] FloatInterval only_nan() const { return nan_ ? nan_only() : bottom(); }

  // The value of format t nearest below x (x itself when x is -inf).
  static double previous(Type t, double x) {
    if (x == -kInf) return x;
    if (t == Type::Float32)
      return std::nextafter(static_cast<float>(x), -std::numeric_limits<float>::infinity());
    return std::nextafter(x, -kInf);
  }
  // x rounded to format t (to nearest even).
  static double round_to(Type t, double x) {
    return t == Type::Float32 ? static_cast<double>(static_cast<float>(x)) : x;
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  FloatInterval(double lo, double hi, bool nan) : lo_(lo), hi_(hi), nan_(nan) {
    if (lo_ == 0) lo_ = 0.0;  // one zero
    if (hi_ == 0) hi_ = 0.0;
    if (std::isnan(lo_) || std::isnan(hi_)) lo_ = -kInf, hi_ = kInf;
    if (lo_ > hi_) lo_ = kInf, hi_ = -kInf;  // the empty range, canonical
  }

  static double threshold_above(double x) {
    if (x <= 0) return 0.0;
    for (double t = 1.0; t <= 1e38; t *= 10)
      if (x <= t) return t;
    if (x <= std::numeric_limits<double>::max()) return std::numeric_limits<double>::max();
    return kInf;
  }

  static double apply(Type t, Op op, double x, double y) {
    if (t == Type::Float32) {
      const float a = static_cast<float>(x), b = static_cast<float>(y);
      switch (op) {
        case Op::FpAdd: return static_cast<double>(a + b);
        case Op::FpSub: return static_cast<double>(a - b);
        case Op::FpMul: return static_cast<double>(a * b);
        default: return static_cast<double>(a / b);
      }
    }
    switch (op) {
      case Op::FpAdd: return x + y;
      case Op::FpSub: return x - y;
      case Op::FpMul: return x * y;
      default: return x / y;
    }
  }

  static FloatInterval binary(Type t, const FloatInterval& a, const FloatInterval& b, Op op) {
    fp::ensure_nearest();
    bool nan = a.nan_ || b.nan_;
    if (!a.has_range() || !b.has_range()) return nan ? nan_only() : bottom();
    const bool a_pinf = a.hi_ == kInf, a_ninf = a.lo_ == -kInf;
    const bool b_pinf = b.hi_ == kInf, b_ninf = b.lo_ == -kInf;
    switch (op) {
      case Op::FpAdd: nan = nan || (a_pinf && b_ninf) || (a_ninf && b_pinf); break;
      case Op::FpSub: nan = nan || (a_pinf && b_pinf) || (a_ninf && b_ninf); break;
      case Op::FpMul:
        nan = nan || (a.contains_zero() && b.contains_inf()) ||
              (b.contains_zero() && a.contains_inf());
        break;
      default:
        nan = nan || (a.contains_zero() && b.contains_zero()) ||
              (a.contains_inf() && b.contains_inf());
        if (b.contains_zero()) return FloatInterval(-kInf, kInf, nan);  // x / +-0 is +-inf
        break;
    }
    double lo = kInf, hi = -kInf;
    auto at = [&](double x, double y) {
      const double r = apply(t, op, x, y);
      if (std::isnan(r)) {  // an end with no value: the whole line
        lo = -kInf, hi = kInf;
        return;
      }
      lo = std::min(lo, r), hi = std::max(hi, r);
    };
    if (op == Op::FpAdd) {
      at(a.lo_, b.lo_), at(a.hi_, b.hi_);
    } else if (op == Op::FpSub) {
      at(a.lo_, b.hi_), at(a.hi_, b.lo_);
    } else {
      for (double x : {a.lo_, a.hi_})
        for (double y : {b.lo_, b.hi_}) at(x, y);
    }
    return FloatInterval(lo, hi, nan);
  }

  double lo_ = -kInf;
  double hi_ = kInf;
  bool nan_ = true;
};

}  // namespace precis
