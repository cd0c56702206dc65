#pragma once
// Waitlist orders for Alg. 1: breadth-first, depth-first, target-distance (nodes
// whose location is closest to the error location in the CFA first; ties DFS), and
// reverse postorder (the position of the location in the CFA's weak topological order
// first, ties BFS: CPAchecker's `traversal.useReversePostorder`, which adjustable-block
// encoding wants so that every path into a join point inside a block arrives, and is
// merged, before the join point is expanded).
// Every waitlist is constructed from the CFA, so that the CPA algorithm can build any
// of them; a user's own order only needs push / pop / empty / clear.

#include <concepts>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/weak_topological_order.hpp"

namespace precis {

template <class W, class Node>
concept Waitlist = std::constructible_from<W, const Cfa&> && requires(W& w, Node* n) {
  w.push(n);
  { w.pop() } -> std::convertible_to<Node*>;
  { w.empty() } -> std::convertible_to<bool>;
  w.clear();
};

template <class Node>
class Bfs {
 public:
  explicit Bfs(const Cfa&) {}
  void push(Node* n) { q_.push_back(n); }
  Node* pop() {
    Node* n = q_.front();
    q_.pop_front();
    return n;
  }
  [[nodiscard]] bool empty() const { return q_.empty(); }
  void clear() { q_.clear(); }

 private:
  std::deque<Node*> q_;
};

template <class Node>
class Dfs {
 public:
  explicit Dfs(const Cfa&) {}
  void push(Node* n) { s_.push_back(n); }
  Node* pop() {
    Node* n = s_.back();
    s_.pop_back();
    return n;
  }
  [[nodiscard]] bool empty() const { return s_.empty(); }
  void clear() { s_.clear(); }

 private:
  std::vector<Node*> s_;
};

// Shortest CFA distance (in edges) from every location to the error location;
// unreachable locations get the maximum.
inline std::vector<std::uint32_t> distances_to_error(const Cfa& cfa) {
  constexpr auto inf = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> dist(cfa.num_locations(), inf);
  auto err = cfa.error_location();
  if (!err) return dist;
  // Backward BFS over in-edges.
  std::deque<Loc> q{*err};
  dist[*err] = 0;
  while (!q.empty()) {
    Loc l = q.front();
    q.pop_front();
    for (auto e : cfa.in_edges(l)) {
      Loc s = cfa.source(e);
      if (dist[s] == inf) {
        dist[s] = dist[l] + 1;
        q.push_back(s);
      }
    }
  }
  return dist;
}

// Nodes ordered by a key of their location (smaller first); equal keys in insertion
// order, newest first (NewestFirst) or oldest first.
template <class Node, bool NewestFirst>
class KeyedWaitlist {
 public:
  explicit KeyedWaitlist(std::vector<std::uint32_t> key) : key_(std::move(key)) {}
  void push(Node* n) { q_.push(Item{key_[n->loc], seq_++, n}); }
  Node* pop() {
    Node* n = q_.top().node;
    q_.pop();
    return n;
  }
  [[nodiscard]] bool empty() const { return q_.empty(); }
  void clear() { q_ = {}; }

 private:
  struct Item {
    std::uint32_t key;
    std::uint64_t seq;
    Node* node;
    bool operator<(const Item& o) const {  // max-heap: the top is popped first
      if (key != o.key) return key > o.key;
      return NewestFirst ? seq < o.seq : seq > o.seq;
    }
  };
  std::vector<std::uint32_t> key_;
  std::priority_queue<Item> q_;
  std::uint64_t seq_ = 0;
};

// Closest to the error location first, ties depth-first.
template <class Node>
class TargetDistance : public KeyedWaitlist<Node, true> {
 public:
  explicit TargetDistance(const Cfa& cfa) : KeyedWaitlist<Node, true>(distances_to_error(cfa)) {}
};

// Each location's position in the CFA's weak topological order (unordered: last).
inline std::vector<std::uint32_t> wto_positions(const Cfa& cfa) {
  WeakTopologicalOrder w(cfa);
  std::vector<std::uint32_t> pos(cfa.num_locations(), std::numeric_limits<std::uint32_t>::max());
  for (Loc l = 0; l < cfa.num_locations(); ++l)
    if (w.is_ordered(l)) pos[l] = static_cast<std::uint32_t>(w.position(l));
  return pos;
}

// Reverse postorder, ties breadth-first.
template <class Node>
class ReversePostorder : public KeyedWaitlist<Node, false> {
 public:
  explicit ReversePostorder(const Cfa& cfa) : KeyedWaitlist<Node, false>(wto_positions(cfa)) {}
};

enum class SearchOrder : std::uint8_t { Bfs, Dfs, TargetDistance, ReversePostorder };

inline SearchOrder parse_search_order(const std::string& s) {
  if (s == "bfs") return SearchOrder::Bfs;
  if (s == "dfs") return SearchOrder::Dfs;
  if (s == "target" || s == "target-distance") return SearchOrder::TargetDistance;
  if (s == "rpo" || s == "reverse-postorder") return SearchOrder::ReversePostorder;
  throw std::invalid_argument("unknown search order '" + s + "' (bfs, dfs, target, rpo)");
}

// The order chosen at run time (what the CLI uses); each order is still a plain type
// that can be passed as a template argument instead.
template <class Node>
class ConfigurableWaitlist {
 public:
  explicit ConfigurableWaitlist(const Cfa& cfa, SearchOrder order = SearchOrder::Bfs)
      : cfa_(&cfa), order_(order), bfs_(cfa), dfs_(cfa), td_(cfa) {
    set_order(order);
  }
  void set_order(SearchOrder o) {
    order_ = o;
    if (o == SearchOrder::ReversePostorder && !rpo_) rpo_.emplace(*cfa_);
  }
  void push(Node* n) {
    switch (order_) {
      case SearchOrder::Bfs: bfs_.push(n); break;
      case SearchOrder::Dfs: dfs_.push(n); break;
      case SearchOrder::TargetDistance: td_.push(n); break;
      case SearchOrder::ReversePostorder: rpo_->push(n); break;
    }
  }
  Node* pop() {
    switch (order_) {
      case SearchOrder::Bfs: return bfs_.pop();
      case SearchOrder::Dfs: return dfs_.pop();
      case SearchOrder::TargetDistance: return td_.pop();
      case SearchOrder::ReversePostorder: return rpo_->pop();
    }
    return nullptr;
  }
  [[nodiscard]] bool empty() const {
    switch (order_) {
      case SearchOrder::Bfs: return bfs_.empty();
      case SearchOrder::Dfs: return dfs_.empty();
      case SearchOrder::TargetDistance: return td_.empty();
      case SearchOrder::ReversePostorder: return rpo_->empty();
    }
    return true;
  }
  void clear() {
    bfs_.clear();
    dfs_.clear();
    td_.clear();
    if (rpo_) rpo_->clear();
  }

 private:
  const Cfa* cfa_;
  SearchOrder order_;
  Bfs<Node> bfs_;
  Dfs<Node> dfs_;
  TargetDistance<Node> td_;
  std::optional<ReversePostorder<Node>> rpo_;  // built on demand (a WTO of the CFA)
};

}  // namespace precis
