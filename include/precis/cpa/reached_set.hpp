#pragma once
// The reached set of Alg. 1, partitioned by CFA location: merge and stop only ever look
// at elements of the same location (the location CPA is part of every composite).
//
// Stop-sep asks "is e below some reached element at its location?". A scan answers it
// in time linear in the states at the location, which makes a loop that counts to N
// cost O(N^2). When the domain offers hashing (core/concepts.hpp), the reached set
// keeps an index per location and answers with hash lookups:
//   ProjectionCovering domains: elements are grouped by support; a query hashes e's
//     projection onto each support at the location that e's support includes and
//     confirms the few candidates with leq. The answer is the scan's answer.
//   HashableDomain only: an equal element is found by one lookup; otherwise the scan.
// Removal is O(1) (plus the hash bucket): each node's slot is kept in a side table
// indexed by node id, since the ARG releases a removed node's element before the
// reached set hears of the removal.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"

namespace precis {

namespace detail {

// A hash multimap from a key's hash to nodes, open addressing with linear probing and
// backward-shift deletion: one flat array, no allocation per entry. (std::unordered_
// multimap allocated a node per reached state, and its rehashes and frees were a third
// of the time of a counting loop with 10^6 states; Boost 1.74 has no flat hash map.)
template <class T>
class FlatHashMultimap {
 public:
  void insert(std::size_t h, T* value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    place(h, value);
    ++size_;
  }
  // Calls f(value) for every entry with hash h until f returns true; returns that value.
  template <class F>
  T* find_if(std::size_t h, F&& f) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(h);; i = (i + 1) & mask_) {
      const Entry& e = slots_[i];
      if (!e.value) return nullptr;
      if (e.hash == h && f(e.value)) return e.value;
    }
  }
  void erase(std::size_t h, const T* value) {
    if (slots_.empty()) return;
    std::size_t i = home(h);
    for (;; i = (i + 1) & mask_) {
      if (!slots_[i].value) return;  // not present
      if (slots_[i].value == value) break;
    }
    // Backward shift: move later entries of the probe run into the hole when their
    // home position allows it, so that lookups need no tombstones.
    for (std::size_t j = (i + 1) & mask_; slots_[j].value; j = (j + 1) & mask_) {
      const std::size_t k = home(slots_[j].hash);
      const bool movable = (j > i) ? (k <= i || k > j) : (k <= i && k > j);
      if (movable) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Entry{};
    --size_;
  }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] std::size_t size() const { return size_; }
  void clear() {
    slots_.clear();
    mask_ = 0;
    size_ = 0;
  }

 private:
  struct Entry {
    std::size_t hash = 0;
    T* value = nullptr;
  };
  [[nodiscard]] std::size_t home(std::size_t h) const {
    // Fibonacci hashing spreads hashes whose low bits are alike.
    return static_cast<std::size_t>((h * 0x9E3779B97F4A7C15ULL) >> 20U) & mask_;
  }
  void place(std::size_t h, T* value) {
    std::size_t i = home(h);
    while (slots_[i].value) i = (i + 1) & mask_;
    slots_[i] = Entry{h, value};
  }
  void grow() {
    std::vector<Entry> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Entry{});
    mask_ = slots_.size() - 1;
    for (const Entry& e : old)
      if (e.value) place(e.hash, e.value);
  }

  std::vector<Entry> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

struct NoSupport {
  bool operator==(const NoSupport&) const = default;
};
// What index a domain allows (void: none).
template <class D>
struct ReachedIndexTraits {
  static constexpr bool projection = false;
  static constexpr bool hashable = false;
  using support_type = NoSupport;
};
template <class D>
requires ProjectionCovering<D>
struct ReachedIndexTraits<D> {
  static constexpr bool projection = true;
  static constexpr bool hashable = true;
  using support_type = typename D::support_type;
};
template <class D>
requires(HashableDomain<D> && !ProjectionCovering<D>) struct ReachedIndexTraits<D> {
  static constexpr bool projection = false;
  static constexpr bool hashable = true;
  using support_type = NoSupport;
};
}  // namespace detail

template <class Node, class D = void>
class ReachedSet {
  using traits = detail::ReachedIndexTraits<D>;
  static constexpr bool projection = traits::projection;
  static constexpr bool indexed = traits::hashable;

 public:
  explicit ReachedSet(std::size_t num_locations = 0) : by_loc_(num_locations) {
    if constexpr (indexed) index_.resize(num_locations);
  }

  // The domain whose hashes index the set; must be set before the first add (the CPA
  // algorithm binds its analysis' domain). Rebinding empties the index.
  template <class Dom>
  void bind(const Dom* d) {
    if constexpr (indexed) {
      if (dom_ != d && size_ != 0) rebuild_needed_ = true;
      dom_ = d;
    }
  }

  void add(Node* n) {
    if (n->in_reached) return;
    if (n->loc >= by_loc_.size()) grow(n->loc + 1);
    auto& v = by_loc_[n->loc];
    Slot& s = slot(n);
    s.pos = static_cast<std::uint32_t>(v.size());
    v.push_back(n);
    n->in_reached = true;
    ++size_;
    if constexpr (indexed) index_add(n, s);
  }

  void remove(Node* n) {
    if (!n->in_reached) return;
    Slot& s = slot(n);
    auto& v = by_loc_[n->loc];
    if (s.pos < v.size() && v[s.pos] == n) {
      Node* last = v.back();
      v[s.pos] = last;
      slot(last).pos = s.pos;
      v.pop_back();
      --size_;
    }
    if constexpr (indexed) index_remove(n, s);
    n->in_reached = false;
  }

  [[nodiscard]] const std::vector<Node*>& at(Loc l) const {
    static const std::vector<Node*> empty;
    return l < by_loc_.size() ? by_loc_[l] : empty;
  }
  [[nodiscard]] std::size_t size() const { return size_; }

  void clear() {
    for (auto& v : by_loc_) {
      for (Node* n : v) n->in_reached = false;
      v.clear();
    }
    if constexpr (indexed)
      for (auto& li : index_) li.groups.clear();
    slots_.clear();
    size_ = 0;
  }

  // Stop-sep (Alg. 1's stop with the sep operator): a reached node at `l` whose element
  // is above e, or nullptr.
  template <class Dom>
  Node* find_cover(const Dom& d, const typename Node::element_type& e, Loc l) const {
    if constexpr (indexed) {
      if (static_cast<const void*>(&d) == static_cast<const void*>(dom_) && !rebuild_needed_ &&
          l < index_.size())
        return indexed_cover(d, e, l);
    }
    for (Node* r : at(l))
      if (d.leq(e, r->element)) return r;
    return nullptr;
  }

 private:
  struct Slot {
    std::uint32_t pos = 0;    // position in by_loc_[loc]
    std::uint32_t group = 0;  // index group (projection: the support's group)
    std::size_t hash = 0;     // the key in that group's bucket
  };

  Slot& slot(const Node* n) {
    if (n->id >= slots_.size()) slots_.resize(std::max<std::size_t>(n->id + 1, slots_.size() * 2));
    return slots_[n->id];
  }
  void grow(std::size_t locations) {
    by_loc_.resize(locations);
    if constexpr (indexed) index_.resize(locations);
  }

  // ---- the index ---------------------------------------------------------------------
  using support_type = typename traits::support_type;

  struct Group {
    support_type support;
    detail::FlatHashMultimap<Node> bucket;
  };
  struct LocIndex {
    std::vector<Group> groups;  // few: one per distinct support at the location
  };

  void index_add(Node* n, Slot& s) {
    if (!dom_) return;
    auto& li = index_[n->loc];
    if constexpr (projection) {
      std::size_t g = 0;
      while (g < li.groups.size() && !dom_->same_support(li.groups[g].support, n->element)) ++g;
      if (g == li.groups.size()) li.groups.push_back(Group{dom_->support(n->element), {}});
      s.group = static_cast<std::uint32_t>(g);
      s.hash = dom_->hash(n->element);
    } else {
      if (li.groups.empty()) li.groups.push_back(Group{});
      s.group = 0;
      s.hash = dom_->hash(n->element);
    }
    li.groups[s.group].bucket.insert(s.hash, n);
  }

  void index_remove(Node* n, const Slot& s) {
    if (!dom_) return;
    auto& li = index_[n->loc];
    if (s.group >= li.groups.size()) return;
    li.groups[s.group].bucket.erase(s.hash, n);
  }

  template <class Dom>
  Node* indexed_cover(const Dom& d, const typename Node::element_type& e, Loc l) const {
    const auto& li = index_[l];
    if constexpr (projection) {
      for (const Group& g : li.groups) {
        if (g.bucket.empty() || !d.within(g.support, e)) continue;
        if (Node* r = g.bucket.find_if(d.hash_on(e, g.support),
                                       [&](const Node* c) { return d.leq(e, c->element); }))
          return r;
      }
      return nullptr;
    } else {
      if (!li.groups.empty())
        if (Node* r = li.groups[0].bucket.find_if(
                d.hash(e), [&](const Node* c) { return d.leq(e, c->element); }))
          return r;
      for (Node* r : by_loc_[l])
        if (d.leq(e, r->element)) return r;
      return nullptr;
    }
  }

  std::vector<std::vector<Node*>> by_loc_;
  std::vector<Slot> slots_;  // by node id
  std::size_t size_ = 0;
  struct Empty {};
  [[no_unique_address]] std::conditional_t<indexed, std::vector<LocIndex>, Empty> index_{};
  const std::conditional_t<std::is_void_v<D>, char, D>* dom_ = nullptr;
  bool rebuild_needed_ = false;
};

}  // namespace precis
