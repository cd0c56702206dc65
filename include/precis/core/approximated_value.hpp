#pragma once
// Values a translation over-approximates, and the counterexamples that must not use them.
//
// The C front end reads a math library function that IEEE 754 does not define exactly
// (sin, exp, pow, fmod, ...) as a nondeterministic value of its type, constrained only
// where C bounds it (frontends/c/src/floating.cpp). That is sound for SAFE: every value
// the function returns is among them. It is not evidence for UNSAFE: an error path may
// need a value the function never returns. reject_approximated_paths turns such an
// UNSAFE into UNKNOWN, as reject_bound_marker_paths (core/bound_marker.hpp) does for
// paths beyond a bound of the translation.

#include <string>
#include <string_view>

#include "precis/core/result.hpp"

namespace precis {

// The math functions read as over-approximated values, by base name: gcc's __builtin_
// and glibc's __ prefixes and the f and l suffixes are stripped by the caller
// (approximated_function).
inline constexpr std::string_view approximated_math_functions[] = {
    "sin",   "cos",  "tan",  "asin",  "acos",  "atan",     "atan2", "sinh",
    "cosh",  "tanh", "exp",  "exp2",  "expm1", "log",      "log2",  "log10",
    "log1p", "pow",  "cbrt", "hypot", "fmod",  "remainder"};

// Whether `name` (as called: sinf, __builtin_sin, __ieee754_pow is not one) is such a
// function.
inline bool approximated_function(std::string_view name) {
  for (std::string_view p : {"__builtin_", "__"})
    if (name.starts_with(p)) {
      name.remove_prefix(p.size());
      break;
    }
  for (std::string_view base : approximated_math_functions) {
    if (name == base) return true;
    if (name.size() == base.size() + 1 && name.starts_with(base) &&
        (name.back() == 'f' || name.back() == 'l'))
      return true;
  }
  return false;
}

// The first function whose over-approximated value the counterexample takes, if any.
inline std::string approximated_value_used(const Counterexample& cex) {
  for (const auto& s : cex.steps)
    if (!s.nondet.empty() && approximated_function(s.nondet)) return s.nondet;
  return {};
}

inline void reject_approximated_paths(VerificationResult& r) {
  if (r.verdict != Verdict::Unsafe || !r.counterexample) return;
  const std::string f = approximated_value_used(*r.counterexample);
  if (f.empty()) return;
  r.verdict = Verdict::Unknown;
  r.reason = "the error path found takes a value of '" + f +
             "', which precis over-approximates (any value of its type in the range C "
             "gives it): it is not a confirmed execution of the program";
  r.counterexample.reset();
}

}  // namespace precis
