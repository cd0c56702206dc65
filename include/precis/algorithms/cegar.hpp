#pragma once
// CEGAR (explicit-value paper, Alg. 2) over the CPA algorithm (Alg. 1), with lazy ARG
// pruning instead of restart (section III-F) as the default.
//
//   precis::CEGAR<precis::Expl> cegar{cfa, options};
//   precis::VerificationResult result = cegar.run();
//
// Every part is a template argument: the analysis (domain, transfer, precision
// adjustment), the refiner (by default the one the analysis names through
// default_refiner), the waitlist order, and the merge (by default the analysis'
// merge_type, else merge-sep) and stop operators.
//
// Verdicts: SAFE when the CPA algorithm ends with an empty waitlist (complete, covered
// ARG); UNSAFE only when the refiner returns a replayed counterexample; UNKNOWN with a
// reason otherwise (time or node limit, refinement without progress, a path the
// refiner can neither refute nor confirm).

#include <chrono>
#include <concepts>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "precis/arg/arg.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/cpa_algorithm.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/cpa/reached_set.hpp"
#include "precis/cpa/waitlist.hpp"
#include "precis/path/error_path.hpp"
#include "precis/path/refiner.hpp"

namespace precis {

struct CegarOptions {
  Granularity granularity = Granularity::Scope;  // section III-F scoped precision
  bool prune = true;                             // lazy ARG pruning; false: restart from the root
  SearchOrder order = SearchOrder::Bfs;
  double time_limit_s = 0;          // 0: none
  std::size_t max_refinements = 0;  // 0: none
  std::size_t max_arg_nodes = 0;    // 0: none
  std::size_t memory_limit_mb = 0;  // resident memory; 0: none
  // When the run's clock started: the CLI sets it to the start of the process so that
  // the time limit also covers reading and translating the input. Default: run().
  std::optional<std::chrono::steady_clock::time_point> started;
  bool refine = true;      // false: one CPA run, no refinement (the non-CEGAR baseline)
  bool track_all = false;  // start from the full precision (CPA-EXPL of the paper)
  // Progress reports (e.g. to stderr): called after each refinement and every few
  // thousand expansions.
  std::function<void(const Statistics&, double elapsed_s)> progress;
};

template <ConfigurableProgramAnalysis<EdgeRef, Loc> Analysis,
          class RefinerT = default_refiner_t<Analysis>,
          template <class> class WaitlistT = ConfigurableWaitlist,
          class Merge = default_merge_t<Analysis>, class Stop = StopSep>
requires Refiner<RefinerT>
class CEGAR {
  // A member with a hook's name that the hook's concept does not accept would never be
  // called: stop here, naming the concept (core/concepts.hpp).
  static_assert(!detail::names_report<Analysis> || ReportsStatistics<Analysis>,
                "the analysis's report(...) is not ReportsStatistics: report(Statistics&)");
  static_assert(!detail::names_full_precision<Analysis> || HasFullPrecision<Analysis>,
                "the analysis's full_precision() is not HasFullPrecision: it must return "
                "the analysis's precision");
  static_assert(!detail::names_precision_points<Analysis> || HasPrecisionPoints<Analysis>,
                "the analysis's precision_points() is not HasPrecisionPoints: it must return "
                "const std::vector<bool>&");
  static_assert(!detail::names_refine_further<RefinerT> || RefinesFurther<RefinerT>,
                "the refiner's refine_further(...) is not RefinesFurther: it must take "
                "(const ErrorPath&, Statistics&) and return what refine returns");

 public:
  using analysis_type = Analysis;
  using refiner_type = RefinerT;
  using element = typename Analysis::element;
  using precision = typename Analysis::precision;
  using cpa_type = CpaAlgorithm<Analysis, WaitlistT, Merge, Stop>;
  using arg_type = typename cpa_type::arg_type;
  using Node = typename cpa_type::Node;
  using waitlist_type = typename cpa_type::waitlist_type;

  explicit CEGAR(const Cfa& cfa, CegarOptions opts = {}) requires
      std::constructible_from<Analysis, const Cfa&> && std::constructible_from<RefinerT, const Cfa&>
      : CEGAR(cfa, std::move(opts), Analysis(cfa), RefinerT(cfa)) {}

  CEGAR(const Cfa& cfa, CegarOptions opts, Analysis analysis, RefinerT refiner)
      : cfa_(cfa),
        opts_(std::move(opts)),
        analysis_(std::move(analysis)),
        refiner_(std::move(refiner)),
        reached_(cfa.num_locations()),
        waitlist_(make_waitlist(cfa, opts_.order)) {}

  // The Algorithm shape (core/concepts.hpp): the run under `limits` instead of the
  // options' time, node and memory limits and start.
  VerificationResult run(const Limits& limits) {
    opts_.time_limit_s = limits.time_limit_s;
    opts_.max_arg_nodes = limits.max_arg_nodes;
    opts_.memory_limit_mb = limits.memory_limit_mb;
    opts_.started = limits.start;
    return run();
  }

  VerificationResult run() {
    VerificationResult res;
    Statistics& st = res.stats;
    const Limits limits = run_limits(opts_);
    {
      Stopwatch total(st.time_total);
      // Refiners, solvers and precision adjustments signal an exhausted budget by
      // throwing: the verdict is then UNKNOWN with the limit as the reason.
      try {
        run_loop(res, limits);
      } catch (const limit_reached& e) {
        res.verdict = Verdict::Unknown;
        res.reason = e.what();
        res.counterexample.reset();
      } catch (const std::bad_alloc&) {
        res.verdict = Verdict::Unknown;
        res.reason = opts_.memory_limit_mb ? limits.memory_reason()
                                           : std::string("memory limit: out of memory");
        res.counterexample.reset();
      }
    }
    st.arg_nodes = arg_.size();
    st.reached_size = reached_.size();
    std::size_t covered = 0;
    arg_.for_each_live([&](const Node* n) { covered += n->covered_by != nullptr; });
    st.covered_nodes = covered;
    if (precision_) st.precision_size = precision_size(*precision_);
    // Component counters (solver calls, caches, ...) and the precision's (e.g. the
    // synergy clusters per edge).
    if constexpr (ReportsStatistics<Analysis>) analysis_.report(st);
    if constexpr (ReportsStatistics<precision>)
      if (precision_) precision_->report(st);
    return res;
  }

  // The limits a run with these options obeys (also for the phases around CEGAR).
  static Limits run_limits(const CegarOptions& o) {
    Limits l;
    l.time_limit_s = o.time_limit_s;
    l.max_arg_nodes = o.max_arg_nodes;
    l.memory_limit_mb = o.memory_limit_mb;
    l.start = o.started.value_or(std::chrono::steady_clock::now());
    return l;
  }

  [[nodiscard]] const arg_type& arg() const { return arg_; }
  [[nodiscard]] const std::shared_ptr<const precision>& current_precision() const {
    return precision_;
  }
  [[nodiscard]] Analysis& analysis() { return analysis_; }
  [[nodiscard]] RefinerT& refiner() { return refiner_; }

 private:
  // The cost of freeing one ARG node when pruning (measured about 0.5 us on the benchmark
  // VM, run_loop's comment), with a margin for slower machines.
  static constexpr double kFreeSecondsPerNode = 1e-6;

  static waitlist_type make_waitlist(const Cfa& cfa, SearchOrder order) {
    if constexpr (std::constructible_from<waitlist_type, const Cfa&, SearchOrder>)
      return waitlist_type(cfa, order);
    else
      return waitlist_type(cfa);
  }
  static std::size_t precision_size(const precision& p) {
    if constexpr (requires { p.total_size(); })
      return p.total_size();
    else
      return 0;
  }

  precision initial_precision() const {
    if (opts_.track_all) {
      if constexpr (HasFullPrecision<Analysis>) return analysis_.full_precision();
    }
    return analysis_.initial_precision(opts_.granularity);
  }

  void start_from_root(cpa_type& cpa) {
    // The reached set and the waitlist refer to ARG nodes: empty them first.
    reached_.clear();
    waitlist_.clear();
    cpa.note_clearing();
    arg_.clear();
    Node* root = arg_.create_root(cfa_.initial_location(), analysis_.initial_element(),
                                  arg_.keep(precision_));
    ++cpa_stats_->created_nodes;
    cpa.note_added(root);
    cpa.enqueue(root);
  }

  void report(Statistics& st, const Limits& limits) {
    st.arg_nodes = arg_.size();
    if (opts_.progress) opts_.progress(st, limits.elapsed());
  }

  // Adds a refinement to `next`; returns the pivot (0 if no node of the path changes).
  template <class Ref>
  std::size_t apply_refinement(const Ref& ref, const ErrorPath& path,
                               const std::vector<Node*>& nodes, precision& next) const {
    for (const auto& [i, inc] : ref.increments) next.add(path.location(i), inc, cfa_.exprs());
    // An analysis that reads its precision only at some locations (the abstraction points
    // of adjustable-block encoding) names them: a node elsewhere was computed without
    // the precision, so a change there is no reason to re-explore it (the lazy-abstraction
    // pivot is the first abstraction whose precision changed).
    const std::vector<bool>* reads = nullptr;
    if constexpr (HasPrecisionPoints<Analysis>) reads = &analysis_.precision_points();
    for (std::size_t i = 1; i + 1 < nodes.size(); ++i) {
      const Loc l = nodes[i]->loc;
      if (reads && !(*reads)[l]) continue;
      if (!next.at(l).leq(nodes[i]->created_with->at(l))) return i;
    }
    return 0;
  }

  void run_loop(VerificationResult& res, const Limits& limits) {
    Statistics& st = res.stats;
    cpa_stats_ = &st;
    cpa_type cpa(cfa_, analysis_, arg_, reached_, waitlist_, st);
    if (opts_.progress) cpa.on_progress([&] { report(st, limits); });
    precision_ = std::make_shared<const precision>(initial_precision());
    start_from_root(cpa);

    for (;;) {
      auto out = cpa.run(limits);
      switch (out.status) {
        case CpaStatus::Complete:
          res.verdict = Verdict::Safe;
          res.reason = "the ARG is complete and no error location is reachable";
          return;
        case CpaStatus::Timeout: res.reason = limits.time_reason(); return;
        case CpaStatus::MemoryLimit: res.reason = limits.memory_reason(); return;
        case CpaStatus::NodeLimit:
          res.reason = "ARG node limit of " + std::to_string(opts_.max_arg_nodes) + " reached";
          return;
        case CpaStatus::Break: res.reason = "the precision adjustment stopped the analysis"; return;
        case CpaStatus::TargetFound: break;
      }

      // Extract the error path from the ARG.
      auto steps = arg_.path_to(out.target);
      ErrorPath path;
      path.start = cfa_.initial_location();
      std::vector<Node*> nodes{arg_.root()};
      for (const auto& pe : steps) {
        path.steps.push_back(cfa_.ref(pe.edge));
        nodes.push_back(pe.node);
      }

      Refinement<typename RefinerT::increment_type> ref;
      {
        Stopwatch sw(st.time_refinement);
        ref = refiner_.refine(path, st);
      }
      if (ref.kind == RefinementKind::Feasible) {
        res.verdict = Verdict::Unsafe;
        res.reason = "a concrete error path was found and replayed";
        res.counterexample = std::move(ref.counterexample);
        return;
      }
      if (ref.kind == RefinementKind::Unknown) {
        res.reason = ref.reason;
        return;
      }
      if (!opts_.refine) {
        res.reason = "the error path is infeasible and refinement is disabled (baseline run)";
        return;
      }
      ++st.refinements;
      if (opts_.max_refinements && st.refinements > opts_.max_refinements) {
        res.reason = "refinement limit of " + std::to_string(opts_.max_refinements) + " reached";
        return;
      }
      if (auto why = limits.exceeded()) {
        res.reason = *why;
        return;
      }

      // pi := pi joined with the refinement (Alg. 2). The pivot: the first node of the
      // path whose precision changes. Without one the same path would be found again:
      // no progress, unless the refiner can refine further (e.g. a product refiner
      // handing the path to its next component).
      precision next = *precision_;
      std::size_t pivot = apply_refinement(ref, path, nodes, next);
      // Pruning or clearing the ARG frees its nodes one by one, about half a microsecond
      // each (3 M nodes: 1.5-2 s on token_ring.09 with expl+pred, which ended past its
      // limit so). Where the time left would not cover that for the whole ARG, the run
      // ends now, by its limit, rather than after it.
      if (limits.time_limit_s > 0 &&
          limits.remaining_s() < kFreeSecondsPerNode * static_cast<double>(arg_.size())) {
        res.reason = limits.time_reason() + " (the time left would not cover pruning the ARG of " +
                     std::to_string(arg_.size()) + " nodes)";
        return;
      }
      if (ref.restart) {
        st.extra["restarts for analysis changes"] += 1;
        precision_ = std::make_shared<const precision>(std::move(next));
        start_from_root(cpa);
        report(st, limits);
        continue;
      }
      if constexpr (RefinesFurther<RefinerT>) {
        while (pivot == 0) {
          Stopwatch sw(st.time_refinement);
          auto more = refiner_.refine_further(path, st);
          if (more.kind != RefinementKind::Spurious) {
            if (more.kind == RefinementKind::Feasible) {
              res.verdict = Verdict::Unsafe;
              res.reason = "a concrete error path was found and replayed";
              res.counterexample = std::move(more.counterexample);
              return;
            }
            if (!more.reason.empty()) {
              res.reason = more.reason;
              return;
            }
            break;
          }
          next = *precision_;
          pivot = apply_refinement(more, path, nodes, next);
        }
      }
      if (pivot == 0) {
        res.reason =
            "refinement made no progress: the infeasible error path yields no new precision "
            "(the domain cannot express why the path is infeasible)";
        return;
      }
      precision_ = std::make_shared<const precision>(std::move(next));

      if (!opts_.prune) {
        start_from_root(cpa);
      } else {
        // Re-explore from the pivot's parent with the new precision: remove its subtrees,
        // put it back on the waitlist, and give the frontier the refined precision.
        Node* parent = nodes[pivot - 1];
        std::vector<Node*> children(parent->children.begin(), parent->children.end());
        std::vector<Node*> uncovered;
        for (Node* c : children) {
          auto u = cpa.remove_subtree(c);
          uncovered.insert(uncovered.end(), u.begin(), u.end());
        }
        parent->expanded = false;
        const precision* refined = arg_.keep(precision_);
        parent->precision = refined;
        cpa.enqueue(parent);
        for (Node* u : uncovered) cpa.enqueue(u);
        arg_.for_each_live([&](Node* n) {
          if (n->in_waitlist) n->precision = refined;
        });
      }
      report(st, limits);
    }
  }

  const Cfa& cfa_;
  CegarOptions opts_;
  Analysis analysis_;
  RefinerT refiner_;
  arg_type arg_;
  typename cpa_type::reached_type reached_;
  waitlist_type waitlist_;
  std::shared_ptr<const precision> precision_;
  Statistics* cpa_stats_ = nullptr;
};

}  // namespace precis
