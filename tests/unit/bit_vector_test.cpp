// Bit-vectors over the integers (expr/bit_vector.hpp) and Theta's bv[N] in the .cfa
// reader: every operator against an independent model of SMT-LIB's QF_BV semantics
// (unsigned 128-bit arithmetic), exhaustively at widths 1-4 and on boundary values at
// 8, 16, 32, 63 and 64 bits; literals; typing errors at their positions.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "precis/expr/bit_vector.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/io/cfa_reader.hpp"

using namespace precis;

namespace bit_vector_test {

namespace {

__extension__ typedef unsigned __int128 U;
__extension__ typedef __int128 S;

U mask(unsigned n) { return (U{1} << n) - 1; }
S to_signed(U a, unsigned n) {
  return a >> (n - 1) ? static_cast<S>(a) - static_cast<S>(U{1} << n) : static_cast<S>(a);
}
U wrap(S v, unsigned n) { return static_cast<U>(v) & mask(n); }

// SMT-LIB's definitions, computed on machine integers (C's truncating / and %).
struct Reference {
  const char* name;
  std::function<U(U, U, unsigned)> f;
  std::function<Term(BitVectorTerms&, Term, Term, unsigned)> encode;
};

std::vector<Reference> operators() {
  return {
      {"bvadd", [](U a, U b, unsigned n) { return (a + b) & mask(n); },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.add(a, b, n); }},
      {"bvsub", [](U a, U b, unsigned n) { return (a - b) & mask(n); },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.sub(a, b, n); }},
      {"bvmul", [](U a, U b, unsigned n) { return (a * b) & mask(n); },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.mul(a, b, n); }},
      {"bvudiv", [](U a, U b, unsigned n) { return b == 0 ? mask(n) : a / b; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.udiv(a, b, n); }},
      {"bvurem", [](U a, U b, unsigned) { return b == 0 ? a : a % b; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.urem(a, b, n); }},
      {"bvsdiv",
       [](U a, U b, unsigned n) {
         const S sa = to_signed(a, n), sb = to_signed(b, n);
         if (sb == 0) return sa < 0 ? U{1} : mask(n);
         return wrap(sa / sb, n);
       },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.sdiv(a, b, n); }},
      {"bvsrem",
       [](U a, U b, unsigned n) {
         const S sa = to_signed(a, n), sb = to_signed(b, n);
         return sb == 0 ? a : wrap(sa % sb, n);
       },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.srem(a, b, n); }},
      {"bvsmod",
       [](U a, U b, unsigned n) {
         const S sa = to_signed(a, n), sb = to_signed(b, n);
         if (sb == 0) return a;
         S r = sa % sb;
         if (r != 0 && (r < 0) != (sb < 0)) r += sb;
         return wrap(r, n);
       },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.smod(a, b, n); }},
      {"bvand", [](U a, U b, unsigned) { return a & b; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.bit_and(a, b, n); }},
      {"bvor", [](U a, U b, unsigned) { return a | b; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.bit_or(a, b, n); }},
      {"bvxor", [](U a, U b, unsigned) { return a ^ b; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.bit_xor(a, b, n); }},
      {"bvshl", [](U a, U b, unsigned n) { return b >= n ? U{0} : (a << b) & mask(n); },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.shl(a, b, n); }},
      {"bvlshr", [](U a, U b, unsigned n) { return b >= n ? U{0} : a >> b; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.lshr(a, b, n); }},
      {"bvashr",
       [](U a, U b, unsigned n) {
         const unsigned k = b >= n ? n - 1 : static_cast<unsigned>(b);
         return wrap(to_signed(a, n) >> k, n);
       },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.ashr(a, b, n); }},
      {"bvrol",
       [](U a, U b, unsigned n) {
         const unsigned r = static_cast<unsigned>(b % n);
         return r == 0 ? a : ((a << r) | (a >> (n - r))) & mask(n);
       },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.rol(a, b, n); }},
      {"bvror",
       [](U a, U b, unsigned n) {
         const unsigned r = static_cast<unsigned>(b % n);
         return r == 0 ? a : ((a >> r) | (a << (n - r))) & mask(n);
       },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.ror(a, b, n); }},
      {"bvult", [](U a, U b, unsigned) { return U{a < b}; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned) { return bv.ult(a, b); }},
      {"bvule", [](U a, U b, unsigned) { return U{a <= b}; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned) { return bv.ule(a, b); }},
      {"bvslt", [](U a, U b, unsigned n) { return U{to_signed(a, n) < to_signed(b, n)}; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.slt(a, b, n); }},
      {"bvsle", [](U a, U b, unsigned n) { return U{to_signed(a, n) <= to_signed(b, n)}; },
       [](BitVectorTerms& bv, Term a, Term b, unsigned n) { return bv.sle(a, b, n); }},
      {"bvneg", [](U a, U, unsigned n) { return (U{0} - a) & mask(n); },
       [](BitVectorTerms& bv, Term a, Term, unsigned n) { return bv.neg(a, n); }},
      {"bvnot", [](U a, U, unsigned n) { return ~a & mask(n); },
       [](BitVectorTerms& bv, Term a, Term, unsigned n) { return bv.bit_not(a, n); }},
  };
}

BigInt big(U v) {
  BigInt r = static_cast<std::uint64_t>(v >> 64);
  r <<= 64;
  r += static_cast<std::uint64_t>(v);
  return r;
}

// Operand values of width n: all of them up to 4 bits, else the boundaries and a few
// patterns.
std::vector<U> values(unsigned n) {
  std::vector<U> out;
  if (n <= 4) {
    for (U v = 0; v <= mask(n); ++v) out.push_back(v);
    return out;
  }
  const U half = U{1} << (n - 1);
  for (U v : {U{0}, U{1}, U{2}, U{3}, U{7}, U{n - 1}, U{n}, U{n + 1}, half - 1, half, half + 1,
              mask(n) - 1, mask(n), mask(n) / 3, (mask(n) / 3) * 2})
    out.push_back(v & mask(n));
  return out;
}

}  // namespace

TEST_CASE("bit-vector terms agree with SMT-LIB's QF_BV operators") {
  for (unsigned n : {1U, 2U, 3U, 4U, 8U, 16U, 32U, 63U, 64U}) {
    ExprManager em;
    BitVectorTerms bv(em);
    const Term x = em.var(em.declare("x", Type::Int)), y = em.var(em.declare("y", Type::Int));
    const auto vals = values(n);
    for (const Reference& op : operators()) {
      // Once symbolic (variables valued at evaluation), once over constants (folded, and
      // where a constant operand takes another path: masks, shifts by constants).
      const Term symbolic = op.encode(bv, x, y, n);
      for (U a : vals)
        for (U b : vals) {
          CAPTURE(op.name);
          CAPTURE(n);
          CAPTURE(static_cast<std::uint64_t>(a));
          CAPTURE(static_cast<std::uint64_t>(b));
          const BigInt want = big(op.f(a, b, n));
          auto valuation = [&](VarId v) -> OptBigInt { return v == x.var() ? big(a) : big(b); };
          const auto got = evaluate_big(symbolic, valuation);
          REQUIRE(got.has_value());
          CHECK(*got == want);
          const Term ca = big_int_term(em, big(a)), cb = big_int_term(em, big(b));
          const auto folded = evaluate_big(op.encode(bv, x, cb, n), valuation);
          REQUIRE(folded.has_value());
          CHECK(*folded == want);
          const auto constant = evaluate_big(op.encode(bv, ca, cb, n), EmptyBigValuation{});
          REQUIRE(constant.has_value());
          CHECK(*constant == want);
        }
    }
  }
}

TEST_CASE("bit-vector widths: concatenation, extraction and extension") {
  ExprManager em;
  BitVectorTerms bv(em);
  const Term x = em.var(em.declare("x", Type::Int)), y = em.var(em.declare("y", Type::Int));
  auto eval = [&](Term t, std::uint64_t a, std::uint64_t b) {
    auto v = evaluate_big(t, [&](VarId id) -> OptBigInt { return BigInt(id == x.var() ? a : b); });
    REQUIRE(v.has_value());
    return *v;
  };
  CHECK(eval(bv.concat(x, y, 4), 0xA, 0x5) == 0xA5);
  CHECK(eval(bv.concat(x, y, 32), 0xFFFFFFFF, 1) == BigInt(0xFFFFFFFF00000001ULL));
  CHECK(eval(bv.extract(x, 8, 4, 8), 0xA5, 0) == 0xA);
  CHECK(eval(bv.extract(x, 4, 0, 8), 0xA5, 0) == 0x5);
  CHECK(eval(bv.extract(x, 7, 3, 8), 0xA5, 0) == 0x4);  // bits 3..6 of 1010'0101
  CHECK(eval(bv.extract(x, 64, 63, 64), 0x8000000000000000ULL, 0) == 1);
  CHECK(eval(bv.zero_extend(x), 0xF, 0) == 0xF);
  CHECK(eval(bv.sign_extend(x, 4, 8), 0xF, 0) == 0xFF);
  CHECK(eval(bv.sign_extend(x, 4, 8), 0x7, 0) == 0x7);
  CHECK(eval(bv.sign_extend(x, 32, 64), 0x80000000, 0) == BigInt(0xFFFFFFFF80000000ULL));
  CHECK(eval(bv.literal(BigInt(-5), 4), 0, 0) == 11);
  CHECK(eval(bv.literal(BigInt(-1), 64), 0, 0) == BigInt(0xFFFFFFFFFFFFFFFFULL));
}

namespace {

// The value .cfa text assigns to x : bv[8] when v : bv[8] is `v` and w : bv[4] is `w`.
BigInt assigned(const std::string& expr, std::uint64_t v = 0, std::uint64_t w = 0,
                const std::string& target = "bv[8]") {
  const Cfa c = parse_cfa("main process p {\n  var x : " + target +
                              "\n  var v : bv[8]\n  var w : bv[4]\n  init loc A\n  loc B\n"
                              "  A -> B { x := " +
                              expr + " }\n}\n",
                          "t.cfa");
  for (auto e : c.edges())
    if (const auto* a = std::get_if<Assign>(&c.operation(e))) {
      const VarId vid = c.exprs().find("v")->id, wid = c.exprs().find("w")->id;
      auto r = evaluate_big(a->value, [&](VarId id) -> OptBigInt {
        if (id == vid) return BigInt(v);
        if (id == wid) return BigInt(w);
        return std::nullopt;
      });
      REQUIRE(r.has_value());
      return *r;
    }
  FAIL("no assignment");
  return 0;
}

}  // namespace

TEST_CASE("cfa reader: Theta's bit-vector literals, operators and precedence") {
  CHECK(assigned("8'd200") == 200);
  CHECK(assigned("8'd-1") == 255);
  CHECK(assigned("8'd-128") == 128);
  CHECK(assigned("8'xAf") == 0xAF);
  CHECK(assigned("8'b00010010") == 0x12);
  CHECK(assigned("v bvadd 8'd100", 200) == 44);
  CHECK(assigned("v bvsub 8'd1", 0) == 255);
  CHECK(assigned("bvneg v", 1) == 255);
  CHECK(assigned("bvnot v", 0x0F) == 0xF0);
  CHECK(assigned("v bvsdiv 8'd-2", 0xF9) == 3);    // -7 / -2 = 3
  CHECK(assigned("v bvsrem 8'd2", 0xF9) == 0xFF);  // -7 rem 2 = -1
  CHECK(assigned("v bvsmod 8'd2", 0xF9) == 1);     // -7 mod 2 = 1
  CHECK(assigned("v bvashr 8'd1", 0x80) == 0xC0);
  CHECK(assigned("v bvlshr 8'd1", 0x80) == 0x40);
  CHECK(assigned("v bvrol 8'd4", 0x12) == 0x21);
  // Precedence (loosest first): bvor < bvxor < bvand < shifts < bvadd < bvmul < ++.
  CHECK(assigned("v bvor 8'd1 bvand 8'd2", 4) == 4);        // v | (1 & 2)
  CHECK(assigned("v bvand 8'd15 bvadd 8'd1", 0xFF) == 16);  // v & (15 + 1)
  CHECK(assigned("v bvadd 8'd2 bvmul 8'd3", 1) == 7);
  CHECK(assigned("w ++ w", 0, 0x3) == 0x33);
  CHECK(assigned("w bv_zero_extend bv[8]", 0, 0xF) == 0x0F);
  CHECK(assigned("w bv_sign_extend bv[8]", 0, 0xF) == 0xFF);
  CHECK(assigned("bvneg w bv_sign_extend bv[8]", 0, 1) == 0xFF);  // (bvneg w) extended
  CHECK(assigned("v[8:4] ++ v[4:0]", 0xA5) == 0xA5);
  CHECK(assigned("(if v bvslt 8'd0 then bvneg v else v)", 0x85) == 0x7B);  // |-123|
  CHECK(assigned("v bvudiv 8'd0", 9) == 255);
  CHECK(assigned("64'xFFFFFFFFFFFFFFFF bvadd 64'd2", 0, 0, "bv[64]") == 1);
}

TEST_CASE("cfa reader: a bv variable starts and is havocked inside its range") {
  const Cfa c = parse_cfa(
      "main process p {\n  var x : bv[4]\n  var i : int\n  init loc A\n  loc B\n"
      "  A -> B { havoc x }\n}\n",
      "t.cfa");
  // A new first edge (assume 0 <= x < 16), then havoc x and its assume.
  CHECK(c.name(c.initial_location()) != "A");
  std::vector<std::string> ops;
  for (auto e : c.edges()) ops.push_back(to_string(c.operation(e), c.exprs()));
  REQUIRE(ops.size() == 3);
  CHECK(std::count(ops.begin(), ops.end(), "assume 0 <= x and x < 16") == 2);
  CHECK(std::count(ops.begin(), ops.end(), "havoc x") == 1);
}

TEST_CASE("cfa reader: bit-vector type errors are reported at their position") {
  struct Bad {
    std::string stmt;
    std::size_t col;
    const char* message;
  };
  // Line 6 starts "  A -> B { ", so the statement starts at column 12.
  const std::vector<Bad> bad = {
      {"x := i", 17, "cannot assign a int expression to bv[8] variable 'x'"},
      {"x := w", 17, "cannot assign a bv[4] expression to bv[8] variable 'x'"},
      {"x := x bvadd w", 25, "operands of 'bvadd' have different widths (bv[8] and bv[4])"},
      {"x := x bvadd 1", 25, "'bvadd' expects bit-vector operands, got int"},
      {"i := x + 1", 17, "operator '+' expects int or bool operands, got bv[8]"},
      {"assume x < x", 19, "operator '<' expects int or bool operands, got bv[8]"},
      {"assume x = i", 23, "operands of '=' have different types (bv[8] and int)"},
      {"x := 4'd16 ++ w", 17, "bit-vector literal '4'd16' does not fit in 4 bits"},
      {"x := 8'd-129", 17, "does not fit in 8 bits"},
      {"x := 8'b102", 17, "digit '2' is not a base-2 digit"},
      {"x := 65'd0", 17,
       "unsupported bit-vector literal '65'd0' (precis reads bit-vectors of 1 to 64 bits)"},
      {"x := x[9:1]", 17, "extraction [9:1] outside the bits of bv[8] (0..7)"},
      {"x := x[2:2]", 18, "empty extraction [2:2]"},
      {"x := w bv_zero_extend bv[2]", 17, "'bv_zero_extend' to bv[2] from the wider bv[4]"},
      {"x := x bvadd x bvadd x", 17, ""},  // fine: no error (checked below)
  };
  for (const Bad& b : bad) {
    CAPTURE(b.stmt);
    const std::string text =
        "main process p {\n  var x : bv[8]\n  var w : bv[4]\n  var i : int\n  init loc A\n"
        "  A -> B { " +
        b.stmt + " }\n  loc B\n}\n";
    if (std::string(b.message).empty()) {
      CHECK_NOTHROW((void)parse_cfa(text, "t.cfa"));
      continue;
    }
    try {
      (void)parse_cfa(text, "t.cfa");
      FAIL("accepted");
    } catch (const input_error& e) {
      CHECK(e.position().line == 6);
      CHECK(e.position().column == b.col);
      CHECK(e.message().find(b.message) != std::string::npos);
    }
  }
  for (const char* type : {"bv[0]", "bv[65]"}) {
    CAPTURE(type);
    try {
      (void)parse_cfa(std::string("main process p {\n  var x : ") + type + "\n  init loc A\n}\n",
                      "t.cfa");
      FAIL("accepted");
    } catch (const input_error& e) {
      CHECK(e.position().line == 2);
      CHECK(e.position().column == 11);
      CHECK(e.message().find("precis reads bit-vectors of 1 to 64 bits") != std::string::npos);
    }
  }
}

}  // namespace bit_vector_test
