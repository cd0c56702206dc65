#pragma once
// Arbitrary-precision integers for counterexamples and their replay.
//
// The analyses evaluate on std::int64_t (overflow gives "unknown", expr/eval.hpp), but a
// counterexample is a concrete execution over the mathematical integers of the model:
// its values may need more than 64 bits (an input that must be 2^63 + 5), and the replay
// that confirms it must never wrap. BigInt is Boost.Multiprecision's cpp_int
// (header-only, unbounded, no allocation for values of up to two limbs).

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <boost/multiprecision/cpp_int.hpp>

namespace precis {

using BigInt = boost::multiprecision::cpp_int;

// Exact decimal text: an optional '-' and digits.
inline std::string to_string(const BigInt& x) { return x.str(); }

// The value as std::int64_t, or nullopt when it does not fit.
inline std::optional<std::int64_t> to_int64(const BigInt& x) {
  if (x < std::numeric_limits<std::int64_t>::min() || x > std::numeric_limits<std::int64_t>::max())
    return std::nullopt;
  return x.convert_to<std::int64_t>();
}

// A BigInt from decimal text (an optional '-' and at least one digit), or nullopt.
inline std::optional<BigInt> parse_big_int(const std::string& s) {
  std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  if (i == s.size()) return std::nullopt;
  for (std::size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
  while (i + 1 < s.size() && s[i] == '0') ++i;  // Boost reads a leading 0 as octal
  BigInt v(s.substr(i));
  return s[0] == '-' ? BigInt(-v) : v;
}

}  // namespace precis
