#pragma once
// Bound markers: where a front end unrolls something only up to a bound (recursion
// inlined N calls deep by the C front end), the edge that would go deeper leads to the error
// location through `havoc V` of a marker variable V named `__precis_bound_<why>`, e.g.
// `__precis_bound_recursion_deeper_than_64`.
//
// So every analysis treats the marker as an error: SAFE (the error location unreachable)
// also proves that no path exceeds the bound, and stays sound. But a path through a
// marker is not an execution of the program: a counterexample that passes one is turned
// into UNKNOWN with the bound as the reason (reject_bound_marker_paths), never reported
// as UNSAFE. Only a path that stays inside the bound is a counterexample.

#include <optional>
#include <string>
#include <string_view>

#include "precis/core/result.hpp"

namespace precis {

inline constexpr std::string_view bound_marker_prefix = "__precis_bound_";

// The marker variable for a bound described by `why` (words separated by spaces).
inline std::string bound_marker_name(std::string_view why) {
  std::string name(bound_marker_prefix);
  for (char c : why) name += c == ' ' ? '_' : c;
  return name;
}

// Whether a variable is a bound marker (no input: the translation ends at its havoc).
inline bool is_bound_marker(std::string_view var) { return var.starts_with(bound_marker_prefix); }

// The bound a marker variable stands for ("recursion deeper than 64"); nullopt for any
// other variable.
inline std::optional<std::string> marker_bound(std::string_view var) {
  if (!is_bound_marker(var)) return std::nullopt;
  std::string why(var.substr(bound_marker_prefix.size()));
  for (char& c : why)
    if (c == '_') c = ' ';
  return why;
}

// The bound a counterexample exceeds ("recursion deeper than 64"), if it passes a marker.
inline std::optional<std::string> exceeded_bound(const Counterexample& cx) {
  for (const CounterexampleStep& s : cx.steps) {
    if (!s.operation.starts_with("havoc ")) continue;
    if (auto why = marker_bound(std::string_view(s.operation).substr(6))) return why;
  }
  return std::nullopt;
}

// An UNSAFE result whose counterexample passes a bound marker becomes UNKNOWN.
inline void reject_bound_marker_paths(VerificationResult& r) {
  if (r.verdict != Verdict::Unsafe || !r.counterexample) return;
  const auto why = exceeded_bound(*r.counterexample);
  if (!why) return;
  r.verdict = Verdict::Unknown;
  r.reason = "the error path found exceeds a bound of the translation (" + *why +
             "): it is not an execution of the program";
  r.counterexample.reset();
}

}  // namespace precis
