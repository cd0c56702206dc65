#pragma once
// PredicateAbstractor: the solver side of predicate abstraction, shared by the domain
// (covering by implication) and the analysis (abstract post).
//
// The abstract post of a state s along an operation op over the predicates P of the
// target location (product-abstraction paper, section 2.2.1; synergy paper, sections
// 2.2-2.3) is computed from the strongest postcondition in one SSA step: s over the
// copies x@0, op as encode_step (the written variable gets x@1), the predicates over
// the new copies. Unsatisfiable SP: no successor. Otherwise
//   Cartesian: for each p in P, is SP => p or SP => not p? (the model of the
//              feasibility check already rules out one of the two for every p);
//   Boolean:   all-solutions enumeration over the predicate indicator terms, blocking
//              the cube of each model, giving the strongest Boolean combination as a
//              DNF; above a bound on |P| (measured: ~140 us per state) or on the number of
//              cubes, or if the solver answers unknown, it falls back to Cartesian.
// Everything runs on one incremental solver (push / check / pop), and posts are cached
// by (state, operation, predicate set). A solver `unknown` only ever loses information
// (a literal not added, a successor kept), so the abstraction stays an
// over-approximation.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/domains/predicate/independent_clusters.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/predicate_state.hpp"
#include "precis/domains/predicate/propositional_entailment.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

enum class AbstractionMode : std::uint8_t { Cartesian, Boolean };

inline const char* to_string(AbstractionMode m) {
  return m == AbstractionMode::Cartesian ? "cartesian" : "boolean";
}

struct PredicateOptions {
  // Boolean abstraction enumerates up to 2^n cubes: above this many predicates at the
  // target location it falls back to Cartesian.
  std::size_t boolean_max_predicates = 16;
  std::size_t boolean_max_cubes = 1024;  // enumeration bound, then Cartesian
  // Time budget of one Boolean enumeration in ms (0: none), then Cartesian: the
  // synergy paper's N_TO (Alg. 3), see domains/predicate/synergy_analysis.hpp.
  double boolean_budget_ms = 0;
  bool cache = true;
  // Covering (implies): after the propositional check says "no", ask the solver (true:
  // implication modulo the theory), or answer "no" (false: BDD-style entailment, exact
  // for the exact Boolean abstractions of one location, CPAchecker's default).
  bool symbolic_coverage = true;
  Cvc5Options solver{};
};

struct PredicateStats {
  std::uint64_t posts = 0;               // abstract posts requested
  std::uint64_t block_abstractions = 0;  // block-end abstractions requested (ABE)
  std::uint64_t cache_hits = 0;
  std::uint64_t cartesian_posts = 0;  // computed (not cached) posts per mode
  std::uint64_t boolean_posts = 0;
  std::uint64_t boolean_fallbacks = 0;   // Boolean requested, Cartesian computed
  std::uint64_t boolean_timeouts = 0;    // of those: the enumeration exceeded its budget
  std::uint64_t clusters = 0;            // independent clusters abstracted (Boolean)
  std::uint64_t cluster_cache_hits = 0;  // of those: abstraction reused
  std::uint64_t clusters_cartesian = 0;  // of those: above the bounds, Cartesian
  std::uint64_t clusters_weakened = 0;   // product above the cube bound: a cluster's hull
  std::uint64_t frame_literals = 0;      // Cartesian literals kept without a query
  std::uint64_t infeasible_posts = 0;    // SP unsat: no successor
  std::uint64_t leq_checks = 0;
  std::uint64_t leq_syntactic = 0;  // decided without the solver: implied
  std::uint64_t leq_refuted = 0;    // decided without the solver: not implied
  std::uint64_t leq_cache_hits = 0;
  double post_time = 0;  // seconds
  double leq_time = 0;
};

class PredicateAbstractor {
 public:
  // `em` is the program's ExprManager (predicates and states refer to its terms).
  explicit PredicateAbstractor(std::shared_ptr<ExprManager> em, PredicateOptions opts = {})
      : em_(std::move(em)), opts_(std::move(opts)), ssa_(*em_), solver_(ssa_.ssa(), opts_.solver) {
    // Encoding a post and splitting it into clusters poll the run's deadline too.
    ssa_.set_deadline(solver_deadline(solver_));
    vars_.set_deadline(solver_deadline(solver_));
  }
  PredicateAbstractor(const PredicateAbstractor&) = delete;
  PredicateAbstractor& operator=(const PredicateAbstractor&) = delete;

  [[nodiscard]] const PredicateOptions& options() const noexcept { return opts_; }
  [[nodiscard]] const PredicateStats& stats() const noexcept { return stats_; }
  [[nodiscard]] const SolverStats& solver_stats() const noexcept { return solver_.stats(); }
  [[nodiscard]] ExprManager& exprs() noexcept { return *em_; }

  // The abstract successor of s along op over `preds` (bottom: no successor).
  PredicateState post(const PredicateState& s, const Operation& op, const PredicateSet& preds,
                      AbstractionMode mode) {
    ++stats_.posts;
    if (s.is_bottom()) return s;
    PostKey key{s, op, preds, mode};
    if (opts_.cache) {
      if (auto it = cache_.find(key); it != cache_.end()) {
        ++stats_.cache_hits;
        return it->second;
      }
    }
    const auto t0 = std::chrono::steady_clock::now();
    PredicateState r = compute_post(s, op, preds, mode);
    stats_.post_time +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (opts_.cache) cache_.emplace(std::move(key), r);
    return r;
  }

  // a => b, decided by the solver (after a syntactic check); false if unknown.
  bool implies(const PredicateState& a, const PredicateState& b) {
    ++stats_.leq_checks;
    if (syntactically_implies(a, b)) {
      ++stats_.leq_syntactic;
      return true;
    }
    if (b.is_bottom()) return false;  // states from posts are satisfiable
    const std::optional<bool> prop = propositionally_implies(a, b);
    if (prop == true) {
      ++stats_.leq_syntactic;
      return true;
    }
    if (prop == false && (!opts_.symbolic_coverage || cube_wise_refutes(a, b))) {
      ++stats_.leq_refuted;
      return false;
    }
    LeqKey key{a, b};
    if (auto it = leq_cache_.find(key); it != leq_cache_.end()) {
      ++stats_.leq_cache_hits;
      return it->second;
    }
    const auto t0 = std::chrono::steady_clock::now();
    bool r = false;
    {
      // A frame that pops even when the check throws limit_reached (the run's deadline).
      SolverScope<Cvc5Solver> scope(solver_);
      solver_.assert_(formula(a, std::nullopt));
      solver_.assert_(ssa_.ssa().not_(formula(b, std::nullopt)));
      r = solver_.check() == SatResult::Unsat;
    }
    stats_.leq_time += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    leq_cache_.emplace(std::move(key), r);
    return r;
  }

  // Every cube of a contains a cube of b (propositional_entailment.hpp).
  static bool syntactically_implies(const PredicateState& a, const PredicateState& b) {
    return cube_wise_implies(a, b);
  }

  // The state as a Term of the program's ExprManager (for printing and tests).
  Term to_term(const PredicateState& s) {
    std::vector<Term> ds;
    for (const Cube& c : s.cubes()) {
      std::vector<Term> ls;
      for (const Literal& l : c) ls.push_back(l.positive ? l.pred : em_->not_(l.pred));
      ds.push_back(em_->conj(ls));
    }
    return em_->disj(ds);
  }

  // Satisfiability of `formula` (a Bool term of ssa().ssa()) with the Bool terms
  // `assumptions`, in a frame of this abstractor's solver that is popped afterwards (also
  // when the check throws). After Unsat, `core` (if given) receives the assumptions of an
  // unsat core, in their order. For the spurious-transition check of the synergy
  // refinement (refine/spurious_transition.hpp).
  SatResult check_assuming(Term formula, std::span<const Term> assumptions,
                           std::vector<Term>* core = nullptr) {
    SolverScope<Cvc5Solver> scope(solver_);
    solver_.assert_(formula);
    const SatResult r = solver_.check_assuming(assumptions);
    if (core) core->clear();
    if (r == SatResult::Unsat && core) *core = solver_.unsat_core();
    return r;
  }

  // ---- block abstraction (adjustable-block encoding, domains/predicate/abe_analysis.hpp)

  // The SSA variables and manager the solver works over: path formulas of blocks are
  // built here.
  [[nodiscard]] SsaVars& ssa() noexcept { return ssa_; }
  // s as a formula over the block-start copies x@0.
  Term state_formula(const PredicateState& s) { return formula(s, std::nullopt); }

  // The abstraction at the end of a block: s holds at the block start (x@0), `path` is
  // the block's path formula over SSA copies, `index` the SSA index of every variable
  // the block writes (sorted by VarId; the others stay at 0); the predicates are read
  // at the block end. Bottom when s /\ path is unsatisfiable. Cached by all five.
  PredicateState abstract_block(const PredicateState& s, Term path,
                                const std::vector<std::pair<VarId, std::uint32_t>>& index,
                                const PredicateSet& preds, AbstractionMode mode) {
    ++stats_.block_abstractions;
    if (s.is_bottom()) return s;
    BlockKey key{s, path, index, preds, mode};
    if (opts_.cache) {
      if (auto it = block_cache_.find(key); it != block_cache_.end()) {
        ++stats_.cache_hits;
        return it->second;
      }
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto index_of = [&](VarId x) { return sparse_index_of(index, x); };
    std::vector<Term> targets;
    targets.reserve(preds.size());
    for (Term p : preds) targets.push_back(ssa_.shift(p, index_of));
    PredicateState r = abstract(s, path, preds, targets, mode);
    stats_.post_time +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (opts_.cache) block_cache_.emplace(std::move(key), r);
    return r;
  }

 private:
  struct PostKey {
    PredicateState state;
    Operation op;
    PredicateSet preds;
    AbstractionMode mode;
    friend bool operator==(const PostKey&, const PostKey&) = default;
  };
  struct PostKeyHash {
    std::size_t operator()(const PostKey& k) const noexcept {
      std::size_t h = k.state.hash() * 31 + k.preds.hash();
      h = h * 31 + k.op.index() * 7 + static_cast<std::size_t>(k.mode);
      std::visit(
          overloaded{[&](const Skip&) {}, [&](const Assume& a) { h = h * 131 + a.cond.hash(); },
                     [&](const Assign& a) { h = (h * 131 + a.value.hash()) * 131 + a.var; },
                     [&](const Havoc& v) { h = h * 131 + v.var; }},
          k.op);
      return h;
    }
  };
  struct BlockKey {
    PredicateState state;
    Term path;
    std::vector<std::pair<VarId, std::uint32_t>> index;
    PredicateSet preds;
    AbstractionMode mode;
    friend bool operator==(const BlockKey&, const BlockKey&) = default;
  };
  struct BlockKeyHash {
    std::size_t operator()(const BlockKey& k) const noexcept {
      std::size_t h = (k.state.hash() * 31 + k.preds.hash()) * 31 + k.path.hash();
      for (const auto& [x, i] : k.index) h = (h ^ (x * 0x9E3779B9U + i)) * 0x100000001B3ULL;
      return h * 2 + static_cast<std::size_t>(k.mode);
    }
  };
  struct LeqKey {
    PredicateState a, b;
    friend bool operator==(const LeqKey&, const LeqKey&) = default;
  };
  struct LeqKeyHash {
    std::size_t operator()(const LeqKey& k) const noexcept { return k.a.hash() * 31 + k.b.hash(); }
  };

  // p over the SSA copies: x@1 for the written variable, x@0 for the others.
  Term shifted(Term p, std::optional<VarId> written) {
    const std::uint64_t key =
        (static_cast<std::uint64_t>(p.id()) << 32) | (written ? *written : 0xffffffffU);
    if (auto it = shift_cache_.find(key); it != shift_cache_.end()) return it->second;
    // No index vector: with 20,000 variables one per predicate and post adds up.
    Term r = ssa_.shift(p, [&](VarId x) -> std::uint32_t { return written && x == *written; });
    shift_cache_.emplace(key, r);
    return r;
  }
  Term literal(const Literal& l, std::optional<VarId> written) {
    Term t = shifted(l.pred, written);
    return l.positive ? t : ssa_.ssa().not_(t);
  }
  Term formula(const PredicateState& s, std::optional<VarId> written) {
    ExprManager& e = ssa_.ssa();
    std::vector<Term> ds;
    for (const Cube& c : s.cubes()) {
      std::vector<Term> ls;
      for (const Literal& l : c) ls.push_back(literal(l, written));
      ds.push_back(e.conj(ls));
    }
    return e.disj(ds);
  }

  PredicateState compute_post(const PredicateState& s, const Operation& op,
                              const PredicateSet& preds, AbstractionMode mode) {
    // All zero between posts: encode_step raises the written variable's entry to 1,
    // and the guard lowers it again (also if encode_step throws).
    const std::optional<VarId> written = written_var(op);
    struct Reset {
      std::vector<std::uint32_t>& index;
      std::optional<VarId> var;
      ~Reset() {
        if (var && *var < index.size()) index[*var] = 0;
      }
    } reset{index_, written};
    const Term step = encode_step(ssa_, op, index_);
    std::vector<Term> targets;
    targets.reserve(preds.size());
    for (Term p : preds) targets.push_back(shifted(p, written));
    // The frame: a literal of a single-cube state whose predicate the operation does
    // not write still holds after it (its SSA copy is the same term before and after),
    // so the Cartesian abstraction keeps it without asking the solver. Exact, and most
    // of a Cartesian post's queries where many predicates are about other variables.
    std::vector<signed char> kept(preds.size(), -1);
    if (s.is_cube() && mode == AbstractionMode::Cartesian) {
      for (const Literal& l : s.cube()) {
        if (written && shifted(l.pred, written) != shifted(l.pred, std::nullopt)) continue;
        const auto i = preds.index_of(l.pred);
        if (i) kept[*i] = l.positive ? 1 : 0;
      }
    }
    return abstract(s, step, preds, targets, mode, kept);
  }

  // The abstraction of `state /\ step` (both over SSA variables) over `preds`, whose
  // copies at the post-state are `targets`: bottom if unsatisfiable, else the Boolean
  // (all-solutions) or Cartesian abstraction.
  // kept[i] (1 / 0): the Cartesian result has preds[i] / its negation without a query;
  // -1 or none: ask the solver.
  PredicateState abstract(const PredicateState& s, Term step, const PredicateSet& preds,
                          const std::vector<Term>& targets, AbstractionMode mode,
                          std::span<const signed char> kept = {}) {
    // Boolean: by independent clusters, unless the synergy analysis's time budget per
    // enumeration applies (it measures one enumeration, Alg. 3). Above the predicate
    // bound Cartesian, as before clusters: a product of clusters over many predicates is
    // exact but makes DNFs of hundreds of cubes, and certificates over them cost 20x
    // more (token_ring.01: certificate 0.4 s against 7.5 s; bench/README.md).
    if (mode == AbstractionMode::Boolean && opts_.boolean_budget_ms == 0 &&
        preds.size() <= opts_.boolean_max_predicates) {
      if (auto r = boolean_by_clusters(s, step, preds, targets)) {
        ++stats_.boolean_posts;
        if (r->is_bottom()) ++stats_.infeasible_posts;
        return std::move(*r);
      }
    }
    SolverScope<Cvc5Solver> scope(solver_);
    solver_.assert_(formula(s, std::nullopt));
    solver_.assert_(step);
    const SatResult sat = solver_.check();
    if (sat == SatResult::Unsat) {
      ++stats_.infeasible_posts;
      return PredicateState::bottom();
    }
    // The model of the feasibility check: a predicate true in it cannot have its
    // negation implied, and vice versa.
    std::vector<std::optional<std::int64_t>> model(targets.size());
    if (sat == SatResult::Sat)
      for (std::size_t i = 0; i < targets.size(); ++i) model[i] = solver_.value(targets[i]);

    if (mode == AbstractionMode::Boolean) {
      if (preds.size() <= opts_.boolean_max_predicates && sat == SatResult::Sat) {
        if (auto r = enumerate(preds, targets, model)) {
          ++stats_.boolean_posts;
          return std::move(*r);
        }
      }
      ++stats_.boolean_fallbacks;
    }
    ++stats_.cartesian_posts;
    Cube cube;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      if (i < kept.size() && kept[i] >= 0) {
        ++stats_.frame_literals;
        cube.push_back(Literal{preds[i], kept[i] == 1});
        continue;
      }
      if (auto l = implied_literal(preds[i], targets[i], model[i])) cube.push_back(*l);
    }
    return PredicateState::of_cube(std::move(cube));
  }

  // The literal of `pred` (post-state copy `target`) that the asserted formulas imply,
  // if any; `model`: its value in a model of them (the other polarity is not implied).
  std::optional<Literal> implied_literal(Term pred, Term target,
                                         std::optional<std::int64_t> model) {
    if (!model || *model == 1) {
      const Term np = ssa_.ssa().not_(target);
      if (solver_.check_assuming(std::span<const Term>(&np, 1)) == SatResult::Unsat)
        return Literal{pred, true};
    }
    if (!model || *model == 0) {
      if (solver_.check_assuming(std::span<const Term>(&target, 1)) == SatResult::Unsat)
        return Literal{pred, false};
    }
    return std::nullopt;
  }

  // ---- Boolean abstraction by independent clusters (independent_clusters.hpp)

  struct ClusterKey {
    std::vector<Term> conjuncts;
    std::vector<Term> preds, targets;
    friend bool operator==(const ClusterKey&, const ClusterKey&) = default;
  };
  struct ClusterKeyHash {
    std::size_t operator()(const ClusterKey& k) const noexcept {
      std::size_t h = k.conjuncts.size();
      for (Term t : k.conjuncts) h = (h ^ t.hash()) * 0x100000001B3ULL;
      for (Term t : k.targets) h = (h ^ t.hash()) * 0x9E3779B97F4A7C15ULL;
      return h;
    }
  };
  struct ClusterAbstraction {
    bool bottom = false;
    std::vector<Cube> cubes;  // the cluster's Boolean abstraction (a DNF)
    Cube hull;                // the literals common to all cubes (its Cartesian part)
  };

  // Per cube of s: the product of the abstractions of the clusters of cube /\ step; the
  // disjunction over the cubes (alpha distributes over disjunction, and over
  // conjunctions of independent parts). nullopt: a solver unknown (the caller computes
  // the abstraction in one piece, where unknown answers only lose literals).
  std::optional<PredicateState> boolean_by_clusters(const PredicateState& s, Term step,
                                                    const PredicateSet& preds,
                                                    const std::vector<Term>& targets) {
    std::vector<Term> step_conjuncts;
    flatten_conjunction(step, step_conjuncts);
    std::vector<Cube> result;
    // Above boolean_max_cubes cubes in all, the result is the hull of them (the literals
    // every cube has): of exact cubes, that is the Cartesian abstraction, at no solver
    // cost. `hull_mode` holds it from then on.
    bool hull_mode = false;
    Cube hull;
    auto add = [&](Cube&& p) {
      if (!hull_mode) {
        result.push_back(std::move(p));
        if (result.size() <= opts_.boolean_max_cubes) return;
        ++stats_.clusters_weakened;
        hull_mode = true;
        hull = result.front();
        normalize_cube(hull);
        for (Cube& r : result) intersect_into(hull, r);
        result.clear();
        return;
      }
      intersect_into(hull, p);
    };
    for (const Cube& c : s.cubes()) {
      solver_.deadline().check();  // a state of many cubes is many products
      std::vector<Term> conjuncts;
      conjuncts.reserve(c.size() + step_conjuncts.size());
      for (const Literal& l : c) flatten_conjunction(literal(l, std::nullopt), conjuncts);
      conjuncts.insert(conjuncts.end(), step_conjuncts.begin(), step_conjuncts.end());
      std::vector<const ClusterAbstraction*> parts;
      bool bottom = false;
      for (TermCluster& cl : splitter_.split(conjuncts, targets, vars_)) {
        const ClusterAbstraction* a = cluster_abstraction(cl, preds, targets);
        if (!a) return std::nullopt;
        if (a->bottom) {
          bottom = true;
          break;
        }
        parts.push_back(a);
      }
      if (bottom) continue;
      if (hull_mode) {
        // The hull of a product is the union of its factors' hulls.
        Cube h;
        for (const ClusterAbstraction* a : parts) h.insert(h.end(), a->hull.begin(), a->hull.end());
        intersect_into(hull, h);
        if (hull.empty()) return PredicateState::top();  // and stays top
        continue;
      }
      // The product, largest factors last: one that would take it past the cube bound
      // contributes its hull (the literals all its cubes share) instead.
      std::sort(parts.begin(), parts.end(),
                [](auto* a, auto* b) { return a->cubes.size() < b->cubes.size(); });
      std::vector<Cube> product{Cube{}};
      for (const ClusterAbstraction* a : parts) {
        const bool weaken = product.size() * a->cubes.size() > opts_.boolean_max_cubes;
        if (weaken) ++stats_.clusters_weakened;
        std::vector<Cube> next;
        next.reserve(weaken ? product.size() : product.size() * a->cubes.size());
        for (const Cube& p : product) {
          if (weaken) {
            next.push_back(p);
            next.back().insert(next.back().end(), a->hull.begin(), a->hull.end());
            continue;
          }
          for (const Cube& q : a->cubes) {
            next.push_back(p);
            next.back().insert(next.back().end(), q.begin(), q.end());
          }
        }
        product = std::move(next);
      }
      for (Cube& p : product) add(std::move(p));
    }
    if (hull_mode) return PredicateState::of_cube(std::move(hull));
    return PredicateState::of_cubes(std::move(result));
  }

  // hull := the literals of hull (sorted) that c also has.
  static void intersect_into(Cube& hull, Cube& c) {
    normalize_cube(c);
    Cube r;
    std::set_intersection(hull.begin(), hull.end(), c.begin(), c.end(), std::back_inserter(r));
    hull = std::move(r);
  }

  // The Boolean abstraction of one cluster, cached by its conjuncts and predicates.
  // Above boolean_max_predicates or boolean_max_cubes: its Cartesian abstraction.
  // nullptr: the solver answered unknown.
  const ClusterAbstraction* cluster_abstraction(const TermCluster& cl, const PredicateSet& preds,
                                                const std::vector<Term>& targets) {
    ++stats_.clusters;
    ClusterKey key;
    key.conjuncts = cl.conjuncts;
    for (std::size_t i : cl.preds) {
      key.preds.push_back(preds[i]);
      key.targets.push_back(targets[i]);
    }
    if (auto it = cluster_cache_.find(key); it != cluster_cache_.end()) {
      ++stats_.cluster_cache_hits;
      return &it->second;
    }
    ClusterAbstraction out;
    {
      SolverScope<Cvc5Solver> scope(solver_);
      for (Term c : cl.conjuncts) solver_.assert_(c);
      const SatResult sat = solver_.check();
      if (sat == SatResult::Unknown) return nullptr;
      const std::size_t n = key.targets.size();
      std::vector<std::optional<std::int64_t>> model(n);
      if (sat == SatResult::Unsat) {
        out.bottom = true;
      } else {
        for (std::size_t i = 0; i < n; ++i) model[i] = solver_.value(key.targets[i]);
        const bool enumerated = n <= opts_.boolean_max_predicates;
        std::optional<PredicateState> exact;
        if (enumerated) {
          SolverScope<Cvc5Solver> inner(solver_);  // the blocking clauses go with it
          exact = enumerate(key.preds, key.targets, model);
        }
        if (exact) {
          // Simplified (by enumerate) before it enters products: a predicate the
          // cluster leaves free gives two cubes there and one here.
          out.cubes = exact->cubes();
          // The hull: literals of the first cube that every cube has.
          for (const Literal& l : out.cubes.front()) {
            bool all = true;
            for (const Cube& c : out.cubes)
              if (!std::binary_search(c.begin(), c.end(), l)) {
                all = false;
                break;
              }
            if (all) out.hull.push_back(l);
          }
        } else {
          ++stats_.clusters_cartesian;
          if (enumerated) {
            // The enumeration ran (and its blocking clauses are gone): a fresh model.
            if (solver_.check() != SatResult::Sat) return nullptr;
            for (std::size_t i = 0; i < n; ++i) model[i] = solver_.value(key.targets[i]);
          }
          for (std::size_t i = 0; i < n; ++i)
            if (auto l = implied_literal(key.preds[i], key.targets[i], model[i]))
              out.hull.push_back(*l);
          normalize_cube(out.hull);
          out.cubes.push_back(out.hull);
        }
      }
    }
    return &cluster_cache_.emplace(std::move(key), std::move(out)).first->second;
  }

  // All-solutions enumeration: the cube of the current model, blocked, until unsat.
  // nullopt: unknown or too many cubes (the caller falls back to Cartesian).
  // `preds`: a PredicateSet or the predicates of one cluster (anything indexable).
  template <class Preds>
  std::optional<PredicateState> enumerate(const Preds& preds, const std::vector<Term>& targets,
                                          std::vector<std::optional<std::int64_t>> model) {
    ExprManager& e = ssa_.ssa();
    std::vector<Cube> cubes;
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
      Cube c;
      std::vector<Term> lits;
      for (std::size_t i = 0; i < targets.size(); ++i) {
        if (!model[i]) return std::nullopt;
        const bool pos = *model[i] == 1;
        c.push_back(Literal{preds[i], pos});
        lits.push_back(pos ? targets[i] : e.not_(targets[i]));
      }
      cubes.push_back(std::move(c));
      if (targets.empty()) break;  // the one empty cube: true
      if (cubes.size() > opts_.boolean_max_cubes) return std::nullopt;
      if (opts_.boolean_budget_ms > 0 &&
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() >
              opts_.boolean_budget_ms) {
        ++stats_.boolean_timeouts;
        return std::nullopt;
      }
      solver_.assert_(e.not_(e.conj(lits)));
      const SatResult r = solver_.check();
      if (r == SatResult::Unsat) break;
      if (r == SatResult::Unknown) return std::nullopt;
      for (std::size_t i = 0; i < targets.size(); ++i) model[i] = solver_.value(targets[i]);
    }
    return PredicateState::of_cubes(std::move(cubes));
  }

  std::shared_ptr<ExprManager> em_;
  PredicateOptions opts_;
  SsaVars ssa_;
  Cvc5Solver solver_;
  PredicateStats stats_;
  std::unordered_map<PostKey, PredicateState, PostKeyHash> cache_;
  std::unordered_map<LeqKey, bool, LeqKeyHash> leq_cache_;
  std::unordered_map<BlockKey, PredicateState, BlockKeyHash> block_cache_;
  std::unordered_map<std::uint64_t, Term> shift_cache_;
  std::unordered_map<ClusterKey, ClusterAbstraction, ClusterKeyHash> cluster_cache_;
  TermVarCache vars_;
  ClusterSplitter splitter_;
  std::vector<std::uint32_t> index_;  // encode_step's SSA index, reset after each post
};

// The abstractor's counters under their "pred ..." names (Statistics.extra), for every
// analysis built on it (PredicateAnalysis, SynergyAnalysis).
inline void report_abstractor(const PredicateAbstractor& abs, std::map<std::string, double>& x) {
  const PredicateStats& p = abs.stats();
  const SolverStats& s = abs.solver_stats();
  x["pred posts"] = static_cast<double>(p.posts);
  x["pred post cache hits"] = static_cast<double>(p.cache_hits);
  x["pred cartesian posts"] = static_cast<double>(p.cartesian_posts);
  x["pred boolean posts"] = static_cast<double>(p.boolean_posts);
  x["pred boolean fallbacks"] = static_cast<double>(p.boolean_fallbacks);
  x["pred clusters"] = static_cast<double>(p.clusters);
  x["pred cluster cache hits"] = static_cast<double>(p.cluster_cache_hits);
  x["pred clusters cartesian"] = static_cast<double>(p.clusters_cartesian);
  x["pred clusters weakened"] = static_cast<double>(p.clusters_weakened);
  if (p.boolean_timeouts) x["pred boolean timeouts"] = static_cast<double>(p.boolean_timeouts);
  x["pred frame literals"] = static_cast<double>(p.frame_literals);
  x["pred infeasible posts"] = static_cast<double>(p.infeasible_posts);
  x["pred post time s"] = p.post_time;
  x["pred leq checks"] = static_cast<double>(p.leq_checks);
  x["pred leq syntactic"] = static_cast<double>(p.leq_syntactic);
  x["pred leq refuted"] = static_cast<double>(p.leq_refuted);
  x["pred leq time s"] = p.leq_time;
  x["pred solver calls"] = static_cast<double>(s.calls());
  x["pred solver time s"] = s.seconds();
}

}  // namespace precis
