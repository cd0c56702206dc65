#pragma once
// Weak topological order (Bourdoncle, "Efficient chaotic iteration strategies with
// widenings", FMPA 1993): a well-parenthesised total order of the vertices in which
// every cycle passes through the head of a component, so the heads are the loop heads
// (widening points, ABE-lf abstraction points, VINTA cutpoints).
//
// Stored flat, as SPARTA does: `elements()[i]` is a vertex or the head of a component
// together with the index one past the component's end. The construction is
// Bourdoncle's hierarchical algorithm with an explicit stack of frames instead of
// recursion (as crab does): a CFA that is a chain of 10^5 locations, or a nest of 10^4
// loops, must not overflow the call stack. Only vertices reachable from the root are
// ordered.
//
// Queries: the innermost head of every vertex, the enclosing head of every head, and
// WTONEXT / WTOEXIT as the VINTA paper defines them (Albarghouthi, Gurfinkel, Chechik,
// SAS 2012, section 3), which its EXPANDARG (Fig. 3) uses to walk the cutpoint graph.
//
// Cost: Bourdoncle's algorithm is O(depth * edges), depth = loop nesting depth.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "precis/cfa/cfa.hpp"

namespace precis {

class WeakTopologicalOrder {
 public:
  struct Element {
    Loc loc = 0;
    bool head = false;      // the head of a component
    std::uint32_t end = 0;  // index one past the component (i + 1 for a plain vertex)
  };

  WeakTopologicalOrder() = default;

  // The WTO of the locations reachable from the CFA's initial location.
  explicit WeakTopologicalOrder(const Cfa& cfa) {
    const std::size_t n = cfa.num_locations();
    std::vector<std::size_t> offsets(n + 1, 0);
    std::vector<Loc> targets;
    targets.reserve(cfa.num_edges());
    for (Loc l = 0; l < n; ++l) {
      offsets[l] = targets.size();
      for (auto e : cfa.out_edges(l)) targets.push_back(cfa.target(e));
    }
    offsets[n] = targets.size();
    if (n > 0) build(n, cfa.initial_location(), offsets, targets);
  }

  // The WTO of a graph in compressed rows: the successors of v are
  // targets[offsets[v] .. offsets[v + 1]). Used for graphs that are not a Cfa (the
  // cutpoint graph of cfa/block_encoding.hpp).
  static WeakTopologicalOrder of_graph(std::size_t n, Loc root,
                                       std::span<const std::size_t> offsets,
                                       std::span<const Loc> targets) {
    WeakTopologicalOrder w;
    if (n > 0) w.build(n, root, offsets, targets);
    return w;
  }

  // ---- the order -----------------------------------------------------------------------
  [[nodiscard]] const std::vector<Element>& elements() const noexcept { return elements_; }
  [[nodiscard]] std::size_t size() const noexcept { return elements_.size(); }
  // The heads in WTO order.
  [[nodiscard]] const std::vector<Loc>& heads() const noexcept { return heads_; }
  [[nodiscard]] bool is_ordered(Loc l) const noexcept {
    return l < position_.size() && position_[l] != npos;
  }
  [[nodiscard]] bool is_head(Loc l) const noexcept {
    return is_ordered(l) && elements_[position_[l]].head;
  }
  // Index of l in elements() (l must be ordered).
  [[nodiscard]] std::size_t position(Loc l) const { return checked(l); }
  // The head of the innermost component containing l (l itself for a head), or nullopt
  // for a vertex outside every component.
  [[nodiscard]] std::optional<Loc> component_head(Loc l) const {
    const std::uint32_t h = inner_[checked(l)];
    if (h == npos) return std::nullopt;
    return elements_[h].loc;
  }
  // For a head: the head of the component that contains its component, if any.
  [[nodiscard]] std::optional<Loc> parent_head(Loc h) const {
    const std::size_t i = checked(h);
    if (!elements_[i].head) throw std::invalid_argument("WeakTopologicalOrder: not a head");
    const std::uint32_t p = outer_[i];
    if (p == npos) return std::nullopt;
    return elements_[p].loc;
  }
  // Number of components containing l (a head is inside its own component).
  [[nodiscard]] std::uint32_t depth(Loc l) const { return depth_[checked(l)]; }

  // WTONEXT(v) (VINTA, section 3): the element of the innermost component U containing v
  // that immediately follows v, or the head of U if v is U's last element. For a head v,
  // U is v's own component. nullopt after the last top-level element.
  [[nodiscard]] std::optional<Loc> next(Loc v) const {
    const std::size_t i = checked(v);
    const std::uint32_t u = inner_[i];
    const std::size_t end = u == npos ? elements_.size() : elements_[u].end;
    if (i + 1 < end) return elements_[i + 1].loc;
    if (u == npos) return std::nullopt;
    return elements_[u].loc;
  }
  // WTOEXIT(h) for a head h (VINTA, section 3): the first element after h's component in
  // the enclosing component U, or U's head if h's component ends U; at top level the
  // first element after the component, nullopt if there is none.
  [[nodiscard]] std::optional<Loc> exit(Loc h) const {
    const std::size_t i = checked(h);
    if (!elements_[i].head) throw std::invalid_argument("WeakTopologicalOrder: exit of a non-head");
    const std::uint32_t p = outer_[i];
    const std::size_t end = elements_[i].end;
    const std::size_t outer_end = p == npos ? elements_.size() : elements_[p].end;
    if (end < outer_end) return elements_[end].loc;
    if (p == npos) return std::nullopt;
    return elements_[p].loc;
  }

  // Bourdoncle's notation, e.g. "0 (1 (2 3) 4) 5", with `name(loc)` for each vertex.
  template <class Name>
  [[nodiscard]] std::string to_string(Name&& name) const {
    std::string s;
    std::vector<std::uint32_t> open;  // ends of the open components
    for (std::size_t i = 0; i < elements_.size(); ++i) {
      if (!s.empty() && s.back() != '(') s += ' ';
      if (elements_[i].head) {
        s += '(';
        open.push_back(elements_[i].end);
      }
      s += name(elements_[i].loc);
      while (!open.empty() && open.back() == i + 1) {
        s += ')';
        open.pop_back();
      }
    }
    return s;
  }
  [[nodiscard]] std::string to_string() const {
    return to_string([](Loc l) { return std::to_string(l); });
  }

 private:
  static constexpr std::uint32_t npos = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint64_t done = std::numeric_limits<std::uint64_t>::max();

  std::size_t checked(Loc l) const {
    if (!is_ordered(l)) throw std::out_of_range("WeakTopologicalOrder: location not ordered");
    return position_[l];
  }

  // One activation of Bourdoncle's visit(v) or component(v).
  struct Frame {
    Loc v = 0;
    std::size_t next = 0;    // next successor index (into targets)
    std::uint64_t head = 0;  // visit: the smallest dfn reached so far
    bool loop = false;       // visit: v lies on a cycle through the stack
    bool component = false;  // false: visit(v); true: component(v)
    bool waiting = false;    // visit: a child visit returns its head into `head`
    std::size_t start = 0;   // component: size of `rev` when it began
  };

  void build(std::size_t n, Loc root, std::span<const std::size_t> offsets,
             std::span<const Loc> targets) {
    // dfn: 0 = unvisited, `done` = placed (Bourdoncle's +infinity). 64 bits: components
    // are revisited once per nesting level, so the counter can exceed 2^32.
    std::vector<std::uint64_t> dfn(n, 0);
    std::vector<Loc> stack;     // Bourdoncle's vertex stack
    std::vector<Frame> frames;  // the call stack, made explicit
    std::uint64_t num = 0;
    // The partition is built by prepending (Bourdoncle); we append to `rev` and
    // reverse at the end. A head is appended after its component's body with the body's
    // size, which becomes the extent once reversed.
    struct Rev {
      Loc loc;
      bool head;
      std::size_t extent;
    };
    std::vector<Rev> rev;
    std::uint64_t ret = 0;  // the value the last finished visit returned

    auto enter_visit = [&](Loc v) {
      stack.push_back(v);
      dfn[v] = ++num;
      Frame f;
      f.v = v;
      f.next = offsets[v];
      f.head = num;
      frames.push_back(f);
    };
    enter_visit(root);
    while (!frames.empty()) {
      Frame& f = frames.back();
      if (!f.component) {
        if (f.waiting) {
          f.waiting = false;
          if (ret <= f.head) {
            f.head = ret;
            f.loop = true;
          }
        }
        if (f.next < offsets[f.v + 1]) {
          const Loc w = targets[f.next++];
          if (dfn[w] == 0) {
            f.waiting = true;
            enter_visit(w);  // invalidates f
          } else if (dfn[w] <= f.head) {
            f.head = dfn[w];
            f.loop = true;
          }
          continue;
        }
        if (f.head == dfn[f.v]) {
          dfn[f.v] = done;
          Loc e = stack.back();
          stack.pop_back();
          if (f.loop) {
            while (e != f.v) {
              dfn[e] = 0;
              e = stack.back();
              stack.pop_back();
            }
            // component(v): visit the unplaced successors into a fresh partition.
            f.component = true;
            f.next = offsets[f.v];
            f.start = rev.size();
            continue;
          }
          rev.push_back(Rev{f.v, false, 0});
        }
        ret = f.head;
        frames.pop_back();
      } else {
        if (f.next < offsets[f.v + 1]) {
          const Loc w = targets[f.next++];
          if (dfn[w] == 0) enter_visit(w);  // its result is not used; invalidates f
          continue;
        }
        rev.push_back(Rev{f.v, true, rev.size() - f.start});
        ret = f.head;
        frames.pop_back();
        // The parent (if a visit) is waiting for `ret`.
      }
    }
    // A child visit inside component(v) leaves `waiting` unset in the component frame,
    // so its return value is dropped, as in Bourdoncle's component().

    const std::size_t m = rev.size();
    elements_.resize(m);
    position_.assign(n, npos);
    for (std::size_t i = 0; i < m; ++i) {
      const Rev& r = rev[m - 1 - i];
      elements_[i].loc = r.loc;
      elements_[i].head = r.head;
      elements_[i].end = static_cast<std::uint32_t>(i + 1 + r.extent);
      position_[r.loc] = static_cast<std::uint32_t>(i);
      if (r.head) heads_.push_back(r.loc);
    }
    // Innermost and enclosing heads, and depths, in one pass with a stack of the open
    // components.
    inner_.assign(m, npos);
    outer_.assign(m, npos);
    depth_.assign(m, 0);
    std::vector<std::uint32_t> open;
    for (std::size_t i = 0; i < m; ++i) {
      while (!open.empty() && elements_[open.back()].end <= i) open.pop_back();
      const std::uint32_t enclosing = open.empty() ? npos : open.back();
      if (elements_[i].head) {
        outer_[i] = enclosing;
        open.push_back(static_cast<std::uint32_t>(i));
        inner_[i] = static_cast<std::uint32_t>(i);
      } else {
        inner_[i] = enclosing;
      }
      depth_[i] = static_cast<std::uint32_t>(open.size());
    }
  }

  std::vector<Element> elements_;
  std::vector<Loc> heads_;
  std::vector<std::uint32_t> position_;  // by location; npos if not ordered
  std::vector<std::uint32_t> inner_;     // by element: innermost head's element, or npos
  std::vector<std::uint32_t> outer_;     // by head element: enclosing head's element
  std::vector<std::uint32_t> depth_;     // by element
};

}  // namespace precis
