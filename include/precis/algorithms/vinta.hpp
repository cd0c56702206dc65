#pragma once
// VINTA: abstract interpretation refined by interpolation (Albarghouthi, Gurfinkel,
// Chechik, "Craig Interpretation", SAS 2012; see docs/papers.md, the entry for
// vinta-craig-interpretation.txt). The third family of algorithms in precis, beside the
// CPA algorithm / CEGAR and plain abstract interpretation (algorithms/
// abstract_interpreter.hpp); it shares their CFA, block encoding and SMT layer only.
//
// The program is its cutpoint graph (section 3): cfa/block_encoding.hpp's BlockGraph with
// loop heads as abstraction points, each block an action (l1, T, l2) whose T is every
// loop-free path between two cutpoints. The ARG is a DAG of nodes (cutpoint, label),
// labels both abstract elements of D and formulas (gamma = to_formula).
//
//  VINTAMAIN (Fig. 3, lines 1-13): repeat EXPANDARG; if the error node's label is false,
//    the ARG is safe, complete and well-labeled: SAFE, after the solver has checked the
//    invariant it gives (certify/invariant_check.hpp). Else REFINE: a
//    feasible execution of the ARG to the error is a counterexample (replayed by the
//    concrete interpreter like every UNSAFE in precis); otherwise new labels.
//  EXPANDARG (Fig. 3, lines 29-54): a walk of the cutpoint graph in weak topological
//    order (Bourdoncle, recursive iteration strategy, iterative here) with the maps vis
//    and FN (future node per cutpoint). A marked node gets COMPUTEPOST (join of the block
//    posts of its visited parents), widened by WIDENWITH (section 4.2) on every n-th
//    unrolling of a loop head (the paper: every third); a node refinement relabeled takes
//    its new label and marks its unlabeled children (lazy re-expansion: AI restarts at
//    the innermost loop whose invariant is no longer inductive). At a loop head the
//    covering check (line 46) is incremental as in section 5: one solver context per
//    cutpoint (per pass), one guard literal per uncovered node, g => !psi(u), and psi(v)
//    checked under the guards. A covered head leaves its loop (WTOEXIT).
//  REFINE: BMC of the ARG (the DAG encoding with one Boolean per node and per edge; each
//    edge the block formula of smt/block_formula.hpp, SSA merged at nodes with phi
//    equalities, no path enumeration). Unsatisfiable: a DAG interpolant, computed node by
//    node in topological order as binary interpolants
//        I(v) = itp( \/_{(u,v)} I(u) /\ L_V(u) /\ L_E(u,v) ,  L_V(v) /\ suffix(v) )
//    (inductive by construction: I(u) /\ L_V(u) /\ L_E(u,v) => I(v)), where suffix(v) is
//    the formula of every ARG path from v to the error. VINTAREF (Fig. 6) restricts by
//    the current labels L_V = psi (the restricted DAG interpolant, Def. 4) and returns
//    I(v) /\ psi(v): the new labels are stronger than the old ones; UFOREF (Fig. 4) takes
//    L_V = true, the unguided DAG interpolant. The binary interpolants come from the
//    Farkas tier extended to formulas with Boolean structure by lazy, model-guided cube
//    enumeration (refine/formula_interpolation.hpp). Labels go back into D by the paper's
//    abstraction (section 5): D's assume from top, which keeps what it can express.
//
// Where precis differs from the paper's Fig. 3 and why:
//  - WIDENWITH_or (Boxes) may return only the frontier of y; a label below y would make
//    the ARG well-labeled only modulo covering, and the restricted DAG interpolant needs
//    a well-labeling (Fig. 6, "Require"). The label is WIDENWITH(X, y) joined with y,
//    which leaves the union of the visited labels (the termination argument) unchanged.
//  - Covering is checked at the heads of the cutpoint graph's WTO only (the nodes where
//    the walk can leave a loop); other nodes are never covered.
//  - A node visited in a pass but not in the previous one is recomputed (marked): its
//    label predates the last refinement, which did not see its edges.
//  - Lazy re-expansion keeps labels: a marked node that has a label (from the last
//    refinement, else its own) keeps it when the solver shows it still holds for the
//    block posts of its visited parents, and its children stay as they are. Fig. 3
//    recomputes every marked node by AI, which undoes the refinement of everything below
//    it: on k counting loops in sequence that took 4^k refinements (1, 5, 21, 85 for
//    k = 1..4), with this 1 per loop.
//
// Cost per pass: O(ARG nodes) block posts and cover checks (one SMT call each, at heads);
// per refinement: one BMC call, and one binary interpolation per ARG node whose B side is
// the node's suffix (hash-consed, so the terms are shared; the solver work is O(suffix)).

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/certify/certify.hpp"
#include "precis/cfa/block_encoding.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"
#include "precis/expr/printer.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/path/error_path.hpp"
#include "precis/refine/formula_interpolation.hpp"
#include "precis/smt/block_formula.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"

namespace precis {

enum class VintaRefinement : std::uint8_t {
  Vinta,  // VINTAREF (Fig. 6): restricted DAG interpolants guided by the AI labels
  Ufo,    // UFOREF (Fig. 4): DAG interpolants of the ARG alone
};

inline const char* to_string(VintaRefinement r) {
  return r == VintaRefinement::Vinta ? "vinta" : "ufo";
}

struct VintaOptions {
  VintaRefinement refinement = VintaRefinement::Vinta;
  std::uint32_t widen_every = 3;    // WIDENWITH on every n-th unrolling of a loop head
  std::size_t max_refinements = 0;  // 0: none
  Cvc5Options solver{};
  // Farkas interpolants for at most a few cubes of the suffix per cube of the prefix,
  // then the projection generalized by an unsat core: each suffix cube costs one check
  // of the whole suffix (measured on systemc: tens of ms each).
  FormulaInterpolationOptions interpolation{.max_a_cubes = 64, .max_b_cubes = 4};
  // cvc5's own interpolation when the Farkas-based one gives up (slow; opt-in).
  bool cvc5_interpolation = false;
  // A line per few passes on stderr (ARG size, refinements, cover checks).
  bool progress = false;
};

// What VINTA needs of a domain beyond abstract interpretation (VintaDomain,
// core/concepts.hpp): top, and gamma as a formula (found by argument-dependent lookup, as
// for Box / Boxes). WIDENWITH over a set is the domain's own where it has one
// (WidensWith; Boxes: per disjunct), else vinta_widen_with.

// WIDENWITH_join of section 4.2 over a set (eq. 1 for the empty set): x widen (x join y)
// with x the last element of xs (the most recent unrolling of the loop).
template <VintaDomain D>
typename D::element vinta_widen_with(const D& d, std::span<const typename D::element> xs,
                                     const typename D::element& y) {
  if constexpr (WidensWith<D>) {
    return d.widen_with(xs, y);
  } else {
    if (xs.empty()) return y;
    return d.widen(xs.back(), d.join(xs.back(), y));
  }
}

template <VintaDomain D>
class Vinta {
 public:
  using element = typename D::element;
  using NodeId = std::uint32_t;

  Vinta(const Cfa& cfa, D domain, VintaOptions opts = {})
      : cfa_(&cfa),
        d_(std::move(domain)),
        opts_(std::move(opts)),
        op_(cfa, BlockPolicy::LoopHeads),
        graph_(cfa, op_),
        em_(cfa.expr_manager().get()) {
    if (cfa.num_locations() > 0) wto_ = graph_.wto(cfa.initial_location(), cfa.error_location());
  }

  [[nodiscard]] const BlockGraph& cutpoint_graph() const noexcept { return graph_; }
  [[nodiscard]] const WeakTopologicalOrder& wto() const noexcept { return wto_; }
  [[nodiscard]] const D& domain() const noexcept { return d_; }
  // After SAFE: per visited cutpoint, the disjunction of the labels of its uncovered nodes
  // (over program variables), the inductive invariant the solver checked.
  [[nodiscard]] const std::vector<std::pair<Loc, Term>>& invariant() const noexcept {
    return invariant_;
  }
  // After SAFE: the same invariants as a certificate (certify/certificate.hpp).
  [[nodiscard]] const Certificate& certificate() const noexcept { return certificate_; }

  // The Algorithm shape (core/concepts.hpp): the run under these limits.
  VerificationResult run(const Limits& limits) { return run(&limits); }
  VerificationResult run(const Limits* limits = nullptr) {
    VerificationResult r;
    stats_ = &r.stats;
    limits_ = limits;
    const auto started = std::chrono::steady_clock::now();
    try {
      run_loop(r);
    } catch (const limit_reached& e) {
      r.verdict = Verdict::Unknown;
      r.reason = e.what();
    } catch (const std::logic_error& e) {
      r.verdict = Verdict::Unknown;
      r.reason = std::string("vinta: internal inconsistency: ") + e.what();
    }
    auto& x = r.stats.extra;
    x["vinta passes"] = static_cast<double>(pass_);
    x["vinta arg nodes"] = static_cast<double>(nodes_.size());
    x["vinta cutpoints"] = static_cast<double>(graph_.blocks().empty() ? 0 : wto_.size() + 1);
    x["vinta blocks"] = static_cast<double>(graph_.blocks().size());
    r.stats.refinements = refinements_;
    r.stats.arg_nodes = nodes_.size();
    r.stats.created_nodes = nodes_.size();
    r.stats.time_total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    stats_ = nullptr;
    return r;
  }

 private:
  static constexpr NodeId none = std::numeric_limits<NodeId>::max();

  struct OutEdge {
    std::size_t block;
    NodeId to;
  };
  struct InEdge {
    std::size_t block;
    NodeId from;
  };
  struct Node {
    Loc loc = 0;
    Term label;                   // psi(v), over program variables
    std::optional<element> elem;  // the label in D, when known (else alpha(label))
    bool marked = false;          // labeled by AI at its next visit
    bool expanded = false;        // has its children (one per block of its cutpoint)
    bool covered = false;         // in its last visit
    std::uint32_t pass = 0;       // the last pass that visited it (0: never)
    std::uint32_t order = 0;      // its position in that pass's visit order
    std::vector<OutEdge> out;
    std::vector<InEdge> in;
  };

  // The part of the ARG a refinement sees: visited nodes that reach the error node, in
  // visit (topological) order, the root first and the error node last.
  struct Dag {
    std::vector<NodeId> nodes;
    std::vector<std::uint32_t> at;  // NodeId -> index in nodes (or npos)
    struct Edge {
      std::uint32_t from, to;
      std::size_t block;
    };
    std::vector<Edge> edges;
    std::vector<std::vector<std::uint32_t>> in, out;  // edge indices per DAG node
    // The BMC encoding: the SSA index of every variable at each node, and per edge its
    // block formula (with the phi equalities into its target's index).
    std::vector<std::vector<std::uint32_t>> index;
    std::vector<BlockFormula> blocks;
    std::vector<Term> formula;
  };
  static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();

  // ---- VINTAMAIN ----------------------------------------------------------------------

  void run_loop(VerificationResult& r) {
    const Cfa& cfa = *cfa_;
    auto& x = r.stats.extra;
    const auto err = cfa.error_location();
    if (cfa.num_locations() == 0 || !err) {
      r.verdict = Verdict::Safe;
      r.reason = "the program has no error location";
      return;
    }
    ssa_ = std::make_unique<SsaVars>(*em_);
    // Encoding the ARG's blocks polls it (a block over an inlined recursion has joins of
    // thousands of variables).
    ssa_->set_deadline(limits_ != nullptr && opts_.solver.deadline.none() ? Deadline::of(*limits_)
                                                                          : opts_.solver.deadline);
    encoder_ = std::make_unique<BlockFormulaEncoder>(cfa, *ssa_);
    solver_ = std::make_unique<Cvc5Solver>(ssa_->ssa(), opts_.solver);
    nodes_.clear();
    labels_.clear();
    last_labels_.clear();
    last_size_ = 0;
    root_ = new_node(cfa.initial_location());
    nodes_[root_].marked = true;
    err_node_ = new_node(*err);
    nodes_[err_node_].label = em_->false_();
    pass_ = 0;
    refinements_ = 0;

    for (;;) {
      if (limits_) limits_->check();
      expand_arg();
      if (limits_ && limits_->max_arg_nodes && nodes_.size() > limits_->max_arg_nodes) {
        r.reason = "ARG node limit of " + std::to_string(limits_->max_arg_nodes) + " reached";
        return;
      }
      progress();
      if (nodes_[err_node_].label == em_->false_()) {
        certify(r);
        return;
      }
      Dag dag = build_dag();
      x["vinta dag nodes (last)"] = static_cast<double>(dag.nodes.size());
      x["vinta dag edges (last)"] = static_cast<double>(dag.edges.size());
      encode(dag);
      if (bmc(dag, r)) return;  // a counterexample, or the solver gave up
      if (opts_.max_refinements && refinements_ >= opts_.max_refinements) {
        r.reason = "refinement limit of " + std::to_string(opts_.max_refinements) + " reached";
        return;
      }
      if (!refine(dag, r)) return;
      ++refinements_;
      // No progress: the same ARG and the same labels as after the last refinement (the
      // next pass would walk the same ARG to the same false alarm).
      std::vector<std::pair<NodeId, Term>> now(labels_.begin(), labels_.end());
      std::sort(now.begin(), now.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      if (nodes_.size() == last_size_ && now == last_labels_) {
        r.reason = "refinement made no progress: the same labels for the same ARG";
        return;
      }
      last_size_ = nodes_.size();
      last_labels_ = std::move(now);
    }
  }

  NodeId new_node(Loc l) {
    const auto id = static_cast<NodeId>(nodes_.size());
    Node n;
    n.loc = l;
    n.label = em_->true_();
    nodes_.push_back(std::move(n));
    return id;
  }

  void progress() const {
    if (!stats_ || !opts_.progress) return;
    auto& x = stats_->extra;
    if (pass_ % 8 != 0 && pass_ > 2) return;
    std::fprintf(stderr, "[vinta] pass %u: %zu ARG nodes, %zu refinements, %.0f cover checks\n",
                 pass_, nodes_.size(), refinements_, x["vinta cover checks"]);
  }

  // ---- EXPANDARG (Fig. 3, lines 29-54) --------------------------------------------------

  void expand_arg() {
    const Cfa& cfa = *cfa_;
    ++pass_;
    auto& x = stats_->extra;
    const std::size_t n = cfa.num_locations();
    fn_.assign(n, none);
    vis_.assign(n, {});
    guards_.assign(n, {});
    order_ = 0;
    cover_.clear();
    cover_.resize(n);
    const Loc err = nodes_[err_node_].loc;
    fn_[err] = err_node_;

    NodeId v = root_;
    for (;;) {
      if (limits_ && (order_ & 63) == 0) {
        limits_->check();
        if (limits_->max_arg_nodes && nodes_.size() > limits_->max_arg_nodes)
          throw limit_reached(
              LimitKind::Memory,
              "ARG node limit of " + std::to_string(limits_->max_arg_nodes) + " reached");
      }
      Node& node = nodes_[v];
      if (node.pass == pass_) throw std::logic_error("a node is visited twice in one pass");
      const Loc l = node.loc;
      expand(v);
      label(v);
      visit(v);
      std::optional<Loc> next;
      if (wto_.is_head(l) && is_covered(v)) {
        nodes_[v].covered = true;
        x["vinta covered"] += 1;
        fn_[l] = none;
        next = advance(wto_.exit(l));
      } else {
        next = advance(wto_.next(l));
      }
      if (!next) break;
      v = fn_[*next];
      fn_[*next] = none;
    }
    // The error node last: it has no successors, so every parent precedes it.
    label(err_node_);
    visit(err_node_);
    cover_.clear();
  }

  // The first location from `l` on (WTONEXT order; a head without a future node skips
  // its component) that has a future node.
  std::optional<Loc> advance(std::optional<Loc> l) const {
    while (l && fn_[*l] == none) l = wto_.is_head(*l) ? wto_.exit(*l) : wto_.next(*l);
    return l;
  }

  void visit(NodeId v) {
    Node& node = nodes_[v];
    node.pass = pass_;
    node.order = order_++;
    node.covered = false;
    vis_[node.loc].push_back(v);
  }

  // EXPANDNODE (lines 21-28): a node keeps its children across passes.
  void expand(NodeId v) {
    if (nodes_[v].expanded) {
      // Line 24, FN(nu(w)) <- w, unless the pass has already visited w or holds another
      // future node for nu(w) (covering changed the walk since w was created): then the
      // edge moves to the pass's future node, which is recomputed with v among its parents.
      for (std::size_t k = 0; k < nodes_[v].out.size(); ++k) {
        const NodeId w = nodes_[v].out[k].to;
        if (w == err_node_) continue;
        const Loc l = nodes_[w].loc;
        NodeId cur = fn_[l];
        if (cur == none && nodes_[w].pass != pass_) {
          fn_[l] = w;
          continue;
        }
        if (cur == w) continue;
        if (cur == none) {
          cur = new_node(l);
          fn_[l] = cur;
        }
        redirect(v, k, cur);
      }
      return;
    }
    nodes_[v].expanded = true;
    for (std::size_t b : graph_.blocks_from(nodes_[v].loc)) {
      const Loc l = graph_.block(b).exit;
      NodeId w = fn_[l];
      if (w == none) {
        w = new_node(l);
        fn_[l] = w;
      }
      nodes_[v].out.push_back(OutEdge{b, w});
      nodes_[w].in.push_back(InEdge{b, v});
    }
  }

  void redirect(NodeId v, std::size_t k, NodeId to) {
    OutEdge& e = nodes_[v].out[k];
    auto& in = nodes_[e.to].in;
    in.erase(std::remove_if(in.begin(), in.end(),
                            [&](const InEdge& x) { return x.from == v && x.block == e.block; }),
             in.end());
    e.to = to;
    nodes_[to].in.push_back(InEdge{e.block, v});
    nodes_[to].marked = true;
    stats_->extra["vinta edges redirected"] += 1;
  }

  // Lines 35-43, plus the recomputation of nodes the last refinement did not see.
  void label(NodeId v) {
    Node& node = nodes_[v];
    const bool fresh = pass_ > 1 && node.pass + 1 != pass_ && v != root_;
    auto relabeled = labels_.find(v);
    if (node.marked || fresh) {
      node.marked = false;
      // Lazy re-expansion: a node labeled before whose label (the refinement's, else its
      // own) still holds for the posts of its parents in this pass keeps it; recomputing
      // it by AI would discard the refinement below it (seq_loops: 4^k refinements).
      if (node.pass > 0 && v != root_) {
        const Term keep = relabeled != labels_.end() ? relabeled->second : node.label;
        if (holds_for_parents(v, keep)) {
          stats_->extra["vinta labels kept"] += 1;
          if (keep != node.label) {
            node.label = keep;
            node.elem.reset();
          }
          // The last refinement saw this node's out-edges only if it was visited in the
          // last pass; otherwise every child is checked again.
          for (const OutEdge& c : node.out)
            if (fresh || !labels_.contains(c.to)) nodes_[c.to].marked = true;
          return;
        }
      }
      element e = compute_post(v);
      if (wto_.is_head(node.loc) && opts_.widen_every > 0) {
        const auto& seen = vis_[node.loc];
        const std::size_t k = seen.size();
        if (k > 0 && (k + 1) % opts_.widen_every == 0) {
          std::vector<element> xs;
          xs.reserve(k);
          for (NodeId u : seen) xs.push_back(element_of(u));
          e = d_.join(vinta_widen_with(d_, std::span<const element>(xs), e), e);
          stats_->extra["vinta widenings"] += 1;
        }
      }
      node.label = to_formula(e, *em_);
      node.elem = std::move(e);
      for (const OutEdge& c : node.out) nodes_[c.to].marked = true;
      stats_->extra["vinta ai labels"] += 1;
    } else if (relabeled != labels_.end()) {
      node.label = relabeled->second;
      node.elem.reset();
      for (const OutEdge& c : node.out)
        if (!labels_.contains(c.to)) nodes_[c.to].marked = true;
    }
  }

  // psi(u) /\ [block] => label' for every parent u visited in this pass (one
  // block_consecution query per parent, certify/invariant_check.hpp).
  bool holds_for_parents(NodeId v, Term label) {
    if (label == em_->true_()) return true;
    for (const InEdge& e : nodes_[v].in) {
      const Node& u = nodes_[e.from];
      if (u.pass != pass_ || e.from == v || u.label == em_->false_()) continue;
      stats_->extra["vinta label checks"] += 1;
      if (!block_consecution(*ssa_, *encoder_, *solver_, u.label, graph_.block(e.block), label))
        return false;
    }
    return true;
  }

  // COMPUTEPOST: the join of the block posts from the parents visited in this pass.
  element compute_post(NodeId v) {
    if (v == root_) return d_.top();
    element acc = d_.bottom();
    for (const InEdge& e : nodes_[v].in) {
      if (nodes_[e.from].pass != pass_ || e.from == v) continue;
      element p = block_post(element_of(e.from), graph_.block(e.block));
      if (!d_.is_bottom(p)) acc = d_.join(acc, p);
    }
    return acc;
  }

  // POST_D over a block: abstract interpretation of its DAG in topological order.
  element block_post(const element& from, const Block& b) {
    if (d_.is_bottom(from)) return from;
    std::vector<element> val(b.nodes.size(), d_.bottom());
    val[0] = from;
    std::size_t posts = 0;
    for (const BlockEdge& be : b.edges) {
      if (d_.is_bottom(val[be.source])) continue;
      // A block can hold tens of thousands of edges (a C program of 20,000 branches in
      // one loop-free region): the time limit is polled inside it too.
      if (limits_ && (++posts & 255U) == 0) limits_->check();
      stats_->extra["ai posts"] += 1;
      element p = d_.post(val[be.source], cfa_->operation(be.edge));
      if (!d_.is_bottom(p)) val[be.target] = d_.join(val[be.target], p);
    }
    return std::move(val[b.exit_node()]);
  }

  // The label in D: the stored element, or the paper's abstraction of the formula
  // (section 5): D's assume from top keeps what D expresses (literals over one variable;
  // a disjunction joined for Box, kept for Boxes).
  const element& element_of(NodeId u) {
    Node& node = nodes_[u];
    if (!node.elem) node.elem = d_.post(d_.top(), Operation{Assume{node.label}});
    return *node.elem;
  }

  // Line 46 with the incremental check of section 5: the uncovered nodes of the cutpoint
  // as guarded negations g_u => !psi(u) in one solver; psi(v) under all the guards.
  bool is_covered(NodeId v) {
    Node& node = nodes_[v];
    if (node.label == em_->false_()) return true;
    auto& guards = guards_[node.loc];
    const Term here = ssa_->shift(node.label, std::span<const std::uint32_t>{});
    auto& solver = cover_[node.loc];
    if (!solver) solver = std::make_unique<Cvc5Solver>(ssa_->ssa(), opts_.solver);
    if (!guards.empty()) {
      std::vector<Term> assume(guards);
      assume.push_back(here);
      stats_->extra["vinta cover checks"] += 1;
      if (solver->check_assuming(assume) == SatResult::Unsat) return true;
    }
    ExprManager& s = ssa_->ssa();
    const Term g = s.var(s.declare("__cover" + std::to_string(guard_count_++), Type::Bool));
    solver->assert_(s.imply(g, s.not_(here)));
    guards.push_back(g);
    return false;
  }

  // ---- REFINE: BMC of the ARG and DAG interpolation (section 4.3) ---------------------

  Dag build_dag() const {
    Dag dag;
    dag.at.assign(nodes_.size(), npos);
    // Backwards from the error node over edges between nodes of this pass.
    std::vector<NodeId> work{err_node_};
    std::vector<char> seen(nodes_.size(), 0);
    seen[err_node_] = 1;
    while (!work.empty()) {
      const NodeId w = work.back();
      work.pop_back();
      dag.nodes.push_back(w);
      for (const InEdge& e : nodes_[w].in) {
        if (nodes_[e.from].pass != pass_ || seen[e.from]) continue;
        seen[e.from] = 1;
        work.push_back(e.from);
      }
    }
    std::sort(dag.nodes.begin(), dag.nodes.end(),
              [&](NodeId a, NodeId b) { return nodes_[a].order < nodes_[b].order; });
    if (dag.nodes.front() != root_ || dag.nodes.back() != err_node_)
      throw std::logic_error("the ARG's error node is not below its root");
    for (std::uint32_t i = 0; i < dag.nodes.size(); ++i) dag.at[dag.nodes[i]] = i;
    dag.in.assign(dag.nodes.size(), {});
    dag.out.assign(dag.nodes.size(), {});
    for (std::uint32_t i = 0; i < dag.nodes.size(); ++i) {
      for (const InEdge& e : nodes_[dag.nodes[i]].in) {
        const std::uint32_t j = dag.at[e.from];
        if (j == npos || nodes_[e.from].pass != pass_) continue;
        if (j >= i) throw std::logic_error("an ARG edge against the visit order");
        const auto k = static_cast<std::uint32_t>(dag.edges.size());
        dag.edges.push_back({j, i, e.block});
        dag.in[i].push_back(k);
        dag.out[j].push_back(k);
      }
    }
    return dag;
  }

  // The DAG encoding: SSA index per node (the maximum over its in-edges), each edge its
  // block formula and the phi equalities x@max = x@edge for the variables it leaves lower.
  void encode(Dag& dag) {
    const std::size_t nv = em_->num_vars();
    const std::size_t m = dag.nodes.size();
    dag.index.assign(m, {});
    dag.index[0].assign(nv, 0);
    dag.blocks.resize(dag.edges.size());
    dag.formula.assign(dag.edges.size(), em_->true_());
    ExprManager& s = ssa_->ssa();
    std::vector<std::vector<std::uint32_t>> after;
    for (std::uint32_t i = 1; i < m; ++i) {
      after.clear();
      std::vector<std::uint32_t> merged(nv, 0);
      for (std::uint32_t k : dag.in[i]) {
        std::vector<std::uint32_t> idx = dag.index[dag.edges[k].from];
        dag.blocks[k] = encoder_->encode(graph_.block(dag.edges[k].block), idx);
        for (std::size_t x = 0; x < nv; ++x) merged[x] = std::max(merged[x], idx[x]);
        after.push_back(std::move(idx));
      }
      for (std::size_t j = 0; j < dag.in[i].size(); ++j) {
        const std::uint32_t k = dag.in[i][j];
        std::vector<Term> c{dag.blocks[k].formula};
        for (VarId x = 0; x < nv; ++x) {
          if (after[j][x] == merged[x]) continue;
          const Term hi = ssa_->var(x, merged[x]);
          const Term lo = ssa_->var(x, after[j][x]);
          c.push_back(hi.is_bool() ? s.iff(hi, lo) : s.eq(hi, lo));
        }
        dag.formula[k] = s.conj(c);
      }
      dag.index[i] = std::move(merged);
    }
  }

  Term node_label(const Dag& dag, std::uint32_t i) {
    return ssa_->shift(nodes_[dag.nodes[i]].label, std::span<const std::uint32_t>(dag.index[i]));
  }

  // BMC of the ARG (Fig. 3 line 9 / section 2 step 1.2): true when the run ends here (a
  // replayed counterexample, or the solver could not decide).
  bool bmc(const Dag& dag, VerificationResult& r) {
    ExprManager& s = ssa_->ssa();
    const std::size_t m = dag.nodes.size();
    const std::string tag = "__vinta" + std::to_string(pass_) + ".";
    std::vector<Term> reach(m), taken(dag.edges.size());
    reach[0] = s.true_();
    for (std::size_t i = 1; i < m; ++i)
      reach[i] = s.var(s.declare(tag + "r" + std::to_string(i), Type::Bool));
    std::vector<Term> conj;
    for (std::size_t k = 0; k < dag.edges.size(); ++k) {
      taken[k] = s.var(s.declare(tag + "t" + std::to_string(k), Type::Bool));
      conj.push_back(s.imply(taken[k], s.and_(reach[dag.edges[k].from], dag.formula[k])));
    }
    for (std::size_t i = 1; i < m; ++i) {
      std::vector<Term> alts;
      for (std::uint32_t k : dag.in[i]) alts.push_back(taken[k]);
      conj.push_back(s.imply(reach[i], s.disj(alts)));
    }
    conj.push_back(reach[m - 1]);
    const auto t0 = std::chrono::steady_clock::now();
    SolverScope<Cvc5Solver> scope(*solver_);
    solver_->assert_(s.conj(conj));
    const SatResult res = solver_->check();
    stats_->extra["vinta bmc time s"] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stats_->extra["vinta bmc calls"] += 1;
    if (res == SatResult::Unsat) return false;
    if (res == SatResult::Unknown) {
      r.reason = "the BMC check of the ARG is undecided (" + solver_->reason_unknown() + ")";
      return true;
    }
    // The path the model takes, backwards from the error node along taken edges.
    auto is_true = [&](Term t) {
      auto v = solver_->value(t);
      return v && *v != 0;
    };
    std::vector<std::uint32_t> rev;
    for (std::uint32_t i = static_cast<std::uint32_t>(m - 1); i != 0;) {
      std::optional<std::uint32_t> pick;
      for (std::uint32_t k : dag.in[i])
        if (is_true(taken[k]) && (dag.edges[k].from == 0 || is_true(reach[dag.edges[k].from]))) {
          pick = k;
          break;
        }
      if (!pick) {
        r.reason = "the BMC model of the ARG selects no path to the error node";
        return true;
      }
      rev.push_back(*pick);
      i = dag.edges[*pick].from;
    }
    BlockPathFormula pf;
    for (auto it = rev.rbegin(); it != rev.rend(); ++it) pf.blocks.push_back(dag.blocks[*it]);
    std::string why;
    auto w = block_path_from_model(*cfa_, *ssa_, pf, *solver_, why);
    if (!w) {
      r.reason = "the ARG has a feasible error path, but " + why;
      return true;
    }
    const ErrorPath path{w->start, w->steps};
    const auto ops = path.operations();
    const PathInputs in{w->initial, w->havoc, w->arrays};
    ReplayResult rep = replay(cfa_->exprs(), ops, in, ReplayRecord::Changes);
    if (!rep.ok) {
      r.reason = "the inputs found for the ARG's error path do not replay: " + rep.reason;
      return true;
    }
    r.verdict = Verdict::Unsafe;
    r.reason = "a feasible path to the error location (BMC of the ARG, replayed)";
    r.counterexample = make_counterexample(*cfa_, path, in, std::move(rep));
    return true;
  }

  // VINTAREF / UFOREF: new labels for every DAG node, false at the error node.
  bool refine(const Dag& dag, VerificationResult& r) {
    ExprManager& s = ssa_->ssa();
    const std::size_t m = dag.nodes.size();
    const bool guided = opts_.refinement == VintaRefinement::Vinta;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Term> lv(m, s.true_());
    if (guided)
      for (std::uint32_t i = 0; i < m; ++i) lv[i] = node_label(dag, i);
    // suffix(v): every DAG path from v to the error node, with the restriction at v.
    std::vector<Term> suffix(m);
    suffix[m - 1] = lv[m - 1];
    for (std::size_t i = m - 1; i-- > 0;) {
      std::vector<Term> alts;
      for (std::uint32_t k : dag.out[i])
        alts.push_back(s.and_(dag.formula[k], suffix[dag.edges[k].to]));
      suffix[i] = s.and_(lv[i], s.disj(alts));
    }
    std::vector<Term> itp(m, s.false_());
    itp[0] = s.true_();
    FormulaInterpolationStats fs;
    for (std::uint32_t i = 1; i + 1 < m; ++i) {
      std::vector<Term> alts;
      for (std::uint32_t k : dag.in[i]) {
        const std::uint32_t u = dag.edges[k].from;
        if (itp[u] == s.false_()) continue;
        alts.push_back(s.conj(std::vector<Term>{itp[u], lv[u], dag.formula[k]}));
      }
      if (alts.empty()) continue;  // unreachable in the ARG: false
      const Term a = s.disj(alts);
      std::vector<VarId> shared;
      for (VarId x = 0; x < dag.index[i].size(); ++x)
        if (auto id = ssa_->find(x, dag.index[i][x])) shared.push_back(*id);
      std::sort(shared.begin(), shared.end());
      std::string why;
      auto got =
          interpolate_formulas(*solver_, a, suffix[i], shared, opts_.interpolation, &fs, &why);
      if (!got && opts_.cvc5_interpolation) {
        got = solver_->interpolate(a, suffix[i]);
        if (got) stats_->extra["vinta cvc5 interpolants"] += 1;
      }
      if (!got) {
        r.reason = "no interpolant for ARG node " + std::to_string(dag.nodes[i]) + " at " +
                   cfa_->name(nodes_[dag.nodes[i]].loc) + " (" + why + ")";
        return false;
      }
      itp[i] = *got;
    }
    // Decode (undo the SSA renaming) and, for VINTAREF, conjoin the old label (Fig. 6 l. 5).
    labels_.clear();
    for (std::uint32_t i = 0; i < m; ++i) {
      const NodeId v = dag.nodes[i];
      Term lab = i + 1 == m ? em_->false_() : i == 0 ? em_->true_() : ssa_->unshift(itp[i]);
      if (guided && i > 0 && i + 1 < m && lab != em_->false_()) {
        const Term old = nodes_[v].label;
        lab = lab == em_->true_() ? old : old == em_->true_() ? lab : em_->and_(lab, old);
      }
      labels_.emplace(v, lab);
    }
    auto& x = stats_->extra;
    x["vinta interpolation time s"] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    x["vinta interpolants"] += static_cast<double>(m > 2 ? m - 2 : 0);
    x["interpolation a-cubes"] += static_cast<double>(fs.a_cubes);
    x["interpolation b-cubes"] += static_cast<double>(fs.b_cubes);
    x["interpolation farkas"] += static_cast<double>(fs.farkas);
    x["interpolation projections"] += static_cast<double>(fs.projections);
    return true;
  }

  // ---- SAFE: the invariant per cutpoint, checked by the solver ---------------------------

  void certify(VerificationResult& r) {
    const Cfa& cfa = *cfa_;
    // The certificate has invariants at the cutpoints; the independent checker
    // (certify/certificate_checker.hpp) builds its own blocks between them.
    certificate_.point = op_.abstraction_points();
    certificate_.disjuncts.assign(cfa.num_locations(), {});
    for (const auto& n : nodes_)
      if (n.pass == pass_ && !n.covered && n.label != em_->false_() &&
          n.loc != nodes_[err_node_].loc)
        certificate_.disjuncts[n.loc].push_back(n.label);
    invariant_.clear();
    for (Loc l = 0; l < cfa.num_locations(); ++l)
      if (!certificate_.disjuncts[l].empty())
        invariant_.emplace_back(l, certificate_.invariant(l, *em_));
    const CertificateCheck check = check_certificate(cfa, certificate_, opts_.solver);
    report_certificate(check, 0, *stats_);
    if (!check.valid) {
      invariant_.clear();
      r.reason = "the ARG's invariant failed the solver check (" + check.failure + ")";
      return;
    }
    r.certified = true;
    r.verdict = Verdict::Safe;
    r.reason =
        "safe, complete, well-labeled ARG; its invariant is inductive and excludes the "
        "error location (checked by the solver)";
    auto& listed = stats_->lists["invariant"];
    for (const auto& [l, t] : invariant_) listed.push_back(cfa.name(l) + ": " + to_string(t, *em_));
  }

  const Cfa* cfa_;
  D d_;
  VintaOptions opts_;
  BlockOperator op_;
  BlockGraph graph_;
  WeakTopologicalOrder wto_;
  ExprManager* em_;
  std::unique_ptr<SsaVars> ssa_;
  std::unique_ptr<BlockFormulaEncoder> encoder_;
  std::unique_ptr<Cvc5Solver> solver_;
  std::vector<std::unique_ptr<Cvc5Solver>> cover_;  // per cutpoint, for one pass
  std::vector<Node> nodes_;
  std::unordered_map<NodeId, Term> labels_;           // the last refinement's labels
  std::vector<std::pair<NodeId, Term>> last_labels_;  // sorted, for the progress check
  std::size_t last_size_ = 0;
  NodeId root_ = 0;
  NodeId err_node_ = 0;
  std::uint32_t pass_ = 0;
  std::uint32_t order_ = 0;
  std::size_t refinements_ = 0;
  std::size_t guard_count_ = 0;
  std::vector<NodeId> fn_;                 // FN: the future node per cutpoint
  std::vector<std::vector<NodeId>> vis_;   // vis: the nodes visited per cutpoint
  std::vector<std::vector<Term>> guards_;  // per cutpoint: guards of uncovered nodes
  std::vector<std::pair<Loc, Term>> invariant_;
  Certificate certificate_;  // of the last SAFE answer
  Statistics* stats_ = nullptr;
  const Limits* limits_ = nullptr;
};

}  // namespace precis
