#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "precis/cfa/block_encoding.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/cfa/weak_topological_order.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/smt/block_formula.hpp"
#include "precis/smt/cvc5_solver.hpp"

using namespace precis;

namespace block_encoding_test {

namespace {

// Bourdoncle's definition: for every edge (u, v) of ordered locations,
// (u < v and v not in omega(u)) or (v <= u and v in omega(u)), omega(u) being the heads
// of the components containing u.
bool is_weak_topological_order(const Cfa& cfa, const WeakTopologicalOrder& w) {
  for (auto e : cfa.edges()) {
    const Loc u = cfa.source(e);
    const Loc v = cfa.target(e);
    if (!w.is_ordered(u)) continue;
    if (!w.is_ordered(v)) return false;  // reachable from an ordered location
    bool v_in_omega = false;
    for (auto h = w.component_head(u); h; h = w.parent_head(*h))
      if (*h == v) v_in_omega = true;
    const bool forward = w.position(u) < w.position(v) && !v_in_omega;
    const bool back = w.position(v) <= w.position(u) && v_in_omega;
    if (!forward && !back) return false;
  }
  return true;
}

Loc by_name(const Cfa& cfa, const std::string& n) {
  for (Loc l : cfa.locations())
    if (cfa.name(l) == n) return l;
  throw std::logic_error("no location " + n);
}

std::string names(const Cfa& cfa, const WeakTopologicalOrder& w) {
  return w.to_string([&](Loc l) { return cfa.name(l); });
}

}  // namespace

TEST_CASE("wto: nested loops in Bourdoncle's notation, WTONEXT and WTOEXIT") {
  CfaBuilder b;
  for (auto [f, t] : std::vector<std::pair<const char*, const char*>>{
           {"0", "1"}, {"1", "2"}, {"2", "3"}, {"3", "2"}, {"3", "4"}, {"4", "1"}, {"1", "5"}})
    b.edge(f, t, Skip{});
  b.location("dead");  // unreachable: not ordered
  b.edge("dead", "1", Skip{});
  b.initial("0");
  Cfa cfa = std::move(b).build();
  WeakTopologicalOrder w(cfa);
  CHECK(names(cfa, w) == "0 (1 (2 3) 4) 5");
  CHECK(is_weak_topological_order(cfa, w));
  auto L = [&](const char* n) {
    for (Loc l : cfa.locations())
      if (cfa.name(l) == n) return l;
    throw std::logic_error("no such location");
  };
  CHECK(w.size() == 6);
  CHECK_FALSE(w.is_ordered(L("dead")));
  REQUIRE(w.heads().size() == 2);
  CHECK(w.heads()[0] == L("1"));
  CHECK(w.heads()[1] == L("2"));
  CHECK(w.is_head(L("1")));
  CHECK_FALSE(w.is_head(L("3")));
  CHECK(w.component_head(L("3")) == L("2"));
  CHECK(w.component_head(L("4")) == L("1"));
  CHECK(w.component_head(L("2")) == L("2"));
  CHECK_FALSE(w.component_head(L("0")).has_value());
  CHECK(w.parent_head(L("2")) == L("1"));
  CHECK_FALSE(w.parent_head(L("1")).has_value());
  CHECK(w.depth(L("3")) == 2);
  CHECK(w.depth(L("5")) == 0);
  // WTONEXT: the next element of the innermost component, else its head.
  CHECK(w.next(L("0")) == L("1"));
  CHECK(w.next(L("1")) == L("2"));
  CHECK(w.next(L("2")) == L("3"));
  CHECK(w.next(L("3")) == L("2"));
  CHECK(w.next(L("4")) == L("1"));
  CHECK_FALSE(w.next(L("5")).has_value());
  // WTOEXIT: the first element after the component (in the enclosing one).
  CHECK(w.exit(L("2")) == L("4"));
  CHECK(w.exit(L("1")) == L("5"));
  CHECK_THROWS((void)w.exit(L("3")));
}

TEST_CASE("wto: VINTA's example l1 (l2) l3 and a component that ends its parent") {
  CfaBuilder b;
  b.edge("l1", "l2", Skip{});
  b.edge("l2", "l2", Skip{});
  b.edge("l2", "l3", Skip{});
  b.initial("l1");
  Cfa cfa = std::move(b).build();
  WeakTopologicalOrder w(cfa);
  CHECK(names(cfa, w) == "l1 (l2) l3");
  const Loc l2 = by_name(cfa, "l2");
  CHECK(w.next(l2) == l2);                  // WTONEXT(l2) = l2
  CHECK(w.exit(l2) == by_name(cfa, "l3"));  // WTOEXIT(l2) = l3

  CfaBuilder c;  // a (b (c d)) e: the inner component ends the outer one
  c.edge("a", "b", Skip{});
  c.edge("b", "c", Skip{});
  c.edge("c", "d", Skip{});
  c.edge("d", "c", Skip{});
  c.edge("d", "b", Skip{});
  c.edge("b", "e", Skip{});
  c.initial("a");
  Cfa g = std::move(c).build();
  WeakTopologicalOrder v(g);
  CHECK(names(g, v) == "a (b (c d)) e");
  CHECK(is_weak_topological_order(g, v));
  // WTOEXIT(c) = b, the head of the enclosing component; WTONEXT(d) = c
  CHECK(v.exit(by_name(g, "c")) == by_name(g, "b"));
  CHECK(v.next(by_name(g, "d")) == by_name(g, "c"));
}

// A recursive construction overflows the stack on the chain (10^5 nested visits). The
// nest is kept at 3000 levels: Bourdoncle's algorithm revisits a component once per
// enclosing level, O(depth * edges): 10^4 levels take 1.6 s at -O2, 15 s at -O0.
TEST_CASE("wto: a chain of 10^5 locations and a nest of 3000 loops (iterative)") {
  {
    Cfa cfa;
    constexpr std::size_t n = 100000;
    for (std::size_t i = 0; i < n; ++i) cfa.add_location("c" + std::to_string(i));
    for (std::size_t i = 0; i + 1 < n; ++i) cfa.add_edge(i, i + 1, Skip{});
    cfa.set_initial(0);
    WeakTopologicalOrder w(cfa);
    REQUIRE(w.size() == n);
    CHECK(w.heads().empty());
    CHECK(w.position(n - 1) == n - 1);
    CHECK(w.next(n - 2) == n - 1);
    // One big loop around the chain: one component, one head.
    cfa.add_edge(n - 1, 1, Skip{});
    WeakTopologicalOrder l(cfa);
    REQUIRE(l.heads().size() == 1);
    CHECK(l.heads()[0] == 1);
    CHECK(l.next(n - 1) == 1);
  }
  {
    // h_i -> h_{i+1} enters loop i+1; h_{i+1} -> t_i leaves it; t_i -> h_i closes loop i.
    constexpr std::size_t d = 3000;
    Cfa cfa;
    const Loc root = cfa.add_location("root");
    std::vector<Loc> h, t;
    for (std::size_t i = 0; i <= d; ++i) h.push_back(cfa.add_location("h" + std::to_string(i)));
    for (std::size_t i = 0; i < d; ++i) t.push_back(cfa.add_location("t" + std::to_string(i)));
    const Loc end = cfa.add_location("end");
    cfa.add_edge(root, h[0], Skip{});
    cfa.add_edge(h[0], end, Skip{});
    for (std::size_t i = 0; i < d; ++i) {
      cfa.add_edge(h[i], h[i + 1], Skip{});
      cfa.add_edge(h[i + 1], t[i], Skip{});
      cfa.add_edge(t[i], h[i], Skip{});
    }
    cfa.set_initial(root);
    WeakTopologicalOrder w(cfa);
    CHECK(w.size() == 2 * d + 3);
    REQUIRE(w.heads().size() == d);
    CHECK(w.heads().front() == h[0]);
    CHECK(w.heads().back() == h[d - 1]);
    CHECK(w.depth(h[d - 1]) == d);
    CHECK(w.component_head(h[d]) == h[d - 1]);
    CHECK(w.parent_head(h[d - 1]) == h[d - 2]);
    CHECK(w.exit(h[0]) == end);
    CHECK(w.exit(h[1]) == t[0]);
  }
}

namespace {

// init -> h: i := 0; loop h: assume i < n, k ifs "if (x_j > 0) y := y + 1", i := i + 1;
// h -> err: assume i >= n /\ y > n.
struct LoopWithIfs {
  Cfa cfa;
  Loc init = 0, head = 0, err = 0;
  std::size_t body_edges = 0;

  explicit LoopWithIfs(std::size_t k) {
    CfaBuilder b;
    ExprManager& e = b.exprs();
    VarId i = b.int_var("i"), n = b.int_var("n"), y = b.int_var("y");
    std::vector<VarId> x;
    for (std::size_t j = 0; j < k; ++j) x.push_back(b.int_var("x" + std::to_string(j)));
    b.edge("init", "h", Assign{i, e.int_val(0)});
    b.edge("h", "a0", Assume{e.lt(e.var(i), e.var(n))});
    for (std::size_t j = 0; j < k; ++j) {
      const std::string a = "a" + std::to_string(j), m = "m" + std::to_string(j),
                        a1 = "a" + std::to_string(j + 1);
      Term c = e.gt(e.var(x[j]), e.int_val(0));
      b.edge(a, m, Assume{c});
      b.edge(m, a1, Assign{y, e.add(e.var(y), e.int_val(1))});
      b.edge(a, a1, Assume{e.not_(c)});
    }
    b.edge("a" + std::to_string(k), "h", Assign{i, e.add(e.var(i), e.int_val(1))});
    b.edge("h", "err", Assume{e.and_(e.ge(e.var(i), e.var(n)), e.gt(e.var(y), e.var(n)))});
    b.initial("init");
    b.error("err");
    init = b.location("init");
    head = b.location("h");
    err = b.location("err");
    body_edges = 3 * k + 2;
    cfa = std::move(b).build();
  }
};

}  // namespace

TEST_CASE("block operator: abstraction points under each policy") {
  LoopWithIfs p(3);
  const Cfa& cfa = p.cfa;
  BlockOperator abe(cfa, BlockPolicy::LoopHeads);
  std::size_t points = 0;
  for (Loc l : cfa.locations()) points += abe.is_abstraction_point(l) ? 1 : 0;
  CHECK(points == 3);  // initial, loop head, error
  CHECK(abe.is_abstraction_point(p.init));
  CHECK(abe.is_abstraction_point(p.head));
  CHECK(abe.is_abstraction_point(p.err));
  CHECK(abe.reachable_points() == std::vector<Loc>{p.init, p.head, p.err});

  BlockOperator sbe(cfa, BlockPolicy::EveryLocation);
  for (Loc l : cfa.locations()) CHECK(sbe.is_abstraction_point(l));
  BlockGraph sg(cfa, sbe);
  CHECK(sg.blocks().size() == cfa.num_edges());  // no parallel edges here: one per edge

  // ABE-lf adds the targets of edges between functions (an inlined call and its return).
  CfaBuilder b;
  const std::uint32_t f = b.function("f");
  b.edge("m0", "m1", Skip{});
  b.edge(b.location("m1"), b.location("f0", f), Skip{});
  b.edge(b.location("f0", f), b.location("f1", f), Skip{});
  b.edge(b.location("f1", f), b.location("m2"), Skip{});
  b.edge("m2", "m3", Skip{});
  b.initial("m0");
  Cfa calls = std::move(b).build();
  BlockOperator l(calls, BlockPolicy::LoopHeads);
  BlockOperator lf(calls, BlockPolicy::AbeLf);
  auto point_names = [&](const BlockOperator& op) {
    std::string s;
    for (Loc x : op.reachable_points()) s += calls.name(x) + " ";
    return s;
  };
  CHECK(point_names(l) == "m0 ");
  CHECK(point_names(lf) == "m0 f0 m2 ");
  CHECK(std::string(to_string(BlockPolicy::Sbe)) == "sbe");
}

TEST_CASE("block graph: a loop with k ifs is one block head -> head; formula linear in k") {
  auto terms_for = [](std::size_t k) {
    LoopWithIfs p(k);
    BlockOperator op(p.cfa, BlockPolicy::LoopHeads);
    BlockGraph g(p.cfa, op);
    CHECK(g.blocks().size() == 3);  // init -> h, h -> h, h -> err
    auto loop = g.find(p.head, p.head);
    REQUIRE(loop.has_value());
    const Block& blk = g.block(*loop);
    CHECK(blk.edges.size() == p.body_edges);
    CHECK(blk.nodes.size() == 2 * k + 3);  // h, a0..ak, m0..m(k-1), h
    CHECK(blk.nodes.front() == p.head);
    CHECK(blk.nodes.back() == p.head);
    for (const BlockEdge& e : blk.edges) CHECK(e.source < e.target);  // topological
    CHECK(g.find(p.init, p.head).has_value());
    CHECK(g.find(p.head, p.err).has_value());
    CHECK_FALSE(g.find(p.init, p.err).has_value());
    CHECK(g.blocks_from(p.head).size() == 2);
    CHECK(g.blocks_into(p.head).size() == 2);
    // The cutpoint graph's own WTO: init (h) err.
    auto cw = g.wto(p.init);
    CHECK(cw.to_string([&](Loc l) { return p.cfa.name(l); }) == "init (h) err");

    SsaVars ssa(p.cfa.exprs());
    const std::size_t before = ssa.ssa().num_terms();
    BlockFormulaEncoder enc(p.cfa, ssa);
    std::vector<std::uint32_t> index;
    BlockFormula f = enc.encode(blk, index);
    CHECK(f.taken.size() == blk.edges.size());
    // y was written in k branches: its exit index is k; i once.
    CHECK(index[2] == k);
    CHECK(index[0] == 1);
    return ssa.ssa().num_terms() - before;
  };
  const std::size_t t10 = terms_for(10);
  const std::size_t t100 = terms_for(100);
  const std::size_t t200 = terms_for(200);
  MESSAGE("terms: k=10 ", t10, ", k=100 ", t100, ", k=200 ", t200);
  CHECK(t100 <= 11 * t10);
  CHECK(t100 >= 8 * t10);
  // Linear: the increment from 100 to 200 ifs is that from 0 to 100, give or take.
  CHECK(t200 - t100 <= t100 + t100 / 10);
}

namespace {

// init -x := 0-> d0; diamond j: d_j -assume v_j > 0-> m_j -x := x + 2^j-> d_{j+1},
// d_j -assume v_j <= 0-> d_{j+1}; d_10 -assume x = target-> err. 2^10 paths.
struct Diamonds {
  Cfa cfa;
  static constexpr int k = 10;
  explicit Diamonds(std::int64_t target) {
    CfaBuilder b;
    ExprManager& e = b.exprs();
    VarId x = b.int_var("x");
    std::vector<VarId> v;
    for (int j = 0; j < k; ++j) v.push_back(b.int_var("v" + std::to_string(j)));
    b.edge("init", "d0", Assign{x, e.int_val(0)});
    for (int j = 0; j < k; ++j) {
      const std::string d = "d" + std::to_string(j), m = "m" + std::to_string(j),
                        d1 = "d" + std::to_string(j + 1);
      Term c = e.gt(e.var(v[j]), e.int_val(0));
      b.edge(d, m, Assume{c});
      b.edge(m, d1, Assign{x, e.add(e.var(x), e.int_val(std::int64_t{1} << j))});
      b.edge(d, d1, Assume{e.le(e.var(v[j]), e.int_val(0))});
    }
    b.edge("d" + std::to_string(k), "err", Assume{e.eq(e.var(x), e.int_val(target))});
    b.initial("init");
    b.error("err");
    cfa = std::move(b).build();
  }
};

}  // namespace

TEST_CASE("block formula: 10 diamonds, the model picks the one path, which replays") {
  constexpr std::int64_t target = 0b1011001010;
  Diamonds p(target);
  BlockOperator op(p.cfa, BlockPolicy::LoopHeads);
  BlockGraph g(p.cfa, op);
  REQUIRE(g.blocks().size() == 1);
  const Block& blk = g.block(0);
  CHECK(blk.edges.size() == 3 * Diamonds::k + 2);
  SsaVars ssa(p.cfa.exprs());
  std::vector<const Block*> seq{&blk};
  BlockPathFormula pf = encode_block_path(p.cfa, ssa, seq);
  Cvc5Solver solver(ssa.ssa());
  for (Term c : pf.conjuncts) solver.assert_(c);
  REQUIRE(solver.check() == SatResult::Sat);
  std::string reason;
  auto w = block_path_from_model(p.cfa, ssa, pf, solver, reason);
  REQUIRE_MESSAGE(w.has_value(), reason);
  CHECK(w->start == blk.entry);
  CHECK(w->steps.back().target == *p.cfa.error_location());
  // 1 + one step per untaken diamond + two per taken one + 1.
  const int taken = std::popcount(static_cast<std::uint64_t>(target));
  CHECK(w->steps.size() == static_cast<std::size_t>(2 + Diamonds::k + taken));
  const std::vector<Operation> ops = w->operations();
  ReplayResult rp = replay(p.cfa.exprs(), ops, PathInputs{w->initial, w->havoc, w->arrays});
  CHECK_MESSAGE(rp.ok, rp.reason);
  CHECK(rp.state[0] == target);
  for (int j = 0; j < Diamonds::k; ++j)
    CHECK((w->initial[static_cast<std::size_t>(j) + 1] > 0) == (((target >> j) & 1) != 0));

  // An unreachable target (beyond the sum of all increments): unsat.
  Diamonds q(1 << Diamonds::k);
  BlockOperator qop(q.cfa, BlockPolicy::LoopHeads);
  BlockGraph qg(q.cfa, qop);
  SsaVars qssa(q.cfa.exprs());
  std::vector<const Block*> qseq{&qg.block(0)};
  BlockPathFormula qpf = encode_block_path(q.cfa, qssa, qseq);
  Cvc5Solver qs(qssa.ssa());
  CHECK(qs.check_assuming(qpf.conjuncts) == SatResult::Unsat);
}

TEST_CASE("block formula: sequences of blocks around a loop (SSA continues, havoc values)") {
  // init -havoc z; x := 0-> h; h -assume x < 10; x := x + 1-> h; h -assume x >= z-> err.
  CfaBuilder b;
  ExprManager& e = b.exprs();
  VarId x = b.int_var("x"), z = b.int_var("z");
  b.chain(b.location("init"), b.location("h"), {Havoc{z}, Assign{x, e.int_val(0)}});
  b.chain(b.location("h"), b.location("h"),
          {Assume{e.lt(e.var(x), e.int_val(10))}, Assign{x, e.add(e.var(x), e.int_val(1))}});
  b.edge("h", "err", Assume{e.and_(e.ge(e.var(x), e.var(z)), e.gt(e.var(z), e.int_val(2)))});
  b.initial("init");
  b.error("err");
  Cfa cfa = std::move(b).build();
  BlockOperator op(cfa, BlockPolicy::AbeLf);
  BlockGraph g(cfa, op);
  const Loc init = cfa.initial_location(), err = *cfa.error_location();
  Loc h = 0;
  for (Loc l : cfa.locations())
    if (cfa.name(l) == "h") h = l;
  const Block& enter = g.block(*g.find(init, h));
  const Block& loop = g.block(*g.find(h, h));
  const Block& leave = g.block(*g.find(h, err));
  CHECK(loop.nodes.size() == 3);

  auto sequence = [&](int iterations) {
    std::vector<const Block*> s{&enter};
    for (int i = 0; i < iterations; ++i) s.push_back(&loop);
    s.push_back(&leave);
    return s;
  };
  {  // two iterations: x = 2 < z, z > 2 ... unsat
    SsaVars ssa(cfa.exprs());
    auto seq = sequence(2);
    BlockPathFormula pf = encode_block_path(cfa, ssa, seq);
    CHECK(pf.conjuncts.size() == 4);
    CHECK(pf.index[x] == 3);
    Cvc5Solver s(ssa.ssa());
    CHECK(s.check_assuming(pf.conjuncts) == SatResult::Unsat);
  }
  {  // four iterations: sat with z in {3, 4}; the havoc value comes from the model
    SsaVars ssa(cfa.exprs());
    auto seq = sequence(4);
    BlockPathFormula pf = encode_block_path(cfa, ssa, seq);
    Cvc5Solver s(ssa.ssa());
    REQUIRE(s.check_assuming(pf.conjuncts) == SatResult::Sat);
    std::string reason;
    auto w = block_path_from_model(cfa, ssa, pf, s, reason);
    REQUIRE_MESSAGE(w.has_value(), reason);
    CHECK(w->steps.size() == 2 + 4 * 2 + 1);
    CHECK(w->block_end.size() == 6);
    CHECK((w->havoc[0] == 3 || w->havoc[0] == 4));
    ReplayResult rp =
        replay(cfa.exprs(), w->operations(), PathInputs{w->initial, w->havoc, w->arrays});
    CHECK_MESSAGE(rp.ok, rp.reason);
    CHECK(rp.state[x] == 4);
  }
  // A sequence whose blocks do not connect is refused.
  SsaVars ssa(cfa.exprs());
  std::vector<const Block*> bad{&enter, &enter};
  CHECK_THROWS_AS(encode_block_path(cfa, ssa, bad), std::invalid_argument);
}

TEST_CASE("block graph and formula: a straight-line block of 3 * 10^4 edges") {
  CfaBuilder b;
  ExprManager& e = b.exprs();
  VarId x = b.int_var("x");
  std::vector<Operation> ops;
  constexpr std::size_t n = 30000;
  for (std::size_t i = 0; i < n; ++i) ops.push_back(Assign{x, e.add(e.var(x), e.int_val(1))});
  b.chain(b.location("init"), b.location("err"), ops);
  b.initial("init");
  b.error("err");
  Cfa cfa = std::move(b).build();
  BlockOperator op(cfa, BlockPolicy::AbeLf);
  BlockGraph g(cfa, op);
  REQUIRE(g.blocks().size() == 1);
  CHECK(g.block(0).edges.size() == n);
  SsaVars ssa(cfa.exprs());
  std::vector<const Block*> seq{&g.block(0)};
  BlockPathFormula pf = encode_block_path(cfa, ssa, seq);
  CHECK(pf.index[x] == n);
  CHECK(pf.conjuncts[0].depth() < 10);  // flat: no nesting along the block
}

}  // namespace block_encoding_test
