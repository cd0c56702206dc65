#pragma once
// Value enumeration in the explicit transfer (product-abstraction paper, chapter 3):
// where an assume or an assignment cannot be evaluated under the tracked values, the
// solver enumerates the satisfying values of the tracked variables the operation
// constrains, one model at a time, blocking each model, instead of going to top. Every
// enumerated valuation is its own successor. The caller (the STATE / PATH / ARG policies
// of domains/product/strategy_product.hpp, Alg. 1-3) decides when a variable has too
// many distinct values: the enumeration then stops and reports that variable, so that
// it can be dropped and the enumeration restarted without it.
//
// This header needs cvc5 (precis::smt); without it the strategy product is not
// available and the CLI says so. Untracked variables of the operation are existentially
// quantified (free in the query), so the successors over-approximate the concrete ones.
// The solver answers over mathematical integers: a value beyond int64 or an unknown
// answer gives up the enumeration (top for the candidates, as the plain transfer does).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/result.hpp"
#include "precis/domains/explicit/explicit_domain.hpp"
#include "precis/domains/explicit/explicit_transfer.hpp"
#include "precis/smt/cvc5_solver.hpp"
#include "precis/smt/path_formula.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

struct EnumerationStats {
  std::size_t enumerations = 0;  // operations that needed the solver
  std::size_t models = 0;        // satisfying valuations found
  std::size_t cache_hits = 0;
  std::size_t given_up = 0;  // unknown answers or values beyond int64
  std::size_t ranges = 0;    // wide range assumptions treated as havoc (is_wide_range)
};

// The outcome for one state and one operation.
struct Enumeration {
  std::vector<ExplicitState> successors;
  // Variables whose distinct values exceeded their limit (the enumeration stopped;
  // `successors` is then incomplete and must not be used).
  std::vector<VarId> exceeded;
  bool enumerated = false;  // the solver was asked (some candidate could not be evaluated)
};

class ValueEnumerator {
 public:
  explicit ValueEnumerator(ExprManager& em, Cvc5Options opts = {})
      : ssa_(std::make_unique<SsaVars>(em)),
        solver_(std::make_unique<Cvc5Solver>(ssa_->ssa(), std::move(opts))) {
    ssa_->set_deadline(solver_deadline(*solver_));  // shifting a large guard polls it
  }

  // The successors of `pre` along `op`. `tracked(v)`: v is tracked (and not dropped)
  // at the target. `exceeds(v, values)`: v with these distinct successor values is past
  // its limit (the policy adds its context: nothing, the path, or the ARG).
  template <class Tracked, class Exceeds>
  Enumeration successors(const ExplicitState& pre, const Operation& op, Tracked&& tracked,
                         Exceeds&& exceeds) {
    Enumeration out;
    ExplicitState post = explicit_post(pre, op);
    if (post.is_bottom()) return out;
    // An array variable has no value to enumerate (the explicit domain never binds one).
    const ExprManager& base = ssa_->base();
    const auto enumerable = [&](VarId v) {
      return base.variable(v).type != Type::Array && tracked(v);
    };
    Term query;
    std::vector<VarId> known;        // program variables of the query with a value in pre
    std::vector<VarId> candidates;   // program variables to enumerate
    std::uint32_t result_index = 0;  // SSA index of the candidates in the query
    if (const auto* a = std::get_if<Assume>(&op)) {
      if (evaluate(a->cond, post)) {
        out.successors.push_back(std::move(post));
        return out;
      }
      std::vector<VarId> vars;
      collect_vars(a->cond, vars);
      for (VarId v : vars) {
        if (pre.has(v))
          known.push_back(v);
        else if (enumerable(v) && !post.has(v))
          candidates.push_back(v);
      }
      if (is_wide_range(a->cond)) {
        ++stats_.ranges;
        out.successors.push_back(std::move(post));
        return out;
      }
      query = a->cond;
    } else if (const auto* s = std::get_if<Assign>(&op)) {
      if (post.has(s->var) || !enumerable(s->var)) {
        out.successors.push_back(std::move(post));
        return out;
      }
      std::vector<VarId> vars;
      collect_vars(s->value, vars);
      for (VarId v : vars)
        if (pre.has(v)) known.push_back(v);
      candidates.push_back(s->var);
      query = s->value;
      result_index = 1;
    }
    if (candidates.empty()) {
      out.successors.push_back(std::move(post));
      return out;
    }
    out.enumerated = true;
    ++stats_.enumerations;
    Answer& ans = answer(pre, op, query, known, candidates, result_index);
    // Distinct values per candidate, checked after every model (Alg. 1, line 7). Models
    // are found lazily: only as many as the limits ask for.
    std::vector<std::vector<std::int64_t>> distinct(candidates.size());
    for (std::size_t k = 0;; ++k) {
      if (k == ans.models.size()) {
        if (ans.complete || ans.given_up || ans.models.size() >= model_cap_) break;
        extend(ans, pre, op, query, known, candidates, result_index);
        if (ans.given_up || k == ans.models.size()) break;
      }
      const Model& m = ans.models[k];
      ExplicitState s = post;
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        s.set(candidates[i], m[i]);
        auto& d = distinct[i];
        auto it = std::lower_bound(d.begin(), d.end(), m[i]);
        if (it == d.end() || *it != m[i]) d.insert(it, m[i]);
      }
      out.successors.push_back(std::move(s));
      for (std::size_t i = 0; i < candidates.size(); ++i)
        if (exceeds(candidates[i], distinct[i])) out.exceeded.push_back(candidates[i]);
      if (!out.exceeded.empty()) return out;
    }
    if (ans.given_up) {  // top for the candidates, as the plain transfer
      out.successors.clear();
      out.successors.push_back(std::move(post));
      return out;
    }
    if (!ans.complete) {
      // More models than the cap: the candidate with the most values is past any limit.
      std::size_t widest = 0;
      for (std::size_t i = 1; i < candidates.size(); ++i)
        if (distinct[i].size() > distinct[widest].size()) widest = i;
      out.exceeded.push_back(candidates[widest]);
    }
    return out;
  }

  // A conjunction of constant bounds on variables whose interval has more values than
  // the model cap: a type range (the C front end's `havoc x; assume INT_MIN <= x <=
  // INT_MAX`), which the transfer treats as the havoc it stands for (the variable stays
  // unknown and tracked) instead of a choice among 2^32 values that would drop every
  // uninitialized variable from the explicit precision.
  [[nodiscard]] bool is_wide_range(Term cond) const {
    std::vector<Term> conj;
    if (cond.op() == Op::And)
      for (std::size_t i = 0; i < cond.num_args(); ++i) conj.push_back(cond.arg(i));
    else
      conj.push_back(cond);
    // Bounds in double: exact enough to compare a width with the model cap.
    struct Bounds {
      VarId v;
      double lo, hi;
    };
    std::vector<Bounds> bs;
    const double inf = std::numeric_limits<double>::infinity();
    for (Term c : conj) {
      if (c.num_args() != 2) return false;
      Term x = c.arg(0), k = c.arg(1);
      Op op = c.op();
      if (x.op() == Op::IntConst && k.is_var()) {  // k op x  ->  x op' k
        std::swap(x, k);
        switch (op) {
          case Op::Le: op = Op::Ge; break;
          case Op::Lt: op = Op::Gt; break;
          case Op::Ge: op = Op::Le; break;
          case Op::Gt: op = Op::Lt; break;
          default: return false;
        }
      }
      if (!x.is_var() || k.op() != Op::IntConst) return false;
      auto it = std::find_if(bs.begin(), bs.end(), [&](const Bounds& b) { return b.v == x.var(); });
      if (it == bs.end()) it = bs.insert(bs.end(), Bounds{x.var(), -inf, inf});
      const auto kv = static_cast<double>(k.value());
      switch (op) {
        case Op::Le: it->hi = std::min(it->hi, kv); break;
        case Op::Lt: it->hi = std::min(it->hi, kv - 1); break;
        case Op::Ge: it->lo = std::max(it->lo, kv); break;
        case Op::Gt: it->lo = std::max(it->lo, kv + 1); break;
        default: return false;
      }
    }
    return !bs.empty() && std::all_of(bs.begin(), bs.end(), [&](const Bounds& b) {
      return b.hi - b.lo + 1 > static_cast<double>(model_cap_);
    });
  }

  [[nodiscard]] const EnumerationStats& stats() const noexcept { return stats_; }
  [[nodiscard]] const SolverStats& solver_stats() const noexcept { return solver_->stats(); }
  // At most this many models per query (then the widest candidate counts as exceeded).
  void set_model_cap(std::size_t cap) { model_cap_ = cap; }

 private:
  using Model = std::vector<std::int64_t>;
  struct Answer {
    std::vector<Model> models;
    bool complete = false;  // every model was found
    bool given_up = false;  // unknown answer, or a value beyond int64
  };

  // The models found so far for a query, cached by the query, the known values and the
  // candidates (a loop asks the same question again and again).
  Answer& answer(const ExplicitState& pre, const Operation& op, Term query,
                 const std::vector<VarId>& known, const std::vector<VarId>& candidates,
                 std::uint32_t result_index) {
    Key key;
    key.push_back(query.id());
    key.push_back(result_index ? static_cast<std::int64_t>(std::get<Assign>(op).var) : -1);
    for (VarId v : known) {
      key.push_back(v);
      key.push_back(*pre.get(v));
    }
    key.push_back(-2);
    for (VarId v : candidates) key.push_back(v);
    auto [it, fresh] = cache_.try_emplace(std::move(key));
    if (!fresh) ++stats_.cache_hits;
    return it->second;
  }

  // Finds one more model (blocking the known ones), or learns that none is left. The
  // query's solver frame stays open while the same query is extended (one check per
  // model); another query closes it, and reopening re-blocks the known models.
  void extend(Answer& ans, const ExplicitState& pre, const Operation& op, Term query,
              const std::vector<VarId>& known, const std::vector<VarId>& candidates,
              std::uint32_t result_index) {
    SsaVars& ssa = *ssa_;
    ExprManager& s = ssa.ssa();
    Cvc5Solver& solver = *solver_;
    std::vector<Term> cand;
    for (VarId v : candidates) cand.push_back(ssa.var(v, result_index));
    const auto block = [&](const Model& m) {
      std::vector<Term> same;
      for (std::size_t i = 0; i < cand.size(); ++i) {
        Term c = cand[i];
        same.push_back(c.is_bool() ? (m[i] != 0 ? c : s.not_(c))
                                   : s.eq(c, s.constant(c.type(), m[i])));
      }
      solver.assert_(s.not_(s.conj(same)));
    };
    if (active_ != &ans) {
      close();
      solver.push();
      active_ = &ans;
      // Known values of pre, the operation (x@1 = e@0 for an assignment).
      for (VarId v : known) {
        Term x = ssa.var(v, 0);
        const std::int64_t c = *pre.get(v);
        solver.assert_(x.is_bool() ? (c != 0 ? x : s.not_(x)) : s.eq(x, s.constant(x.type(), c)));
      }
      Term shifted = ssa.shift(query, [](VarId) { return std::uint32_t{0}; });
      if (result_index == 0) {
        solver.assert_(shifted);
      } else {
        Term lhs = ssa.var(std::get<Assign>(op).var, 1);
        solver.assert_(lhs.is_bool() ? s.iff(lhs, shifted) : s.eq(lhs, shifted));
      }
      for (const Model& m : ans.models) block(m);
    }
    const SatResult r = solver.check();
    if (r == SatResult::Unsat) {
      ans.complete = true;
      close();
      return;
    }
    if (r == SatResult::Sat) {
      Model m;
      for (Term c : cand) {
        auto val = solver.value(c);
        if (!val) break;
        m.push_back(*val);
      }
      if (m.size() == cand.size()) {
        ++stats_.models;
        block(m);
        ans.models.push_back(std::move(m));
        return;
      }
    }
    ++stats_.given_up;
    ans.given_up = true;
    ans.models.clear();
    close();
  }

  void close() {
    if (!active_) return;
    active_ = nullptr;
    solver_->pop();
  }

  using Key = std::vector<std::int64_t>;
  std::unique_ptr<SsaVars> ssa_;
  std::unique_ptr<Cvc5Solver> solver_;
  std::map<Key, Answer> cache_;  // node-based: answers keep their addresses
  Answer* active_ = nullptr;     // the answer whose solver frame is open
  std::size_t model_cap_ = 4096;
  EnumerationStats stats_;
};

}  // namespace precis
