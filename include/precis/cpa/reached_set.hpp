#pragma once
// The reached set of Alg. 1, partitioned by CFA location: merge and stop only ever look
// at elements of the same location (the location CPA is part of every composite).

#include <algorithm>
#include <cstddef>
#include <vector>

#include "precis/cfa/cfa.hpp"

namespace precis {

template <class Node>
class ReachedSet {
 public:
  explicit ReachedSet(std::size_t num_locations = 0) : by_loc_(num_locations) {}

  void add(Node* n) {
    if (n->in_reached) return;
    if (n->loc >= by_loc_.size()) by_loc_.resize(n->loc + 1);
    by_loc_[n->loc].push_back(n);
    n->in_reached = true;
    ++size_;
  }
  void remove(Node* n) {
    if (!n->in_reached) return;
    auto& v = by_loc_[n->loc];
    auto it = std::find(v.begin(), v.end(), n);
    if (it != v.end()) {
      *it = v.back();
      v.pop_back();
      --size_;
    }
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
    size_ = 0;
  }

 private:
  std::vector<std::vector<Node*>> by_loc_;
  std::size_t size_ = 0;
};

}  // namespace precis
