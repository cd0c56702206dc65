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
//     block); the solver then checks it against the whole blocks. Where it holds for
//     every block (the usual case: the reason one path fails is the reason all fail),
//     it is the block sequence. Where block j breaks it, the counter-model names another
//     route through block j; that route's path (the same blocks elsewhere) is
//     interpolated too and the two sequences combined as for a case split on block j
//     (conjunction up to its entry, disjunction after it), until the combination is
//     inductive (at most `max_routes` extra routes: lazy, driven by
//     counter-models, never an enumeration of the block's paths).
//  3. Otherwise the strongest postconditions at the boundaries (cvc5's quantifier
//     elimination of everything but the boundary's copies): exact, hence inductive; the
//     predicates of state machines (a state variable's values) come from here.
//  4. Otherwise, opt-in, cvc5's interpolation over the block conjuncts, one binary
//     interpolant per boundary, I_{j+1} = itp(I_j /\ block_j, the blocks after j),
//     inductive by construction (bounded by the number of blocks and cvc5's
//     interpolation timeout).
//  5. If no tier gives an inductive sequence, the combined route sequences are used as
//     they are: they refute the interpolated routes, not every path of the blocks
//     (counted as "abe refinements not inductive over blocks"); progress is then a few
//     routes at a time, and CEGAR's no-progress check still applies.
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
#include "precis/path/error_path.hpp"
#include "precis/path/refiner.hpp"
#include "precis/refine/farkas_interpolation.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/smt/block_formula.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"

namespace precis {

struct BlockRefinerOptions {
  BlockPolicy block = BlockPolicy::FunctionEntriesAndLoopHeads;  // as the analysis'
  PredicateRefinerOptions predicate{};
  // Routes interpolated besides the ARG's path before the sequence is given up as not
  // inductive over the blocks.
  std::size_t max_routes = 8;
  // cvc5's interpolation over the block conjuncts when the routes do not give an
  // inductive sequence: off by default (syntax-guided, often 2 s per boundary without an
  // answer); --interpolation cvc5 turns it on.
  bool cvc5_sequence = false;
  std::size_t cvc5_max_blocks = 8;  // and only for sequences of at most this many blocks
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
        const PathInputs in{w->initial, w->havoc, w->arrays};
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

    // Interpolants at the cuts, over program variables: the sequences of routes through
    // the blocks (the ARG's path first), combined, until inductive over whole blocks.
    std::string why;
    std::optional<std::vector<Term>> combined;  // I_j at cut j, for the routes so far
    std::optional<std::vector<Term>> route_seq;
    auto interpolate_route = [&](const ErrorPath& p, const std::vector<std::size_t>& pcuts) {
      const auto ops = p.operations();
      auto r = interpolate_path(c.ssa, ops, c.solver, opts_.predicate.interpolation, &why);
      if (!r) return false;
      route_seq.emplace();
      for (std::size_t cut : pcuts) route_seq->push_back(r->interpolants.at(cut));
      stats.extra[std::string("abe interpolants ") + to_string(r->tier)] += 1;
      return true;
    };
    std::optional<std::vector<Term>> itps;
    bool inductive = true;
    if (interpolate_route(path, cuts)) {
      combined = std::move(route_seq);
      ErrorPath current = path;
      std::vector<std::size_t> current_cuts = cuts;
      for (std::size_t k = 0;; ++k) {
        auto failing = first_non_inductive(*combined, pf, index_at);
        if (!failing) {
          itps = combined;
          stats.extra["abe interpolants inductive over blocks"] += 1;
          if (k > 0) stats.extra["abe extra routes interpolated"] += static_cast<double>(k);
          break;
        }
        if (k == opts_.max_routes || !failing->second) break;
        // The route the check found through block j, in place of the current one.
        const std::size_t j = failing->first;
        const Block& blk = *pf.blocks[j].block;
        ErrorPath next;
        next.start = current.start;
        next.steps.assign(current.steps.begin(),
                          current.steps.begin() + static_cast<std::ptrdiff_t>(current_cuts[j]));
        for (std::uint32_t ei : *failing->second)
          next.steps.push_back(cfa_->ref(blk.edges[ei].edge));
        const std::size_t at_end = next.steps.size();
        next.steps.insert(next.steps.end(),
                          current.steps.begin() + static_cast<std::ptrdiff_t>(current_cuts[j + 1]),
                          current.steps.end());
        std::vector<std::size_t> next_cuts = current_cuts;
        for (std::size_t q = j + 1; q < next_cuts.size(); ++q)
          next_cuts[q] = next_cuts[q] - current_cuts[j + 1] + at_end;
        if (!interpolate_route(next, next_cuts)) break;
        // The two paths differ in block j only: both sequences hold up to its entry
        // (conjunction), one of them after it (disjunction), as for a case split.
        ExprManager& em = *c.em;
        for (std::size_t q = 0; q < combined->size(); ++q)
          (*combined)[q] = q <= j ? em.and_((*combined)[q], (*route_seq)[q])
                                  : em.or_((*combined)[q], (*route_seq)[q]);
        current = std::move(next);
        current_cuts = std::move(next_cuts);
      }
    }
    if (!itps) {
      if (auto seq = sp_sequence(pf, index_at)) {
        stats.extra["abe interpolants strongest post"] += 1;
        itps = std::move(*seq);
      } else if (auto seq = cvc5_sequence(pf, index_at)) {
        stats.extra["abe interpolants cvc5 block sequence"] += 1;
        itps = std::move(*seq);
      } else if (combined) {
        // Refutes the interpolated routes, not every path of the blocks.
        stats.extra["abe refinements not inductive over blocks"] += 1;
        itps = std::move(combined);
        inductive = false;
      }
    }
    report_solver(stats);
    if (!itps) {
      out.reason = "the error path's blocks are infeasible, but no interpolant sequence was found";
      if (!why.empty()) out.reason += " (" + why + ")";
      return out;
    }

    last_.blocks.clear();
    for (const Block* b : blocks) last_.blocks.push_back(*b);
    last_.interpolants = *itps;
    last_.inductive = inductive;
    std::vector<std::pair<std::size_t, Term>> at;
    for (std::size_t j = 0; j < cuts.size(); ++j) at.emplace_back(cuts[j], (*itps)[j]);
    out.increments = predicate_increments(*cfa_->expr_manager(), path, at, opts_.predicate.split,
                                          opts_.predicate.escalate, given_, stats);
    out.kind = RefinementKind::Spurious;
    return out;
  }

  [[nodiscard]] const BlockRefinerOptions& options() const noexcept { return opts_; }

  // The last refinement's interpolation problem and answer, for tests and tools: the
  // blocks (copies), I_0 .. I_m over program variables at their boundaries, and whether
  // the sequence is inductive over the whole blocks (else it refutes some routes only).
  struct Sequence {
    std::vector<Block> blocks;
    std::vector<Term> interpolants;
    bool inductive = false;
  };
  [[nodiscard]] const Sequence& last_sequence() const noexcept { return last_; }

 private:
  struct Context {
    Context(const Cfa& cfa, const BlockRefinerOptions& o)
        : em(cfa.expr_manager()),
          ssa(*em),
          solver(ssa.ssa(), o.predicate.solver),
          op(cfa, o.block),
          graph(cfa, op),
          encoder(cfa, ssa) {
      ssa.set_deadline(o.predicate.solver.deadline);  // block encoding polls it
    }
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

  // The first block j where I_j /\ block_j => I_{j+1} fails (I over program variables),
  // with the route through block j the counter-model takes (nullopt if the solver could
  // not say); nullopt if the sequence is inductive over every block.
  std::optional<std::pair<std::size_t, std::optional<std::vector<std::uint32_t>>>>
  first_non_inductive(const std::vector<Term>& itps, const BlockPathFormula& pf,
                      const std::vector<std::vector<std::uint32_t>>& index_at) {
    Context& c = *ctx_;
    ExprManager& s = c.ssa.ssa();
    for (std::size_t j = 0; j < pf.conjuncts.size(); ++j) {
      SolverScope<Cvc5Solver> scope(c.solver);
      c.solver.assert_(c.ssa.shift(itps[j], index_at[j]));
      c.solver.assert_(pf.conjuncts[j]);
      c.solver.assert_(s.not_(c.ssa.shift(itps[j + 1], index_at[j + 1])));
      const SatResult r = c.solver.check();
      if (r == SatResult::Unsat) continue;
      std::optional<std::vector<std::uint32_t>> route;
      if (r == SatResult::Sat) {
        std::string why;
        route = block_route_from_model(*cfa_, pf.blocks[j], c.solver, why);
      }
      return std::make_pair(j, std::move(route));
    }
    return std::nullopt;
  }

  // Tier 3: the strongest postconditions at the boundaries, I_{j+1} = exists (all but
  // the boundary's copies). I_j /\ block_j, by cvc5's quantifier elimination: exact, so
  // inductive and false at the end; nullopt if QE declines (size, non-linear) or fails.
  std::optional<std::vector<Term>> sp_sequence(
      const BlockPathFormula& pf, const std::vector<std::vector<std::uint32_t>>& index_at) {
    Context& c = *ctx_;
    ExprManager& s = c.ssa.ssa();
    const std::size_t m = pf.conjuncts.size();
    std::vector<Term> out{c.em->true_()};
    Term prev = s.true_();
    for (std::size_t j = 0; j + 1 < m; ++j) {
      const Term phi = s.and_(prev, pf.conjuncts[j]);
      std::vector<VarId> vs, elim;
      collect_vars(phi, vs);
      for (VarId v : vs) {
        const auto o = c.ssa.origin(v);
        if (o.var == SsaVars::no_var || index_at[j + 1].at(o.var) != o.index) elim.push_back(v);
      }
      std::optional<Term> r;
      try {
        r = elim.empty() ? std::optional<Term>(phi) : c.solver.eliminate_exists(elim, phi);
      } catch (const limit_reached&) {
        throw;
      } catch (const std::exception&) {
        return std::nullopt;
      }
      if (!r) return std::nullopt;
      std::vector<VarId> rs;
      collect_vars(*r, rs);
      for (VarId v : rs) {
        const auto o = c.ssa.origin(v);
        if (o.var == SsaVars::no_var || index_at[j + 1].at(o.var) != o.index) return std::nullopt;
      }
      out.push_back(c.ssa.unshift(*r));
      prev = *r;
    }
    out.push_back(c.em->false_());
    if (first_non_inductive(out, pf, index_at)) return std::nullopt;  // QE not exact
    return out;
  }

  // Tier 4: I_{j+1} = itp(I_j /\ block_j, rest), over program variables; nullopt if off,
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
  Sequence last_;
};

static_assert(Refiner<BlockRefiner>);

template <AbstractionMode M>
struct default_refiner<AbePredicateAnalysis<M>> {
  using type = BlockRefiner;
};

}  // namespace precis
