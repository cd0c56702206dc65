#pragma once
// Intervals over the mathematical integers, the value lattice of the BOX domain (VINTA
// paper, section 5: "the abstract domains used by VINTA are BOX and BOXES").
//
// A bound is an integer or +-infinity. Finite bounds use the whole std::int64_t range and
// infinity is an explicit flag, so no integer value doubles as a sentinel. Arithmetic
// on bounds never overflows: a result that does not fit in 64 bits is rounded outwards
// (a lower bound down, an upper bound up), so an interval always over-approximates the
// set of mathematical integers it stands for. That is how precis keeps its promise of
// "never silently wrong" (design.md, Semantics): we lose precision, never soundness.
//
// `/`, `mod` and `rem` are Euclidean, as include/precis/expr/term.hpp and the .cfa
// format define them; division by zero is unspecified there (SMT-LIB), so a divisor
// interval that contains 0 makes the result top.

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <ostream>
#include <span>
#include <utility>
#include <vector>

namespace precis {

// An integer bound or an infinity. Ordered -inf < every integer < +inf.
class Bound {
 public:
  constexpr Bound() = default;  // the finite bound 0
  constexpr explicit Bound(std::int64_t v) : v_(v) {}
  static constexpr Bound neg_inf() { return Bound(-1, 0); }
  static constexpr Bound pos_inf() { return Bound(1, 0); }

  [[nodiscard]] constexpr bool is_finite() const { return inf_ == 0; }
  [[nodiscard]] constexpr bool is_neg_inf() const { return inf_ < 0; }
  [[nodiscard]] constexpr bool is_pos_inf() const { return inf_ > 0; }
  // The value of a finite bound (0 for an infinity; check is_finite first).
  [[nodiscard]] constexpr std::int64_t value() const { return v_; }
  // -1, 0 or 1.
  [[nodiscard]] constexpr int sign() const {
    if (inf_ != 0) return inf_;
    return v_ < 0 ? -1 : (v_ > 0 ? 1 : 0);
  }

  // Infinities store v_ = 0, so the member-wise order is the order of the extended
  // integers.
  friend constexpr auto operator<=>(const Bound&, const Bound&) = default;

  friend std::ostream& operator<<(std::ostream& os, const Bound& b) {
    if (b.is_neg_inf()) return os << "-oo";
    if (b.is_pos_inf()) return os << "+oo";
    return os << b.v_;
  }

 private:
  constexpr Bound(std::int8_t inf, std::int64_t v) : inf_(inf), v_(v) {}
  std::int8_t inf_ = 0;
  std::int64_t v_ = 0;
};

// Which way to round a bound that does not fit: lower bounds go Down, upper bounds Up.
enum class Rounding : std::uint8_t { Down, Up };

namespace bound {

// The rounded value of an exact result that left std::int64_t in the direction of
// `positive`: rounding towards the overflow means infinity, rounding away means the
// extreme finite value (a lower bound of 2^63 is soundly 2^63 - 1).
constexpr Bound overflowed(bool positive, Rounding r) {
  if (positive)
    return r == Rounding::Up ? Bound::pos_inf() : Bound(std::numeric_limits<std::int64_t>::max());
  return r == Rounding::Down ? Bound::neg_inf() : Bound(std::numeric_limits<std::int64_t>::min());
}

// Conservative when asked for -inf + +inf (which well-formed intervals never ask): the
// direction's infinity.
constexpr Bound add(Bound a, Bound b, Rounding r) {
  if (!a.is_finite() || !b.is_finite()) {
    if (a.is_finite()) return b;
    if (b.is_finite() || a == b) return a;
    return r == Rounding::Down ? Bound::neg_inf() : Bound::pos_inf();
  }
  std::int64_t s = 0;
  if (__builtin_add_overflow(a.value(), b.value(), &s)) return overflowed(a.value() > 0, r);
  return Bound(s);
}

constexpr Bound neg(Bound a, Rounding r) {
  if (a.is_neg_inf()) return Bound::pos_inf();
  if (a.is_pos_inf()) return Bound::neg_inf();
  if (a.value() == std::numeric_limits<std::int64_t>::min()) return overflowed(true, r);
  return Bound(-a.value());
}

// 0 * inf = 0: an infinite bound stands for unboundedly large finite values, and every
// one of them times 0 is 0.
constexpr Bound mul(Bound a, Bound b, Rounding r) {
  const int sa = a.sign();
  const int sb = b.sign();
  if (sa == 0 || sb == 0) return Bound(0);
  if (!a.is_finite() || !b.is_finite()) return sa * sb > 0 ? Bound::pos_inf() : Bound::neg_inf();
  std::int64_t p = 0;
  if (__builtin_mul_overflow(a.value(), b.value(), &p)) return overflowed(sa * sb > 0, r);
  return Bound(p);
}

// floor(a / d) and ceil(a / d) for d >= 1; exact (no overflow is possible for d >= 1).
constexpr Bound floor_div(Bound a, std::int64_t d) {
  if (!a.is_finite()) return a;
  std::int64_t q = a.value() / d;
  if (a.value() % d != 0 && a.value() < 0) --q;
  return Bound(q);
}
constexpr Bound ceil_div(Bound a, std::int64_t d) {
  if (!a.is_finite()) return a;
  std::int64_t q = a.value() / d;
  if (a.value() % d != 0 && a.value() > 0) ++q;
  return Bound(q);
}

}  // namespace bound

// A sorted set of widening thresholds (crab-style widening with thresholds). Built from
// the program's constants c together with c - 1 and c + 1, so that loop guards such as
// `i < n` and `i <= n` both find their bound: widening then stops at the next threshold
// before it gives up to infinity.
class Thresholds {
 public:
  Thresholds() = default;
  Thresholds(std::initializer_list<std::int64_t> values) {
    for (auto v : values) insert(v);
  }

  // Adds exactly v.
  void insert(std::int64_t v) {
    auto it = std::lower_bound(values_.begin(), values_.end(), v);
    if (it == values_.end() || *it != v) values_.insert(it, v);
  }
  // Adds a program constant with its neighbours c - 1 and c + 1 (where they fit).
  void add_constant(std::int64_t c) {
    insert(c);
    if (c != std::numeric_limits<std::int64_t>::min()) insert(c - 1);
    if (c != std::numeric_limits<std::int64_t>::max()) insert(c + 1);
  }

  [[nodiscard]] bool empty() const { return values_.empty(); }
  [[nodiscard]] std::size_t size() const { return values_.size(); }
  [[nodiscard]] std::span<const std::int64_t> values() const { return values_; }

  // The smallest threshold >= b, or +inf.
  [[nodiscard]] Bound at_or_above(Bound b) const {
    if (b.is_pos_inf()) return b;
    if (b.is_neg_inf()) return values_.empty() ? Bound::pos_inf() : Bound(values_.front());
    auto it = std::lower_bound(values_.begin(), values_.end(), b.value());
    return it == values_.end() ? Bound::pos_inf() : Bound(*it);
  }
  // The largest threshold <= b, or -inf.
  [[nodiscard]] Bound at_or_below(Bound b) const {
    if (b.is_neg_inf()) return b;
    if (b.is_pos_inf()) return values_.empty() ? Bound::neg_inf() : Bound(values_.back());
    auto it = std::upper_bound(values_.begin(), values_.end(), b.value());
    return it == values_.begin() ? Bound::neg_inf() : Bound(*(it - 1));
  }

  friend bool operator==(const Thresholds&, const Thresholds&) = default;

 private:
  std::vector<std::int64_t> values_;  // sorted, unique
};

// A (possibly unbounded) interval of integers, or bottom. Bottom is stored canonically
// (lo = +inf, hi = -inf), so == is equality of the sets.
class Interval {
 public:
  Interval() = default;  // top
  Interval(std::int64_t lo, std::int64_t hi) : Interval(Bound(lo), Bound(hi)) {}
  Interval(Bound lo, Bound hi) : lo_(lo), hi_(hi) {
    if (lo_ > hi_ || lo_.is_pos_inf() || hi_.is_neg_inf()) *this = bottom();
  }
  static Interval top() { return {}; }
  static Interval bottom() {
    Interval i;
    i.lo_ = Bound::pos_inf();
    i.hi_ = Bound::neg_inf();
    return i;
  }
  static Interval constant(std::int64_t v) { return {v, v}; }
  static Interval at_least(std::int64_t v) { return {Bound(v), Bound::pos_inf()}; }
  static Interval at_most(std::int64_t v) { return {Bound::neg_inf(), Bound(v)}; }

  [[nodiscard]] Bound lo() const { return lo_; }
  [[nodiscard]] Bound hi() const { return hi_; }
  [[nodiscard]] bool is_bottom() const { return lo_.is_pos_inf(); }
  [[nodiscard]] bool is_top() const { return lo_.is_neg_inf() && hi_.is_pos_inf(); }
  [[nodiscard]] bool is_singleton() const { return lo_.is_finite() && lo_ == hi_; }
  [[nodiscard]] bool contains(std::int64_t v) const {
    return !is_bottom() && lo_ <= Bound(v) && Bound(v) <= hi_;
  }

  friend bool operator==(const Interval&, const Interval&) = default;

  // ---- lattice ---------------------------------------------------------------------
  [[nodiscard]] bool leq(const Interval& o) const {
    if (is_bottom()) return true;
    if (o.is_bottom()) return false;
    return o.lo_ <= lo_ && hi_ <= o.hi_;
  }
  [[nodiscard]] Interval join(const Interval& o) const {
    if (is_bottom()) return o;
    if (o.is_bottom()) return *this;
    return {std::min(lo_, o.lo_), std::max(hi_, o.hi_)};
  }
  [[nodiscard]] Interval meet(const Interval& o) const {
    if (is_bottom() || o.is_bottom()) return bottom();
    return {std::max(lo_, o.lo_), std::min(hi_, o.hi_)};
  }
  // The classic interval widening (Cousot & Cousot): a bound that grows goes to
  // infinity, so every increasing chain stabilises after at most two steps per bound.
  [[nodiscard]] Interval widen(const Interval& o) const {
    if (is_bottom()) return o;
    if (o.is_bottom()) return *this;
    return {o.lo_ < lo_ ? Bound::neg_inf() : lo_, o.hi_ > hi_ ? Bound::pos_inf() : hi_};
  }
  // Widening with thresholds: a growing bound jumps to the next threshold beyond the new
  // value first, and to infinity only past the last one. Terminates since the threshold
  // set is finite (each bound can jump at most |T| + 1 times).
  [[nodiscard]] Interval widen(const Interval& o, const Thresholds& t) const {
    if (is_bottom()) return o;
    if (o.is_bottom()) return *this;
    return {o.lo_ < lo_ ? t.at_or_below(o.lo_) : lo_, o.hi_ > hi_ ? t.at_or_above(o.hi_) : hi_};
  }
  // The classic narrowing: only infinite bounds are refined, so decreasing sequences are
  // finite (each bound improves at most once).
  [[nodiscard]] Interval narrow(const Interval& o) const {
    if (is_bottom() || o.is_bottom()) return bottom();
    return {lo_.is_neg_inf() ? o.lo_ : lo_, hi_.is_pos_inf() ? o.hi_ : hi_};
  }

  // ---- arithmetic (sound; exact unless a bound leaves 64 bits) ----------------------
  friend Interval operator-(const Interval& a) {
    if (a.is_bottom()) return a;
    return {bound::neg(a.hi_, Rounding::Down), bound::neg(a.lo_, Rounding::Up)};
  }
  friend Interval operator+(const Interval& a, const Interval& b) {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    return {bound::add(a.lo_, b.lo_, Rounding::Down), bound::add(a.hi_, b.hi_, Rounding::Up)};
  }
  friend Interval operator-(const Interval& a, const Interval& b) {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    // a - b = a + (-b); negating rounds outwards only at -2^63, which stays sound.
    return a + (-b);
  }
  friend Interval operator*(const Interval& a, const Interval& b) {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    // Products are monotone in each argument on sign-constant ranges, so the extremes
    // are among the four corners.
    return corners(a, b, [](Bound x, Bound y, Rounding r) { return bound::mul(x, y, r); });
  }

  // Euclidean division: a = b*q + r with 0 <= r < |b|, i.e. q = floor(a / b) for b > 0
  // and q = ceil(a / b) = -floor(a / -b) for b < 0. Exact hull for divisors of one sign;
  // top when b may be 0 (the quotient is unspecified there).
  friend Interval div(const Interval& a, const Interval& b) {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    if (b.contains(0)) return top();
    if (b.hi_ < Bound(0)) return -div(a, -b);
    // b >= 1: floor(x / y) is monotone in x, and in y on each sign of x, so the extremes
    // are at the corners; a corner at y = +inf is the limit for large y.
    auto q = [](Bound x, Bound y, Rounding r) -> Bound {
      if (y.is_finite()) return bound::floor_div(x, y.value());
      if (x.is_finite()) return Bound(x.value() >= 0 ? 0 : -1);
      if (x.is_pos_inf()) return r == Rounding::Down ? Bound(0) : Bound::pos_inf();
      return r == Rounding::Down ? Bound::neg_inf() : Bound(-1);
    };
    return corners(a, b, q);
  }

  // The hull of f at the four corners (f(x, y, Down) <= the exact value <= f(x, y, Up)):
  // exact for operations monotone in each argument on the given ranges.
  template <class F>
  static Interval corners(const Interval& a, const Interval& b, F f) {
    const Bound xs[2] = {a.lo_, a.hi_};
    const Bound ys[2] = {b.lo_, b.hi_};
    Bound lo = Bound::pos_inf();
    Bound hi = Bound::neg_inf();
    for (const Bound& x : xs)
      for (const Bound& y : ys) {
        lo = std::min(lo, f(x, y, Rounding::Down));
        hi = std::max(hi, f(x, y, Rounding::Up));
      }
    return {lo, hi};
  }

  // Euclidean modulus, always in [0, |b| - 1]. Exact when b is a constant n and a lies
  // within one period [k*n, k*n + n - 1], or when 0 <= a < min|b|; otherwise the sound
  // hull [0, min(max|b| - 1, a.hi if a >= 0)] (exactness would need a case split over
  // the periods that a spans, which is costly and rarely pays).
  friend Interval mod(const Interval& a, const Interval& b) {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    if (b.contains(0)) return top();
    // |b| as an interval [min|b|, max|b|] (>= 1).
    const Interval abs_b = b.lo_ > Bound(0) ? b : -b;
    if (abs_b.is_singleton() && a.lo_.is_finite() && a.hi_.is_finite()) {
      const std::int64_t n = abs_b.lo_.value();
      if (bound::floor_div(a.lo_, n) == bound::floor_div(a.hi_, n))
        return {euclid_mod(a.lo_.value(), n), euclid_mod(a.hi_.value(), n)};
    }
    if (a.lo_ >= Bound(0) && a.hi_ < abs_b.lo_) return a;
    // max|b| - 1, computed as -(b.lo + 1) for negative b so that b = -2^63 still gives
    // the finite 2^63 - 1.
    Bound hi = b.lo_ > Bound(0)
                   ? bound::add(b.hi_, Bound(-1), Rounding::Up)
                   : bound::neg(bound::add(b.lo_, Bound(1), Rounding::Down), Rounding::Up);
    if (a.lo_ >= Bound(0)) hi = std::min(hi, a.hi_);
    return {Bound(0), hi};
  }

  // rem(a, b) = mod(a, b) if b >= 0, -mod(a, b) otherwise.
  friend Interval rem(const Interval& a, const Interval& b) {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    if (b.contains(0)) return top();
    return b.lo_ > Bound(0) ? mod(a, b) : -mod(a, b);
  }

  // iand_k(a, b) = (a mod 2^k) & (b mod 2^k) (expr/term.hpp): within [0, 2^k - 1], and
  // at most an operand that is already in [0, 2^k - 1] (and clears no bit it lacks).
  friend Interval bit_and(const Interval& a, const Interval& b, unsigned k) {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    std::int64_t hi = (std::int64_t{1} << k) - 1;  // k <= 63
    for (const Interval* x : {&a, &b})
      if (x->lo_ >= Bound(0) && x->hi_ <= Bound(hi)) hi = x->hi_.value();
    return {0, hi};
  }
  // pow2(a) = 2^a for a >= 0, 0 below: monotone, so the image of the bounds.
  friend Interval pow2(const Interval& a) {
    if (a.is_bottom()) return bottom();
    auto at = [](const Bound& e) -> Bound {
      if (e.is_neg_inf() || (e.is_finite() && e.value() < 0)) return Bound(0);
      if (e.is_pos_inf() || e.value() > 62) return Bound::pos_inf();
      return Bound(std::int64_t{1} << e.value());
    };
    const Bound lo = at(a.lo_);
    return {lo.is_pos_inf() ? Bound(std::numeric_limits<std::int64_t>::max()) : lo, at(a.hi_)};
  }

  // The integers x with c * x in t (c != 0): backward propagation through a product by
  // a constant. For c = 0: top if 0 is in t, bottom otherwise.
  friend Interval inverse_mul(const Interval& t, std::int64_t c) {
    if (t.is_bottom()) return bottom();
    if (c == 0) return t.contains(0) ? top() : bottom();
    if (c == std::numeric_limits<std::int64_t>::min()) return top();  // |c| does not fit
    if (c < 0) return inverse_mul(-t, -c);
    return {bound::ceil_div(t.lo_, c), bound::floor_div(t.hi_, c)};
  }

  friend std::ostream& operator<<(std::ostream& os, const Interval& i) {
    if (i.is_bottom()) return os << "bottom";
    return os << '[' << i.lo_ << ", " << i.hi_ << ']';
  }

 private:
  // 0 <= result < n for n >= 1.
  static std::int64_t euclid_mod(std::int64_t a, std::int64_t n) {
    const std::int64_t r = a % n;
    return r < 0 ? r + n : r;
  }

  Bound lo_ = Bound::neg_inf();
  Bound hi_ = Bound::pos_inf();
};

// Interval as an AbstractDomain of its own (core/concepts.hpp): the value lattice that
// Box lifts pointwise. Used by the lattice-law tests, and by anyone who wants one
// interval per location. Widening uses the thresholds when there are any.
class IntervalDomain {
 public:
  using element = Interval;

  IntervalDomain() = default;
  explicit IntervalDomain(Thresholds t) : thresholds_(std::move(t)) {}

  [[nodiscard]] Interval bottom() const { return Interval::bottom(); }
  [[nodiscard]] Interval top() const { return Interval::top(); }
  [[nodiscard]] bool is_bottom(const Interval& a) const { return a.is_bottom(); }
  [[nodiscard]] bool leq(const Interval& a, const Interval& b) const { return a.leq(b); }
  [[nodiscard]] Interval join(const Interval& a, const Interval& b) const { return a.join(b); }
  [[nodiscard]] Interval meet(const Interval& a, const Interval& b) const { return a.meet(b); }
  [[nodiscard]] Interval widen(const Interval& a, const Interval& b) const {
    return thresholds_.empty() ? a.widen(b) : a.widen(b, thresholds_);
  }
  [[nodiscard]] Interval narrow(const Interval& a, const Interval& b) const { return a.narrow(b); }
  [[nodiscard]] const Thresholds& thresholds() const { return thresholds_; }

 private:
  Thresholds thresholds_;
};

}  // namespace precis
