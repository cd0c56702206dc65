#pragma once
// Verdicts, counterexamples and run statistics.
//
// A verdict is sacred: UNSAFE only with a counterexample that the concrete interpreter
// replayed, SAFE only with a complete, covered ARG. Everything else is UNKNOWN with a
// reason a user can act on.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "precis/core/big_int.hpp"

namespace precis {

enum class Verdict : std::uint8_t { Safe, Unsafe, Unknown };

inline const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Safe: return "SAFE";
    case Verdict::Unsafe: return "UNSAFE";
    case Verdict::Unknown: return "UNKNOWN";
  }
  return "UNKNOWN";
}

// One step of a concrete error path: the CFA edge taken (by location names and its
// operation in .cfa syntax) and the variables it wrote with their new values (exact,
// arbitrary-precision: a counterexample may need values beyond 64 bits). Only the
// changes: a path of n steps over m variables costs O(n + m), not O(n * m) (20,000
// variables on a 20,000-step path would be 3.2 GB of values).
struct CounterexampleStep {
  std::string from;
  std::string to;
  std::string operation;
  std::uint32_t line = 0;
  std::vector<std::pair<std::uint32_t, BigInt>> changes;  // (VarId, new value)
  // Source column of the statement (0 if unknown), and for a step that chose the return
  // value of a nondeterministic function (a havoc the C front end made for a call of
  // __VERIFIER_nondet_int, ...), that function: witnesses report the value as \result.
  std::uint32_t column = 0;
  std::string nondet;
};

struct Counterexample {
  std::vector<std::string> variables;  // names, indexed by VarId
  std::vector<BigInt> initial;         // the chosen initial value of every variable
  std::vector<CounterexampleStep> steps;
  // Array variables (issue 26): their slots in `initial` and the changes are unused; the
  // arrays the path starts with or havocs are `array_inputs`, one line each.
  std::vector<std::size_t> array_vars;
  std::vector<std::string> array_inputs;

  [[nodiscard]] bool is_array(std::size_t v) const {
    return std::find(array_vars.begin(), array_vars.end(), v) != array_vars.end();
  }

  // The value of every variable after step i (0-based); O(i + variables).
  [[nodiscard]] std::vector<BigInt> values_after(std::size_t i) const {
    std::vector<BigInt> v = initial;
    for (std::size_t k = 0; k <= i && k < steps.size(); ++k)
      for (const auto& [x, val] : steps[k].changes) v.at(x) = val;
    return v;
  }
  // After the last step (the initial values for an empty path).
  [[nodiscard]] std::vector<BigInt> final_values() const {
    return steps.empty() ? initial : values_after(steps.size() - 1);
  }
};

// Wall-clock stopwatch that accumulates into a double (seconds).
class Stopwatch {
 public:
  explicit Stopwatch(double& sink) : sink_(sink), start_(std::chrono::steady_clock::now()) {}
  Stopwatch(const Stopwatch&) = delete;
  Stopwatch& operator=(const Stopwatch&) = delete;
  ~Stopwatch() {
    sink_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  double& sink_;
  std::chrono::steady_clock::time_point start_;
};

// Statistics of one analysis run (no globals: each run owns its own).
struct Statistics {
  std::size_t refinements = 0;
  std::size_t cpa_runs = 0;
  std::size_t expanded_nodes = 0;  // nodes whose successors were computed
  std::size_t created_nodes = 0;   // ARG nodes ever created
  std::size_t arg_nodes = 0;       // live ARG nodes at the end
  std::size_t covered_nodes = 0;   // live ARG nodes covered at the end
  std::size_t reached_size = 0;    // reached set at the end
  std::size_t pruned_nodes = 0;    // nodes removed by refinements
  std::size_t precision_size = 0;  // sum over locations of the tracked facts
  double time_total = 0;           // seconds
  double time_cpa = 0;
  double time_refinement = 0;
  double time_feasibility = 0;
  // Domain- or refiner-specific counters (e.g. "solver calls").
  std::map<std::string, double> extra;
  // Named lists of facts an analysis ends with (e.g. "prod dropped variables", and
  // "prod predicates of x": the predicates kept for x).
  std::map<std::string, std::vector<std::string>> lists;
};

struct VerificationResult {
  Verdict verdict = Verdict::Unknown;
  std::string reason;  // why UNKNOWN; a short note otherwise
  std::optional<Counterexample> counterexample;
  // SAFE and proved by the independent certificate checker (certify/certify.hpp).
  bool certified = false;
  Statistics stats;
};

}  // namespace precis
