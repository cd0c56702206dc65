#pragma once
// Infeasible sliced prefixes of an infeasible error path (sliced-prefixes paper, section
// III, Alg. 3 "ExtractSlicedPrefixes").
//
// The walk goes through the path once, keeping the sliced prefix seen so far feasible:
// an assume that contradicts it ends one infeasible sliced prefix (the walk so far plus
// that assume) and enters the walk that goes on as a no-op (Skip). Every prefix is an
// ErrorPath with the same start whose positions equal those of the original path, so
// any refiner can interpolate it and its increments (i, P) apply to the original path
// as they are; by the paper's proposition (III-B1) every interpolant sequence of a
// sliced prefix is one of the original path.
//
// Feasibility is a policy, chosen by the refiner a prefix serves (prefix_provider):
//   ExplicitPrefixes  the explicit-value strongest post (section II-C.3; no solver),
//                     here;
//   SmtPrefixes       one incremental cvc5 pass over the SSA path formula, in
//                     refine/sliced_prefixes_smt.hpp (only SMT users include it).
// A policy's `step(op)` answers whether op contradicts the prefix so far and, if not,
// appends it: O(1) solver calls or one explicit post per step. Copying the walk into
// each prefix costs O(n) per prefix; nothing is rescanned.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/core/limits.hpp"
#include "precis/domains/explicit/explicit_domain.hpp"
#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/path/error_path.hpp"
#include "precis/refine/explicit_refiner.hpp"

namespace precis {

// The no-op that replaces a contradicting assume in the walk (Alg. 3: "op := no-op").
inline const Operation& skip_operation() {
  static const Operation op = Skip{};
  return op;
}

// Step i of `path` as a no-op on the same CFA edge (same locations, so positions and
// locations of a sliced prefix are those of the original path).
inline EdgeRef sliced_step(const EdgeRef& s) {
  return EdgeRef{s.edge, s.source, s.target, &skip_operation()};
}

// One infeasible sliced prefix: `path` has the original start and the steps 0..end of
// the original path, where the assumes at `sliced` (ascending, all < end) are no-ops.
// Its last step, `end`, is the assume that contradicts the rest.
struct SlicedPrefix {
  ErrorPath path;
  std::size_t end = 0;              // position of the contradicting assume
  std::vector<std::size_t> sliced;  // positions replaced by no-ops

  [[nodiscard]] std::size_t length() const noexcept { return path.size(); }
};

enum class PrefixStep : std::uint8_t {
  Extended,      // the op was appended to the prefix
  Contradicting  // the op (an assume) contradicts the prefix: it was not appended
};

// A feasibility policy for Alg. 3: start() begins an empty prefix; step(op) decides
// whether op contradicts the prefix so far (only assumes can) and appends it if not;
// finish() ends the walk (e.g. pops solver frames; a second call does nothing). A policy
// may answer Extended for an assume it cannot decide: the prefixes it reports are still
// infeasible, it just reports fewer.
template <class F>
concept PrefixFeasibility = requires(F& f, const Operation& op) {
  f.start();
  { f.step(op) } -> std::same_as<PrefixStep>;
  f.finish();
};

// Alg. 3 over any feasibility policy. Returns the infeasible sliced prefixes in path
// order (the i-th ends at the i-th contradicting assume); none if the policy finds the
// path feasible. Throws limit_reached when `deadline` passes.
template <PrefixFeasibility F>
std::vector<SlicedPrefix> extract_sliced_prefixes(const ErrorPath& path, F& feasibility,
                                                  const Deadline& deadline = {}) {
  std::vector<SlicedPrefix> out;
  std::vector<EdgeRef> walk;  // the feasible sliced prefix so far (sigma_f of Alg. 3)
  std::vector<std::size_t> sliced;
  walk.reserve(path.size());
  // finish() also when a limit ends the walk (limit_reached from the policy or the
  // deadline); there an error of finish() itself must not escape a destructor.
  struct Finish {
    F& f;
    bool done = false;
    ~Finish() {
      if (done) return;
      try {
        f.finish();
      } catch (...) {  // NOLINT(bugprone-empty-catch): already unwinding
      }
    }
  };
  feasibility.start();
  Finish finish{feasibility};
  for (std::size_t i = 0; i < path.size(); ++i) {
    if ((i & 63U) == 0) deadline.check();
    const EdgeRef& s = path.steps[i];
    if (feasibility.step(*s.op) == PrefixStep::Extended) {
      walk.push_back(s);
      continue;
    }
    SlicedPrefix p;
    p.path.start = path.start;
    p.path.steps.reserve(walk.size() + 1);
    p.path.steps.assign(walk.begin(), walk.end());
    p.path.steps.push_back(s);
    p.end = i;
    p.sliced = sliced;
    out.push_back(std::move(p));
    walk.push_back(sliced_step(s));
    sliced.push_back(i);
  }
  finish.done = true;
  feasibility.finish();
  return out;
}

// The explicit-value policy: SP of the prefix so far (one explicit post per step). An
// assume contradicts exactly when SP becomes bottom (section II-C.3); assignments and
// havocs never do.
class ExplicitPrefixFeasibility {
 public:
  void start() { state_ = ExplicitState{}; }
  PrefixStep step(const Operation& op) {
    ExplicitState next = explicit_post(state_, op);
    if (next.is_bottom()) return PrefixStep::Contradicting;
    state_ = std::move(next);
    return PrefixStep::Extended;
  }
  void finish() {}
  [[nodiscard]] const ExplicitState& state() const noexcept { return state_; }

 private:
  ExplicitState state_;
};

static_assert(PrefixFeasibility<ExplicitPrefixFeasibility>);

// A prefix provider: `extract(path)` gives the infeasible sliced prefixes of a path.
template <class P>
concept PrefixProvider = requires(P& p, const ErrorPath& path) {
  { p.extract(path) } -> std::same_as<std::vector<SlicedPrefix>>;
};

// Alg. 3 with the explicit strongest post: no solver.
class ExplicitPrefixes {
 public:
  explicit ExplicitPrefixes(Deadline deadline = {}) : deadline_(std::move(deadline)) {}
  std::vector<SlicedPrefix> extract(const ErrorPath& path) {
    ExplicitPrefixFeasibility f;
    return extract_sliced_prefixes(path, f, deadline_);
  }

 private:
  Deadline deadline_;
};

static_assert(PrefixProvider<ExplicitPrefixes>);

// The prefix provider that matches a refiner: explicit prefixes for explicit-value
// refiners, SMT prefixes for SMT-based ones (specialised in sliced_prefixes_smt.hpp).
//   using type = ...;  static type make(const Cfa&, Inner&);
template <class Inner>
struct prefix_provider;

template <class Inner>
using prefix_provider_t = typename prefix_provider<Inner>::type;

template <>
struct prefix_provider<ExplicitRefiner> {
  using type = ExplicitPrefixes;
  static type make(const Cfa& /*cfa*/, ExplicitRefiner& r) {
    return ExplicitPrefixes(r.deadline());
  }
};

}  // namespace precis
