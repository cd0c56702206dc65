#pragma once
// Refinement over blocks for adjustable-block encoding (Beyer, Keremoglu, Wendler,
// FMCAD 2010; the explicit-value paper's CPA-PRED, section IV), the default refiner of
// AbePredicateAnalysis (domains/predicate/abe_analysis.hpp).
//
// The ARG's error path is cut at the abstraction points of the block operator into a
// sequence of blocks; the interpolation problem has one conjunct per block: the formula
// of ALL loop-free paths of the block (smt/block_formula.hpp, the CFA region between two
// abstraction points, as compact as its DAG), not the one path the ARG happens to name.
//
//  1. The block sequence is checked with the solver. Satisfiable: the model's control
//     variables pick one concrete path through every block, and its initial values and
//     havoc choices go to the concrete interpreter; only a replayed path is a
//     counterexample.
//  2. Unsatisfiable: interpolants I_0 = true, ..., I_m = false at the block boundaries,
//     inductive over the blocks (I_j /\ block_j => I_{j+1}). The Farkas and core + WP
//     tiers (refine/farkas_interpolation.hpp) work on conjunctions, so they are asked
//     for the sequence of the ARG's path through the blocks (one disjunct of each
//     block); its interpolants at the block boundaries are then checked by the solver
//     against the whole blocks. Where they hold for every block (the usual case: the
//     reason one path fails is the reason all fail), they are the block sequence.
//  3. Otherwise cvc5's interpolation over the block conjuncts, one binary interpolant
//     per boundary, I_{j+1} = itp(I_j /\ block_j, block_{j+1} /\ ... /\ block_m), which
//     is inductive by construction (bounded by the number of blocks and cvc5's
//     interpolation timeout).
//  4. If that fails too, the path's interpolants are used as they are: they refute the
//     ARG's path, not every path of its blocks (counted as "abe path-only refinements");
//     progress is then one path at a time, and CEGAR's no-progress check still applies.
//
// The predicates of I_j go to the location of boundary j (an abstraction point), split
// and escalated as the single-edge predicate refiner does (refine/predicate_refiner.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/block_encoding.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/result.hpp"
#include "precis/domains/predicate/abe_analysis.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/refine/error_path.hpp"
#include "precis/refine/farkas_interpolation.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/refiner.hpp"
#include "precis/smt/block_formula.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"

namespace precis {

struct BlockRefinerOptions {
  BlockPolicy block = BlockPolicy::FunctionEntriesAndLoopHeads;  // as the analysis'
  PredicateRefinerOptions predicate{};
  bool cvc5_sequence = true;        // tier 3 (see above)
  std::size_t cvc5_max_blocks = 8;  // tier 3 only for sequences of at most this many blocks
};

class BlockRefiner {
 public:
  using increment_type = PredicateSet;

  explicit BlockRefiner(const Cfa& cfa, BlockRefinerOptions opts = {})
      : cfa_(&cfa), opts_(std::move(opts)), ctx_(std::make_shared<Context>(cfa, opts_)) {}

  Refinement<PredicateSet> refine(const ErrorPath& path, Statistics& stats) {
    Refinement<PredicateSet> out;
    Context& c = *ctx_;
    stats.extra["abe refinements"] += 1;

    // The cut positions: the path's abstraction points (its start and its end always).
    std::vector<std::size_t> cuts{0};
    for (std::size_t i = 1; i < path.size(); ++i)
      if (c.op.is_abstraction_point(path.location(i))) cuts.push_back(i);
    cuts.push_back(path.size());

    // One block per segment; the route itself if the block graph has none (a path the
    // block operator does not cut as the analysis did: never with matching policies).
    std::vector<Block> routes;
    routes.reserve(cuts.size());  // no reallocation: pointers into it stay valid
    std::vector<const Block*> blocks;
    for (std::size_t j = 0; j + 1 < cuts.size(); ++j) {
      const Loc from = path.location(cuts[j]);
      const Loc to = path.location(cuts[j + 1]);
      if (auto b = c.graph.find(from, to); b && contains_route(c.graph.block(*b), path, cuts, j)) {
        blocks.push_back(&c.graph.block(*b));
      } else {
        routes.push_back(route_block(path, cuts[j], cuts[j + 1]));
        blocks.push_back(&routes.back());
        stats.extra["abe route blocks"] += 1;
      }
    }

    // The block path formula, with the SSA index at every boundary.
    BlockPathFormula pf;
    std::vector<std::vector<std::uint32_t>> index_at{
        std::vector<std::uint32_t>(c.ssa.base().num_vars(), 0)};
    pf.index = index_at.front();
    for (const Block* b : blocks) {
      pf.blocks.push_back(c.encoder.encode(*b, pf.index));
      pf.conjuncts.push_back(pf.blocks.back().formula);
      index_at.push_back(pf.index);
    }

    SatResult sat = SatResult::Unknown;
    {
      Stopwatch sw(stats.time_feasibility);
      SolverScope<Cvc5Solver> scope(c.solver);
      for (Term t : pf.conjuncts) c.solver.assert_(t);
      sat = c.solver.check();
      if (sat == SatResult::Sat) {
        std::string why;
        auto w = block_path_from_model(*cfa_, c.ssa, pf, c.solver, why);
        if (!w) {
          out.reason = "the block formula of the error path is satisfiable, but " + why;
          return out;
        }
        ErrorPath cex{w->start, w->steps};
        const auto ops = cex.operations();
        const PathInputs in{w->initial, w->havoc};
        if (confirm_by_replay(*cfa_, cex, ops, in, out))
          stats.extra["abe counterexamples from block formulas"] += 1;
        return out;
      }
    }
    if (sat != SatResult::Unsat) {
      out.reason =
          "the feasibility of the error path's blocks is unknown (solver answered unknown)";
      return out;
    }

    // Interpolants at the boundaries, over program variables.
    std::vector<Term> itps;
    std::string why;
    const auto ops = path.operations();
    auto path_itps = interpolate_path(c.ssa, ops, c.solver, opts_.predicate.interpolation, &why);
    if (path_itps) {
      for (std::size_t cut : cuts) itps.push_back(path_itps->interpolants.at(cut));
      if (inductive_over_blocks(itps, pf, index_at)) {
        stats.extra["abe interpolants inductive over blocks"] += 1;
      } else if (auto seq = cvc5_sequence(pf, index_at)) {
        stats.extra["abe interpolants cvc5 block sequence"] += 1;
        itps = std::move(*seq);
      } else {
        stats.extra["abe path-only refinements"] += 1;
        itps.clear();
        for (std::size_t i = 0; i < path_itps->interpolants.size() && i <= path.size(); ++i)
          itps.push_back(path_itps->interpolants[i]);
      }
    } else if (auto seq = cvc5_sequence(pf, index_at)) {
      stats.extra["abe interpolants cvc5 block sequence"] += 1;
      itps = std::move(*seq);
    } else {
      out.reason = "the error path's blocks are infeasible, but no interpolant sequence was found";
      if (!why.empty()) out.reason += " (" + why + ")";
      return out;
    }
    report_solver(stats);

    std::vector<std::pair<std::size_t, Term>> at;
    if (itps.size() == cuts.size()) {
      for (std::size_t j = 0; j < cuts.size(); ++j) at.emplace_back(cuts[j], itps[j]);
    } else {  // the path's own sequence, one interpolant per cut of the path
      for (std::size_t i = 0; i < itps.size(); ++i) at.emplace_back(i, itps[i]);
    }
    out.increments = predicate_increments(*cfa_->expr_manager(), path, at, opts_.predicate.split,
                                          opts_.predicate.escalate, given_, stats);
    out.kind = RefinementKind::Spurious;
    return out;
  }

  [[nodiscard]] const BlockRefinerOptions& options() const noexcept { return opts_; }

 private:
  struct Context {
    Context(const Cfa& cfa, const BlockRefinerOptions& o)
        : em(cfa.expr_manager()),
          ssa(*em),
          solver(ssa.ssa(), o.predicate.solver),
          op(cfa, o.block),
          graph(cfa, op),
          encoder(cfa, ssa) {}
    std::shared_ptr<ExprManager> em;  // keeps the base manager of `ssa` alive
    SsaVars ssa;
    Cvc5Solver solver;
    BlockOperator op;
    BlockGraph graph;
    BlockFormulaEncoder encoder;  // one encoder: fresh control variables per occurrence
  };

  // Does block b contain the path's steps between cuts j and j+1?
  static bool contains_route(const Block& b, const ErrorPath& path,
                             const std::vector<std::size_t>& cuts, std::size_t j) {
    std::set<CfaEdge> edges;
    for (const BlockEdge& e : b.edges) edges.insert(e.edge);
    for (std::size_t i = cuts[j]; i < cuts[j + 1]; ++i)
      if (!edges.contains(path.steps[i].edge)) return false;
    return true;
  }

  // The path's steps [from, to) as a block of one route.
  static Block route_block(const ErrorPath& path, std::size_t from, std::size_t to) {
    Block b;
    b.entry = path.location(from);
    b.exit = path.location(to);
    b.nodes.push_back(b.entry);
    for (std::size_t i = from; i < to; ++i) {
      b.nodes.push_back(path.steps[i].target);
      b.edges.push_back(BlockEdge{path.steps[i].edge, static_cast<std::uint32_t>(i - from),
                                  static_cast<std::uint32_t>(i - from + 1)});
    }
    return b;
  }

  // I_j /\ block_j => I_{j+1} for every block (I over program variables).
  bool inductive_over_blocks(const std::vector<Term>& itps, const BlockPathFormula& pf,
                             const std::vector<std::vector<std::uint32_t>>& index_at) {
    Context& c = *ctx_;
    ExprManager& s = c.ssa.ssa();
    for (std::size_t j = 0; j < pf.conjuncts.size(); ++j) {
      SolverScope<Cvc5Solver> scope(c.solver);
      c.solver.assert_(c.ssa.shift(itps[j], index_at[j]));
      c.solver.assert_(pf.conjuncts[j]);
      c.solver.assert_(s.not_(c.ssa.shift(itps[j + 1], index_at[j + 1])));
      if (c.solver.check() != SatResult::Unsat) return false;
    }
    return true;
  }

  // Tier 3: I_{j+1} = itp(I_j /\ block_j, rest), over program variables; nullopt if off,
  // too long, or cvc5 gives no interpolant over the boundary's variables.
  std::optional<std::vector<Term>> cvc5_sequence(
      const BlockPathFormula& pf, const std::vector<std::vector<std::uint32_t>>& index_at) {
    Context& c = *ctx_;
    const std::size_t m = pf.conjuncts.size();
    if (!opts_.cvc5_sequence || m > opts_.cvc5_max_blocks) return std::nullopt;
    ExprManager& s = c.ssa.ssa();
    std::vector<Term> out{c.em->true_()};
    Term prev = s.true_();  // I_j over SSA variables
    for (std::size_t j = 0; j + 1 < m; ++j) {
      const Term a = s.and_(prev, pf.conjuncts[j]);
      const Term b = s.conj(std::span<const Term>(pf.conjuncts).subspan(j + 1));
      std::optional<Term> i;
      try {
        i = c.solver.interpolate(a, b);
      } catch (const limit_reached&) {
        throw;
      } catch (const std::exception&) {
        return std::nullopt;
      }
      if (!i) return std::nullopt;
      // Only variables of boundary j + 1 (no control variables, no other copies).
      std::vector<VarId> vs;
      collect_vars(*i, vs);
      for (VarId v : vs) {
        const auto o = c.ssa.origin(v);
        if (o.var == SsaVars::no_var || index_at[j + 1].at(o.var) != o.index) return std::nullopt;
      }
      out.push_back(c.ssa.unshift(*i));
      prev = *i;
    }
    out.push_back(c.em->false_());
    return out;
  }

  void report_solver(Statistics& stats) const {
    stats.extra["abe refiner solver calls"] = static_cast<double>(ctx_->solver.stats().calls());
    stats.extra["abe refiner solver time s"] = ctx_->solver.stats().seconds();
  }

  const Cfa* cfa_;
  BlockRefinerOptions opts_;
  std::shared_ptr<Context> ctx_;  // the refiner is moved into CEGAR: stable addresses
  std::set<std::pair<Loc, std::uint32_t>> given_;
};

static_assert(Refiner<BlockRefiner>);

template <AbstractionMode M>
struct default_refiner<AbePredicateAnalysis<M>> {
  using type = BlockRefiner;
};

}  // namespace precis
