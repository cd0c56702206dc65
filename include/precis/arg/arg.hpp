#pragma once
// The abstract reachability graph (ARG): the unfolding of the CFA that the CPA
// algorithm builds. Nodes hold a location, an abstract element and the precision it was
// computed with; edges are CFA edges. With merge-sep the ARG is a tree plus covering
// edges; merge-join gives a node several parents.
//
// Nodes live in chunks of 1024 (stable addresses, one allocation per chunk) and are
// never freed during a run; a removed node is marked and its element released, so that
// the reached set and waitlists may drop it lazily. Nodes point to their precisions;
// the ARG keeps every precision it was given alive (keep()), so a node costs two
// pointers for them instead of two reference-counted handles.

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"

namespace precis {

template <class E, class P>
class Arg {
 public:
  struct Node;
  struct ParentEdge {
    Node* node;
    CfaEdge edge;
  };
  struct Node {
    using element_type = E;
    std::uint32_t id;
    Loc loc;
    E element;
    // The precision to expand this node with (CEGAR refreshes it on the frontier).
    const P* precision;
    // The precision the element was adjusted with when the node was created; never
    // refreshed, so that refinement can tell which nodes a new precision changes.
    const P* created_with;
    boost::container::small_vector<ParentEdge, 1> parents;
    boost::container::small_vector<Node*, 2> children;
    Node* covered_by = nullptr;
    std::vector<Node*> covering;  // nodes covered by this one
    bool removed = false;
    bool expanded = false;
    bool in_waitlist = false;
    bool in_reached = false;
    bool target = false;

    [[nodiscard]] Node* parent() const { return parents.empty() ? nullptr : parents[0].node; }
  };

  Arg() = default;
  Arg(const Arg&) = delete;
  Arg& operator=(const Arg&) = delete;
  ~Arg() { clear(); }

  // Keeps a precision alive for as long as the ARG lives (until clear()); returns the
  // pointer nodes store.
  const P* keep(std::shared_ptr<const P> p) {
    if (!p) return nullptr;
    if (kept_.empty() || kept_.back() != p) kept_.push_back(std::move(p));
    return kept_.back().get();
  }

  Node* create_root(Loc loc, E element, const P* prec) {
    root_ = make(loc, std::move(element), prec);
    return root_;
  }
  Node* add_child(Node* parent, CfaEdge edge, Loc loc, E element, const P* prec) {
    Node* n = make(loc, std::move(element), prec);
    n->parents.push_back({parent, edge});
    parent->children.push_back(n);
    return n;
  }
  // Adds another parent (merge-join).
  void add_parent(Node* n, Node* parent, CfaEdge edge) {
    n->parents.push_back({parent, edge});
    parent->children.push_back(n);
  }
  void cover(Node* n, Node* by) {
    n->covered_by = by;
    by->covering.push_back(n);
  }
  void uncover(Node* n) {
    if (!n->covered_by) return;
    auto& v = n->covered_by->covering;
    v.erase(std::remove(v.begin(), v.end(), n), v.end());
    n->covered_by = nullptr;
  }

  struct Removal {
    std::vector<Node*> removed;
    // Live nodes that were covered by a removed node (now uncovered): the caller must
    // put them back for exploration, or the ARG would be incomplete.
    std::vector<Node*> uncovered;
  };

  // Removes `n` and every descendant that has no parent left outside the removed set.
  Removal remove_subtree(Node* n) {
    return remove_subtree(n, [](const Node&) {});
  }
  // The same; on_remove(node) is called for each removed node while it still holds its
  // element (the CPA algorithm's on_removed hook, cpa/cpa_algorithm.hpp).
  template <class OnRemove>
  Removal remove_subtree(Node* n, OnRemove&& on_remove) {
    Removal out;
    auto& uncovered = out.uncovered;
    std::vector<Node*> stack{n};
    // Detach n from its parents first.
    for (auto& pe : n->parents) detach_child(pe.node, n);
    n->parents.clear();
    while (!stack.empty()) {
      Node* x = stack.back();
      stack.pop_back();
      if (x->removed) continue;
      x->removed = true;
      ++removed_count_;
      out.removed.push_back(x);
      for (Node* c : x->covering) {
        c->covered_by = nullptr;
        if (!c->removed) uncovered.push_back(c);
      }
      x->covering.clear();
      uncover(x);
      for (Node* c : x->children) {
        auto& ps = c->parents;
        ps.erase(std::remove_if(ps.begin(), ps.end(),
                                [&](const ParentEdge& pe) { return pe.node == x; }),
                 ps.end());
        if (ps.empty()) stack.push_back(c);
      }
      x->children.clear();
      on_remove(std::as_const(*x));
      x->element = E{};
    }
    std::erase_if(uncovered, [](Node* c) { return c->removed; });
    return out;
  }

  // The path from the root to `n` along first parents: (node, edge into it) pairs,
  // the root first with no edge.
  std::vector<ParentEdge> path_to(Node* n) const {
    std::vector<ParentEdge> rev;
    Node* cur = n;
    while (cur && !cur->parents.empty()) {
      rev.push_back({cur, cur->parents[0].edge});
      cur = cur->parents[0].node;
    }
    std::reverse(rev.begin(), rev.end());
    return rev;  // rev[i].node is the (i+1)-th node; the root is root()
  }

  [[nodiscard]] Node* root() const { return root_; }
  [[nodiscard]] std::size_t created() const { return count_; }
  [[nodiscard]] std::size_t size() const { return count_ - removed_count_; }
  template <class F>
  void for_each_live(F&& f) {
    for (std::size_t i = 0; i < count_; ++i) {
      Node* n = at(i);
      if (!n->removed) f(n);
    }
  }
  template <class F>
  void for_each_live(F&& f) const {
    for (std::size_t i = 0; i < count_; ++i) {
      const Node* n = at(i);
      if (!n->removed) f(n);
    }
  }
  void clear() {
    for (std::size_t i = 0; i < count_; ++i) std::destroy_at(at(i));
    for (Node* c : chunks_) std::allocator<Node>{}.deallocate(c, chunk_size);
    chunks_.clear();
    kept_.clear();
    count_ = 0;
    root_ = nullptr;
    removed_count_ = 0;
  }

 private:
  static constexpr std::size_t chunk_size = 1024;

  [[nodiscard]] Node* at(std::size_t i) const { return chunks_[i / chunk_size] + i % chunk_size; }

  Node* make(Loc loc, E element, const P* prec) {
    if (count_ == chunks_.size() * chunk_size)
      chunks_.push_back(std::allocator<Node>{}.allocate(chunk_size));
    Node* n = at(count_);
    std::construct_at(n, Node{static_cast<std::uint32_t>(count_),
                              loc,
                              std::move(element),
                              prec,
                              prec,
                              {},
                              {},
                              nullptr,
                              {},
                              false,
                              false,
                              false,
                              false,
                              false});
    ++count_;
    return n;
  }
  static void detach_child(Node* parent, Node* child) {
    auto& cs = parent->children;
    cs.erase(std::remove(cs.begin(), cs.end(), child), cs.end());
  }

  std::vector<Node*> chunks_;  // each holds chunk_size nodes, the last one partly
  std::size_t count_ = 0;
  std::vector<std::shared_ptr<const P>> kept_;
  Node* root_ = nullptr;
  std::size_t removed_count_ = 0;
};

}  // namespace precis
