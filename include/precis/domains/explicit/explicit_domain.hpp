#pragma once
// The explicit-value domain (paper section II-C.1): abstract variable assignments
// V = X -> Z with the flat lattice Z = Integers + {top, bottom} per variable.
//
// An ExplicitState stores the variables with a known value in a flat map (absent means
// top); a state with a bottom variable is the bottom element as a whole, stored as a
// flag. Booleans are 0/1.

#include <boost/container/flat_map.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "precis/core/concepts.hpp"
#include "precis/domains/explicit/variable_set.hpp"
#include "precis/expr/eval.hpp"

namespace precis {

class ExplicitState {
 public:
  // A sorted vector of bindings. (An inline small_flat_map<.., 16> was measured too:
  // joins of equal states got faster, leq and differing joins did not; see bench/.)
  using map_type = boost::container::flat_map<VarId, std::int64_t>;

  ExplicitState() = default;  // top: nothing known
  ExplicitState(const ExplicitState& o)
      : vals_(o.vals_),
        bottom_(o.bottom_),
        history_(o.history_ ? std::make_unique<history_type>(*o.history_) : nullptr) {}
  ExplicitState(ExplicitState&&) noexcept = default;
  ExplicitState& operator=(const ExplicitState& o) {
    if (this != &o) *this = ExplicitState(o);
    return *this;
  }
  ExplicitState& operator=(ExplicitState&&) noexcept = default;
  ~ExplicitState() = default;
  static ExplicitState bottom() {
    ExplicitState s;
    s.bottom_ = true;
    return s;
  }

  [[nodiscard]] bool is_bottom() const { return bottom_; }
  [[nodiscard]] bool is_top() const { return !bottom_ && vals_.empty(); }
  [[nodiscard]] OptValue get(VarId v) const {
    auto it = vals_.find(v);
    if (it == vals_.end()) return std::nullopt;
    return it->second;
  }
  [[nodiscard]] bool has(VarId v) const { return vals_.contains(v); }
  void set(VarId v, std::int64_t x) { vals_.insert_or_assign(v, x); }
  void set(VarId v, OptValue x) {
    if (x)
      set(v, *x);
    else
      forget(v);
  }
  void forget(VarId v) { vals_.erase(v); }
  // Takes over a sequence sorted by variable without duplicates (no re-sorting).
  void adopt_sorted(typename map_type::sequence_type&& seq) {
    vals_.adopt_sequence(boost::container::ordered_unique_range, std::move(seq));
  }
  void make_bottom() {
    bottom_ = true;
    vals_.clear();
  }
  [[nodiscard]] std::size_t size() const { return vals_.size(); }
  [[nodiscard]] const map_type& values() const { return vals_; }

  // The valuation view used by the evaluator.
  OptValue operator()(VarId v) const { return get(v); }

  // v|pi: the restriction to the tracked variables (precision adjustment, III-A).
  void restrict_to(const VariableSet& pi) {
    if (pi.is_all() || bottom_) return;
    // In place, and without touching the map when every binding is tracked (the usual
    // case once the precision has settled).
    auto first = std::find_if(vals_.begin(), vals_.end(),
                              [&](const auto& kv) { return !pi.contains(kv.first); });
    if (first == vals_.end()) return;
    auto seq = vals_.extract_sequence();
    seq.erase(std::remove_if(seq.begin(), seq.end(),
                             [&](const auto& kv) { return !pi.contains(kv.first); }),
              seq.end());
    vals_.adopt_sequence(boost::container::ordered_unique_range, std::move(seq));
  }

  // How often a variable received a new value on the path to this state: the basis of
  // the dynamic precision adjustment that stops tracking variables with many values
  // (explicit-value paper III-F). Not part of the lattice: leq, join and == ignore it.
  [[nodiscard]] std::uint32_t changes(VarId v) const {
    if (!history_) return 0;
    auto it = history_->find(v);
    return it == history_->end() ? 0 : it->second;
  }
  void note_change(VarId v) {
    if (!history_) history_ = std::make_unique<history_type>();
    ++(*history_)[v];
  }
  // Only counted when the analysis asks for it (a value limit is set): a heap block per
  // state was a quarter of the cost of a counting loop's ARG.
  using history_type = boost::container::flat_map<VarId, std::uint32_t>;
  [[nodiscard]] const history_type& history() const {
    static const history_type none;
    return history_ ? *history_ : none;
  }

  friend bool operator==(const ExplicitState& a, const ExplicitState& b) {
    return a.bottom_ == b.bottom_ && a.vals_ == b.vals_;
  }

 private:
  map_type vals_;
  bool bottom_ = false;
  // Behind a pointer: one word in every state, a map only where changes are counted.
  std::unique_ptr<history_type> history_;
};

// The state as a formula over the program variables (a certificate disjunct, certify/):
// the conjunction of x = v over the variables with a known value; false for bottom.
inline Term to_formula(const ExplicitState& s, ExprManager& em) {
  if (s.is_bottom()) return em.false_();
  std::vector<Term> cs;
  cs.reserve(s.values().size());
  for (const auto& [x, v] : s.values()) {
    const Term var = em.var(x);
    cs.push_back(var.is_bool() ? (v != 0 ? var : em.not_(var))
                               : em.eq(var, em.constant(var.type(), v)));
  }
  return em.conj(cs);
}

class ExplicitDomain {
 public:
  using element = ExplicitState;
  // The support of a state: its bound variables, sorted (ProjectionCovering).
  using support_type = std::vector<VarId>;

  [[nodiscard]] element bottom() const { return ExplicitState::bottom(); }
  [[nodiscard]] element top() const { return ExplicitState{}; }
  [[nodiscard]] bool is_bottom(const element& e) const { return e.is_bottom(); }

  // a <= b iff every binding of b is a binding of a (absent = top).
  [[nodiscard]] bool leq(const element& a, const element& b) const {
    if (a.is_bottom()) return true;
    if (b.is_bottom()) return false;
    const auto& av = a.values();
    const auto& bv = b.values();
    if (bv.size() > av.size()) return false;
    // Equal sizes (the common case when covering): bindings must be identical.
    if (bv.size() == av.size()) return std::equal(av.begin(), av.end(), bv.begin());
    auto ai = av.begin();
    for (const auto& [v, x] : bv) {
      ai = std::lower_bound(ai, av.end(), v, [](const auto& kv, VarId k) { return kv.first < k; });
      if (ai == av.end() || ai->first != v || ai->second != x) return false;
    }
    return true;
  }

  // Least upper bound: the bindings both agree on.
  [[nodiscard]] element join(const element& a, const element& b) const {
    if (a.is_bottom()) return b;
    if (b.is_bottom()) return a;
    const auto& av = a.values();
    const auto& bv = b.values();
    if (av == bv) return a;
    // One pass into a sequence that is already sorted, then adopted by the map.
    typename element::map_type::sequence_type common;
    common.reserve(std::min(av.size(), bv.size()));
    auto bi = bv.begin();
    for (const auto& kv : av) {
      while (bi != bv.end() && bi->first < kv.first) ++bi;
      if (bi != bv.end() && bi->first == kv.first && bi->second == kv.second) common.push_back(kv);
    }
    element r;
    r.adopt_sorted(std::move(common));
    return r;
  }

  // ---- hashing for the reached set's index (core/concepts.hpp, ProjectionCovering) ---
  // a <= b iff b's bindings are a subset of a's: so a covering b has b's support inside
  // a's support and agrees with b there, which is what hash_on / within test.
  [[nodiscard]] std::size_t hash(const element& e) const {
    std::size_t h = e.is_bottom() ? 0x51ed27U : 0x2545F491U;
    for (const auto& [v, x] : e.values()) h = mix(h, v, x);
    return h;
  }
  [[nodiscard]] support_type support(const element& e) const {
    support_type s;
    s.reserve(e.size());
    for (const auto& kv : e.values()) s.push_back(kv.first);
    return s;
  }
  [[nodiscard]] bool within(const support_type& s, const element& e) const {
    if (e.is_bottom() || s.size() > e.size()) return false;
    auto it = e.values().begin();
    const auto end = e.values().end();
    for (VarId v : s) {
      while (it != end && it->first < v) ++it;
      if (it == end || it->first != v) return false;
    }
    return true;
  }
  [[nodiscard]] bool same_support(const support_type& s, const element& e) const {
    return !e.is_bottom() && s.size() == e.size() && within(s, e);
  }
  // Requires within(s, e).
  [[nodiscard]] std::size_t hash_on(const element& e, const support_type& s) const {
    std::size_t h = 0x2545F491U;
    auto it = e.values().begin();
    for (VarId v : s) {
      while (it->first < v) ++it;
      h = mix(h, v, it->second);
    }
    return h;
  }

  // Greatest lower bound (bottom on a conflict).
  [[nodiscard]] element meet(const element& a, const element& b) const {
    if (a.is_bottom() || b.is_bottom()) return bottom();
    element r = a;
    for (const auto& [v, x] : b.values()) {
      auto y = a.get(v);
      if (y && *y != x) return bottom();
      r.set(v, x);
    }
    return r;
  }

 private:
  static std::size_t mix(std::size_t h, VarId v, std::int64_t x) {
    auto k = (static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ULL) ^ (std::uint64_t{v} << 32U);
    k ^= k >> 29U;
    return (h ^ static_cast<std::size_t>(k)) * 0x100000001B3ULL;
  }
};

static_assert(AbstractDomain<ExplicitDomain>);
static_assert(ProjectionCovering<ExplicitDomain>);
static_assert(HasMeet<ExplicitDomain>);

inline std::ostream& print(std::ostream& os, const ExplicitState& s, const ExprManager& em) {
  if (s.is_bottom()) return os << "bottom";
  os << '{';
  bool first = true;
  for (const auto& [v, x] : s.values()) {
    if (!first) os << ", ";
    first = false;
    os << em.variable(v).name << '=';
    if (em.variable(v).type == Type::Bool)
      os << (x ? "true" : "false");
    else
      os << x;
  }
  return os << '}';
}

}  // namespace precis
