#pragma once
// Predicate abstraction with adjustable-block encoding (Beyer, Keremoglu, Wendler,
// FMCAD 2010), the auxiliary predicate analysis of the explicit-value paper (section IV:
// CPA-PRED and CPA-EXPLitp-PRED use ABE-lf).
//
// An element is (abstraction formula, path formula since the last abstraction point):
//
//   transfer   extends the path formula by the edge's constraint (SSA, no solver);
//   precision  at an abstraction point of the block operator (cfa/block_encoding.hpp:
//   adjustment loop heads, function entries, the error location, or every location for
//              SBE) abstracts: the Boolean (default) or Cartesian abstraction of
//              abstraction /\ path formula over the predicates of that location; an
//              unsatisfiable one is bottom. Elsewhere the identity;
//   merge      (AbeMerge) joins, inside a block, the path formulas of elements with the
//              same abstraction (a disjunction with SSA phi equalities); sep at
//              abstraction points;
//   stop       stop-sep: at abstraction points the implication of abstractions, inside
//              a block the inclusion of path formulas.
//
// So a loop body with k branches is one path formula and one abstraction per iteration,
// where the single-edge predicate analysis (predicate_analysis.hpp) abstracts after
// every edge. Inclusion inside a block is decided by identities, not the solver: every
// element made by the transfer gets a fresh path id, a merged element carries the ids
// of all elements merged into it, and a <= b iff a's ids are among b's (b's formula has
// a's formula as a disjunct). At abstraction points leq is the implication of the
// abstraction formulas.
//
// Path formulas are persistent lists of conjuncts (one per edge, shared between an
// element and its successors), made into one n-ary conjunction only where the solver
// or a merge needs it; the SSA index holds only the variables the block writes. So a
// transfer costs O(written variables), not O(program variables).
//
//   precis::CEGAR<precis::PredAbe> cegar{cfa, options};   // Boolean ABE-lf
//   precis::CEGAR<precis::PredAbeCart> ...                // Cartesian
//
// The default refiner is BlockRefiner (refine/block_refiner.hpp): one interpolation
// conjunct per block.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/block_encoding.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/predicate_domain.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/predicate_state.hpp"
#include "precis/smt/linearity.hpp"
#include "precis/smt/path_formula.hpp"

namespace precis {

// The conjuncts of a path formula, newest first, as a persistent list.
struct AbeConjuncts {
  Term conjunct;
  std::shared_ptr<AbeConjuncts> prev;
  std::uint32_t length = 1;

  AbeConjuncts(Term c, std::shared_ptr<AbeConjuncts> p)
      : conjunct(c), prev(std::move(p)), length(prev ? prev->length + 1 : 1) {}
  AbeConjuncts(const AbeConjuncts&) = delete;
  AbeConjuncts& operator=(const AbeConjuncts&) = delete;
  // Iterative: a block of 10^5 edges must not recurse 10^5 destructors deep.
  ~AbeConjuncts() {
    std::shared_ptr<AbeConjuncts> p = std::move(prev);
    while (p && p.use_count() == 1) p = std::move(p->prev);
  }
};

// SSA index of the variables written since the block start (smt/path_formula.hpp).
using AbeIndex = SparseSsaIndex;

struct AbeState {
  PredicateState abstraction;          // at the block start; bottom: the element is
  std::uint64_t abstraction_id = 0;    // which abstraction computation made it
  bool at_point = true;                // made by an abstraction (path formula true)
  std::shared_ptr<AbeConjuncts> path;  // null: true
  AbeIndex index;                      // empty: every variable at x@0
  std::vector<std::uint64_t> members;  // path ids of the formulas it contains, sorted

  [[nodiscard]] bool is_bottom() const noexcept { return abstraction.is_bottom(); }
  [[nodiscard]] std::size_t path_length() const noexcept { return path ? path->length : 0; }
};

// Shared by the domain, the merge operator and the analysis: the abstractor (solver,
// SSA manager, caches), fresh ids and the ABE counters.
struct AbeContext {
  AbeContext(std::shared_ptr<ExprManager> em, AbstractionMode mode, PredicateOptions opts)
      : abstractor(std::make_shared<PredicateAbstractor>(std::move(em), without_cores(opts))),
        domain(mode, abstractor) {}

  // Block abstraction and covering never ask for an unsat core, and a cvc5 that records
  // them is slower on every check. Covering compares Boolean abstractions at one
  // abstraction point: propositional entailment decides it (predicate_abstractor.hpp,
  // propositionally_implies), as BDD entailment does in CPAchecker (measured on systemc
  // token_ring, bench/README.md).
  static PredicateOptions without_cores(PredicateOptions o) {
    o.solver.unsat_cores = false;
    o.symbolic_coverage = false;
    return o;
  }

  std::shared_ptr<PredicateAbstractor> abstractor;
  PredicateDomain domain;  // the abstraction formulas' lattice (implication)
  std::uint64_t next_id = 1;

  struct Counters {
    std::uint64_t abstractions = 0;         // abstraction computations (at block ends)
    std::uint64_t bottom_abstractions = 0;  // unsatisfiable block ends
    std::uint64_t merges = 0;               // path formulas joined inside blocks
    std::uint64_t block_formulas = 0;       // block formulas abstracted (= abstractions)
    std::size_t max_block_size = 0;         // DAG size of a block formula
    double total_block_size = 0;
    double path_formula_time = 0;  // seconds building path formulas (transfer, merge)
    double abstraction_time = 0;   // seconds in block abstraction (solver)
  } counters;

  std::uint64_t fresh() { return next_id++; }

  // The path formula as one term over the SSA manager.
  Term formula(const AbeState& s) {
    ExprManager& e = abstractor->ssa().ssa();
    std::vector<Term> cs;
    if (s.path) cs.reserve(s.path->length);
    for (const AbeConjuncts* c = s.path.get(); c; c = c->prev.get()) cs.push_back(c->conjunct);
    std::reverse(cs.begin(), cs.end());
    return e.conj(cs);
  }

  // The disjunction of a and b (a fresh element; with the same abstraction as both if
  // they share one, else with the abstractions moved into the path formula). SSA: per
  // variable the larger index, the lower side equated with it (phi).
  AbeState join(const AbeState& a, const AbeState& b) {
    const auto t0 = std::chrono::steady_clock::now();
    SsaVars& ssa = abstractor->ssa();
    ExprManager& e = ssa.ssa();
    const bool same = a.abstraction_id == b.abstraction_id;
    AbeState out;
    out.at_point = false;
    if (same) {
      out.abstraction = a.abstraction;
      out.abstraction_id = a.abstraction_id;
    } else {
      out.abstraction = PredicateState::top();
      out.abstraction_id = fresh();
    }
    // The merged index: per variable the larger of the two (one linear merge).
    AbeIndex m;
    m.reserve(a.index.size() + b.index.size());
    std::merge(a.index.begin(), a.index.end(), b.index.begin(), b.index.end(),
               std::back_inserter(m));
    std::size_t w = 0;
    for (std::size_t r = 0; r < m.size(); ++r) {
      if (w > 0 && m[w - 1].first == m[r].first)
        m[w - 1].second = std::max(m[w - 1].second, m[r].second);
      else
        m[w++] = m[r];
    }
    m.resize(w);
    auto side = [&](const AbeState& s) {
      std::vector<Term> cs{formula(s)};
      if (!same) cs.push_back(abstractor->state_formula(s.abstraction));
      for (const auto& [x, k] : m) {
        const std::uint32_t low = sparse_index_of(s.index, x);
        if (low == k) continue;
        Term hi = ssa.var(x, k);
        Term lo = ssa.var(x, low);
        cs.push_back(hi.is_bool() ? e.iff(hi, lo) : e.eq(hi, lo));
      }
      return e.conj(cs);
    };
    const Term d = e.or_(side(a), side(b));
    out.path = std::make_shared<AbeConjuncts>(d, nullptr);
    out.index = std::move(m);
    std::set_union(a.members.begin(), a.members.end(), b.members.begin(), b.members.end(),
                   std::back_inserter(out.members));
    ++counters.merges;
    counters.path_formula_time +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  }
};

// The lattice of ABE elements (see the header comment for leq).
class AbeDomain {
 public:
  using element = AbeState;

  AbeDomain() = default;
  explicit AbeDomain(std::shared_ptr<AbeContext> ctx) : ctx_(std::move(ctx)) {}

  [[nodiscard]] element bottom() const {
    AbeState s;
    s.abstraction = PredicateState::bottom();
    return s;
  }
  [[nodiscard]] bool is_bottom(const element& e) const { return e.is_bottom(); }

  [[nodiscard]] bool leq(const element& a, const element& b) const {
    if (a.is_bottom()) return true;
    if (b.is_bottom()) return false;
    if (a.at_point && b.at_point) return ctx_->domain.leq(a.abstraction, b.abstraction);
    return std::includes(b.members.begin(), b.members.end(), a.members.begin(), a.members.end());
  }

  [[nodiscard]] element join(const element& a, const element& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    if (leq(a, b)) return b;
    if (leq(b, a)) return a;
    return ctx_->join(a, b);
  }

  [[nodiscard]] AbeContext& context() const { return *ctx_; }

 private:
  std::shared_ptr<AbeContext> ctx_;
};

static_assert(AbstractDomain<AbeDomain>);

// Merge of ABE: join the path formulas of elements with the same abstraction inside a
// block; sep at abstraction points and between different abstractions.
struct AbeMerge {
  static constexpr bool is_sep = false;
  // The CPA algorithm skips the merge scan for elements this says never merge.
  [[nodiscard]] bool skip(const AbeDomain&, const AbeState& e_new) const {
    return e_new.at_point || e_new.is_bottom();
  }
  AbeState operator()(const AbeDomain& d, const AbeState& e_new, const AbeState& e_reached) const {
    if (skip(d, e_new) || e_reached.at_point || e_reached.is_bottom() ||
        e_new.abstraction_id != e_reached.abstraction_id || d.leq(e_new, e_reached))
      return e_reached;
    return d.context().join(e_new, e_reached);
  }
};

struct AbeOptions {
  BlockPolicy block = BlockPolicy::FunctionEntriesAndLoopHeads;  // ABE-lf, the paper's
  PredicateOptions predicate{};
};

template <AbstractionMode Mode>
class AbePredicateAnalysis {
 public:
  using domain_type = AbeDomain;
  using element = AbeState;
  using precision = LocalPrecision<PredicateSet>;
  using merge_type = AbeMerge;
  static constexpr AbstractionMode mode = Mode;

  explicit AbePredicateAnalysis(const Cfa& cfa, AbeOptions opts = {})
      : cfa_(&cfa),
        ctx_(std::make_shared<AbeContext>(cfa.expr_manager(), Mode, std::move(opts.predicate))),
        blocks_(std::make_shared<BlockOperator>(cfa, opts.block)),
        domain_(ctx_) {}

  [[nodiscard]] const domain_type& domain() const { return domain_; }
  [[nodiscard]] element initial_element() const {
    AbeState s;
    s.abstraction = PredicateState::top();
    s.abstraction_id = ctx_->fresh();
    s.members = {s.abstraction_id};
    return s;
  }
  [[nodiscard]] precision initial_precision(Granularity g) const {
    return precision(*cfa_, g, PredicateSet{});
  }

  // The transfer relation: the path formula grows by the edge's constraint.
  template <class Sink>
  void successors(const element& e, const EdgeRef& edge, const precision& /*pi*/,
                  Sink&& sink) const {
    if (e.is_bottom()) return;
    const auto t0 = std::chrono::steady_clock::now();
    AbeState s;
    s.abstraction = e.abstraction;
    s.abstraction_id = e.abstraction_id;
    s.at_point = false;
    s.index = e.index;
    s.path = e.path;
    if (auto c = encode(edge.operation(), s.index)) {
      if (c->is_const() && c->value() == 0) return;  // assume(false): no successor
      if (!c->is_const()) s.path = std::make_shared<AbeConjuncts>(*c, e.path);
    }
    s.members = {ctx_->fresh()};
    ctx_->counters.path_formula_time +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sink(std::move(s));
  }

  // The precision adjustment: abstraction at the block operator's points.
  [[nodiscard]] Adjusted<element, precision> adjust(const element& e, const precision& pi,
                                                    Loc loc) const {
    if (e.at_point || e.is_bottom() || !blocks_->is_abstraction_point(loc))
      return {e, std::nullopt, Action::Continue};
    return {abstract(e, pi.at(loc)), std::nullopt, Action::Continue};
  }
  [[nodiscard]] Adjusted<element, precision> adjust(element&& e, const precision& pi,
                                                    Loc loc) const {
    if (e.at_point || e.is_bottom() || !blocks_->is_abstraction_point(loc))
      return {std::move(e), std::nullopt, Action::Continue};
    return {abstract(e, pi.at(loc)), std::nullopt, Action::Continue};
  }

  [[nodiscard]] const BlockOperator& block_operator() const { return *blocks_; }
  // Certificates (certify/) have invariants at the abstraction points only: a node
  // elsewhere holds a path formula over SSA copies, not a formula over the program
  // variables, and the checker proves consecution block by block instead.
  [[nodiscard]] const std::vector<bool>& certificate_points() const {
    return blocks_->abstraction_points();
  }
  // The locations whose precision the analysis reads (adjust abstracts only there): the
  // CEGAR loop prunes from the first of them whose precision a refinement changed.
  [[nodiscard]] const std::vector<bool>& precision_points() const {
    return blocks_->abstraction_points();
  }
  [[nodiscard]] AbeContext& context() const { return *ctx_; }
  [[nodiscard]] PredicateAbstractor& abstractor() const { return *ctx_->abstractor; }

  void report(Statistics& st) const {
    const PredicateStats& p = ctx_->abstractor->stats();
    const SolverStats& s = ctx_->abstractor->solver_stats();
    const auto& c = ctx_->counters;
    auto& x = st.extra;
    x["abe abstraction"] = Mode == AbstractionMode::Boolean ? 1 : 0;  // 1: Boolean
    x["abe block policy"] = static_cast<double>(blocks_->policy());
    x["abe abstraction points"] = static_cast<double>(std::count(
        blocks_->abstraction_points().begin(), blocks_->abstraction_points().end(), true));
    x["abe abstractions"] = static_cast<double>(c.abstractions);
    x["abe abstractions bottom"] = static_cast<double>(c.bottom_abstractions);
    x["abe abstraction cache hits"] = static_cast<double>(p.cache_hits);
    x["abe merges"] = static_cast<double>(c.merges);
    x["abe block formula size max"] = static_cast<double>(c.max_block_size);
    x["abe block formula size avg"] =
        c.block_formulas ? c.total_block_size / static_cast<double>(c.block_formulas) : 0;
    x["abe time abstraction s"] = c.abstraction_time;
    x["abe time path formulas s"] = c.path_formula_time;
    x["abe boolean fallbacks"] = static_cast<double>(p.boolean_fallbacks);
    x["abe leq checks"] = static_cast<double>(p.leq_checks);
    x["abe leq syntactic"] = static_cast<double>(p.leq_syntactic);
    x["abe leq refuted"] = static_cast<double>(p.leq_refuted);
    x["abe leq cache hits"] = static_cast<double>(p.leq_cache_hits);
    x["abe leq time s"] = p.leq_time;
    x["abe solver calls"] = static_cast<double>(s.calls());
    x["abe solver time s"] = s.seconds();
  }

 private:
  // The edge's constraint over SSA copies; advances `index` past a written variable.
  // nullopt: no constraint (skip, havoc).
  std::optional<Term> encode(const Operation& op, AbeIndex& index) const {
    SsaVars& ssa = ctx_->abstractor->ssa();
    ExprManager& e = ssa.ssa();
    auto at = [&](VarId x) { return sparse_index_of(index, x); };
    return std::visit(
        overloaded{
            [&](const Skip&) -> std::optional<Term> { return std::nullopt; },
            [&](const Assume& a) -> std::optional<Term> { return ssa.shift(a.cond, at); },
            [&](const Assign& a) -> std::optional<Term> {
              Term rhs = ssa.shift(a.value, at);
              const std::uint32_t k = at(a.var) + 1;
              sparse_set_index(index, a.var, k);
              Term lhs = ssa.var(a.var, k);
              return lhs.is_bool() ? e.iff(lhs, rhs) : e.eq(lhs, rhs);
            },
            [&](const Havoc& h) -> std::optional<Term> {
              const std::uint32_t k = at(h.var) + 1;
              sparse_set_index(index, h.var, k);
              ssa.at(h.var, k);  // fresh, unconstrained
              return std::nullopt;
            },
        },
        op);
  }

  AbeState abstract(const AbeState& e, const PredicateSet& preds) const {
    AbeContext& c = *ctx_;
    const auto t0 = std::chrono::steady_clock::now();
    const Term f = c.formula(e);
    const std::size_t size = dag_size(f);
    ++c.counters.abstractions;
    ++c.counters.block_formulas;
    c.counters.max_block_size = std::max(c.counters.max_block_size, size);
    c.counters.total_block_size += static_cast<double>(size);
    AbeState out;
    out.abstraction = c.abstractor->abstract_block(e.abstraction, f, e.index, preds, Mode);
    c.counters.abstraction_time +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (out.abstraction.is_bottom()) {
      ++c.counters.bottom_abstractions;
      return out;
    }
    out.abstraction_id = c.fresh();
    out.members = {out.abstraction_id};
    return out;
  }

  const Cfa* cfa_;
  std::shared_ptr<AbeContext> ctx_;
  std::shared_ptr<const BlockOperator> blocks_;
  AbeDomain domain_;
};

// A certificate disjunct (certify/certificate.hpp): the abstraction at an abstraction point; true
// elsewhere (those locations are not certificate points, see certificate_points()).
inline Term to_formula(const AbeState& s, ExprManager& em) {
  return s.at_point ? to_formula(s.abstraction, em) : em.true_();
}

// For ARG pictures (io/arg_dot.hpp): the abstraction, and the path formula's length.
inline void print(std::ostream& os, const AbeState& s, const ExprManager& em) {
  os << to_string(s.abstraction, em);
  if (!s.at_point) os << "\npath formula: " << s.path_length() << " conjuncts";
}

using PredAbe = AbePredicateAnalysis<AbstractionMode::Boolean>;
using PredAbeCart = AbePredicateAnalysis<AbstractionMode::Cartesian>;

}  // namespace precis
