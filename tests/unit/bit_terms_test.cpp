// The bit operations of the term language: iand_k and pow2 in the int64 and
// exact evaluators, the .cfa syntax, rewriting, and the interval transfer functions.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "precis/domains/box/interval.hpp"
#include "precis/expr/eval.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/printer.hpp"
#include "precis/expr/term.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/cfa_writer.hpp"

using namespace precis;

namespace bit_terms_test {

namespace {
const std::vector<std::int64_t> samples = {
    INT64_MIN, INT64_MIN + 1, -256, -255, -129, -128, -7,    -1,       0, 1, 2,
    5,         127,           128,  255,  256,  1000, 65535, INT64_MAX};
}  // namespace

TEST_CASE("iand_k is the and of the k low two's complement bits") {
  ExprManager em;
  for (unsigned k : {1U, 3U, 8U, 16U, 32U, 63U}) {
    for (std::int64_t a : samples)
      for (std::int64_t b : samples) {
        CAPTURE(k);
        CAPTURE(a);
        CAPTURE(b);
        const Term t = em.bit_and(em.int_val(a), em.int_val(b), k);
        const auto v = evaluate(t, EmptyValuation{});
        REQUIRE(v.has_value());
        const std::uint64_t mask = (std::uint64_t{1} << k) - 1;
        CHECK(static_cast<std::uint64_t>(*v) ==
              (static_cast<std::uint64_t>(a) & static_cast<std::uint64_t>(b) & mask));
        CHECK(*v >= 0);
        // The exact evaluator agrees.
        const auto w = evaluate_big(t, [](VarId) -> OptBigInt { return std::nullopt; });
        REQUIRE(w.has_value());
        CHECK(*w == *v);
      }
  }
  // Known values: C's (unsigned char)(-1 & 0x0f), x & (x - 1) clears the lowest set bit.
  CHECK(*evaluate(em.bit_and(em.int_val(-1), em.int_val(15), 8), EmptyValuation{}) == 15);
  CHECK(*evaluate(em.bit_and(em.int_val(12), em.int_val(11), 32), EmptyValuation{}) == 8);
  // Width 64 (& on 64-bit C types): exact in BigInt; in int64 known below 2^63 only.
  const auto none_of = [](VarId) -> OptBigInt { return std::nullopt; };
  for (std::int64_t a : samples)
    for (std::int64_t b : samples) {
      CAPTURE(a);
      CAPTURE(b);
      const Term t = em.bit_and(em.int_val(a), em.int_val(b), 64);
      const std::uint64_t r = static_cast<std::uint64_t>(a) & static_cast<std::uint64_t>(b);
      CHECK(*evaluate_big(t, none_of) == BigInt(r));
      const auto v = evaluate(t, EmptyValuation{});
      CHECK(v.has_value() == (r >> 63 == 0));
      if (v) CHECK(static_cast<std::uint64_t>(*v) == r);
    }
}

TEST_CASE("pow2: 2^a, 0 below 0; beyond int64 unknown, exact in BigInt") {
  ExprManager em;
  auto none = [](VarId) -> OptBigInt { return std::nullopt; };
  for (std::int64_t a = -3; a <= 62; ++a) {
    CAPTURE(a);
    const Term t = em.pow2(em.int_val(a));
    const auto v = evaluate(t, EmptyValuation{});
    REQUIRE(v.has_value());
    CHECK(*v == (a < 0 ? 0 : std::int64_t{1} << a));
    CHECK(*evaluate_big(t, none) == *v);
  }
  CHECK_FALSE(evaluate(em.pow2(em.int_val(63)), EmptyValuation{}).has_value());
  CHECK(*evaluate_big(em.pow2(em.int_val(64)), none) == BigInt(1) << 64);
}

TEST_CASE("iand needs a width: mk refuses it, rebuild keeps it") {
  ExprManager em;
  const Term x = em.var(em.declare("x", Type::Int));
  const Term y = em.var(em.declare("y", Type::Int));
  const Term args[] = {x, y};
  CHECK_THROWS_AS(em.mk(Op::BitAnd, args), type_error);
  CHECK_THROWS_AS(em.bit_and(x, y, 0), type_error);
  CHECK_THROWS_AS(em.bit_and(x, y, 65), type_error);
  const Term t8 = em.bit_and(x, y, 8);
  CHECK(t8 != em.bit_and(x, y, 16));  // the width is part of the node
  CHECK(t8 == em.bit_and(x, y, 8));
  const Term swapped[] = {y, x};
  const Term r = em.rebuild(t8, swapped);
  CHECK(r.op() == Op::BitAnd);
  CHECK(r.value() == 8);
  // Across managers (the CFA writer, SSA renaming): the width survives too.
  ExprManager other;
  const Term ox = other.var(other.declare("x", Type::Int));
  const Term oargs[] = {ox, other.int_val(3)};
  CHECK(other.rebuild(t8, oargs).value() == 8);
}

TEST_CASE("the .cfa syntax: iand(k, a, b) and pow2(a) print and read back") {
  const std::string text = R"(main process p {
  var x : int
  var y : int
  var iand : int
  init loc L0
  loc L1
  error loc E
  L0 -> L1 { x := iand(8, x + 1, pow2(y)) + iand }
  L1 -> E { assume iand(3, x, 6) = 2 }
}
)";
  const Cfa cfa = parse_cfa(text, "bits.cfa");
  std::vector<std::string> ops;
  for (auto e : cfa.edges()) ops.push_back(to_string(cfa.operation(e), cfa.exprs()));
  std::sort(ops.begin(), ops.end());
  CHECK(ops == std::vector<std::string>{"assume iand(3, x, 6) = 2",
                                        "x := iand(8, x + 1, pow2(y)) + iand"});
  // Written and read again: the same operations.
  std::ostringstream os;
  write_cfa(os, cfa);
  const Cfa again = parse_cfa(os.str(), "again.cfa");
  std::vector<std::string> ops2;
  for (auto e : again.edges()) ops2.push_back(to_string(again.operation(e), again.exprs()));
  std::sort(ops2.begin(), ops2.end());
  CHECK(ops2 == ops);
  // Widths outside 1..64 and a missing width are errors with a position.
  for (const char* bad : {"iand(0, x, y)", "iand(65, x, y)", "iand(x, y)"}) {
    std::string t = text;
    t.replace(t.find("iand(3, x, 6)"), 13, bad);
    CAPTURE(t);
    CHECK_THROWS_AS(parse_cfa(t, "bad.cfa"), input_error);
  }
}

TEST_CASE("interval transfer of iand and pow2 contains every concrete result") {
  const std::vector<Interval> boxes = {Interval(0, 0),   Interval(0, 15),   Interval(3, 9),
                                       Interval(-5, 5),  Interval(-20, -3), Interval(100, 300),
                                       Interval(-1, 70), Interval(250, 260)};
  for (unsigned k : {1U, 4U, 8U}) {
    for (const Interval& a : boxes)
      for (const Interval& b : boxes) {
        const Interval r = bit_and(a, b, k);
        for (std::int64_t x = a.lo().value(); x <= a.hi().value(); ++x)
          for (std::int64_t y = b.lo().value(); y <= b.hi().value(); ++y) {
            CAPTURE(k);
            CAPTURE(x);
            CAPTURE(y);
            CHECK(r.contains(*arith::bit_and(x, y, k)));
          }
      }
  }
  for (const Interval& a : boxes) {
    const Interval r = pow2(a);
    for (std::int64_t x = a.lo().value(); x <= a.hi().value(); ++x)
      if (auto v = arith::pow2(x)) CHECK(r.contains(*v));
  }
  CHECK(bit_and(Interval(0, 15), Interval::top(), 8) == Interval(0, 15));
  CHECK(pow2(Interval(2, 5)) == Interval(4, 32));
}

}  // namespace bit_terms_test
