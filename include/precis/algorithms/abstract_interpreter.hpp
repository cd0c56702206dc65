#pragma once
// Abstract interpretation of a CFA with widening (the `ai-box` / `ai-boxes` analyses of
// precis-verify; the VINTA paper's ExpandArg without refinement, section 3): the third family
// of algorithms beside the CPA algorithm and CEGAR, not inside them.
//
// Chaotic iteration in weak topological order (Bourdoncle; cfa/weak_topological_order.hpp,
// iterative, no recursion): a worklist ordered by WTO position, so a loop's body is
// stable before its exit is taken. At the heads of components (every cycle of the CFA
// passes one) the new value is widened once the head has been updated `widen_delay`
// times (the paper widens every third unrolling); elsewhere it is joined. After the
// ascending phase, `narrowing_rounds` descending rounds recompute every location from its
// predecessors (sound: from any over-approximation X of the reachable states, the
// abstract post F(X) is one too) and, where the domain has `narrow`, narrow at heads.
//
// The result is a map location -> element. The error location's element is bottom
// exactly when the analysis proves it unreachable; certify/invariant_check.hpp turns the
// map into a solver-checked certificate (initiation, consecution, exclusion of the
// error) before anyone says SAFE.
//
// The domain D needs: element, bottom(), is_bottom, leq, join, widen, and
// post(element, Operation) -> element; top() if it has one (else a default-constructed
// element is top); narrow(a, b) optionally.
//
// Cost: O(WTO depth * edges) domain operations per widening round, as Bourdoncle's
// iteration; the worklist is a std::set keyed by WTO position (log n per push).

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/weak_topological_order.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/limits.hpp"

namespace precis {

struct AbstractInterpreterOptions {
  std::uint32_t widen_delay = 3;       // widen at a head from its widen_delay-th update on
  std::uint32_t narrowing_rounds = 2;  // descending rounds after the fixpoint
  std::size_t max_updates = 0;         // 0: none; else give up (UNKNOWN) beyond it
};

template <class E>
struct AbstractInterpretation {
  std::vector<E> values;  // per location (bottom where unreachable)
  bool complete = false;  // a post-fixpoint was reached (else: limit, see reason)
  std::string reason;
  std::size_t updates = 0;          // location values changed in the ascending phase
  std::size_t widenings = 0;        // widenings applied
  std::size_t posts = 0;            // abstract posts computed
  std::size_t narrowing_steps = 0;  // values lowered by the descending rounds
};

template <InterpretableDomain D>
class AbstractInterpreter {
 public:
  using element = typename D::element;

  AbstractInterpreter(const Cfa& cfa, D domain, AbstractInterpreterOptions opts = {})
      : cfa_(&cfa), d_(std::move(domain)), opts_(opts), wto_(cfa) {}

  [[nodiscard]] const D& domain() const noexcept { return d_; }
  [[nodiscard]] const WeakTopologicalOrder& wto() const noexcept { return wto_; }

  [[nodiscard]] AbstractInterpretation<element> run(const Limits* limits = nullptr) const {
    const Cfa& cfa = *cfa_;
    const std::size_t n = cfa.num_locations();
    AbstractInterpretation<element> out;
    out.values.assign(n, d_.bottom());
    if (n == 0) {
      out.complete = true;
      return out;
    }
    const Loc init = cfa.initial_location();
    out.values[init] = top();
    std::vector<std::uint32_t> head_updates(n, 0);
    std::set<std::pair<std::size_t, Loc>> work;  // (WTO position, location)
    const auto push = [&](Loc l) {
      if (wto_.is_ordered(l)) work.emplace(wto_.position(l), l);
    };
    push(init);
    while (!work.empty()) {
      // One clock read per location taken from the worklist: a post of a disjunctive
      // domain over a large block can take milliseconds.
      if (limits && limits->timed_out()) {
        out.reason = limits->time_reason();
        return out;
      }
      const Loc l = work.begin()->second;
      work.erase(work.begin());
      const element from = out.values[l];
      if (d_.is_bottom(from)) continue;
      for (auto e : cfa.out_edges(l)) {
        const Loc t = cfa.target(e);
        ++out.posts;
        element v = d_.post(from, cfa.operation(e));
        if (d_.is_bottom(v) || d_.leq(v, out.values[t])) continue;
        element next = d_.join(out.values[t], v);
        if (wto_.is_head(t) && ++head_updates[t] >= opts_.widen_delay) {
          next = d_.widen(out.values[t], next);
          ++out.widenings;
        }
        out.values[t] = std::move(next);
        ++out.updates;
        if (opts_.max_updates && out.updates > opts_.max_updates) {
          out.reason = "abstract interpretation: update limit of " +
                       std::to_string(opts_.max_updates) + " reached";
          return out;
        }
        push(t);
      }
    }
    out.complete = true;
    descend(out, limits);
    return out;
  }

 private:
  [[nodiscard]] element top() const {
    if constexpr (requires { d_.top(); })
      return d_.top();
    else
      return element{};
  }

  // Descending rounds in WTO order: X'(t) = join of post(X(s)) over the edges s -> t
  // (top at the initial location), narrowed at heads where the domain can.
  // The time limit stops the descent early: every intermediate result is a sound
  // over-approximation already.
  void descend(AbstractInterpretation<element>& out, const Limits* limits) const {
    const Cfa& cfa = *cfa_;
    const std::size_t n = cfa.num_locations();
    // Predecessor lists once: O(edges).
    std::vector<std::vector<CfaEdge>> in(n);
    for (Loc l = 0; l < n; ++l)
      for (auto e : cfa.out_edges(l)) in[cfa.target(e)].push_back(e);
    for (std::uint32_t round = 0; round < opts_.narrowing_rounds; ++round) {
      bool changed = false;
      for (const auto& el : wto_.elements()) {
        const Loc t = el.loc;
        if (t == cfa.initial_location()) continue;
        if (limits && limits->timed_out()) return;
        element v = d_.bottom();
        for (CfaEdge e : in[t]) {
          const Loc s = cfa.source(e);
          if (d_.is_bottom(out.values[s])) continue;
          ++out.posts;
          v = d_.join(v, d_.post(out.values[s], cfa.operation(e)));
        }
        if constexpr (requires { d_.narrow(v, v); }) {
          if (el.head) v = d_.narrow(out.values[t], v);
        }
        // Keep the old value unless the new one is below it (it always is for a
        // monotone post; the check keeps the result an over-approximation otherwise).
        if (d_.leq(v, out.values[t]) && !d_.leq(out.values[t], v)) {
          out.values[t] = std::move(v);
          ++out.narrowing_steps;
          changed = true;
        }
      }
      if (!changed) break;
    }
  }

  const Cfa* cfa_;
  D d_;
  AbstractInterpreterOptions opts_;
  WeakTopologicalOrder wto_;
};

}  // namespace precis
