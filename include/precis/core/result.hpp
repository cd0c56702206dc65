#pragma once
// Verdicts, counterexamples and run statistics.
//
// A verdict is sacred: UNSAFE only with a counterexample that the concrete interpreter
// replayed, SAFE only with a complete, covered ARG. Everything else is UNKNOWN with a
// reason a user can act on.

#include <algorithm>
#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <span>
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

// The text of one CFA edge as a counterexample shows it: location names, its operation
// in .cfa syntax, the source line and column (0 if unknown), and for an edge that chose
// the return value of a nondeterministic function (a havoc the C front end made for a
// call of __VERIFIER_nondet_int, ...), that function: witnesses report the value as
// \result. Stored once per edge and shared by every step that takes it.
struct CounterexampleEdge {
  std::string from{};
  std::string to{};
  std::string operation{};
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string nondet{};
};

// A variable a step wrote, with its new value (exact, arbitrary-precision: a
// counterexample may need values beyond 64 bits).
using CounterexampleChange = std::pair<std::uint32_t, BigInt>;  // (VarId, new value)

// One step of a concrete error path as it is read: the CFA edge taken and the variables
// it wrote. A view into its Counterexample (valid while that lives and is not changed).
struct CounterexampleStep {
  const std::string& from;
  const std::string& to;
  const std::string& operation;
  std::uint32_t line = 0;
  std::span<const CounterexampleChange> changes;
  std::uint32_t column = 0;
  const std::string& nondet;
};

// The steps of a counterexample, compact: per step the index of its edge's text and
// where its changes start (12 bytes), the changes in one array. A path of n steps over m
// variables costs O(n + m), not O(n * m) (20,000 variables on a 20,000-step path would be
// 3.2 GB of values); a run of millions of steps through a few edges (the random
// simulation's, algorithms/random_simulation.hpp) costs 12 bytes a step plus 40 a change,
// where a step holding its own strings and vector cost 360 bytes.
class CounterexampleSteps {
 public:
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = CounterexampleStep;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = CounterexampleStep;

    iterator() = default;
    iterator(const CounterexampleSteps* s, std::size_t i) : s_(s), i_(i) {}
    CounterexampleStep operator*() const { return (*s_)[i_]; }
    CounterexampleStep operator[](difference_type k) const { return (*s_)[i_ + k]; }
    iterator& operator++() { return ++i_, *this; }
    iterator operator++(int) { return {s_, i_++}; }
    iterator& operator--() { return --i_, *this; }
    iterator operator--(int) { return {s_, i_--}; }
    iterator& operator+=(difference_type k) { return i_ += k, *this; }
    iterator& operator-=(difference_type k) { return i_ -= k, *this; }
    friend iterator operator+(iterator a, difference_type k) { return a += k; }
    friend iterator operator+(difference_type k, iterator a) { return a += k; }
    friend iterator operator-(iterator a, difference_type k) { return a -= k; }
    friend difference_type operator-(const iterator& a, const iterator& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }
    friend auto operator<=>(const iterator& a, const iterator& b) { return a.i_ <=> b.i_; }

   private:
    const CounterexampleSteps* s_ = nullptr;
    std::size_t i_ = 0;
  };

  // Adds an edge's text; returns its index for push_back.
  std::uint32_t add_edge(CounterexampleEdge e) {
    edges_.push_back(std::move(e));
    return static_cast<std::uint32_t>(edges_.size() - 1);
  }
  // Appends a step over edge `edge` (an index add_edge returned) with no changes yet.
  void push_back(std::uint32_t edge) {
    edge_.push_back(edge);
    first_change_.push_back(changes_.size());
  }
  // Appends a step with its own text (tests, hand-made counterexamples).
  void push_back(CounterexampleEdge e, std::vector<CounterexampleChange> changes = {}) {
    push_back(add_edge(std::move(e)));
    for (auto& c : changes) add_change(c.first, std::move(c.second));
  }
  // Adds a change to the last step.
  void add_change(std::uint32_t var, BigInt value) { changes_.emplace_back(var, std::move(value)); }
  void reserve(std::size_t steps) {
    edge_.reserve(steps);
    first_change_.reserve(steps);
  }
  void reserve_changes(std::size_t n) { changes_.reserve(n); }

  [[nodiscard]] std::size_t size() const { return edge_.size(); }
  [[nodiscard]] bool empty() const { return edge_.empty(); }
  [[nodiscard]] CounterexampleStep operator[](std::size_t i) const {
    const CounterexampleEdge& e = edges_[edge_[i]];
    const std::size_t end = i + 1 < first_change_.size() ? first_change_[i + 1] : changes_.size();
    return {e.from,
            e.to,
            e.operation,
            e.line,
            std::span<const CounterexampleChange>(changes_).subspan(first_change_[i],
                                                                    end - first_change_[i]),
            e.column,
            e.nondet};
  }
  [[nodiscard]] CounterexampleStep front() const { return (*this)[0]; }
  [[nodiscard]] CounterexampleStep back() const { return (*this)[size() - 1]; }
  [[nodiscard]] iterator begin() const { return {this, 0}; }
  [[nodiscard]] iterator end() const { return {this, size()}; }
  // The distinct edge texts (at most one per CFA edge for a replayed path).
  [[nodiscard]] std::size_t edge_count() const { return edges_.size(); }
  // Bytes held, for limits and benchmarks.
  [[nodiscard]] std::size_t bytes() const {
    return edge_.capacity() * sizeof(std::uint32_t) +
           first_change_.capacity() * sizeof(std::size_t) +
           changes_.capacity() * sizeof(CounterexampleChange) +
           edges_.capacity() * sizeof(CounterexampleEdge);
  }

 private:
  std::vector<CounterexampleEdge> edges_;
  std::vector<std::uint32_t> edge_;        // by step: index into edges_
  std::vector<std::size_t> first_change_;  // by step: its first change in changes_
  std::vector<CounterexampleChange> changes_;
};

struct Counterexample {
  std::vector<std::string> variables;  // names, indexed by VarId
  std::vector<BigInt> initial;         // the chosen initial value of every variable
  CounterexampleSteps steps;
  // Array variables (C arrays): their slots in `initial` and the changes are unused; the
  // arrays the path starts with or havocs are `array_inputs`, one line each.
  std::vector<std::size_t> array_vars;
  std::vector<std::string> array_inputs;

  // Floating-point variables, by VarId: 32 (float) or 64 (double); 0 (or no entry) for
  // the others. Their values here are IEEE bit patterns (expr/floating_point.hpp), exact;
  // io/report.hpp prints them as the shortest decimal that reads back to the value.
  std::vector<std::uint8_t> float_width;

  [[nodiscard]] bool is_array(std::size_t v) const {
    return std::find(array_vars.begin(), array_vars.end(), v) != array_vars.end();
  }
  [[nodiscard]] unsigned float_width_of(std::size_t v) const {
    return v < float_width.size() ? float_width[v] : 0U;
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
