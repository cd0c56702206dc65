// Encodings of integer bit-and for cvc5, measured on the query that a C
// program's `x & (x - 1) == 0` gives: precis's bit expansion (smt/cvc5_solver.hpp,
// bit_and_term) against cvc5's own IAND, int2bv/bv2nat, and an expansion with independent
// div/mod per bit; with and without unsat cores, and in a pushed frame.
//
//   build/dev/bench/precis_iand_encodings [limit_ms]       (default 10000 per query)
//
// Prints one row per (encoding, width, query, mode): the answer and the seconds; "unknown"
// is the time limit. Results: bench/README.md "Bit operations".

#include <cvc5/cvc5.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using cvc5::Kind;
using cvc5::Solver;
using cvc5::Term;

using Encoding = std::function<Term(Solver&, const Term&, const Term&, unsigned)>;

Term pow2(Solver& s, unsigned i) { return s.mkInteger(std::int64_t{1} << i); }

Term native(Solver& s, const Term& a, const Term& b, unsigned k) {
  return s.mkTerm(s.mkOp(Kind::IAND, {k}), {a, b});
}
Term int2bv(Solver& s, const Term& a, const Term& b, unsigned k) {
  const cvc5::Op to_bv = s.mkOp(Kind::INT_TO_BITVECTOR, {k});
  return s.mkTerm(Kind::BITVECTOR_TO_NAT,
                  {s.mkTerm(Kind::BITVECTOR_AND, {s.mkTerm(to_bv, {a}), s.mkTerm(to_bv, {b})})});
}
// Bit i of a as (a div 2^i) mod 2 = 1, each bit on its own.
Term independent(Solver& s, const Term& a, const Term& b, unsigned k) {
  auto bit = [&](const Term& v, unsigned i) {
    return s.mkTerm(Kind::EQUAL,
                    {s.mkTerm(Kind::INTS_MODULUS,
                              {s.mkTerm(Kind::INTS_DIVISION, {v, pow2(s, i)}), s.mkInteger(2)}),
                     s.mkInteger(1)});
  };
  std::vector<Term> sum;
  for (unsigned i = 0; i < k; ++i)
    sum.push_back(s.mkTerm(
        Kind::ITE, {s.mkTerm(Kind::AND, {bit(a, i), bit(b, i)}), pow2(s, i), s.mkInteger(0)}));
  return s.mkTerm(Kind::ADD, sum);
}
// precis: r_0 = a mod 2^k, r_{i+1} = r_i div 2, bit i = r_i mod 2 = 1.
Term chained(Solver& s, const Term& a, const Term& b, unsigned k) {
  auto bits = [&](const Term& v) {
    std::vector<Term> out;
    Term r = s.mkTerm(Kind::INTS_MODULUS, {v, pow2(s, k)});
    for (unsigned i = 0; i < k; ++i) {
      out.push_back(s.mkTerm(Kind::EQUAL,
                             {s.mkTerm(Kind::INTS_MODULUS, {r, s.mkInteger(2)}), s.mkInteger(1)}));
      r = s.mkTerm(Kind::INTS_DIVISION, {r, s.mkInteger(2)});
    }
    return out;
  };
  const auto ba = bits(a), bb = bits(b);
  std::vector<Term> sum;
  for (unsigned i = 0; i < k; ++i)
    sum.push_back(
        s.mkTerm(Kind::ITE, {s.mkTerm(Kind::AND, {ba[i], bb[i]}), pow2(s, i), s.mkInteger(0)}));
  return s.mkTerm(Kind::ADD, sum);
}

// x & (x - 1) = 0 with 1 < x < 2^(k-1), and x odd (unsat) or 2^(k-2) - 24 < x < 2^(k-2) + 24
// (sat: x = 2^(k-2)).
std::pair<std::string, double> run(const Encoding& enc, unsigned k, bool sat,
                                   const std::string& mode, unsigned limit_ms) {
  Solver s;
  s.setLogic("ALL");
  s.setOption("produce-models", "true");
  s.setOption("tlimit-per", std::to_string(limit_ms));
  if (mode == "cores") s.setOption("produce-unsat-cores", "true");
  if (mode == "push") s.setOption("incremental", "true");
  const Term x = s.mkConst(s.getIntegerSort(), "x");
  const Term clears = s.mkTerm(
      Kind::EQUAL, {enc(s, x, s.mkTerm(Kind::SUB, {x, s.mkInteger(1)}), k), s.mkInteger(0)});
  if (mode == "push") s.push();
  s.assertFormula(clears);
  s.assertFormula(s.mkTerm(Kind::GT, {x, s.mkInteger(1)}));
  s.assertFormula(s.mkTerm(Kind::LT, {x, pow2(s, k - 1)}));
  if (sat) {
    s.assertFormula(s.mkTerm(Kind::GT, {x, s.mkInteger((std::int64_t{1} << (k - 2)) - 24)}));
    s.assertFormula(s.mkTerm(Kind::LT, {x, s.mkInteger((std::int64_t{1} << (k - 2)) + 24)}));
  } else {
    s.assertFormula(
        s.mkTerm(Kind::EQUAL, {s.mkTerm(Kind::INTS_MODULUS, {x, s.mkInteger(2)}), s.mkInteger(1)}));
  }
  const auto t0 = std::chrono::steady_clock::now();
  const cvc5::Result r = s.checkSat();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {r.isSat() ? "sat" : r.isUnsat() ? "unsat" : "unknown", secs};
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned limit_ms = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 10000;
  const std::vector<std::pair<std::string, Encoding>> encodings = {{"chained (precis)", chained},
                                                                   {"independent", independent},
                                                                   {"iand", native},
                                                                   {"int2bv", int2bv}};
  std::printf("%-18s %5s %-6s %-6s %-8s %8s\n", "encoding", "width", "query", "mode", "answer",
              "seconds");
  for (const auto& [name, enc] : encodings)
    for (unsigned k : {8U, 16U, 32U})
      for (bool sat : {true, false})
        for (const char* mode : {"plain", "push", "cores"}) {
          const auto [answer, secs] = run(enc, k, sat, mode, limit_ms);
          std::printf("%-18s %5u %-6s %-6s %-8s %8.3f\n", name.c_str(), k, sat ? "sat" : "unsat",
                      mode, answer.c_str(), secs);
          std::fflush(stdout);
        }
  return 0;
}
