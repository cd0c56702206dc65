#pragma once
// Independent clusters of a conjunction, for Boolean predicate abstraction.
//
// The Boolean abstraction of a conjunction A /\ B whose parts share no variable, over
// predicates each of which reads the variables of only one part, is the conjunction of
// the parts' abstractions: alpha(A /\ B) = alpha_PA(A) /\ alpha_PB(B) when both are
// satisfiable, false otherwise. All-solutions enumeration pays one solver check per
// cube, so a product of k clusters with c cubes each costs c^k checks in one piece and
// k*c in clusters; and a cluster that a block does not touch (the literals of the
// abstract state about the other processes of a state machine, the predicates over
// them) is the same formula as at the previous abstraction, so its abstraction is
// cached. CPAchecker gets the same effect from BDDs inside MathSAT's all-SAT; cvc5 has
// no all-SAT, so precis splits before enumerating.
//
// split_clusters() computes the connected components of the "shares a variable"
// relation over the conjuncts and the predicates (union-find over variables). A
// conjunct without variables (a constant) forms a cluster of its own; a predicate
// without variables too.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "precis/expr/term.hpp"
#include "precis/expr/term_structure.hpp"

namespace precis {

struct TermCluster {
  std::vector<Term> conjuncts;     // sorted by Term order (a cache key)
  std::vector<std::size_t> preds;  // indices into the predicate list, ascending
};

// The connected components of conjuncts and predicates (over their variables). The
// scratch arrays are indexed by VarId and reused between calls (an epoch marks the
// entries of the current call): splitting runs once per cube of every abstraction.
class ClusterSplitter {
 public:
  std::vector<TermCluster> split(std::span<const Term> conjuncts, std::span<const Term> preds,
                                 TermVarCache& vars) {
    if (++epoch_ == 0) {  // wrapped: forget every stamp
      std::fill(stamp_.begin(), stamp_.end(), 0);
      epoch_ = 1;
    }
    parent_.clear();
    for (Term c : conjuncts) unite_all(vars.vars(c));
    for (Term p : preds) unite_all(vars.vars(p));

    // Components in order of first appearance; a variable-free term is its own cluster.
    std::vector<TermCluster> out;
    cluster_of_.assign(parent_.size(), no_cluster);
    auto cluster_for = [&](const std::vector<VarId>& vs) -> TermCluster& {
      if (vs.empty()) return out.emplace_back();
      const std::size_t r = find(slot_[vs.front()]);
      if (cluster_of_[r] == no_cluster) {
        cluster_of_[r] = out.size();
        out.emplace_back();
      }
      return out[cluster_of_[r]];
    };
    for (Term c : conjuncts) cluster_for(vars.vars(c)).conjuncts.push_back(c);
    for (std::size_t i = 0; i < preds.size(); ++i)
      cluster_for(vars.vars(preds[i])).preds.push_back(i);
    for (TermCluster& c : out) {
      std::sort(c.conjuncts.begin(), c.conjuncts.end());
      c.conjuncts.erase(std::unique(c.conjuncts.begin(), c.conjuncts.end()), c.conjuncts.end());
    }
    return out;
  }

 private:
  static constexpr std::size_t no_cluster = static_cast<std::size_t>(-1);

  std::size_t find(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  std::size_t slot_of(VarId v) {
    if (v >= stamp_.size()) {
      stamp_.resize(v + 1, 0);
      slot_.resize(v + 1, 0);
    }
    if (stamp_[v] != epoch_) {
      stamp_[v] = epoch_;
      slot_[v] = parent_.size();
      parent_.push_back(parent_.size());
    }
    return slot_[v];
  }
  void unite_all(const std::vector<VarId>& vs) {
    if (vs.empty()) return;
    const std::size_t r = find(slot_of(vs.front()));
    for (std::size_t i = 1; i < vs.size(); ++i) {
      const std::size_t o = find(slot_of(vs[i]));
      if (o != r) parent_[o] = r;
    }
  }

  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> stamp_;  // per VarId: the call that gave it a slot
  std::vector<std::size_t> slot_;     // per VarId: its union-find element
  std::vector<std::size_t> parent_;
  std::vector<std::size_t> cluster_of_;
};

// One-shot form of ClusterSplitter::split.
inline std::vector<TermCluster> split_clusters(std::span<const Term> conjuncts,
                                               std::span<const Term> preds, TermVarCache& vars) {
  ClusterSplitter s;
  return s.split(conjuncts, preds, vars);
}

}  // namespace precis
