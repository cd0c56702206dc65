#pragma once
// Linear integer arithmetic, as the solver's complete procedures see it.
//
// cvc5's quantifier elimination and the Farkas LP are complete for linear arithmetic
// only; on a non-linear term (a product of two non-constants, a division by a
// non-constant) QE may run for ever (`exists a. a mod b > 2` did). So callers ask here
// first and decline what is not linear. A division or product by a ground term that
// evaluates to a constant counts as linear (cvc5 rewrites it so); a division by zero
// does not (SMT-LIB leaves x/0 unspecified, which cvc5 models with an uninterpreted
// function).

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "precis/expr/eval.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// Decides linearity node by node, remembering which subterms are ground (have no
// variables), so a whole DAG costs O(size): a product or divisor is evaluated only
// when it is ground, and ground subterms of programs are small.
class LinearityCheck {
 public:
  // One node is non-linear: a product with two or more non-constant factors, a
  // division / mod / rem whose divisor is not a non-zero constant, or a bit operation
  // (iand, pow2) that is not ground, or an array term, or any floating-point term
  // (IEEE arithmetic is no linear arithmetic: no QE, no Farkas over it).
  bool nonlinear_node(Term t) {
    if (is_float_op(t.op()) || is_float(t.type())) return true;
    switch (t.op()) {
      case Op::Mul: {
        std::size_t non_constant = 0;
        for (std::size_t i = 0; i < t.num_args(); ++i)
          if (!constant(t.arg(i))) ++non_constant;
        return non_constant > 1;
      }
      case Op::Div:
      case Op::Mod:
      case Op::Rem: {
        // 2^k for a constant k >= 0 (2^64 of the C front end's 64-bit wrap-around) is a
        // non-zero constant even where it leaves int64.
        const Term d = t.arg(1);
        if (constant_pow2_exponent(d)) return false;
        const OptValue c = constant(d);
        return !c || *c == 0;
      }
      // Bit operations are outside linear arithmetic unless they fold to a constant.
      case Op::BitAnd: return !constant(t);
      case Op::Pow2: return !constant(t.arg(0));
      // Arrays are outside linear arithmetic too: no QE, no Farkas over them.
      case Op::Select:
      case Op::Store:
      case Op::ConstArray: return true;
      case Op::Eq:
      case Op::Neq: return t.arg(0).type() == Type::Array || is_float(t.arg(0).type());
      default: return false;
    }
  }

  // No node of the DAG is non-linear. Iterative (terms may be deep).
  bool linear(Term t) {
    bool ok = true;
    for_each_subterm(t, [&](Term x) { return ok = !nonlinear_node(x); });
    return ok;
  }

  // The value of a ground integer term; nullopt if it has variables (or overflows).
  OptValue constant(Term t) {
    if (t.op() == Op::IntConst) return t.value();
    if (!ground(t)) return std::nullopt;
    return evaluate(t, EmptyValuation{});
  }

  bool ground(Term t) {
    // Post-order without recursion: a node is ground when all its operands are.
    std::vector<std::pair<Term, bool>> stack{{t, false}};
    while (!stack.empty()) {
      auto [x, expanded] = stack.back();
      stack.pop_back();
      if (ground_.count(x) != 0) continue;
      if (x.is_var()) {
        ground_.emplace(x, false);
        continue;
      }
      if (!expanded) {
        stack.emplace_back(x, true);
        for (std::size_t i = 0; i < x.num_args(); ++i)
          if (ground_.count(x.arg(i)) == 0) stack.emplace_back(x.arg(i), false);
        continue;
      }
      bool g = true;
      for (std::size_t i = 0; i < x.num_args() && g; ++i) g = ground_.at(x.arg(i));
      ground_.emplace(x, g);
    }
    return ground_.at(t);
  }

 private:
  std::unordered_map<Term, bool, TermHash> ground_;
};

inline bool is_nonlinear_node(Term t) { return LinearityCheck{}.nonlinear_node(t); }
inline bool is_linear(Term t) { return LinearityCheck{}.linear(t); }

// Linear arithmetic over array atoms (C arrays): the array subterms of t that
// quantifier elimination may treat as opaque integer (or Boolean) constants, namely the
// maximal Select terms and array equalities, which must mention none of `bound` (sorted).
// exists x. phi(x, s) is (exists x. phi(x, y))[y := s] for such a term s. nullopt when
// an array term mentions a bound variable or t is non-linear elsewhere.
inline std::optional<std::vector<Term>> array_atoms(Term t, std::span<const VarId> bound) {
  LinearityCheck lin;
  std::vector<Term> atoms;
  std::vector<Term> stack{t};
  std::unordered_set<Term, TermHash> seen;
  std::vector<VarId> vars;
  while (!stack.empty()) {
    const Term x = stack.back();
    stack.pop_back();
    if (!seen.insert(x).second) continue;
    const bool array_atom = x.op() == Op::Select || ((x.op() == Op::Eq || x.op() == Op::Neq) &&
                                                     x.arg(0).type() == Type::Array);
    if (array_atom) {
      vars.clear();
      collect_vars(x, vars);
      for (VarId v : vars)
        if (std::binary_search(bound.begin(), bound.end(), v)) return std::nullopt;
      atoms.push_back(x);
      continue;
    }
    if (lin.nonlinear_node(x)) return std::nullopt;
    for (std::size_t i = 0; i < x.num_args(); ++i) stack.push_back(x.arg(i));
  }
  return atoms;
}

// Number of distinct nodes of the term DAG, counting at most `limit` (0: no limit), so
// that a size bound on a huge term costs O(limit).
inline std::size_t dag_size(Term t, std::size_t limit = 0) {
  std::size_t n = 0;
  for_each_subterm(t, [&](Term) {
    ++n;
    return limit == 0 || n < limit;
  });
  return n;
}

}  // namespace precis
