#pragma once
// SSA encoding of paths (explicit-value paper, section II-D "path formula"): each step
// of a path becomes one constraint over per-step copies `x@k` of the variables. A havoc
// or an assignment gives its variable a fresh index, an assignment x := e becomes
// x@(k+1) = e[x@k], an assume is its condition over the current indices.
//
// The copies live in their own ExprManager owned by SsaVars, so the program's manager
// keeps exactly the program's variables (the concrete interpreter and the domains
// enumerate them). A solver for path formulas is built over `ssa.ssa()`.

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/term.hpp"

namespace precis {

class SsaVars {
 public:
  // Variables declared in ssa() by other means (the control variables of block
  // formulas, smt/block_formula.hpp) are auxiliary: they have no program variable.
  static constexpr VarId no_var = 0xffffffffU;
  struct Origin {
    VarId var = no_var;       // the program variable (no_var: auxiliary)
    std::uint32_t index = 0;  // its SSA index
  };

  explicit SsaVars(ExprManager& base) : base_(base) {}
  SsaVars(const SsaVars&) = delete;
  SsaVars& operator=(const SsaVars&) = delete;

  [[nodiscard]] ExprManager& base() noexcept { return base_; }
  [[nodiscard]] ExprManager& ssa() noexcept { return ssa_; }

  // The SSA variable x@k (declared in ssa() on first use, named "x@k").
  VarId at(VarId x, std::uint32_t k) {
    const std::uint64_t key = (static_cast<std::uint64_t>(x) << 32) | k;
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    const Variable& v = base_.variable(x);
    VarId id = ssa_.declare(v.name + "@" + std::to_string(k), v.type, v.scope);
    ids_.emplace(key, id);
    if (origin_.size() <= id) origin_.resize(id + 1);
    origin_[id] = Origin{x, k};
    return id;
  }
  Term var(VarId x, std::uint32_t k) { return ssa_.var(at(x, k)); }
  // x@k if it was ever created, else nullopt.
  [[nodiscard]] std::optional<VarId> find(VarId x, std::uint32_t k) const {
    auto it = ids_.find((static_cast<std::uint64_t>(x) << 32) | k);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
  }
  [[nodiscard]] Origin origin(VarId ssa_var) const {
    return ssa_var < origin_.size() ? origin_[ssa_var] : Origin{};
  }
  [[nodiscard]] bool is_auxiliary(VarId ssa_var) const { return origin(ssa_var).var == no_var; }

  // The deadline that shift() and unshift() poll while they rebuild a term (every
  // kPollNodes nodes): a guard or an invariant of hundreds of thousands of nodes takes
  // a second to rebuild, and a refiner encodes it once per path it checks (every
  // phase ends by its own limit). Past it they throw limit_reached. The owner of
  // the solver sets it (check_path_feasibility does, from its solver's deadline).
  void set_deadline(Deadline d) { deadline_ = std::move(d); }
  [[nodiscard]] const Deadline& deadline() const noexcept { return deadline_; }

  // t over program variables -> t over SSA variables, x -> x@index[x] (0 past the end).
  Term shift(Term t, std::span<const std::uint32_t> index) {
    return rebuild(
        t, ssa_, [&](VarId x) { return var(x, x < index.size() ? index[x] : 0); }, &deadline_);
  }
  // The same with the index as a function VarId -> SSA index (no O(variables) vector).
  template <class IndexOf>
  requires std::invocable<IndexOf&, VarId> Term shift(Term t, IndexOf&& index_of) {
    return rebuild(
        t, ssa_, [&](VarId x) { return var(x, index_of(x)); }, &deadline_);
  }
  // t over SSA variables -> t over program variables, x@k -> x. An auxiliary variable
  // has no program counterpart: std::logic_error (an interpolant must not mention one).
  Term unshift(Term t) {
    return rebuild(
        t, base_,
        [&](VarId s) {
          const VarId x = origin(s).var;
          if (x == no_var)
            throw std::logic_error("SsaVars::unshift: auxiliary variable '" +
                                   ssa_.variable(s).name + "' has no program variable");
          return base_.var(x);
        },
        &deadline_);
  }

  // Rebuilds `t` in `target`, mapping variables with `f` (VarId -> Term of target).
  // With a deadline, polls it every kPollNodes new nodes (throws limit_reached).
  static constexpr std::size_t kPollNodes = 4096;
  template <class F>
  static Term rebuild(Term t, ExprManager& target, F&& f, const Deadline* deadline = nullptr) {
    Rebuild<F> rb{target, f, deadline && !deadline->none() ? deadline : nullptr, {}, 0};
    return rb.run(t);
  }

 private:
  template <class F>
  struct Rebuild {
    ExprManager& target;
    F& f;
    const Deadline* deadline;
    std::unordered_map<Term, Term, TermHash> memo;
    std::size_t built;

    Term run(Term t) {
      if (auto it = memo.find(t); it != memo.end()) return it->second;
      if (deadline && ++built % kPollNodes == 0) deadline->check();
      Term r;
      switch (t.op()) {
        case Op::Var: r = f(t.var()); break;
        case Op::IntConst: r = target.int_val(t.value()); break;
        case Op::BoolConst: r = target.bool_val(t.value() != 0); break;
        default: {
          std::vector<Term> a;
          a.reserve(t.num_args());
          for (std::size_t i = 0; i < t.num_args(); ++i) a.push_back(run(t.arg(i)));
          r = target.rebuild(t, a);
        }
      }
      memo.emplace(t, r);
      return r;
    }
  };

  ExprManager& base_;
  ExprManager ssa_;
  std::unordered_map<std::uint64_t, VarId> ids_;
  std::vector<Origin> origin_;
  Deadline deadline_;
};

// A sparse SSA index: (program variable, SSA index) pairs sorted by VarId, for the
// variables a block or a path formula has written; the others keep their entry index.
// Used where one index per program variable would cost O(variables) per step (block
// formulas, smt/block_formula.hpp; ABE path formulas, domains/predicate/abe_analysis.hpp).
using SparseSsaIndex = std::vector<std::pair<VarId, std::uint32_t>>;

// x's entry, or nullptr if x is not in the index.
inline const std::uint32_t* sparse_find(const SparseSsaIndex& d, VarId x) {
  auto it = std::lower_bound(
      d.begin(), d.end(), x,
      [](const std::pair<VarId, std::uint32_t>& p, VarId y) { return p.first < y; });
  return it != d.end() && it->first == x ? &it->second : nullptr;
}
// x's index, 0 if the index does not hold x.
inline std::uint32_t sparse_index_of(const SparseSsaIndex& d, VarId x) {
  const std::uint32_t* k = sparse_find(d, x);
  return k ? *k : 0;
}
// Sets x's index to k (keep_max: to max(current, k)).
inline void sparse_set_index(SparseSsaIndex& d, VarId x, std::uint32_t k, bool keep_max = false) {
  auto it = std::lower_bound(
      d.begin(), d.end(), x,
      [](const std::pair<VarId, std::uint32_t>& p, VarId y) { return p.first < y; });
  if (it != d.end() && it->first == x)
    it->second = keep_max ? std::max(it->second, k) : k;
  else
    d.insert(it, {x, k});
}

// The constraint of one operation over SSA variables; advances `index` (per program
// VarId; grown as needed) past the variable the operation writes.
inline Term encode_step(SsaVars& ssa, const Operation& op, std::vector<std::uint32_t>& index) {
  ExprManager& s = ssa.ssa();
  if (index.size() < ssa.base().num_vars()) index.resize(ssa.base().num_vars(), 0);
  return std::visit(overloaded{
                        [&](const Skip&) { return s.true_(); },
                        [&](const Assume& a) { return ssa.shift(a.cond, index); },
                        [&](const Assign& a) {
                          Term rhs = ssa.shift(a.value, index);
                          Term lhs = ssa.var(a.var, ++index[a.var]);
                          return lhs.is_bool() ? s.iff(lhs, rhs) : s.eq(lhs, rhs);
                        },
                        [&](const Havoc& h) {
                          ssa.at(h.var, ++index[h.var]);  // fresh, unconstrained
                          return s.true_();
                        },
                    },
                    op);
}

// The path formula of a path: one constraint per step and the SSA index of every
// variable at every cut (cut k is the point before step k; cut n the end).
//
// The index is stored per variable as the cuts where it changes (a step writes one
// variable), so a path of n steps over m variables takes O(n + m) memory, not the
// O(n * m) of one index vector per cut (measured: 20,000 steps over 20,000 variables
// were 1.6 GB).
struct PathFormula {
  std::vector<Term> steps;

  [[nodiscard]] std::size_t size() const noexcept { return steps.size(); }
  [[nodiscard]] std::size_t cuts() const noexcept { return steps.size() + 1; }
  // The SSA index of x at cut `cut` (0 <= cut <= n).
  [[nodiscard]] std::uint32_t index_at(std::size_t cut, VarId x) const {
    if (cut > steps.size()) throw std::out_of_range("PathFormula::index_at: no such cut");
    if (x >= changes.size()) return 0;
    const auto& cs = changes[x];
    // The last change at or before `cut`.
    auto it = std::upper_bound(cs.begin(), cs.end(), cut,
                               [](std::size_t c, const Change& ch) { return c < ch.cut; });
    return it == cs.begin() ? 0 : std::prev(it)->index;
  }
  // Every variable's index at `cut` (O(variables); for callers that need a vector).
  [[nodiscard]] std::vector<std::uint32_t> index(std::size_t cut) const {
    std::vector<std::uint32_t> out(changes.size(), 0);
    for (VarId x = 0; x < changes.size(); ++x) out[x] = index_at(cut, x);
    return out;
  }

  struct Change {
    std::size_t cut = 0;      // from this cut on ...
    std::uint32_t index = 0;  // ... the variable is x@index
  };
  std::vector<std::vector<Change>> changes;  // by program VarId, ascending cuts
};

inline PathFormula encode_path(SsaVars& ssa, std::span<const Operation> ops) {
  PathFormula pf;
  std::vector<std::uint32_t> index(ssa.base().num_vars(), 0);
  pf.steps.reserve(ops.size());
  pf.changes.resize(index.size());
  for (std::size_t k = 0; k < ops.size(); ++k) {
    pf.steps.push_back(encode_step(ssa, ops[k], index));
    if (index.size() > pf.changes.size()) pf.changes.resize(index.size());
    if (auto w = written_var(ops[k])) pf.changes[*w].push_back({k + 1, index[*w]});
  }
  return pf;
}

}  // namespace precis
