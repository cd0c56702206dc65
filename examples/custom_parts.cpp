// Swapping parts of CEGAR without touching the library:
//  1. a waitlist of our own (random order with a fixed seed), passed as a template
//     argument instead of the configurable BFS/DFS/target-distance one;
//  2. a refiner of our own that wraps the explicit-value refiner and logs every
//     refinement (any type with `increment_type` and `refine(path, stats)` will do);
//  3. merge-join instead of merge-sep, which turns the explicit analysis into
//     constant propagation over the ARG (joins lose what refinement adds when values
//     differ per path, so CEGAR may then end with "no progress": UNKNOWN, not wrong).
//
//   custom_parts model.cfa
#include <precis/io/cfa_reader.hpp>
#include <precis/precis.hpp>

#include <iostream>
#include <random>
#include <vector>

template <class Node>
class RandomWaitlist {
 public:
  explicit RandomWaitlist(const precis::Cfa&) {}
  void push(Node* n) { items_.push_back(n); }
  Node* pop() {
    std::uniform_int_distribution<std::size_t> pick(0, items_.size() - 1);
    std::swap(items_[pick(rng_)], items_.back());
    Node* n = items_.back();
    items_.pop_back();
    return n;
  }
  [[nodiscard]] bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }

 private:
  std::vector<Node*> items_;
  std::mt19937 rng_{42};
};

class LoggingRefiner {
 public:
  using increment_type = precis::VariableSet;
  explicit LoggingRefiner(const precis::Cfa& cfa) : cfa_(&cfa), inner_(cfa) {}

  precis::Refinement<precis::VariableSet> refine(const precis::ErrorPath& path,
                                                 precis::Statistics& stats) {
    auto r = inner_.refine(path, stats);
    std::cerr << "refinement on a path of " << path.size() << " steps:";
    for (const auto& [i, vars] : r.increments) {
      std::cerr << " " << cfa_->name(path.location(i)) << "{";
      for (auto v : vars) std::cerr << ' ' << cfa_->exprs().variable(v).name;
      std::cerr << " }";
    }
    std::cerr << '\n';
    return r;
  }

 private:
  const precis::Cfa* cfa_;
  precis::ExplicitRefiner inner_;
};
static_assert(precis::Refiner<LoggingRefiner>);

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: custom_parts MODEL.cfa\n";
    return 4;
  }
  try {
    precis::Cfa cfa = precis::read_cfa_file(argv[1]);
    precis::CEGAR<precis::Expl, LoggingRefiner, RandomWaitlist> random_order{cfa};
    auto r1 = random_order.run();
    std::cout << "random order + logging refiner: " << precis::to_string(r1.verdict) << " after "
              << r1.stats.refinements << " refinements\n";

    precis::CEGAR<precis::Expl, precis::ExplicitRefiner, precis::ConfigurableWaitlist,
                  precis::MergeJoin>
        joined{cfa};
    auto r2 = joined.run();
    std::cout << "merge-join: " << precis::to_string(r2.verdict) << ", " << r2.stats.arg_nodes
              << " ARG nodes\n";
    return 0;
  } catch (const precis::input_error& e) {
    std::cerr << e.what() << '\n';
    return 3;
  }
}
