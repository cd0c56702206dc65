#include <doctest/doctest.h>

#include <deque>
#include <random>
#include <vector>

#include "../support/lattice_laws.hpp"
#include "precis/arg/arg.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/cpa/reached_set.hpp"
#include "precis/domains/explicit/explicit_domain.hpp"
#include "precis/domains/explicit/variable_set.hpp"
#include "precis/domains/product/product_domain.hpp"

using namespace precis;

namespace reached_set_test {

namespace {

ExplicitState random_state(std::mt19937& rng, int vars, int values) {
  ExplicitState s;
  std::uniform_int_distribution<int> bound(0, 2);  // a third of the variables unbound
  std::uniform_int_distribution<int> val(0, values - 1);
  for (int v = 0; v < vars; ++v)
    if (bound(rng) != 0) s.set(static_cast<VarId>(v), std::int64_t{val(rng)});
  return s;
}

using Node = Arg<ExplicitState, LocalPrecision<VariableSet>>::Node;

// The scan that stop-sep meant before the index.
Node* scan_cover(const ExplicitDomain& d, const ExplicitState& e, const std::vector<Node*>& at) {
  for (Node* r : at)
    if (d.leq(e, r->element)) return r;
  return nullptr;
}

}  // namespace

TEST_CASE("explicit domain satisfies the hashing laws of the reached-set index") {
  ExplicitDomain d;
  std::mt19937 rng(7);
  std::vector<ExplicitState> samples{d.top()};
  for (int i = 0; i < 60; ++i) samples.push_back(random_state(rng, 4, 2));
  testing::check_hashing_laws(d, samples);
}

TEST_CASE("the indexed reached set answers stop-sep exactly as the scan does") {
  ExplicitDomain d;
  Arg<ExplicitState, LocalPrecision<VariableSet>> arg;
  ReachedSet<Node, ExplicitDomain> reached(3);
  reached.bind(&d);
  std::mt19937 rng(42);
  std::vector<Node*> live;
  Node* root = arg.create_root(0, ExplicitState{}, nullptr);
  (void)root;
  // Random insertions and removals over 3 locations; small value ranges so that
  // coverings (equal and strictly larger reached states) are frequent.
  for (int step = 0; step < 3000; ++step) {
    const Loc loc = static_cast<Loc>(step % 3);
    ExplicitState e = random_state(rng, 5, 3);
    Node* indexed = reached.find_cover(d, e, loc);
    Node* scanned = scan_cover(d, e, reached.at(loc));
    REQUIRE((indexed == nullptr) == (scanned == nullptr));
    if (indexed) CHECK(d.leq(e, indexed->element));
    if (step % 5 == 4 && !live.empty()) {
      std::uniform_int_distribution<std::size_t> pick(0, live.size() - 1);
      const std::size_t i = pick(rng);
      reached.remove(live[i]);
      live[i] = live.back();
      live.pop_back();
    } else if (!indexed) {
      Node* n = arg.add_child(arg.root(), CfaEdge{}, loc, std::move(e), nullptr);
      reached.add(n);
      live.push_back(n);
    }
  }
  std::size_t total = 0;
  for (Loc l = 0; l < 3; ++l) total += reached.at(l).size();
  CHECK(total == live.size());
  CHECK(reached.size() == live.size());
  reached.clear();
  CHECK(reached.size() == 0);
  CHECK(reached.find_cover(d, ExplicitState{}, 0) == nullptr);
}

TEST_CASE("a counting loop's states are found by one lookup each") {
  // 10^5 distinct states at one location: the scan would make 5*10^9 comparisons.
  ExplicitDomain d;
  Arg<ExplicitState, LocalPrecision<VariableSet>> arg;
  ReachedSet<Node, ExplicitDomain> reached(1);
  reached.bind(&d);
  arg.create_root(0, ExplicitState{}, nullptr);
  for (std::int64_t i = 0; i < 100000; ++i) {
    ExplicitState e;
    e.set(VarId{0}, i);
    REQUIRE(reached.find_cover(d, e, 0) == nullptr);
    reached.add(arg.add_child(arg.root(), CfaEdge{}, 0, std::move(e), nullptr));
  }
  ExplicitState again;
  again.set(VarId{0}, 77777);
  again.set(VarId{1}, 5);  // more precise than the reached {x = 77777}: covered
  Node* c = reached.find_cover(d, again, 0);
  REQUIRE(c != nullptr);
  CHECK(c->element.get(0) == 77777);
}

TEST_CASE("a product is indexed on its explicit part") {
  using Lattice = ProductLattice<ExplicitDomain, ExplicitDomain>;
  ExplicitDomain a, b;
  Lattice d(&a, &b);
  static_assert(ProjectionCovering<Lattice>);
  std::mt19937 rng(3);
  std::vector<Lattice::element> samples;
  for (int i = 0; i < 40; ++i)
    samples.push_back(Lattice::element{{random_state(rng, 3, 2), random_state(rng, 2, 2)}});
  testing::check_hashing_laws(d, samples);
}

}  // namespace reached_set_test
