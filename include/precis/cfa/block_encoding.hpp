#pragma once
// Block encoding: the block operator of adjustable-block encoding (Beyer, Keremoglu,
// Wendler, "Predicate abstraction with adjustable-block encoding", FMCAD 2010) and the
// block graph between its abstraction points.
//
// The block operator decides where an analysis abstracts: ABE-l at loop heads, ABE-lf
// at loop heads and function boundaries, SBE at every location; the initial and the
// error location are always abstraction points (a block starts at the entry, and the
// error check happens on an abstract state). Loop heads are the heads of Bourdoncle's
// weak topological order, so every cycle of the reachable CFA passes an abstraction
// point and the region between two of them is loop-free.
//
// The block graph is one mechanism for two users: the ABE predicate analysis (its
// refinement has one conjunct per block) and VINTA, whose cutpoint graph
// (Albarghouthi, Gurfinkel, Chechik, SAS 2012, section 3) is exactly this graph with
// loop heads as cutpoints: each block is an action (l1, T, l2) whose T is the set of
// loop-free paths between them. A block is stored as a small DAG with its own node
// numbering (node 0 the entry, the last node the exit, topological order), so a block
// from a loop head back to itself has two distinct nodes for the one location.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/weak_topological_order.hpp"

namespace precis {

enum class BlockPolicy : std::uint8_t {
  LoopHeads,                    // ABE-l: WTO heads (+ initial and error location)
  FunctionEntriesAndLoopHeads,  // ABE-lf: also every function entry and return site
  EveryLocation,                // SBE: single-block encoding, one block per edge
  AbeL = LoopHeads,
  AbeLf = FunctionEntriesAndLoopHeads,
  Sbe = EveryLocation,
};

inline const char* to_string(BlockPolicy p) {
  switch (p) {
    case BlockPolicy::LoopHeads: return "abe-l";
    case BlockPolicy::FunctionEntriesAndLoopHeads: return "abe-lf";
    case BlockPolicy::EveryLocation: return "sbe";
  }
  return "?";
}

// The block operator: which locations are abstraction points.
class BlockOperator {
 public:
  BlockOperator(const Cfa& cfa, BlockPolicy policy)
      : BlockOperator(cfa, policy, WeakTopologicalOrder(cfa)) {}
  BlockOperator(const Cfa& cfa, BlockPolicy policy, WeakTopologicalOrder wto)
      : policy_(policy), wto_(std::move(wto)), point_(cfa.num_locations(), false) {
    const std::size_t n = cfa.num_locations();
    if (policy == BlockPolicy::EveryLocation) {
      point_.assign(n, true);
    } else {
      for (Loc h : wto_.heads()) point_[h] = true;
      if (policy == BlockPolicy::FunctionEntriesAndLoopHeads) {
        // The C front end inlines calls; a call edge and a return edge are the edges
        // whose ends lie in different functions. CPAchecker's `blk.alwaysAtFunctions`
        // abstracts at both (function entry and return site), as ABE-lf prescribes.
        for (auto e : cfa.edges())
          if (cfa.function_of(cfa.source(e)) != cfa.function_of(cfa.target(e)))
            point_[cfa.target(e)] = true;
      }
    }
    if (n > 0) point_[cfa.initial_location()] = true;
    if (auto err = cfa.error_location()) point_[*err] = true;
  }

  // Given abstraction points (e.g. where a certificate or a witness has invariants),
  // completed with the WTO heads, the initial and the error location, so that every
  // cycle still passes a point and the regions between points stay loop-free.
  BlockOperator(const Cfa& cfa, const std::vector<bool>& points)
      : BlockOperator(cfa, BlockPolicy::LoopHeads) {
    for (std::size_t l = 0; l < point_.size() && l < points.size(); ++l)
      point_[l] = point_[l] || points[l];
  }

  [[nodiscard]] BlockPolicy policy() const noexcept { return policy_; }
  [[nodiscard]] bool is_abstraction_point(Loc l) const { return point_.at(l); }
  [[nodiscard]] const std::vector<bool>& abstraction_points() const noexcept { return point_; }
  [[nodiscard]] const WeakTopologicalOrder& wto() const noexcept { return wto_; }
  // The abstraction points reachable from the initial location, in WTO order.
  [[nodiscard]] std::vector<Loc> reachable_points() const {
    std::vector<Loc> out;
    for (const auto& el : wto_.elements())
      if (point_[el.loc]) out.push_back(el.loc);
    return out;
  }

 private:
  BlockPolicy policy_;
  WeakTopologicalOrder wto_;
  std::vector<bool> point_;
};

// An edge of a block, between two of the block's nodes.
struct BlockEdge {
  CfaEdge edge;
  std::uint32_t source = 0;  // node index in Block::nodes
  std::uint32_t target = 0;
};

// The loop-free paths from one abstraction point to the next (an action of the
// cutpoint graph). `nodes` is in topological order: nodes[0] is the entry, nodes.back()
// the exit (the same location when the block goes round a loop); `edges` are the CFA
// edges that lie on some entry-exit path, sorted by source node then target node.
struct Block {
  Loc entry = 0;
  Loc exit = 0;
  std::vector<Loc> nodes;
  std::vector<BlockEdge> edges;

  [[nodiscard]] std::uint32_t exit_node() const noexcept {
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }
};

// All blocks between the reachable abstraction points of a block operator.
class BlockGraph {
 public:
  BlockGraph(const Cfa& cfa, const BlockOperator& op) : num_locations_(cfa.num_locations()) {
    from_.assign(num_locations_, {});
    into_.assign(num_locations_, {});
    Scratch s(num_locations_);
    for (Loc h : op.reachable_points()) add_region(cfa, op, h, s);
  }

  [[nodiscard]] const std::vector<Block>& blocks() const noexcept { return blocks_; }
  [[nodiscard]] const Block& block(std::size_t i) const { return blocks_.at(i); }
  // Indices of the blocks leaving / entering an abstraction point.
  [[nodiscard]] std::span<const std::size_t> blocks_from(Loc h) const { return from_.at(h); }
  [[nodiscard]] std::span<const std::size_t> blocks_into(Loc p) const { return into_.at(p); }
  // The block from `entry` to `exit`, if there is one (at most one per pair).
  [[nodiscard]] std::optional<std::size_t> find(Loc entry, Loc exit) const {
    for (std::size_t b : blocks_from(entry))
      if (blocks_[b].exit == exit) return b;
    return std::nullopt;
  }

  // The cutpoint graph in compressed rows over CFA locations (successors of h: the exits
  // of its blocks), e.g. for its weak topological order (VINTA's EXPANDARG). `without`
  // leaves one location out (VINTA orders the error location last by hand: it has no
  // successors, so it may come last in any WTO).
  [[nodiscard]] WeakTopologicalOrder wto(Loc root,
                                         std::optional<Loc> without = std::nullopt) const {
    std::vector<std::size_t> offsets(num_locations_ + 1, 0);
    std::vector<Loc> targets;
    for (Loc l = 0; l < num_locations_; ++l) {
      offsets[l] = targets.size();
      for (std::size_t b : from_[l])
        if (blocks_[b].exit != without) targets.push_back(blocks_[b].exit);
    }
    offsets[num_locations_] = targets.size();
    return WeakTopologicalOrder::of_graph(num_locations_, root, offsets, targets);
  }

 private:
  // Per-location marks stamped with a generation, so no O(locations) clearing per block.
  struct Scratch {
    explicit Scratch(std::size_t n)
        : region(n, 0), exit(n, 0), on_block(n, 0), topo(n, 0), local(n, 0) {}
    std::vector<std::uint32_t> region;    // == gen_region: expanded in the current region
    std::vector<std::uint32_t> exit;      // == gen_region: an exit of the current region
    std::vector<std::uint32_t> on_block;  // == gen_block: on a path to the current exit
    std::vector<std::uint32_t> topo;      // topological position in the region
    std::vector<std::uint32_t> local;     // node index in the current block
    std::uint32_t gen_region = 0;
    std::uint32_t gen_block = 0;
  };

  // The region of h: every location reachable from h without passing another
  // abstraction point (h's own in-edges lead to h as an exit). It is a DAG because every
  // cycle passes a WTO head. Linear in the region, plus the size of its blocks.
  void add_region(const Cfa& cfa, const BlockOperator& op, Loc h, Scratch& s) {
    ++s.gen_region;
    // Iterative DFS for a postorder of the expanded locations; exits are leaves.
    std::vector<Loc> post;
    std::vector<Loc> exits;
    struct Item {
      Loc l;
      boost::graph_traits<CfaGraph>::out_edge_iterator it, end;
    };
    std::vector<Item> stack;
    auto expand = [&](Loc l) {
      s.region[l] = s.gen_region;
      auto [b, e] = boost::out_edges(l, cfa.graph());
      stack.push_back(Item{l, b, e});
    };
    expand(h);
    while (!stack.empty()) {
      Item& top = stack.back();
      if (top.it == top.end) {
        post.push_back(top.l);
        stack.pop_back();
        continue;
      }
      const Loc w = cfa.target(*top.it++);
      if (op.is_abstraction_point(w)) {
        if (s.exit[w] != s.gen_region) {
          s.exit[w] = s.gen_region;
          exits.push_back(w);
        }
      } else if (s.region[w] != s.gen_region) {
        expand(w);  // invalidates top
      }
    }
    // Reverse postorder is a topological order of the region (h first).
    for (std::size_t i = 0; i < post.size(); ++i)
      s.topo[post[post.size() - 1 - i]] = static_cast<std::uint32_t>(i);

    for (Loc p : exits) {
      // Backward from p over region locations: the edges on some h-p path.
      ++s.gen_block;
      Block blk;
      blk.entry = h;
      blk.exit = p;
      std::vector<CfaEdge> edges;
      std::vector<Loc> interior;
      std::vector<Loc> work;
      auto reach_back = [&](Loc target) {
        for (auto e : cfa.in_edges(target)) {
          const Loc u = cfa.source(e);
          if (s.region[u] != s.gen_region) continue;  // not expanded from h
          edges.push_back(e);
          if (u == h || s.on_block[u] == s.gen_block) continue;
          s.on_block[u] = s.gen_block;
          interior.push_back(u);
          work.push_back(u);
        }
      };
      reach_back(p);
      while (!work.empty()) {
        const Loc u = work.back();
        work.pop_back();
        reach_back(u);
      }
      std::sort(interior.begin(), interior.end(),
                [&](Loc a, Loc b) { return s.topo[a] < s.topo[b]; });
      blk.nodes.reserve(interior.size() + 2);
      blk.nodes.push_back(h);
      for (Loc u : interior) {
        s.local[u] = static_cast<std::uint32_t>(blk.nodes.size());
        blk.nodes.push_back(u);
      }
      blk.nodes.push_back(p);
      const auto exit_node = static_cast<std::uint32_t>(blk.nodes.size() - 1);
      blk.edges.reserve(edges.size());
      for (CfaEdge e : edges) {
        const Loc u = cfa.source(e);
        const Loc v = cfa.target(e);
        const std::uint32_t su = u == h ? 0 : s.local[u];
        const std::uint32_t tv = v == p ? exit_node : s.local[v];
        blk.edges.push_back(BlockEdge{e, su, tv});
      }
      std::sort(blk.edges.begin(), blk.edges.end(), [](const BlockEdge& a, const BlockEdge& b) {
        return a.source != b.source ? a.source < b.source : a.target < b.target;
      });
      const std::size_t idx = blocks_.size();
      from_[h].push_back(idx);
      into_[p].push_back(idx);
      blocks_.push_back(std::move(blk));
    }
  }

  std::size_t num_locations_ = 0;
  std::vector<Block> blocks_;
  std::vector<std::vector<std::size_t>> from_;
  std::vector<std::vector<std::size_t>> into_;
};

}  // namespace precis
