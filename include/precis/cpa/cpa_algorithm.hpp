#pragma once
// The CPA algorithm with dynamic precision adjustment (explicit-value paper, Alg. 1),
// building an ARG as it goes.
//
// The analysis is composed with the location CPA: every ARG node has a location, merge
// and stop only compare nodes of the same location, and a node at the CFA's error
// location is a target. Merge and stop are template parameters (merge-sep and stop-sep
// by default). A node that stop finds covered stays in the ARG as a covered leaf, so
// that removing its coverer later can put it back (CEGAR pruning).
//
// ARG hooks: an analysis that keeps information about the whole ARG (e.g. the ARG
// strategy of domains/product/strategy_product.hpp) may offer on_added(element) and
// on_removed(element); they are called for every node the ARG gains (after precision
// adjustment) and loses (pruning, merge replacement, restart), and nothing is paid by
// analyses without them.
//
// One deviation from the pseudo-code, for completeness of the ARG: when a target is
// found, the current node's remaining successors are still added before returning, so
// a node that was taken off the waitlist is never left half-expanded.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "precis/arg/arg.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/reached_set.hpp"

namespace precis {

enum class CpaStatus : std::uint8_t {
  Complete,
  TargetFound,
  Timeout,
  MemoryLimit,
  NodeLimit,
  Break
};

template <class A, template <class> class WaitlistT, class Merge = MergeSep, class Stop = StopSep>
requires ConfigurableProgramAnalysis<A, EdgeRef, Loc>
class CpaAlgorithm {
 public:
  using element = typename A::element;
  using precision = typename A::precision;
  using arg_type = Arg<element, precision>;
  using Node = typename arg_type::Node;
  using waitlist_type = WaitlistT<Node>;
  // Indexed by the domain's hashes when it offers them (cpa/reached_set.hpp).
  using reached_type = ReachedSet<Node, typename A::domain_type>;

  struct Outcome {
    CpaStatus status;
    Node* target = nullptr;
  };

  CpaAlgorithm(const Cfa& cfa, A& analysis, arg_type& arg, reached_type& reached,
               waitlist_type& waitlist, Statistics& stats, Merge merge = {}, Stop stop = {})
      : cfa_(cfa),
        analysis_(analysis),
        arg_(arg),
        reached_(reached),
        waitlist_(waitlist),
        stats_(stats),
        merge_(merge),
        stop_(stop) {
    reached_.bind(&analysis_.domain());
  }

  // Called every `progress_every` expansions (for progress reports on stderr).
  void on_progress(std::function<void()> f, std::size_t every = 20000) {
    progress_ = std::move(f);
    progress_every_ = every;
  }

  void enqueue(Node* n) {
    if (n->removed || n->in_waitlist) return;
    reached_.add(n);
    n->in_waitlist = true;
    waitlist_.push(n);
  }

  Outcome run(const Limits& limits) {
    Stopwatch sw(stats_.time_cpa);
    ++stats_.cpa_runs;
    const auto err = cfa_.error_location();
    std::vector<element> succs;
    std::size_t iter = 0;
    while (!waitlist_.empty()) {
      // The clock every 8 expansions (a vDSO read, tens of nanoseconds): one expansion
      // with its merge and coverage checks can take a millisecond on a large reached set.
      if ((++iter & 7) == 0) {
        if (limits.timed_out()) return {CpaStatus::Timeout};
        // Resident memory is read from /proc: every 4096 expansions is cheap enough.
        if ((iter & 4095) == 0 && limits.memory_exceeded()) return {CpaStatus::MemoryLimit};
      }
      if (limits.max_arg_nodes && arg_.size() > limits.max_arg_nodes) return {CpaStatus::NodeLimit};
      if (progress_ && iter % progress_every_ == 0) progress_();
      Node* n = waitlist_.pop();
      if (n->removed || !n->in_waitlist) continue;
      n->in_waitlist = false;
      if (n->covered_by || n->expanded) continue;
      n->expanded = true;
      ++stats_.expanded_nodes;

      Node* found = nullptr;
      bool brk = false;
      for (auto e : cfa_.out_edges(n->loc)) {
        const EdgeRef er = cfa_.ref(e);
        succs.clear();
        analysis_.successors(n->element, er, *n->precision,
                             [&](element&& s) { succs.push_back(std::move(s)); });
        for (auto& s : succs) {
          // Precision adjustment.
          auto adj = analysis_.adjust(std::move(s), *n->precision, er.target);
          if (analysis_.domain().is_bottom(adj.element)) continue;
          const precision* prec =
              adj.precision
                  ? arg_.keep(std::make_shared<const precision>(std::move(*adj.precision)))
                  : n->precision;
          Node* c = arg_.add_child(n, e, er.target, std::move(adj.element), prec);
          ++stats_.created_nodes;
          note_added(c);
          if (err && er.target == *err) {
            c->target = true;
            reached_.add(c);
            if (!found) found = c;
            continue;
          }
          if (adj.action == Action::Break) brk = true;
          merge_into_reached(c);
          // The merge replaced n or an ancestor of n (along a self-loop, c merges into n
          // itself): n, its children and c are removed, n's element is released, and the
          // merged node on the waitlist stands for them. Expanding n further would start
          // from the released element and its paths would not reach the root.
          if (n->removed) break;
          // Add new abstract state?
          if (Node* cov = stop(c)) {
            arg_.cover(c, cov);
            continue;
          }
          reached_.add(c);
          c->in_waitlist = true;
          waitlist_.push(c);
        }
        if (n->removed) break;
      }
      if (found && !found->removed) return {CpaStatus::TargetFound, found};
      if (brk) return {CpaStatus::Break};
    }
    return {CpaStatus::Complete};
  }

 private:
  // Stop (Alg. 1): the reached-set form when the operator has one (stop-sep uses the
  // reached set's index), else the operator over the nodes at the location.
  Node* stop(Node* c) {
    if constexpr (requires { stop_(analysis_.domain(), c->element, reached_, c->loc); })
      return stop_(analysis_.domain(), c->element, reached_, c->loc);
    else
      return stop_(analysis_.domain(), c->element, reached_.at(c->loc));
  }

  // Combine with existing abstract states (merge of Alg. 1). With merge-sep this is a
  // no-op. Otherwise a reached node whose element the merge enlarges is replaced by a
  // new node with the merged element and the union of both parents; the old node's
  // subtree is removed and nodes it covered are put back.
  void merge_into_reached(Node* c) {
    if constexpr (requires { Merge::is_sep; }) {
      if constexpr (Merge::is_sep) return;
    }
    const auto& dom = analysis_.domain();
    if constexpr (requires { merge_.skip(dom, c->element); }) {
      if (merge_.skip(dom, c->element)) return;  // e.g. ABE at an abstraction point
    }
    std::vector<Node*> candidates = reached_.at(c->loc);
    for (Node* r : candidates) {
      if (r->removed || r->target) continue;
      element m = merge_(dom, c->element, r->element);
      if (dom.leq(m, r->element) && dom.leq(r->element, m)) continue;
      // Replace r by a node with m.
      auto parents = r->parents;
      Node* first_parent = parents.empty() ? nullptr : parents[0].node;
      if (!first_parent) continue;  // never replace the root
      Node* mn = arg_.add_child(first_parent, parents[0].edge, r->loc, std::move(m), r->precision);
      ++stats_.created_nodes;
      note_added(mn);
      for (std::size_t i = 1; i < parents.size(); ++i)
        arg_.add_parent(mn, parents[i].node, parents[i].edge);
      arg_.add_parent(mn, c->parents[0].node, c->parents[0].edge);
      reached_.remove(r);
      reached_.add(mn);
      mn->in_waitlist = true;
      waitlist_.push(mn);
      // Nodes r covered: usually the merged node covers them too (it contains r), so
      // they are covered again at once instead of being expanded anew (an n-way join
      // would otherwise re-expand O(n^2) nodes).
      for (Node* u : remove_subtree(r)) {
        if (Node* cov = stop(u))
          arg_.cover(u, cov);
        else
          enqueue(u);
      }
    }
  }

 public:
  // Removes a subtree from the ARG and the reached set; returns the nodes it uncovered
  // (which the caller must enqueue again).
  std::vector<Node*> remove_subtree(Node* n) {
    auto r = arg_.remove_subtree(n, [&](const Node& x) { note_removed(x); });
    for (Node* x : r.removed) reached_.remove(x);
    stats_.pruned_nodes += r.removed.size();
    return std::move(r.uncovered);
  }

  // The ARG hooks (see the top of this file); CEGAR calls them for the root and before
  // it clears the ARG.
  void note_added(const Node* n) {
    if constexpr (ObservesReachedSet<A>) analysis_.on_added(n->element);
  }
  void note_removed(const Node& n) {
    if constexpr (ObservesReachedSet<A>) analysis_.on_removed(n.element);
  }
  void note_clearing() {
    if constexpr (ObservesReachedSet<A>)
      arg_.for_each_live([&](const Node* n) { note_removed(*n); });
  }

 private:
  const Cfa& cfa_;
  A& analysis_;
  arg_type& arg_;
  reached_type& reached_;
  waitlist_type& waitlist_;
  Statistics& stats_;
  Merge merge_;
  Stop stop_;
  std::function<void()> progress_;
  std::size_t progress_every_ = 20000;
};

}  // namespace precis
