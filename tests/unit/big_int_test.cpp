// Arbitrary-precision values of counterexamples: BigInt text, the exact evaluator
// (expr/eval_big.hpp), the replay beyond 64 bits and the reports that print it.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "precis/core/big_int.hpp"
#include "precis/core/result.hpp"
#include "precis/expr/eval.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/io/json_writer.hpp"
#include "precis/io/report.hpp"
#include "precis/path/concrete_interpreter.hpp"

using namespace precis;

namespace big_int_test {

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

const BigInt two63 = BigInt(1) << 63;  // 9223372036854775808
const BigInt two64 = BigInt(1) << 64;  // 18446744073709551616

struct BigMap {
  std::map<VarId, BigInt> m;
  OptBigInt operator()(VarId v) const {
    auto it = m.find(v);
    if (it == m.end()) return std::nullopt;
    return it->second;
  }
};

OptBigInt eval_closed(Term t) { return evaluate_big(t, BigMap{}); }

}  // namespace

TEST_CASE("big int: decimal text, parsing and the int64 range") {
  CHECK(to_string(two63 + 5) == "9223372036854775813");
  CHECK(to_string(-two64) == "-18446744073709551616");
  CHECK(to_string(BigInt(0)) == "0");
  CHECK(parse_big_int("9223372036854775813") == two63 + 5);
  CHECK(parse_big_int("-18446744073709551616") == -two64);
  CHECK(parse_big_int("0017") == BigInt(17));  // decimal, not octal
  CHECK(parse_big_int("-0") == BigInt(0));
  CHECK(parse_big_int("0") == BigInt(0));
  CHECK_FALSE(parse_big_int("").has_value());
  CHECK_FALSE(parse_big_int("-").has_value());
  CHECK_FALSE(parse_big_int("0x10").has_value());
  CHECK_FALSE(parse_big_int("1e3").has_value());
  CHECK_FALSE(parse_big_int(" 1").has_value());
  CHECK(to_int64(BigInt(kMax)) == kMax);
  CHECK(to_int64(BigInt(kMin)) == kMin);
  CHECK_FALSE(to_int64(BigInt(kMax) + 1).has_value());
  CHECK_FALSE(to_int64(BigInt(kMin) - 1).has_value());
}

TEST_CASE("big eval: Euclidean div and mod, rem, on every sign combination") {
  ExprManager em;
  auto c = [&](std::int64_t k) { return em.int_val(k); };
  struct Row {
    std::int64_t a, b, div, mod, rem;
  };
  // a = b * div + mod with 0 <= mod < |b|; rem = mod for b >= 0, -mod otherwise.
  const Row rows[] = {{7, 2, 3, 1, 1},    {-7, 2, -4, 1, 1}, {7, -2, -3, 1, -1},
                      {-7, -2, 4, 1, -1}, {6, 3, 2, 0, 0},   {-6, 3, -2, 0, 0},
                      {0, -5, 0, 0, 0},   {-1, 5, -1, 4, 4}, {-1, -5, 1, 4, -4},
                      {13, -5, -2, 3, -3}};
  for (const Row& r : rows) {
    CAPTURE(r.a);
    CAPTURE(r.b);
    CHECK(eval_closed(em.div(c(r.a), c(r.b))) == BigInt(r.div));
    CHECK(eval_closed(em.mod(c(r.a), c(r.b))) == BigInt(r.mod));
    CHECK(eval_closed(em.rem(c(r.a), c(r.b))) == BigInt(r.rem));
  }
  // Beyond int64: INT64_MIN / -1 = 2^63 (the int64 evaluator says unknown).
  CHECK(eval_closed(em.div(c(kMin), c(-1))) == two63);
  CHECK_FALSE(evaluate(em.div(c(kMin), c(-1)), EmptyValuation{}).has_value());
  CHECK(eval_closed(em.mod(c(kMin), c(-1))) == BigInt(0));
  // Division by zero is the one unknown.
  CHECK_FALSE(eval_closed(em.div(c(5), c(0))).has_value());
  CHECK_FALSE(eval_closed(em.mod(c(-5), c(0))).has_value());
  CHECK_FALSE(eval_closed(em.rem(c(0), c(0))).has_value());
}

TEST_CASE("big eval: values beyond 2^64, exactly") {
  ExprManager em;
  const VarId x = em.declare("x", Type::Int);
  const VarId y = em.declare("y", Type::Int);
  const Term X = em.var(x), Y = em.var(y);
  BigMap v;
  v.m[x] = two64 * 3 + 7;  // 55340232221128654855
  v.m[y] = -two63 - 1;
  CHECK(evaluate_big(em.add(X, Y), v) == two64 * 3 + 7 - two63 - 1);
  CHECK(evaluate_big(em.mul(X, Y), v) == (two64 * 3 + 7) * (-two63 - 1));
  CHECK(evaluate_big(em.neg(Y), v) == two63 + 1);
  CHECK(evaluate_big(em.sub(Y, X), v) == -two63 - 1 - two64 * 3 - 7);
  // Euclidean on big negatives: -(3 * 2^64 + 7) = 2^64 * (-4) + (2^64 - 7).
  CHECK(evaluate_big(em.div(em.neg(X), em.int_val(1)), v) == -(two64 * 3 + 7));
  const Term big_divisor = em.mul(em.int_val(kMax), em.int_val(2));  // 2^64 - 2
  CHECK(evaluate_big(em.div(em.neg(X), em.add(big_divisor, em.int_val(2))), v) == BigInt(-4));
  CHECK(evaluate_big(em.mod(em.neg(X), em.add(big_divisor, em.int_val(2))), v) == two64 - 7);
  CHECK(evaluate_big(em.rem(em.neg(X), em.neg(em.add(big_divisor, em.int_val(2)))), v) ==
        -(two64 - 7));
  CHECK(evaluate_big(em.mod(Y, em.int_val(-10)), v) == BigInt(1));  // -2^63 - 1 = 10k + 1
  CHECK(evaluate_big(em.div(Y, em.int_val(-10)), v) == (two63 + 2) / 10);
  // Comparisons and Ite over big values.
  CHECK(evaluate_big(em.gt(X, em.int_val(kMax)), v) == BigInt(1));
  CHECK(evaluate_big(em.lt(Y, em.int_val(kMin)), v) == BigInt(1));
  CHECK(evaluate_big(em.eq(em.sub(X, X), em.int_val(0)), v) == BigInt(1));
  CHECK(evaluate_big(em.ite(em.ge(Y, em.int_val(0)), X, Y), v) == -two63 - 1);
  // The int64 evaluator knows none of these: it says unknown, never a wrapped value.
  auto small = [&](VarId z) -> OptValue { return to_int64(v.m.at(z)); };
  CHECK_FALSE(evaluate(em.add(X, Y), small).has_value());
}

TEST_CASE("big eval: three-valued connectives as in the int64 evaluator") {
  ExprManager em;
  const VarId x = em.declare("x", Type::Int);
  const VarId p = em.declare("p", Type::Bool);
  const Term X = em.var(x), P = em.var(p);
  const Term div0 = em.eq(em.div(X, em.int_val(0)), em.int_val(1));  // unknown
  BigMap v;
  v.m[x] = two63;
  v.m[p] = 0;
  CHECK(evaluate_big(em.and_(P, div0), v) == BigInt(0));
  CHECK(evaluate_big(em.or_(em.not_(P), div0), v) == BigInt(1));
  CHECK_FALSE(evaluate_big(em.and_(em.not_(P), div0), v).has_value());
  CHECK(evaluate_big(em.imply(P, div0), v) == BigInt(1));
  CHECK_FALSE(evaluate_big(em.iff(P, div0), v).has_value());
  CHECK(evaluate_big(em.xor_(P, em.not_(P)), v) == BigInt(1));
  CHECK(evaluate_big(em.mul(em.div(X, em.int_val(0)), em.int_val(0)), v) == BigInt(0));
  CHECK(evaluate_big(em.ite(div0, X, X), v) == two63);
  CHECK_FALSE(evaluate_big(em.ite(div0, X, em.int_val(0)), v).has_value());
  CHECK(evaluate_big(em.neq(X, em.int_val(0)), v) == BigInt(1));
  CHECK(evaluate_big(em.le(X, X), v) == BigInt(1));
  CHECK_FALSE(evaluate_big(em.gt(em.var(em.declare("unset", Type::Int)), X), v).has_value());
}

TEST_CASE("big eval agrees with the int64 evaluator wherever that one knows the value") {
  ExprManager em;
  std::vector<VarId> vars;
  for (const char* n : {"a", "b", "c"}) vars.push_back(em.declare(n, Type::Int));
  std::mt19937_64 rng(20240613);
  const std::int64_t consts[] = {0, 1, -1, 2, -3, 7, kMax, kMin, kMax / 2, -(kMax / 3)};
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  std::function<Term(int)> gen_int;
  std::function<Term(int)> gen_bool = [&](int d) -> Term {
    const std::size_t k = d <= 0 ? 0 : pick(9);
    const Term l = gen_int(d - 1), r = gen_int(d - 1);
    switch (k) {
      case 0: return em.lt(l, r);
      case 1: return em.eq(l, r);
      case 2: return em.ge(l, r);
      case 3: return em.not_(gen_bool(d - 1));
      case 4: return em.and_(gen_bool(d - 1), gen_bool(d - 1));
      case 5: return em.or_(gen_bool(d - 1), gen_bool(d - 1));
      case 6: return em.imply(gen_bool(d - 1), gen_bool(d - 1));
      case 7: return em.xor_(gen_bool(d - 1), gen_bool(d - 1));
      default: return em.neq(l, r);
    }
  };
  gen_int = [&](int d) -> Term {
    if (d <= 0 || pick(4) == 0)
      return pick(2) == 0 ? em.var(vars[pick(vars.size())]) : em.int_val(consts[pick(10)]);
    const Term l = gen_int(d - 1), r = gen_int(d - 1);
    switch (pick(9)) {
      case 0: return em.add(l, r);
      case 1: return em.sub(l, r);
      case 2: return em.mul(l, r);
      case 3: return em.div(l, r);
      case 4: return em.mod(l, r);
      case 5: return em.rem(l, r);
      case 6: return em.neg(l);
      case 7: return em.ite(gen_bool(d - 1), l, r);
      default: return em.add(l, em.int_val(1));
    }
  };
  std::size_t known = 0, big_only = 0;
  for (int i = 0; i < 4000; ++i) {
    std::map<VarId, std::int64_t> vals;
    BigMap big;
    for (VarId x : vars) {
      const std::int64_t c = consts[pick(10)];
      const std::int64_t k = arith::add(c, static_cast<std::int64_t>(pick(5)) - 2).value_or(c);
      vals[x] = k;
      big.m[x] = k;
    }
    auto small = [&](VarId x) -> OptValue { return vals.at(x); };
    const Term t = pick(2) == 0 ? gen_int(4) : gen_bool(4);
    CAPTURE(to_string(t, em));
    const OptValue s = evaluate(t, small);
    const OptBigInt b = evaluate_big(t, big);
    if (s) {
      ++known;
      REQUIRE(b.has_value());
      CHECK(*b == BigInt(*s));
    } else if (b) {
      ++big_only;
    }
  }
  MESSAGE(known << " terms known to both evaluators, " << big_only << " only to the exact one");
  CHECK(known > 500);
  CHECK(big_only > 100);
}

TEST_CASE("replay: an input of 2^63 + 5 is replayed exactly, a wrapped one is refused") {
  ExprManager em;
  const VarId x = em.declare("x", Type::Int);
  const VarId y = em.declare("y", Type::Int);
  const VarId b = em.declare("b", Type::Bool);
  const Term X = em.var(x), Y = em.var(y);
  // havoc x; assume x - 6 = 2^63 - 1; y := x - (2^63 - 1) - 1; assume y = 5
  const std::vector<Operation> ops{Havoc{x},
                                   Assume{em.eq(em.sub(X, em.int_val(6)), em.int_val(kMax))},
                                   Assign{y, em.sub(em.sub(X, em.int_val(kMax)), em.int_val(1))},
                                   Assume{em.eq(Y, em.int_val(5))}};
  PathInputs in;
  in.initial.assign(em.num_vars(), 0);
  in.havoc.assign(ops.size(), 0);
  in.havoc[0] = two63 + 5;
  ReplayResult r = replay(em, ops, in, ReplayRecord::Changes);
  REQUIRE_MESSAGE(r.ok, r.reason);
  CHECK(to_string(r.state[x]) == "9223372036854775813");
  CHECK(r.state[y] == 5);
  REQUIRE(r.changes.size() == 2);
  CHECK(r.changes[0].value == two63 + 5);
  CHECK(r.changes[1].value == 5);
  ReplayResult all = replay(em, ops, in, ReplayRecord::States);
  REQUIRE(all.ok);
  CHECK(all.states.size() == ops.size() + 1);
  CHECK(all.states[1][x] == two63 + 5);

  // The 64-bit wrap-around solution x = -2^63 + 5 does not satisfy the assume.
  in.havoc[0] = BigInt(kMin) + 5;
  r = replay(em, ops, in);
  CHECK_FALSE(r.ok);
  CHECK(r.failed_step == 1);
  CHECK(r.reason == "assume condition is false");

  // An initial value beyond 64 bits, and a Boolean input that is not 0/1.
  const std::vector<Operation> grow{Assign{x, em.mul(X, X)},
                                    Assume{em.gt(X, em.mul(em.int_val(kMax), em.int_val(kMax)))}};
  PathInputs g;
  g.initial = {two64, 0, 0};
  r = replay(em, grow, g);
  REQUIRE(r.ok);
  CHECK(r.state[x] == two64 * two64);
  g.initial = {0, 0, two64};
  r = replay(em, grow, g);
  CHECK_FALSE(r.ok);
  CHECK(r.reason.find("non-Boolean initial value for 'b'") != std::string::npos);
  // Division by zero: the replay fails, it never guesses.
  const std::vector<Operation> by0{Assign{y, em.div(X, em.int_val(0))}};
  r = replay(em, by0, in);
  CHECK_FALSE(r.ok);
  CHECK(r.reason.find("division by zero") != std::string::npos);
  (void)b;
}

TEST_CASE("reports print counterexample values beyond 64 bits exactly") {
  Counterexample cex;
  cex.variables = {"x", "y"};
  cex.initial = {0, -two64};
  cex.steps.push_back({"L0", "L1", "havoc x"}, {{0U, two63 + 5}});
  cex.steps.push_back({"L1", "L2", "y := x - 9223372036854775807 - 1"}, {{1U, BigInt(5)}});
  CHECK(cex.values_after(0) == std::vector<BigInt>{two63 + 5, -two64});
  CHECK(cex.final_values() == std::vector<BigInt>{two63 + 5, 5});

  std::ostringstream table;
  print_counterexample(table, cex);
  CHECK(table.str().find("9223372036854775813") != std::string::npos);
  CHECK(table.str().find("-18446744073709551616") != std::string::npos);

  CounterexampleFormat list;
  list.table_max_variables = 1;  // the list layout
  std::ostringstream listed;
  print_counterexample(listed, cex, list);
  CHECK(listed.str().find("y=-18446744073709551616") != std::string::npos);
  CHECK(listed.str().find("x=9223372036854775813") != std::string::npos);

  VerificationResult r;
  r.verdict = Verdict::Unsafe;
  r.counterexample = cex;
  std::ostringstream json;
  write_json(json, r, "m.cfa", "pred-cart");
  // JSON numbers, exact (no quotes, no exponent, no rounding).
  CHECK(json.str().find("\"initial\":[0,-18446744073709551616]") != std::string::npos);
  CHECK(json.str().find("\"changes\":{\"x\":9223372036854775813}") != std::string::npos);
  CHECK(json.str().find("\"changes\":{\"y\":5}") != std::string::npos);
  // One object, then the newline after it (the writer's buffer is flushed when the
  // outermost value closes).
  CHECK(json.str().front() == '{');
  CHECK(json.str().ends_with("}\n"));
}

TEST_CASE("the JSON writer escapes, formats numbers as std::ostream did, and writes in order") {
  std::ostringstream os;
  {
    JsonWriter j(os);
    j.begin_object();
    j.field("s", std::string_view("a\"b\\c\nd\te\x01\x7f\xc3\xa9"));
    j.field("i", std::int64_t{-9223372036854775807 - 1});
    j.field("u", std::uint64_t{18446744073709551615U});
    j.field("big", -two64);
    j.field("small", BigInt(-42));
    j.field("d", 0.1 + 0.2).field("e", 1e-7).field("inf", std::numeric_limits<double>::infinity());
    j.key("a").begin_array().value(true).value(false).null().end_array();
    j.end_object();
    os << "!";  // after the outermost value: the writer has flushed
  }
  CHECK(os.str() ==
        "{\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001\x7f\xc3\xa9\",\"i\":-9223372036854775808,"
        "\"u\":18446744073709551615,\"big\":-18446744073709551616,\"small\":-42,"
        "\"d\":0.3,\"e\":1e-07,\"inf\":null,\"a\":[true,false,null]}!");
  // More than a block (64 KB) of text: written whole and in order.
  std::ostringstream long_os;
  const std::string chunk(1000, 'x');
  {
    JsonWriter j(long_os);
    j.begin_array();
    for (int i = 0; i < 200; ++i) j.value(chunk).value(i);
    j.end_array();
  }
  // '[' and ']', 200 strings of 1002 characters, the digits of 0..199 (10 + 180 + 300),
  // and 399 commas.
  CHECK(long_os.str().size() == 2 + 200 * 1002 + 490 + 399);
  CHECK(long_os.str().starts_with("[\"xxx"));
  CHECK(long_os.str().ends_with(",199]"));
}

}  // namespace big_int_test
