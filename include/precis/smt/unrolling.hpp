#pragma once
// The program as a transition system over its cutpoint graph, unrolled step by step:
// the encoding that bounded model checking (algorithms/bmc.hpp) and k-induction
// (algorithms/k_induction.hpp) share.
//
// A state is a program counter pc (an integer naming a cutpoint: a loop head, the
// initial or the error location; cfa/block_encoding.hpp with BlockPolicy::LoopHeads) and
// the program's variables. One step takes one block of the cutpoint graph: all loop-free
// paths between two cutpoints, in the DAG encoding of smt/block_formula.hpp (no path
// enumeration). Step d is
//
//   T_d  =  \/_b sel_{d,b}  /\  /\_b sel_{d,b} => pc_d = src(b) /\ pc_{d+1} = dst(b)
//                                                  /\ [b](X_d, X_{d+1})
//
// where [b] is the block's formula from the state at step d (SSA indices index(d)) with
// the variables it leaves below the step's common exit index equated to it (frame
// equalities), so every block ends in the same state X_{d+1}. A state whose location
// has no block (the error location, the final one) has no successor: its paths end
// there, so "pc_d = err" asks for error paths of exactly d steps. (An error location
// that stutters would let one query cover every depth up to d, but each query then has
// to refute every shorter depth again: on a counter 1,000 iterations deep that made BMC
// 5-20x slower than a query per depth, which unit propagation makes cheap: the error
// at exactly d forces every earlier step; bench/README.md.)
//
// The location is one-hot: a Boolean "pc_d = c" per cutpoint c, at most one per step. At
// most one block leaves a cutpoint for a given exit (BlockGraph::find), so at most one
// sel_{d,b} holds per step; the blocks of one step share SSA indices, which is sound
// because a block's constraints hold only where it is selected. From an initial location
// (BMC), step d encodes only the blocks from cutpoints reachable in d steps.
// From a model, `path_from_model` follows the selected blocks and, inside each, the
// taken edges (block_route_from_model): one CFA path with the values of its initial
// variables and havocs, which the concrete interpreter replays.
//
// Growth: a step adds every block's formula once (linear in the CFA's edges) plus the
// frame equalities (at most variables x blocks); index(d) is O(variables) per step.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/block_encoding.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/expr/term.hpp"
#include "precis/smt/block_formula.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

class Unrolling {
 public:
  // `tag` keeps the names of two unrollings over one SsaVars apart (BMC's and the
  // induction step's). `from` (BMC, the base case): the unrolling starts at that
  // location, and step d encodes only the blocks leaving a cutpoint reachable in exactly
  // d steps of the cutpoint graph (the others cannot be taken); none (the induction
  // step): from any cutpoint, every block at every step.
  Unrolling(const Cfa& cfa, SsaVars& ssa, std::string tag = "u",
            std::optional<Loc> from = std::nullopt)
      : cfa_(cfa),
        ssa_(ssa),
        op_(cfa, BlockPolicy::LoopHeads),
        graph_(cfa, op_),
        encoder_(cfa, ssa),
        tag_(std::move(tag)) {
    code_.assign(cfa.num_locations(), -1);
    for (Loc l : op_.reachable_points()) {
      code_[l] = static_cast<std::int64_t>(cutpoints_.size());
      cutpoints_.push_back(l);
    }
    if (auto e = cfa.error_location(); e && code_[*e] >= 0) error_ = *e;
    index_.emplace_back(ssa.base().num_vars(), 0);
    reach_.emplace_back(cutpoints_.size(), from ? 0 : 1);
    if (from && *from < code_.size() && code_[*from] >= 0) reach_[0][code_[*from]] = 1;
  }
  Unrolling(const Unrolling&) = delete;
  Unrolling& operator=(const Unrolling&) = delete;

  [[nodiscard]] const BlockGraph& graph() const noexcept { return graph_; }
  [[nodiscard]] SsaVars& ssa() noexcept { return ssa_; }
  [[nodiscard]] const std::vector<Loc>& cutpoints() const noexcept { return cutpoints_; }
  // The steps encoded so far (step(d) for d < depth()).
  [[nodiscard]] std::size_t depth() const noexcept { return steps_.size(); }
  // Whether the error location is a reachable cutpoint (else nothing can reach it).
  [[nodiscard]] bool has_error() const noexcept { return error_.has_value(); }

  // "pc_d = l": a Boolean of the SSA manager per step and cutpoint (one-hot: at most one
  // holds per step, next_step() says so), false for a location that is no cutpoint or
  // cannot be reached in exactly d steps from `from`. Booleans rather than an integer pc:
  // "the error at step d" then fixes the blocks before it by unit propagation.
  Term at(std::size_t d, Loc l) {
    ExprManager& s = ssa_.ssa();
    if (l >= code_.size() || code_[l] < 0) return s.false_();
    const auto c = static_cast<std::size_t>(code_[l]);
    if (d < reach_.size() && reach_[d][c] == 0) return s.false_();
    while (ats_.size() <= d) ats_.emplace_back(cutpoints_.size());
    Term& t = ats_[d][c];
    if (!t.valid())
      t = s.var(
          s.declare("__" + tag_ + ".at" + std::to_string(d) + "." + cfa_.name(l), Type::Bool));
    return t;
  }
  Term at_error(std::size_t d) { return error_ ? at(d, *error_) : ssa_.ssa().false_(); }
  // The state at step d is at exactly one cutpoint (the induction step's arbitrary start;
  // later steps get it from next_step()).
  Term pc_in_range(std::size_t d) {
    ExprManager& s = ssa_.ssa();
    std::vector<Term> any;
    for (Loc l : cutpoints_) any.push_back(at(d, l));
    return s.and_(s.disj(any), at_most_one(d));
  }
  // The state's SSA indices at step d (d <= depth()).
  [[nodiscard]] const std::vector<std::uint32_t>& index(std::size_t d) const {
    return index_.at(d);
  }
  // Program term t (over program variables) at step d.
  Term state_term(std::size_t d, Term t) { return ssa_.shift(t, index_.at(d)); }

  // Encodes the next step, d = depth(): T_d, over X_d and X_{d+1}.
  Term next_step() {
    ExprManager& s = ssa_.ssa();
    const std::size_t d = steps_.size();
    const std::vector<std::uint32_t> entry = index_[d];
    const std::size_t nv = entry.size();
    const std::size_t nb = graph_.blocks().size();
    Step step;
    step.blocks.resize(nb);
    step.sel.resize(nb);
    // The blocks that can be taken at step d, and the cutpoints reached after it.
    std::vector<std::uint8_t> live(nb, 0);
    std::vector<std::uint8_t> next_reach(cutpoints_.size(), 0);
    for (std::size_t b = 0; b < nb; ++b) {
      const Block& blk = graph_.block(b);
      if (code_[blk.entry] < 0 || code_[blk.exit] < 0 || reach_[d][code_[blk.entry]] == 0) continue;
      live[b] = 1;
      next_reach[code_[blk.exit]] = 1;
    }
    reach_.push_back(std::move(next_reach));
    std::vector<std::vector<std::uint32_t>> exits(nb);
    for (std::size_t b = 0; b < nb; ++b) {
      if (live[b] == 0) continue;
      std::vector<std::uint32_t> idx = entry;
      step.blocks[b] = encoder_.encode(graph_.block(b), idx);
      idx.resize(nv, 0);
      exits[b] = std::move(idx);
    }
    std::vector<std::uint32_t> next = entry;
    for (std::size_t b = 0; b < nb; ++b)
      if (live[b] != 0)
        for (std::size_t x = 0; x < nv; ++x) next[x] = std::max(next[x], exits[b][x]);
    // Equalities x@next = x@low for what a block leaves lower.
    auto frame = [&](const std::vector<std::uint32_t>& low, std::vector<Term>& c) {
      for (std::size_t x = 0; x < nv; ++x) {
        if (low[x] == next[x]) continue;
        const Term hi = ssa_.var(static_cast<VarId>(x), next[x]);
        const Term lo = ssa_.var(static_cast<VarId>(x), low[x]);
        c.push_back(hi.is_bool() ? s.iff(hi, lo) : s.eq(hi, lo));
      }
    };
    std::vector<Term> conj;
    std::vector<Term> sels;
    std::vector<std::vector<Term>> into(cutpoints_.size());  // sels by exit
    const std::string prefix = "__" + tag_ + ".sel" + std::to_string(d) + ".";
    for (std::size_t b = 0; b < nb; ++b) {
      if (live[b] == 0) continue;
      const Block& blk = graph_.block(b);
      const Term sel = s.var(s.declare(prefix + std::to_string(b), Type::Bool));
      std::vector<Term> c{at(d, blk.entry), at(d + 1, blk.exit), step.blocks[b].formula};
      frame(exits[b], c);
      conj.push_back(s.imply(sel, s.conj(c)));
      sels.push_back(sel);
      into[code_[blk.exit]].push_back(sel);
      step.sel[b] = sel;
    }
    // A location at d + 1 is entered by one of its blocks, and by one location only.
    for (std::size_t c = 0; c < cutpoints_.size(); ++c)
      if (reach_[d + 1][c] != 0) conj.push_back(s.imply(at(d + 1, cutpoints_[c]), s.disj(into[c])));
    conj.push_back(at_most_one(d + 1));
    conj.push_back(s.disj(sels));
    steps_.push_back(std::move(step));
    index_.push_back(std::move(next));
    return s.conj(conj);
  }

  // After Sat of a formula containing pc_0 = init, T_0 .. T_{depth-1} and "pc_depth =
  // err": the CFA path of the blocks the model selects, with the values of its inputs.
  // nullopt, with `reason`, if the model selects none.
  template <SmtSolver S>
  std::optional<BlockPathWitness> path_from_model(S& solver, std::size_t depth,
                                                  std::string& reason) {
    auto is_true = [&](Term t) {
      auto v = solver.value(t);
      return v && *v != 0;
    };
    BlockPathFormula pf;
    for (std::size_t d = 0; d < depth && d < steps_.size(); ++d) {
      const Step& st = steps_[d];
      std::optional<std::size_t> pick;
      for (std::size_t b = 0; b < st.sel.size() && !pick; ++b)
        if (st.sel[b].valid() && is_true(st.sel[b])) pick = b;
      if (!pick) {
        reason = "the model selects no block at step " + std::to_string(d);
        return std::nullopt;
      }
      pf.blocks.push_back(st.blocks[*pick]);
    }
    return block_path_from_model(cfa_, ssa_, pf, solver, reason);
  }

 private:
  struct Step {
    std::vector<BlockFormula> blocks;  // by block of the graph (unset: not live)
    std::vector<Term> sel;             // by block (unset: not live at this step)
  };

  const Cfa& cfa_;
  SsaVars& ssa_;
  BlockOperator op_;
  BlockGraph graph_;
  BlockFormulaEncoder encoder_;
  std::string tag_;
  std::vector<std::int64_t> code_;  // by location: its pc value, -1 if no cutpoint
  std::vector<Loc> cutpoints_;
  std::optional<Loc> error_;
  // Pairwise exclusion of the locations of step d (the cutpoints are few: loop heads,
  // the initial and the error location).
  Term at_most_one(std::size_t d) {
    ExprManager& s = ssa_.ssa();
    std::vector<Term> ats;
    for (Loc l : cutpoints_)
      if (Term a = at(d, l); a != s.false_()) ats.push_back(a);
    std::vector<Term> conj;
    for (std::size_t i = 0; i < ats.size(); ++i)
      for (std::size_t j = i + 1; j < ats.size(); ++j)
        conj.push_back(s.or_(s.not_(ats[i]), s.not_(ats[j])));
    return s.conj(conj);
  }

  std::vector<std::vector<Term>> ats_;             // ats_[d][code]: "pc_d = cutpoint code"
  std::vector<std::vector<std::uint8_t>> reach_;   // reach_[d][code]: reachable in d steps
  std::vector<std::vector<std::uint32_t>> index_;  // index_[d]: the state at step d
  std::vector<Step> steps_;
};

}  // namespace precis
