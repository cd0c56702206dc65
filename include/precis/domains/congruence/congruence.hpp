#pragma once
// Arithmetic congruences (Granger, "Static analysis of arithmetical congruences", 1989):
// the value lattice of sets r + mZ. m = 0 is the constant r, m = 1 is every integer
// (top), and for m >= 2 the residue is kept in [0, m), so the representation is
// canonical and == is lattice equality. The lattice has no infinite ascending chain
// (a join only divides the modulus, or turns a constant into a multiple of a distance),
// so join is its widening.
//
// What it adds to intervals: parity and stride facts ("x is even", "i = 3k + 1") that a
// counting loop `for (i = 0; i < N; i += 2)` keeps and no convex domain expresses; the
// reduced product with intervals (interval_congruence.hpp) turns them into exact bounds
// (i < 1000000 and i even give i <= 999998).
//
// Arithmetic is exact over the integers with 128-bit intermediates. A result whose
// modulus or constant does not fit in 64 bits is top (sound: we lose precision, never
// soundness, as the intervals do). `/`, `mod` and `rem` are the term language's
// Euclidean operators (expr/term.hpp).

#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>

namespace precis {

class Congruence {
 public:
  Congruence() = default;  // top: 0 + 1Z
  static Congruence top() { return {}; }
  static Congruence bottom() {
    Congruence c;
    c.bottom_ = true;
    return c;
  }
  static Congruence constant(std::int64_t v) { return {v, 0}; }
  // r + mZ for m >= 0 (m = 0: the constant r).
  static Congruence of(std::int64_t r, std::int64_t m) { return make(r, m); }

  [[nodiscard]] bool is_bottom() const { return bottom_; }
  [[nodiscard]] bool is_top() const { return !bottom_ && m_ == 1; }
  [[nodiscard]] bool is_constant() const { return !bottom_ && m_ == 0; }
  [[nodiscard]] std::int64_t residue() const { return r_; }  // in [0, m) when m >= 1
  [[nodiscard]] std::int64_t modulus() const { return m_; }
  [[nodiscard]] bool contains(std::int64_t v) const {
    if (bottom_) return false;
    if (m_ == 0) return v == r_;
    return emod(static_cast<wide>(v) - r_, m_) == 0;
  }

  friend bool operator==(const Congruence&, const Congruence&) = default;

  // ---- lattice -------------------------------------------------------------------------
  [[nodiscard]] bool leq(const Congruence& o) const {
    if (bottom_) return true;
    if (o.bottom_) return false;
    if (o.m_ == 0) return m_ == 0 && r_ == o.r_;
    return m_ % o.m_ == 0 && emod(static_cast<wide>(r_) - o.r_, o.m_) == 0;
  }
  [[nodiscard]] Congruence join(const Congruence& o) const {
    if (bottom_) return o;
    if (o.bottom_) return *this;
    const wide d = static_cast<wide>(r_) - o.r_;
    return make_wide(r_, gcd3(m_, o.m_, d < 0 ? -d : d));
  }
  // Exact (the Chinese remainder theorem); if the combined modulus does not fit, *this
  // (an over-approximation of the meet, which is what every caller may use).
  [[nodiscard]] Congruence meet(const Congruence& o) const {
    if (bottom_ || o.is_top()) return *this;
    if (o.bottom_ || is_top()) return o;
    if (m_ == 0) return o.contains(r_) ? *this : bottom();
    if (o.m_ == 0) return contains(o.r_) ? o : bottom();
    // x = r1 + m1 s = r2 + m2 t: solvable iff g = gcd(m1, m2) divides r2 - r1.
    const wide g = gcd(m_, o.m_);
    const wide diff = static_cast<wide>(o.r_) - r_;
    if (diff % g != 0) return bottom();
    const wide lcm = m_ / g * static_cast<wide>(o.m_);
    if (lcm > kMax) return *this;
    // s = (diff / g) * inv(m1 / g) mod (m2 / g).
    const wide m2g = o.m_ / g;
    const wide inv = inverse(emod(m_ / g, m2g), m2g);
    const wide s = emod(emod(diff / g, m2g) * inv, m2g);
    return make_wide(static_cast<wide>(r_) + m_ * s, lcm);
  }

  // ---- arithmetic ----------------------------------------------------------------------
  [[nodiscard]] Congruence add(const Congruence& o) const {
    if (bottom_ || o.bottom_) return bottom();
    return make_wide(static_cast<wide>(r_) + o.r_, gcd(m_, o.m_));
  }
  [[nodiscard]] Congruence neg() const {
    if (bottom_) return *this;
    return make_wide(-static_cast<wide>(r_), m_);
  }
  [[nodiscard]] Congruence sub(const Congruence& o) const { return add(o.neg()); }
  // (r1 + m1 Z)(r2 + m2 Z) = r1 r2 + gcd(r1 m2, r2 m1, m1 m2) Z.
  [[nodiscard]] Congruence mul(const Congruence& o) const {
    if (bottom_ || o.bottom_) return bottom();
    const wide a = wabs(static_cast<wide>(r_) * o.m_);
    const wide b = wabs(static_cast<wide>(o.r_) * m_);
    const wide c = static_cast<wide>(m_) * o.m_;
    // Each factor is below 2^126; their gcd is what the modulus becomes.
    const wide m = gcd3(a, b, c);
    return make_wide(static_cast<wide>(r_) * o.r_, m);
  }
  // Euclidean mod by a constant k != 0: in [0, |k|), congruent to *this modulo
  // gcd(m, |k|); a constant when |k| divides m.
  [[nodiscard]] Congruence mod(std::int64_t k) const {
    if (bottom_) return *this;
    if (k == 0) return top();
    const wide kk = wabs(k);
    if (m_ == 0) return make_wide(emod(r_, kk), 0);
    const wide g = gcd(m_, kk);
    return make_wide(emod(r_, g), g == kk ? 0 : g);
  }
  // The term language's rem: mod(a, k) if k >= 0, else -mod(a, k).
  [[nodiscard]] Congruence rem(std::int64_t k) const { return k >= 0 ? mod(k) : mod(k).neg(); }
  // Euclidean division by a constant k != 0: exact where |k| divides the modulus (the
  // remainder is then the constant mod(r, |k|)), else top.
  [[nodiscard]] Congruence div(std::int64_t k) const {
    if (bottom_) return *this;
    if (k == 0) return top();
    const wide kk = wabs(k);
    if (m_ != 0 && m_ % kk != 0) return top();
    const wide s = emod(r_, kk);
    const Congruence q = make_wide((static_cast<wide>(r_) - s) / kk, m_ / kk);
    return k > 0 ? q : q.neg();
  }

  friend std::ostream& operator<<(std::ostream& os, const Congruence& c) {
    if (c.bottom_) return os << "bottom";
    if (c.m_ == 0) return os << c.r_;
    if (c.m_ == 1) return os << "Z";
    return os << c.r_ << "+" << c.m_ << "Z";
  }

 private:
  // 128-bit intermediates (GCC and Clang; __extension__ keeps -Wpedantic quiet).
  __extension__ typedef __int128 wide;
  static constexpr wide kMax = std::numeric_limits<std::int64_t>::max();

  Congruence(std::int64_t r, std::int64_t m) : r_(r), m_(m) {}

  static wide wabs(wide x) { return x < 0 ? -x : x; }
  static wide emod(wide a, wide m) {
    const wide r = a % m;
    return r < 0 ? r + m : r;
  }
  // std::gcd does not take __int128 in strict C++20 mode.
  static wide gcd(wide a, wide b) {
    a = wabs(a);
    b = wabs(b);
    while (b != 0) {
      const wide t = a % b;
      a = b;
      b = t;
    }
    return a;
  }
  static wide gcd3(wide a, wide b, wide c) { return gcd(gcd(a, b), c); }
  // The inverse of a modulo m (a and m coprime, m >= 1), by the extended Euclid.
  static wide inverse(wide a, wide m) {
    if (m == 1) return 0;
    wide t = 0, nt = 1, r = m, nr = a;
    while (nr != 0) {
      const wide q = r / nr;
      const wide t2 = t - q * nt;
      t = nt;
      nt = t2;
      const wide r2 = r - q * nr;
      r = nr;
      nr = r2;
    }
    return emod(t, m);
  }
  static Congruence make(std::int64_t r, std::int64_t m) { return make_wide(r, m); }
  // r + mZ from wide values: the residue reduced to [0, m), top when it does not fit.
  static Congruence make_wide(wide r, wide m) {
    if (m < 0) m = -m;
    if (m > kMax) return top();
    if (m == 0) {
      if (r > kMax || r < -kMax - 1) return top();
      return {static_cast<std::int64_t>(r), 0};
    }
    return {static_cast<std::int64_t>(emod(r, m)), static_cast<std::int64_t>(m)};
  }

  std::int64_t r_ = 0;
  std::int64_t m_ = 1;
  bool bottom_ = false;
};

}  // namespace precis
