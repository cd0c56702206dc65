#pragma once
// CFA clean-up passes, usable by every front end and reader.
//
//   precis::Cfa small = precis::cleanup(cfa);                       // the defaults
//   precis::Cfa lbe = precis::cleanup(cfa, {.large_block = true});  // + block merging
//
// Every pass preserves the set of feasible paths from the initial location to the error
// and the final location (up to the skip edges it drops), so verdicts do not change.
// Passes rebuild the automaton: location descriptors of the input are not valid in the
// output. The expression manager is shared, so terms and variables stay valid.
//
// Large-block encoding is the restricted form that a single-operation edge allows:
// along a straight-line piece (a location with one entering and one leaving edge) it
// merges assume;assume into one assume of the conjunction, x:=e1;x:=e2 into
// x:=e2[x/e1], havoc x;x:=e (e without x) into x:=e, and (x:=e | havoc x);havoc x into
// havoc x. Merging assignments to different variables needs multi-operation edges and
// is left to a later edge type.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct CleanupOptions {
  bool simplify_assumes = true;    // assume true -> skip; drop assume false edges
  bool remove_unreachable = true;  // locations not reachable from the initial one
  bool collapse_skips = true;      // skip chains and skip self-loops
  bool large_block = false;        // the restricted large-block encoding above
  // Drop locations from which the error location cannot be reached. Sound for
  // reachability of the error only: paths to the final location may disappear.
  bool prune_not_reaching_error = false;
  // The run's deadline: every round of the fixpoint checks it (limit_reached).
  Deadline deadline;
};

// Substitutes variables in a term (`map` gives the replacement, nullopt keeps it).
template <class F>
Term substitute(ExprManager& em, Term t, F&& map) {
  std::unordered_map<Term, Term, TermHash> memo;
  auto rec = [&](auto&& self, Term x) -> Term {
    if (x.is_var()) {
      std::optional<Term> r = map(x.var());
      return r ? *r : x;
    }
    if (x.is_const()) return x;
    if (auto it = memo.find(x); it != memo.end()) return it->second;
    boost::container::small_vector<Term, 4> args;
    bool changed = false;
    for (std::size_t i = 0; i < x.num_args(); ++i) {
      args.push_back(self(self, x.arg(i)));
      changed = changed || args.back() != x.arg(i);
    }
    Term r = changed ? em.rebuild(x, std::span<const Term>(args.data(), args.size())) : x;
    memo.emplace(x, r);
    return r;
  };
  return rec(rec, t);
}

namespace detail {

// A mutable edge list over the locations of a CFA; passes kill and retarget edges, and
// `rebuild` makes a fresh Cfa of what is left.
class CfaWorkGraph {
 public:
  struct WEdge {
    std::size_t src;
    std::size_t dst;
    Operation op;
    std::uint32_t line;
    bool alive = true;
    std::uint32_t column = 0;
    std::uint32_t nondet = 0;  // EdgeInfo::nondet, kept while the operation is the same
  };

  explicit CfaWorkGraph(const Cfa& cfa) : cfa_(&cfa) {
    const std::size_t n = cfa.num_locations();
    out_.resize(n);
    in_.resize(n);
    for (auto e : cfa.edges()) {
      const std::size_t w = add(cfa.source(e), cfa.target(e), cfa.operation(e), cfa.line(e));
      edges_[w].column = cfa.column(e);
      edges_[w].nondet = cfa.edge_info(e).nondet;
    }
    init_ = cfa.initial_location();
    if (cfa.error_location()) error_ = *cfa.error_location();
    if (cfa.final_location()) final_ = *cfa.final_location();
  }

  std::size_t add(std::size_t s, std::size_t d, Operation op, std::uint32_t line) {
    edges_.push_back(WEdge{s, d, std::move(op), line, true});
    out_[s].push_back(edges_.size() - 1);
    in_[d].push_back(edges_.size() - 1);
    return edges_.size() - 1;
  }
  void kill(std::size_t e) { edges_[e].alive = false; }
  void retarget(std::size_t e, std::size_t d) {
    edges_[e].dst = d;
    in_[d].push_back(e);  // the stale entry in the old target's list is filtered out
  }
  void resource(std::size_t e, std::size_t s) {
    edges_[e].src = s;
    out_[s].push_back(e);
  }

  std::vector<std::size_t> live_out(std::size_t l) {
    compact(out_[l], l, true);
    return out_[l];
  }
  std::vector<std::size_t> live_in(std::size_t l) {
    compact(in_[l], l, false);
    return in_[l];
  }

  // The initial, error and final locations, and source loop heads (witnesses name them;
  // every pass keeps them).
  [[nodiscard]] bool special(std::size_t l) const {
    return l == init_ || (error_ && l == *error_) || (final_ && l == *final_) ||
           cfa_->is_loop_head(l);
  }
  [[nodiscard]] std::size_t num_locations() const { return out_.size(); }
  std::vector<WEdge>& edges() { return edges_; }
  [[nodiscard]] std::size_t init() const { return init_; }
  [[nodiscard]] std::optional<std::size_t> error() const { return error_; }
  [[nodiscard]] std::optional<std::size_t> final_loc() const { return final_; }

  // Locations reachable from `from` along live edges (forward or backward).
  std::vector<char> reach(std::size_t from, bool forward) {
    std::vector<char> seen(num_locations(), 0);
    std::vector<std::size_t> stack{from};
    seen[from] = 1;
    while (!stack.empty()) {
      std::size_t l = stack.back();
      stack.pop_back();
      for (std::size_t e : forward ? live_out(l) : live_in(l)) {
        std::size_t n = forward ? edges_[e].dst : edges_[e].src;
        if (!seen[n]) {
          seen[n] = 1;
          stack.push_back(n);
        }
      }
    }
    return seen;
  }

  // Keeps the locations with keep[l] and the live edges between them; the initial,
  // error and final locations stay in any case, maybe without edges.
  Cfa rebuild(const std::vector<char>& keep) const {
    Cfa out(cfa_->expr_manager());
    for (std::size_t i = 1; i < cfa_->functions().size(); ++i)
      out.add_function(cfa_->functions()[i]);
    std::vector<std::optional<Loc>> map(num_locations());
    out.set_nondet_functions(cfa_->nondet_functions());
    out.set_instances(cfa_->instances());
    for (std::size_t l = 0; l < num_locations(); ++l)
      if (keep[l] || special(l)) map[l] = out.add_location(cfa_->location_info(l));
    for (const auto& e : edges_)
      if (e.alive && keep[e.src] && keep[e.dst])
        out.add_edge(*map[e.src], *map[e.dst], EdgeInfo{e.op, e.line, e.column, e.nondet});
    out.set_initial(*map[init_]);
    if (error_) out.set_error(*map[*error_]);
    if (final_) out.set_final(*map[*final_]);
    return out;
  }

 private:
  void compact(std::vector<std::size_t>& v, std::size_t l, bool out) {
    std::vector<std::size_t> r;
    r.reserve(v.size());
    for (std::size_t e : v) {
      const WEdge& w = edges_[e];
      if (!w.alive || (out ? w.src : w.dst) != l) continue;
      if (std::find(r.begin(), r.end(), e) == r.end()) r.push_back(e);
    }
    v = std::move(r);
  }

  const Cfa* cfa_;
  std::vector<WEdge> edges_;
  std::vector<std::vector<std::size_t>> out_, in_;
  std::size_t init_ = 0;
  std::optional<std::size_t> error_, final_;
};

inline bool is_skip(const Operation& op) { return std::holds_alternative<Skip>(op); }

// Composition of two consecutive operations into one, where one operation can express it.
inline std::optional<Operation> compose(ExprManager& em, const Operation& a, const Operation& b) {
  if (is_skip(a)) return b;
  if (is_skip(b)) return a;
  if (const auto* x = std::get_if<Assume>(&a))
    if (const auto* y = std::get_if<Assume>(&b))
      return Operation(Assume{em.and_(x->cond, y->cond)});
  if (const auto* h = std::get_if<Havoc>(&b)) {
    auto w = written_var(a);
    if (w && *w == h->var) return b;
    return std::nullopt;
  }
  if (const auto* y = std::get_if<Assign>(&b)) {
    if (const auto* x = std::get_if<Assign>(&a); x && x->var == y->var) {
      Term v = substitute(em, y->value, [&](VarId id) -> std::optional<Term> {
        if (id == x->var) return x->value;
        return std::nullopt;
      });
      return Operation(Assign{y->var, v});
    }
    if (const auto* h = std::get_if<Havoc>(&a); h && h->var == y->var) {
      std::vector<VarId> vs;
      collect_vars(y->value, vs);
      if (!std::binary_search(vs.begin(), vs.end(), y->var)) return b;
    }
  }
  return std::nullopt;
}

}  // namespace detail

// Runs the selected passes to a fixpoint and returns the cleaned automaton.
inline Cfa cleanup(const Cfa& cfa, const CleanupOptions& opt = {}) {
  detail::CfaWorkGraph g(cfa);
  ExprManager& em = *cfa.expr_manager();
  auto& E = g.edges();

  if (opt.simplify_assumes)
    for (auto& e : E)
      if (const auto* a = std::get_if<Assume>(&e.op); a && a->cond.op() == Op::BoolConst) {
        if (a->cond.value() != 0)
          e.op = Skip{};
        else
          e.alive = false;
      }

  bool changed = true;
  while (changed) {
    changed = false;
    opt.deadline.check();
    for (std::size_t v = 0; v < g.num_locations(); ++v) {
      if ((v & 4095) == 4095) opt.deadline.check();
      if (opt.collapse_skips) {
        for (std::size_t e : g.live_out(v))
          if (E[e].dst == v && detail::is_skip(E[e].op)) g.kill(e), changed = true;
        if (g.special(v)) {
          // v stays; absorb a skip successor that has no other entry.
          auto out = g.live_out(v);
          if (out.size() == 1 && detail::is_skip(E[out[0]].op)) {
            std::size_t w = E[out[0]].dst;
            if (w != v && !g.special(w) && g.live_in(w).size() == 1) {
              g.kill(out[0]);
              for (std::size_t f : g.live_out(w)) g.resource(f, v);
              changed = true;
            }
          }
          continue;
        }
        auto out = g.live_out(v);
        if (out.size() == 1 && detail::is_skip(E[out[0]].op) && E[out[0]].dst != v) {
          // Every path through v continues to w: let v's predecessors go there directly.
          std::size_t w = E[out[0]].dst;
          g.kill(out[0]);
          for (std::size_t f : g.live_in(v)) g.retarget(f, w);
          changed = true;
          continue;
        }
        auto in = g.live_in(v);
        if (in.size() == 1 && detail::is_skip(E[in[0]].op) && E[in[0]].src != v) {
          std::size_t u = E[in[0]].src;
          if (g.live_out(u).size() == 1) {
            g.kill(in[0]);
            for (std::size_t f : g.live_out(v)) g.resource(f, u);
            changed = true;
            continue;
          }
        }
      }
      if (opt.large_block && !g.special(v)) {
        auto in = g.live_in(v);
        auto out = g.live_out(v);
        if (in.size() == 1 && out.size() == 1 && E[in[0]].src != v && E[out[0]].dst != v) {
          if (auto op = detail::compose(em, E[in[0]].op, E[out[0]].op)) {
            std::size_t u = E[in[0]].src, w = E[out[0]].dst;
            const std::uint32_t line = E[in[0]].line, column = E[in[0]].column;
            g.kill(in[0]);
            g.kill(out[0]);
            const std::size_t merged = g.add(u, w, std::move(*op), line);
            E[merged].column = column;
            changed = true;
          }
        }
      }
    }
  }

  std::vector<char> keep(g.num_locations(), 1);
  if (opt.remove_unreachable) keep = g.reach(g.init(), true);
  if (opt.prune_not_reaching_error && g.error()) {
    auto back = g.reach(*g.error(), false);
    for (std::size_t l = 0; l < keep.size(); ++l) keep[l] = keep[l] && back[l];
  }
  // Locations without any edge left (collapsed ones) go too.
  for (std::size_t l = 0; l < keep.size(); ++l)
    if (keep[l] && !g.special(l) && g.live_in(l).empty() && g.live_out(l).empty()) keep[l] = 0;
  return g.rebuild(keep);
}

}  // namespace precis
