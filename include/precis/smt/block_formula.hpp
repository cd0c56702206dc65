#pragma once
// The formula of a block (cfa/block_encoding.hpp): all loop-free paths from the block's
// entry to its exit in one formula as compact as the block's DAG, no path enumeration.
//
// Encoding: the DAG encoding of large-block / adjustable-block encoding (Beyer,
// Keremoglu, Wendler, FMCAD 2010; Beyer et al., FMCAD 2009 for LBE) with explicit
// control variables, as in the BMC encoding VINTA uses for its ARG check (Albarghouthi,
// Gurfinkel, Chechik, SAS 2012, section 4.3; the encoding it cites: Gurfinkel, Chaki,
// Sapra, "Efficient predicate abstraction of program summaries", NFM 2011):
//
//   r_n  (Bool)  the path passes block node n     (r_entry = true, r_exit asserted)
//   t_e  (Bool)  the path takes block edge e = (u, v)
//   t_e  => r_u /\ [op_e] /\ phi_e              one constraint per edge
//   r_v  => \/ { t_e | e enters v }               one constraint per node
//
// SSA is the convention of smt/path_formula.hpp (copies x@k in SsaVars' manager),
// extended to the DAG as CPAchecker does: a node's index of x is the maximum over its
// in-edges, and an in-edge that leaves x at a lower index adds x@max = x@low (phi_e).
// A write takes the node's index + 1; branches may reuse an index, which is sound
// because only the constraints of taken edges are enforced. The size is linear in the
// edges plus the phi equalities (hash-consing shares the rest).
//
// Blocks in a sequence continue the SSA index (one conjunct per block, the
// interpolation problem of block refinement), and each occurrence gets fresh control
// variables, so a block's control variables appear in its conjunct only (interpolants
// between conjuncts never mention them).
//
// From a model of a satisfiable sequence, `block_path_from_model` follows the true
// control variables backwards from each exit: one concrete CFA path, with the values of
// its initial variables and havocs, that the concrete interpreter
// (path/concrete_interpreter.hpp) replays.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/block_encoding.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/expr/term.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

// The formula of one block occurrence.
struct BlockFormula {
  const Block* block = nullptr;
  Term formula;             // the conjunct: all constraints and r_exit
  std::vector<Term> reach;  // r_n by block node (reach[0] is true)
  std::vector<Term> taken;  // t_e by block edge
  // The SSA index the edge's written variable gets (0 if the operation writes none).
  std::vector<std::uint32_t> written_index;
};

// A sequence of blocks: conjuncts[i] is blocks[i].formula. `index` is the SSA index of
// every program variable at the end (entries past its size are 0).
struct BlockPathFormula {
  std::vector<BlockFormula> blocks;
  std::vector<Term> conjuncts;
  std::vector<std::uint32_t> index;
};

class BlockFormulaEncoder {
 public:
  BlockFormulaEncoder(const Cfa& cfa, SsaVars& ssa) : cfa_(cfa), ssa_(ssa) {
    if (&ssa.base() != &cfa.exprs())
      throw std::invalid_argument("BlockFormulaEncoder: SsaVars over another manager");
  }

  // The formula of block `b` entered with SSA `index` (by program VarId; grown as
  // needed); `index` becomes the index at the block's exit.
  BlockFormula encode(const Block& b, std::vector<std::uint32_t>& index) {
    ExprManager& s = ssa_.ssa();
    ssa_.deadline().check();  // once per block (an unrolling step encodes thousands)
    if (index.size() < ssa_.base().num_vars()) index.resize(ssa_.base().num_vars(), 0);
    const std::size_t occ = occurrence_++;
    const std::size_t n = b.nodes.size();
    BlockFormula out;
    out.block = &b;
    out.reach.resize(n);
    out.taken.resize(b.edges.size());
    out.written_index.assign(b.edges.size(), 0);
    const std::string prefix = "__blk" + std::to_string(occ) + ".";
    out.reach[0] = s.true_();
    for (std::size_t i = 1; i < n; ++i)
      out.reach[i] = s.var(s.declare(prefix + "r" + std::to_string(i), Type::Bool));
    for (std::size_t i = 0; i < b.edges.size(); ++i)
      out.taken[i] = s.var(s.declare(prefix + "t" + std::to_string(i), Type::Bool));

    // In-edges by node (edges are sorted by source, so every in-edge of node v comes
    // from a node before v in topological order).
    std::vector<std::vector<std::uint32_t>> in(n);
    std::vector<std::uint32_t> out_left(n, 0);
    for (std::size_t i = 0; i < b.edges.size(); ++i) {
      in[b.edges[i].target].push_back(static_cast<std::uint32_t>(i));
      ++out_left[b.edges[i].source];
    }
    // delta[n]: the variables whose index at node n differs from the entry index, sorted.
    std::vector<Delta> delta(n);
    std::vector<Term> conj;
    conj.reserve(b.edges.size() + n + 1);
    std::vector<Term> op_of;  // per in-edge of the current node: [op_e]
    std::vector<Term> alts;
    std::vector<Delta> after;  // per in-edge of the current node: the index after it
    for (std::size_t v = 1; v < n; ++v) {
      if ((v & 15U) == 0) ssa_.deadline().check();  // the SsaVars owner's deadline
      after.clear();
      op_of.clear();
      alts.clear();
      for (std::uint32_t ei : in[v]) {
        const BlockEdge& be = b.edges[ei];
        const Delta& du = delta[be.source];
        auto index_of = [&](VarId x) { return lookup(du, index, x); };
        Term c = s.true_();
        std::optional<std::pair<VarId, std::uint32_t>> write;
        const Operation& op = cfa_.operation(be.edge);
        if (const auto* a = std::get_if<Assume>(&op)) {
          c = ssa_.shift(a->cond, index_of);
        } else if (const auto* as = std::get_if<Assign>(&op)) {
          Term rhs = ssa_.shift(as->value, index_of);
          const std::uint32_t k = index_of(as->var) + 1;
          Term lhs = ssa_.var(as->var, k);
          c = lhs.is_bool() ? s.iff(lhs, rhs) : s.eq(lhs, rhs);
          write.emplace(as->var, k);
        } else if (const auto* h = std::get_if<Havoc>(&op)) {
          const std::uint32_t k = index_of(h->var) + 1;
          ssa_.at(h->var, k);  // fresh, unconstrained
          write.emplace(h->var, k);
        }
        // The source's index is copied, or moved when this is its last out-edge.
        Delta d;
        if (--out_left[be.source] == 0)
          d = std::move(delta[be.source]);
        else
          d = du;
        if (write) {
          sparse_set_index(d, write->first, write->second);
          out.written_index[ei] = write->second;
        }
        op_of.push_back(c);
        after.push_back(std::move(d));
      }
      // The merged index: per variable the maximum over the in-edges.
      Delta merged;
      if (after.size() == 1) {
        merged = std::move(after[0]);
      } else {
        for (const Delta& d : after)
          for (const auto& [x, k] : d) sparse_set_index(merged, x, k, true);
      }
      // One constraint per in-edge: t_e => r_u /\ [op_e] /\ phi_e.
      for (std::size_t j = 0; j < in[v].size(); ++j) {
        const std::uint32_t ei = in[v][j];
        std::vector<Term> c{out.reach[b.edges[ei].source]};
        if (op_of[j] != s.true_()) c.push_back(op_of[j]);
        if (after.size() > 1) {
          ssa_.deadline().check();  // (a join of many in-edges over many variables)
          for (const auto& [x, k] : merged) {
            const std::uint32_t low = lookup(after[j], index, x);
            if (low == k) continue;
            Term hi_t = ssa_.var(x, k);
            Term lo_t = ssa_.var(x, low);
            c.push_back(hi_t.is_bool() ? s.iff(hi_t, lo_t) : s.eq(hi_t, lo_t));
          }
        }
        conj.push_back(s.imply(out.taken[ei], s.conj(c)));
        alts.push_back(out.taken[ei]);
      }
      conj.push_back(s.imply(out.reach[v], s.disj(alts)));
      delta[v] = std::move(merged);
    }
    conj.push_back(out.reach[n - 1]);
    out.formula = s.conj(conj);
    for (const auto& [x, k] : delta[n - 1]) index[x] = k;
    return out;
  }

 private:
  using Delta = SparseSsaIndex;

  static std::uint32_t lookup(const Delta& d, const std::vector<std::uint32_t>& entry, VarId x) {
    if (const std::uint32_t* k = sparse_find(d, x)) return *k;
    return x < entry.size() ? entry[x] : 0;
  }

  const Cfa& cfa_;
  SsaVars& ssa_;
  std::size_t occurrence_ = 0;
};

// The formula of a sequence of blocks (each block's exit is the next block's entry),
// SSA continuing from x@0 for every variable at the first entry.
inline BlockPathFormula encode_block_path(const Cfa& cfa, SsaVars& ssa,
                                          std::span<const Block* const> blocks) {
  BlockPathFormula out;
  BlockFormulaEncoder enc(cfa, ssa);
  out.index.assign(ssa.base().num_vars(), 0);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (i > 0 && blocks[i - 1]->exit != blocks[i]->entry)
      throw std::invalid_argument("encode_block_path: block " + std::to_string(i) +
                                  " does not start where block " + std::to_string(i - 1) + " ends");
    out.blocks.push_back(enc.encode(*blocks[i], out.index));
    out.conjuncts.push_back(out.blocks.back().formula);
  }
  return out;
}

// One concrete CFA path through a satisfiable block sequence, with the values of its
// nondeterministic choices: `initial` by program VarId, `havoc` by step (the fields of
// precis::PathInputs, path/concrete_interpreter.hpp, which this layer does not see).
struct BlockPathWitness {
  Loc start = 0;
  std::vector<EdgeRef> steps;
  std::vector<BigInt> initial;  // exact model values (may exceed 64 bits)
  std::vector<BigInt> havoc;
  ArrayInputs arrays;                  // the same for array variables
  std::vector<std::size_t> block_end;  // steps[block_end[i] - 1] is block i's last step

  [[nodiscard]] std::vector<Operation> operations() const {
    std::vector<Operation> ops;
    ops.reserve(steps.size());
    for (const auto& st : steps) ops.push_back(*st.op);
    return ops;
  }
};

// The route through one block occurrence that a model selects: the indices of its
// block edges, entry to exit, found by following the true control variables backwards
// from the exit. nullopt, with `reason`, if the model takes no edge into a node on the way
// (ruled out for a model of the block's formula).
template <SmtSolver S>
std::optional<std::vector<std::uint32_t>> block_route_from_model(const Cfa& cfa,
                                                                 const BlockFormula& bf, S& solver,
                                                                 std::string& reason) {
  const Block& b = *bf.block;
  auto is_true = [&](Term t) {
    if (t.is_const()) return t.value() != 0;
    auto v = solver.value(t);
    return v && *v != 0;
  };
  // In-edges by node, then backwards from the exit along taken edges.
  std::vector<std::vector<std::uint32_t>> in(b.nodes.size());
  for (std::size_t i = 0; i < b.edges.size(); ++i)
    in[b.edges[i].target].push_back(static_cast<std::uint32_t>(i));
  std::vector<std::uint32_t> rev;
  std::uint32_t node = b.exit_node();
  while (node != 0) {
    std::optional<std::uint32_t> pick;
    for (std::uint32_t ei : in[node])
      if (is_true(bf.taken[ei])) {
        pick = ei;
        break;
      }
    if (!pick) {
      reason = "the model takes no edge into node " + std::to_string(node) + " of block " +
               cfa.name(b.entry) + " -> " + cfa.name(b.exit);
      return std::nullopt;
    }
    rev.push_back(*pick);
    node = b.edges[*pick].source;  // strictly earlier: the walk ends
  }
  return std::vector<std::uint32_t>(rev.rbegin(), rev.rend());
}

// After `solver` (over ssa.ssa(), with the conjuncts of `pf` asserted or assumed)
// answered Sat: the path the model's control variables select, with the exact values of
// its inputs. nullopt, with `reason`, when the model selects no path (which the
// encoding rules out for a model of all conjuncts).
template <SmtSolver S>
std::optional<BlockPathWitness> block_path_from_model(const Cfa& cfa, SsaVars& ssa,
                                                      const BlockPathFormula& pf, S& solver,
                                                      std::string& reason) {
  BlockPathWitness w;
  if (pf.blocks.empty()) return w;
  w.start = pf.blocks.front().block->entry;
  std::vector<std::uint32_t> written;  // per step: the SSA index of a havoc's variable
  for (const BlockFormula& bf : pf.blocks) {
    auto route = block_route_from_model(cfa, bf, solver, reason);
    if (!route) return std::nullopt;
    for (std::uint32_t ei : *route) {
      w.steps.push_back(cfa.ref(bf.block->edges[ei].edge));
      written.push_back(bf.written_index[ei]);
    }
    w.block_end.push_back(w.steps.size());
  }
  const ExprManager& base = ssa.base();
  w.initial.assign(base.num_vars(), 0);
  for (VarId x = 0; x < base.num_vars(); ++x) {
    auto id = ssa.find(x, 0);
    if (!id) continue;  // unconstrained: any value does
    if (!read_model_input(solver, base, x, ssa.ssa().var(*id), w.initial[x], w.arrays.initial, x,
                          reason))
      return std::nullopt;
  }
  w.havoc.assign(w.steps.size(), 0);
  for (std::size_t i = 0; i < w.steps.size(); ++i) {
    const auto* h = std::get_if<Havoc>(w.steps[i].op);
    if (!h) continue;
    if (!read_model_input(solver, base, h->var, ssa.var(h->var, written[i]), w.havoc[i],
                          w.arrays.havoc, i, reason))
      return std::nullopt;
  }
  return w;
}

}  // namespace precis
