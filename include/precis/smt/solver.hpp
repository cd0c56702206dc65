#pragma once
// The SmtSolver concept: what predicate domains and refiners need of a solver.
//
// Formulas are precis Terms of one ExprManager (the solver's `manager()`); for path
// formulas that is the SSA manager of precis::SsaVars (smt/path_formula.hpp), whose
// variables are the per-step copies `x@k` of the program's variables. cvc5 is one
// implementation (smt/cvc5_solver.hpp); this header needs no solver library, so code
// written against the concept compiles without cvc5.

#include <chrono>
#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "precis/core/array_value.hpp"
#include "precis/core/big_int.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/term.hpp"

namespace precis {

enum class SatResult : std::uint8_t { Sat, Unsat, Unknown };

inline const char* to_string(SatResult r) {
  switch (r) {
    case SatResult::Sat: return "sat";
    case SatResult::Unsat: return "unsat";
    case SatResult::Unknown: return "unknown";
  }
  return "?";
}

// Counters of one solver instance (the run statistics add them up; no globals).
struct SolverStats {
  std::uint64_t checks = 0;  // check() and check_assuming() calls
  std::uint64_t sat = 0;
  std::uint64_t unsat = 0;
  std::uint64_t unknown = 0;  // final answers that stayed unknown after the retry
  std::uint64_t retries = 0;  // checks repeated with the fallback options
  std::uint64_t qe_calls = 0;
  std::uint64_t qe_declined = 0;  // non-linear or too large: not given to the solver
  std::uint64_t simplify_calls = 0;
  std::uint64_t interpolation_calls = 0;
  std::uint64_t declined_near_deadline = 0;  // checks too large for the time left
  std::chrono::nanoseconds time{0};          // wall time spent inside the solver

  [[nodiscard]] std::uint64_t calls() const noexcept {
    return checks + qe_calls + simplify_calls + interpolation_calls;
  }
  [[nodiscard]] double seconds() const noexcept {
    return std::chrono::duration<double>(time).count();
  }
  SolverStats& operator+=(const SolverStats& o) noexcept {
    checks += o.checks;
    sat += o.sat;
    unsat += o.unsat;
    unknown += o.unknown;
    retries += o.retries;
    qe_calls += o.qe_calls;
    qe_declined += o.qe_declined;
    simplify_calls += o.simplify_calls;
    interpolation_calls += o.interpolation_calls;
    declined_near_deadline += o.declined_near_deadline;
    time += o.time;
    return *this;
  }
};

// The time limit of one solver call: the call's own limit `cap_ms` (0: none)
// min'd with the time left before the run's deadline. `by_deadline` says the deadline,
// not the cap, bounds the call: a call that then runs out of time ran out of the run's
// budget, and must end the run (limit_reached), not answer "unknown".
struct CallLimit {
  std::uint64_t ms = 0;  // 0: no limit
  bool by_deadline = false;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// Throws limit_reached when the deadline has passed.
inline CallLimit call_limit(const Deadline& d, std::uint64_t cap_ms) {
  d.check();
  if (d.none()) return {cap_ms, false};
  const std::uint64_t left = d.remaining_ms(0);  // 0 only if it passed since check()
  if (left == 0) throw limit_reached(LimitKind::Time, d.reason);
  if (cap_ms == 0 || left < cap_ms) return {left, true};
  return {cap_ms, false};
}

// After a call under `l` gave no answer: if that was for want of the run's time (the
// deadline passed, or the call used up a limit the deadline set), throws limit_reached.
inline void throw_if_out_of_time(const Deadline& d, const CallLimit& l) {
  d.check();
  if (!l.by_deadline) return;
  const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - l.start);
  // remaining_ms() rounds down: a call that used (nearly) all of it hit the deadline.
  if (static_cast<std::uint64_t>(used.count()) + 2 >= l.ms)
    throw limit_reached(LimitKind::Time, d.reason);
}

// Admission near the deadline. cvc5 1.0.3 looks at its time limit only once
// its search runs: preprocessing, clausification and theory registration of a large
// formula run to their end, past the run's deadline (measured: a flat disjunction of
// 730,000 nodes took 8.5 s in one check under a limit of 5 s; a block formula of 30,000
// nodes 0.7 s). A check whose formula has `nodes` nodes to take in is therefore not
// started when, at `ns_per_node`, they need more than the time left: limit_reached now,
// so the run ends by its own limit with its statistics instead of by the watchdog.
// kSolverNsPerNode is the conservative rate (20 us per node: the worst measured above
// was 12) for a solver that has not measured its own.
inline constexpr double kSolverNsPerNode = 20000;
inline bool fits_before_deadline(const Deadline& d, std::uint64_t nodes,
                                 double ns_per_node = kSolverNsPerNode) {
  if (d.none()) return true;
  return static_cast<double>(nodes) * ns_per_node <= static_cast<double>(d.remaining_ms()) * 1e6;
}

// Required operations. Semantics:
//  - push()/pop(): assertion frames; assert_(f) adds a Bool term to the top frame.
//  - check(): satisfiability of the asserted formulas; check_assuming(as) of the
//    asserted formulas and the Bool terms `as` (which are not kept).
//  - value(t): after Sat, the model value of t (Booleans as 0/1), or nullopt when it
//    does not fit std::int64_t (variables are mathematical integers).
//  Optional: big_value(t) -> std::optional<BigInt>, the exact model value (nullopt only
//  if it is not an integer or Boolean); model_value() below uses it when present.
//  - unsat_core(): after Unsat of check_assuming, a subset of its assumptions that is
//    still unsat with the assertions (the terms as they were passed).
//  - simplify(t): an equivalent term (t itself when nothing better is found).
//  - eliminate_exists(vars, phi): a quantifier-free term equivalent to
//    `exists vars. phi`, or nullopt when the solver cannot eliminate them (or the
//    result leaves the fragment precis Terms express, or the input is outside what the
//    solver eliminates reliably, e.g. non-linear).
//  - reason_unknown(): why the last check answered Unknown.
// A solver with a time budget (Cvc5Options::deadline) throws limit_reached from any of
// these once the budget is spent, rather than answering Unknown / nullopt.
template <class S>
concept SmtSolver = requires(S& s, const S& cs, Term t, std::span<const Term> ts,
                             std::span<const VarId> vs) {
  { s.manager() } -> std::same_as<ExprManager&>;
  s.push();
  s.pop();
  s.assert_(t);
  { s.check() } -> std::same_as<SatResult>;
  { s.check_assuming(ts) } -> std::same_as<SatResult>;
  { s.value(t) } -> std::same_as<std::optional<std::int64_t>>;
  { s.unsat_core() } -> std::same_as<std::vector<Term>>;
  { s.simplify(t) } -> std::same_as<Term>;
  { s.eliminate_exists(vs, t) } -> std::same_as<std::optional<Term>>;
  { cs.reason_unknown() } -> std::convertible_to<std::string>;
  { cs.stats() } -> std::convertible_to<const SolverStats&>;
};

// The exact model value of `t` after Sat: big_value() when the solver has it, else
// value() (then nullopt for values beyond std::int64_t). Counterexamples read their
// inputs with it: they are replayed over arbitrary-precision integers.
template <SmtSolver S>
std::optional<BigInt> model_value(S& s, Term t) {
  if constexpr (requires {
                  { s.big_value(t) } -> std::same_as<std::optional<BigInt>>;
                }) {
    return s.big_value(t);
  } else {
    auto v = s.value(t);
    if (!v) return std::nullopt;
    return BigInt(*v);
  }
}

// The model value of an array term after Sat, from a solver that has arrays
// (Cvc5Solver::array_value); nullopt from one that does not.
template <SmtSolver S>
std::optional<ArrayValue> model_array(S& s, Term t) {
  if constexpr (requires {
                  { s.array_value(t) } -> std::same_as<std::optional<ArrayValue>>;
                }) {
    return s.array_value(t);
  } else {
    return std::nullopt;
  }
}

// One input of a counterexample (a variable's initial value or a havoc's choice) from
// the model: the value of `t`, the SSA term of variable x, into `scalar`, or for an array
// variable into arrays[key]. False, with `reason`, when the model has no such value.
template <SmtSolver S>
bool read_model_input(S& s, const ExprManager& base, VarId x, Term t, BigInt& scalar,
                      std::map<std::size_t, ArrayValue>& arrays, std::size_t key,
                      std::string& reason) {
  if (base.variable(x).type == Type::Array) {
    auto a = model_array(s, t);
    if (!a) {
      reason = "the model has no array value for '" + base.variable(x).name + "'";
      return false;
    }
    arrays.insert_or_assign(key, std::move(*a));
    return true;
  }
  auto v = model_value(s, t);
  if (!v) {
    reason = "the model has no integer value for '" + base.variable(x).name + "'";
    return false;
  }
  scalar = std::move(*v);
  return true;
}

// The deadline of a solver that has one (Cvc5Solver), else none: code that does long
// work of its own around the solver's calls (encoding a path, rebuilding terms) polls it.
template <class S>
Deadline solver_deadline(const S& solver) {
  if constexpr (requires { solver.deadline(); })
    return solver.deadline();
  else
    return Deadline{};
}

// Optional: binary Craig interpolation. interpolate(a, b) with a /\ b unsat returns I
// with a => I, I /\ b unsat and I over the shared variables, or nullopt.
template <class S>
concept InterpolatingSolver = SmtSolver<S> && requires(S& s, Term a, Term b) {
  { s.interpolate(a, b) } -> std::same_as<std::optional<Term>>;
};

// RAII frame: pops on scope exit.
template <SmtSolver S>
class SolverScope {
 public:
  explicit SolverScope(S& s) : s_(s) { s_.push(); }
  ~SolverScope() { s_.pop(); }
  SolverScope(const SolverScope&) = delete;
  SolverScope& operator=(const SolverScope&) = delete;

 private:
  S& s_;
};

}  // namespace precis
