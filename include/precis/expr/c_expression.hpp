#pragma once
// Between precis terms and C expressions, for SV-COMP witnesses.
//
// - to_c_expression prints a term as a side-effect-free C expression with the same value,
//   or gives up (std::nullopt) when that is not possible exactly: a variable without a C
//   name, or an operator whose precis meaning C has no direct counterpart for (see below).
// - weaken_to_c drops what cannot be printed from a formula, keeping a formula that the
//   input implies (a sound weakening for invariants).
// - parse_c_expression reads the C expression subset that witnesses use (assumptions such
//   as `x == 5`, `\result == -3`, invariants such as `0 <= i && i <= n`) into a Bool term.
//
// Both directions read C's integer operators over the mathematical integers, which is what
// precis terms are. This is exact as long as no C operation overflows its type, which is
// what a C front end that encodes wrap-around explicitly guarantees for the values it
// produces; the printer writes constants beyond the 32-bit int range with an `LL` suffix
// so that the literals themselves keep their value on every data model.
//
// Division. precis' Div and Mod are Euclidean (0 <= mod(a, b) < |b|, see term.hpp); C's `/`
// truncates toward zero and `%` takes the sign of the dividend. They agree when the
// dividend is non-negative. The printer therefore writes Div/Mod directly as `/`, `%` when
// the dividend is a non-negative constant; as the exact case split the C front end (and
// parse_c_expression) produce for C's operators, `ite(a >= 0, a div b, -((-a) div b))`,
// which is printed back as `a / b` (likewise for `%`); and, for a constant divisor c other
// than 0, with an overflow-free correction (`a % |c| < 0 ? a % |c| + |c| : a % |c|` for
// mod). Any other Div or Mod (a variable divisor and dividend) has no exact printing and
// gives std::nullopt. Rem (mod(a, b) for b >= 0, -mod(a, b) otherwise) is printed only
// for a constant non-zero divisor, through mod. The bit operations iand and pow2 are not
// printed.
//
// Booleans. A Bool term prints as a C condition (an int that is 0 or 1 for comparisons
// and connectives). Where a Boolean is used as a value (=, /= between Booleans, iff, xor)
// it is normalised with `!` (`!a == !b`), so a Bool variable may be named by any C
// expression whose truth value is meant, not only by a _Bool.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/eval.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/floating_point.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// The C name of a variable, or std::nullopt if it has none (a CFA temporary, an SSA copy).
using CVariableNamer = std::function<std::optional<std::string>(VarId)>;
// The variable a C identifier denotes, or std::nullopt if it is unknown.
using CIdentifierResolver = std::function<std::optional<VarId>(std::string_view)>;

namespace detail::cexpr {

// C operator precedences, higher binds tighter.
enum Prec : int {
  kConditional = 3,
  kLogicalOr = 4,
  kLogicalAnd = 5,
  kEquality = 9,
  kRelational = 10,
  kAdditive = 12,
  kMultiplicative = 13,
  kUnary = 14,
  kPrimary = 15,
};

struct Printed {
  std::string text;
  int prec = kPrimary;
};

// Whether `child` needs parentheses as an operand of a binary operator of precedence
// `parent` (left operand unless `right`). Beyond C's rules, comparisons are never chained
// and `&&` inside `||` is parenthesised, for the reader's sake.
inline bool needs_parens(const Printed& child, int parent, bool right) {
  if (child.prec >= kUnary) return false;
  if (child.prec < parent) return true;
  if (child.prec == parent) return right || parent == kRelational || parent == kEquality;
  if (parent == kEquality && child.prec == kRelational) return true;
  if (parent == kLogicalOr && child.prec == kLogicalAnd) return true;
  return false;
}

inline std::string operand(const Printed& child, int parent, bool right) {
  return needs_parens(child, parent, right) ? "(" + child.text + ")" : child.text;
}

// Operand of a prefix operator: parenthesised unless unary or primary, and when it starts
// with a sign (`- -x` must not become `--x`).
inline std::string unary_operand(const Printed& child) {
  if (child.prec < kUnary || child.text.starts_with('-') || child.text.starts_with('+'))
    return "(" + child.text + ")";
  return child.text;
}

inline Printed int_literal(std::int64_t v) {
  if (v == std::numeric_limits<std::int64_t>::min())
    return {"(-9223372036854775807LL - 1)", kPrimary};
  const std::uint64_t mag = v < 0 ? static_cast<std::uint64_t>(-v) : static_cast<std::uint64_t>(v);
  std::string s = std::to_string(mag);
  if (mag > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) s += "LL";
  if (v < 0) return {"-" + s, kUnary};
  return {s, kPrimary};
}

class Printer {
 public:
  explicit Printer(const CVariableNamer& name) : name_(name) {}

  std::optional<Printed> print(Term t) {
    if (auto it = memo_.find(t); it != memo_.end()) return it->second;
    std::optional<Printed> p = compute(t);
    memo_.emplace(t, p);
    return p;
  }

 private:
  using OptP = std::optional<Printed>;

  OptP binary(Term a, const char* op, Term b, int prec) {
    auto x = print(a);
    if (!x) return std::nullopt;
    auto y = print(b);
    if (!y) return std::nullopt;
    return Printed{operand(*x, prec, false) + " " + op + " " + operand(*y, prec, true), prec};
  }
  OptP nary(Term t, const char* op, int prec) {
    std::string s;
    for (std::size_t i = 0; i < t.num_args(); ++i) {
      auto x = print(t.arg(i));
      if (!x) return std::nullopt;
      if (i > 0) s += std::string(" ") + op + " ";
      s += operand(*x, prec, i > 0);
    }
    return Printed{s, prec};
  }
  // A Boolean used as a value: `!a` is 0 or 1 whatever C value `a` has.
  OptP bool_value(Term a) {
    auto x = print(a);
    if (!x) return std::nullopt;
    return Printed{"!" + unary_operand(*x), kUnary};
  }
  OptP bool_compare(Term a, const char* op, Term b) {
    auto x = bool_value(a);
    if (!x) return std::nullopt;
    auto y = bool_value(b);
    if (!y) return std::nullopt;
    return Printed{x->text + " " + op + " " + y->text, kEquality};
  }

  // C's `/` or `%` of a and b, for cases where it equals the precis operator.
  OptP c_divmod(Term a, Term b, bool is_div) {
    return binary(a, is_div ? "/" : "%", b, kMultiplicative);
  }
  static bool is_const_nonneg(Term t) { return t.op() == Op::IntConst && t.value() >= 0; }
  static bool usable_divisor(Term b) {
    return b.op() == Op::IntConst && b.value() != 0 &&
           b.value() != std::numeric_limits<std::int64_t>::min();
  }
  // Euclidean mod(a, c) for a constant c != 0 (C's a % c equals a % |c|), overflow-free.
  OptP euclid_mod_const(Term a, Term c) {
    auto x = print(a);
    if (!x) return std::nullopt;
    const std::int64_t m = c.value() < 0 ? -c.value() : c.value();
    const std::string ms = int_literal(m).text;
    const std::string r = operand(*x, kMultiplicative, false) + " % " + ms;
    return Printed{"(" + r + " < 0 ? " + r + " + " + ms + " : " + r + ")", kPrimary};
  }
  // Euclidean div(a, c) for a constant c != 0: C's quotient, corrected by one when C's
  // remainder is negative (down for c > 0, up for c < 0). Never overflows.
  OptP euclid_div_const(Term a, Term c) {
    auto x = print(a);
    if (!x) return std::nullopt;
    const std::string as = operand(*x, kMultiplicative, false);
    const std::string cs = operand(int_literal(c.value()), kMultiplicative, true);
    return Printed{
        as + " / " + cs + (c.value() > 0 ? " - " : " + ") + "(" + as + " % " + cs + " < 0)",
        kAdditive};
  }

  // ite(a >= 0, a op b, -((-a) op b)): C's truncating `/` or `%` (op = Div or Mod).
  static bool is_c_division(Term t, Op op) {
    if (t.op() != Op::Ite) return false;
    const Term c = t.arg(0), pos = t.arg(1), neg = t.arg(2);
    if (c.op() != Op::Ge || c.arg(1).op() != Op::IntConst || c.arg(1).value() != 0) return false;
    const Term a = c.arg(0);
    if (pos.op() != op || pos.arg(0) != a) return false;
    const Term b = pos.arg(1);
    if (neg.op() != Op::Neg) return false;
    const Term inner = neg.arg(0);
    return inner.op() == op && inner.arg(1) == b && inner.arg(0).op() == Op::Neg &&
           inner.arg(0).arg(0) == a;
  }

  OptP compute(Term t) {
    switch (t.op()) {
      case Op::Var: {
        if (t.type() == Type::Array) return std::nullopt;  // no C value: see Select below
        auto n = name_(t.var());
        if (!n || n->empty()) return std::nullopt;
        return Printed{*n, kPrimary};
      }
      case Op::IntConst: return int_literal(t.value());
      case Op::BoolConst: return Printed{t.value() != 0 ? "1" : "0", kPrimary};
      case Op::Not: {
        auto x = print(t.arg(0));
        if (!x) return std::nullopt;
        return Printed{"!" + unary_operand(*x), kUnary};
      }
      case Op::And: return nary(t, "&&", kLogicalAnd);
      case Op::Or: return nary(t, "||", kLogicalOr);
      case Op::Imply: {
        auto x = bool_value(t.arg(0));
        if (!x) return std::nullopt;
        auto y = print(t.arg(1));
        if (!y) return std::nullopt;
        return Printed{x->text + " || " + operand(*y, kLogicalOr, true), kLogicalOr};
      }
      case Op::Iff: return bool_compare(t.arg(0), "==", t.arg(1));
      case Op::Xor: return bool_compare(t.arg(0), "!=", t.arg(1));
      case Op::Eq:
        if (t.arg(0).is_bool()) return bool_compare(t.arg(0), "==", t.arg(1));
        if (is_float(t.arg(0).type())) return std::nullopt;  // identity, not C's == (NaN, -0)
        return binary(t.arg(0), "==", t.arg(1), kEquality);
      case Op::Neq:
        if (t.arg(0).is_bool()) return bool_compare(t.arg(0), "!=", t.arg(1));
        if (is_float(t.arg(0).type())) return std::nullopt;
        return binary(t.arg(0), "!=", t.arg(1), kEquality);
      case Op::Lt: return binary(t.arg(0), "<", t.arg(1), kRelational);
      case Op::Le: return binary(t.arg(0), "<=", t.arg(1), kRelational);
      case Op::Gt: return binary(t.arg(0), ">", t.arg(1), kRelational);
      case Op::Ge: return binary(t.arg(0), ">=", t.arg(1), kRelational);
      case Op::Add: return nary(t, "+", kAdditive);
      case Op::Mul: return nary(t, "*", kMultiplicative);
      case Op::Sub: return binary(t.arg(0), "-", t.arg(1), kAdditive);
      case Op::Neg: {
        auto x = print(t.arg(0));
        if (!x) return std::nullopt;
        return Printed{"-" + unary_operand(*x), kUnary};
      }
      case Op::Div:
        if (is_const_nonneg(t.arg(0)) && !(t.arg(1).is_const() && t.arg(1).value() == 0))
          return c_divmod(t.arg(0), t.arg(1), true);
        if (usable_divisor(t.arg(1))) return euclid_div_const(t.arg(0), t.arg(1));
        return std::nullopt;
      case Op::Mod:
        if (is_const_nonneg(t.arg(0)) && !(t.arg(1).is_const() && t.arg(1).value() == 0))
          return c_divmod(t.arg(0), t.arg(1), false);
        if (usable_divisor(t.arg(1))) return euclid_mod_const(t.arg(0), t.arg(1));
        return std::nullopt;
      case Op::Rem: {
        if (!usable_divisor(t.arg(1))) return std::nullopt;
        auto m = euclid_mod_const(t.arg(0), t.arg(1));
        if (!m || t.arg(1).value() > 0) return m;
        return Printed{"-" + unary_operand(*m), kUnary};
      }
      case Op::Ite: {
        if (is_c_division(t, Op::Div)) return c_divmod(t.arg(1).arg(0), t.arg(1).arg(1), true);
        if (is_c_division(t, Op::Mod)) return c_divmod(t.arg(1).arg(0), t.arg(1).arg(1), false);
        auto c = print(t.arg(0));
        if (!c) return std::nullopt;
        auto x = print(t.arg(1));
        if (!x) return std::nullopt;
        auto y = print(t.arg(2));
        if (!y) return std::nullopt;
        return Printed{"(" + operand(*c, kConditional, true) + " ? " + x->text + " : " +
                           operand(*y, kConditional, false) + ")",
                       kPrimary};
      }
      // Bit operations read their operands modulo 2^k, over mathematical integers; a C
      // `&` works on the operands' types. Not printed (weaken_to_c drops them).
      case Op::BitAnd:
      case Op::Pow2: return std::nullopt;
      // An array cell a[i] is C only where i is in the array's bounds, which a witness
      // invariant cannot promise; array terms are not printed.
      case Op::Select:
      case Op::Store:
      case Op::ConstArray: return std::nullopt;
      // Floating point: C's operators on float and double are IEEE's, one rounding each
      // (FLT_EVAL_METHOD 0), so these print exactly; a constant as its shortest literal.
      case Op::FpConst: {
        const std::string lit = fp::c_literal(t.type(), t.value());
        return Printed{lit, lit[0] == '-' ? kUnary : kPrimary};
      }
      case Op::FpAdd: return binary(t.arg(0), "+", t.arg(1), kAdditive);
      case Op::FpSub: return binary(t.arg(0), "-", t.arg(1), kAdditive);
      case Op::FpMul: return binary(t.arg(0), "*", t.arg(1), kMultiplicative);
      case Op::FpDiv: return binary(t.arg(0), "/", t.arg(1), kMultiplicative);
      case Op::FpLt: return binary(t.arg(0), "<", t.arg(1), kRelational);
      case Op::FpLe: return binary(t.arg(0), "<=", t.arg(1), kRelational);
      case Op::FpEq: return binary(t.arg(0), "==", t.arg(1), kEquality);
      case Op::FpIsNan: return binary(t.arg(0), "!=", t.arg(0), kEquality);  // NaN only
      case Op::FpNeg: {
        auto x = print(t.arg(0));
        if (!x) return std::nullopt;
        return Printed{"-" + unary_operand(*x), kUnary};
      }
      case Op::FpToFp:
      case Op::IntToFp: {
        auto x = print(t.arg(0));
        if (!x) return std::nullopt;
        return Printed{
            std::string(t.type() == Type::Float32 ? "(float)" : "(double)") + unary_operand(*x),
            kUnary};
      }
      // No operator of C without <math.h> (fabs, sqrt, floor, ...) or with another value
      // (C's conversion to an integer is undefined where fp.to_int is 0).
      case Op::FpAbs:
      case Op::FpSqrt:
      case Op::FpRound:
      case Op::FpIsInf:
      case Op::FpIsZero:
      case Op::FpIsSubnormal:
      case Op::FpIsNormal:
      case Op::FpIsNeg:
      case Op::FpToInt: return std::nullopt;
    }
    return std::nullopt;
  }

  const CVariableNamer& name_;
  std::unordered_map<Term, std::optional<Printed>, TermHash> memo_;
};

}  // namespace detail::cexpr

// `t` as a C expression over the names `name` gives, fully parenthesised where C's
// precedences (or readability: no chained comparisons, `&&` inside `||`) need it. A Bool
// term becomes a C condition. std::nullopt when a variable has no name or an operator has
// no exact C counterpart (see the top of this file).
inline std::optional<std::string> to_c_expression(Term t, const ExprManager& /*em*/,
                                                  const CVariableNamer& name) {
  detail::cexpr::Printer p(name);
  auto r = p.print(t);
  if (!r) return std::nullopt;
  return std::move(r->text);
}

// A formula that `t` implies and that to_c_expression can print: `t` itself if it can be
// printed; for a conjunction, the conjunction of the weakened conjuncts (those that weaken
// to true are dropped); for a disjunction, true as soon as one disjunct weakens to true,
// else the disjunction of the weakened disjuncts; for an implication a => b with a
// printable, (not a) or weaken(b); anything else that cannot be printed becomes true.
// Since each step only replaces a subformula in a positive position by one it implies,
// `t` implies the result, so an invariant stays an invariant (it may stop being
// inductive: a validator checks the weakened one).
inline Term weaken_to_c(Term t, ExprManager& em, const CVariableNamer& name) {
  if (!t.is_bool()) throw type_error("weaken_to_c expects a Bool term");
  if (to_c_expression(t, em, name)) return t;
  auto is_true = [](Term x) { return x.op() == Op::BoolConst && x.value() != 0; };
  switch (t.op()) {
    case Op::And: {
      std::vector<Term> kept;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        Term w = weaken_to_c(t.arg(i), em, name);
        if (!is_true(w)) kept.push_back(w);
      }
      return em.conj(kept);
    }
    case Op::Or: {
      std::vector<Term> kept;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        Term w = weaken_to_c(t.arg(i), em, name);
        if (is_true(w)) return em.true_();
        kept.push_back(w);
      }
      return em.disj(kept);
    }
    case Op::Imply: {
      if (!to_c_expression(t.arg(0), em, name)) return em.true_();
      Term w = weaken_to_c(t.arg(1), em, name);
      if (is_true(w)) return w;
      return em.or_(em.not_(t.arg(0)), w);
    }
    default: return em.true_();
  }
}

namespace detail::cexpr {

// Recursive-descent parser of the C expression subset (see parse_c_expression).
class Parser {
 public:
  Parser(std::string_view text, ExprManager& em, const CIdentifierResolver& resolve,
         const std::string& origin)
      : text_(text), em_(em), resolve_(resolve), origin_(origin) {
    next();
  }

  // One expression, then the end of the text.
  Term whole_expression() {
    Term t = as_bool(expression());
    if (tok_.kind != Tok::End) unexpected("after the expression");
    return t;
  }

  // Expressions separated (and optionally terminated) by ';', conjoined.
  Term assumption_list() {
    std::vector<Term> parts;
    while (tok_.kind != Tok::End) {
      if (is_punct(";")) {
        next();
        continue;
      }
      parts.push_back(as_bool(expression()));
      if (tok_.kind != Tok::End && !is_punct(";")) unexpected("(expected ';' between assumptions)");
    }
    return em_.conj(parts);
  }

 private:
  enum class Tok { Int, Ident, Punct, End };
  struct Token {
    Tok kind = Tok::End;
    std::string text;
    std::int64_t value = 0;  // Int
    std::uint64_t big = 0;   // Int beyond 2^63 - 1 (value unused): up to 2^64 - 1
    std::size_t col = 0;     // 1-based column in text_
  };

  [[noreturn]] void fail(std::size_t col, const std::string& msg) const {
    throw input_error({origin_, 1, col}, msg);
  }

  static bool supported_punct(std::string_view p) {
    static constexpr std::string_view known[] = {
        "(", ")", "?",  ":",  "!",  "+",  "-",  "*",  "/", "%",
        "<", ">", "<=", ">=", "==", "!=", "&&", "||", ";"};
    for (std::string_view k : known)
      if (p == k) return true;
    return false;
  }

  // The current token cannot continue the expression: an unsupported operator, or
  // something out of place.
  [[noreturn]] void unexpected(const std::string& where) const {
    if (tok_.kind == Tok::Punct && !supported_punct(tok_.text))
      fail(tok_.col, "unsupported operator '" + tok_.text + "'");
    fail(tok_.col, "unexpected '" + tok_.text + "' " + where);
  }

  static bool ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  void next() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
    tok_ = Token{};
    tok_.col = pos_ + 1;
    if (pos_ >= text_.size()) {
      tok_.kind = Tok::End;
      tok_.text = "end of the expression";
      return;
    }
    const char c = text_[pos_];
    if (is_digit(c)) return lex_number();
    if (ident_start(c) || (c == '\\' && pos_ + 1 < text_.size() && ident_start(text_[pos_ + 1]))) {
      const std::size_t start = pos_++;
      while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
      tok_.kind = Tok::Ident;
      tok_.text = std::string(text_.substr(start, pos_ - start));
      return;
    }
    // Longest match first; the unsupported operators are lexed too, so that the error
    // names them (and `<<` is not read as two `<`).
    static constexpr std::string_view puncts[] = {
        "<<=", ">>=", "...", "&&", "||", "<=", ">=", "==", "!=", "<<", ">>", "++",
        "--",  "->",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^=", "(",  ")",
        "?",   ":",   "!",   "~",  "+",  "-",  "*",  "/",  "%",  "<",  ">",  "&",
        "|",   "^",   "=",   ",",  "[",  "]",  ".",  ";",  "{",  "}"};
    for (std::string_view p : puncts) {
      if (text_.substr(pos_, p.size()) == p) {
        tok_.kind = Tok::Punct;
        tok_.text = std::string(p);
        pos_ += p.size();
        return;
      }
    }
    fail(tok_.col, std::string("unexpected character '") + c + "'");
  }

  void lex_number() {
    const std::size_t start = pos_;
    unsigned base = 10;
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() &&
        (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X')) {
      base = 16;
      pos_ += 2;
    } else if (text_[pos_] == '0') {
      base = 8;  // "0" itself is octal zero
    }
    const std::size_t digits_start = pos_;
    std::uint64_t v = 0;
    bool too_big = false;
    while (pos_ < text_.size()) {
      const char d = text_[pos_];
      unsigned dv;
      if (d >= '0' && d <= '9')
        dv = static_cast<unsigned>(d - '0');
      else if (base == 16 && d >= 'a' && d <= 'f')
        dv = static_cast<unsigned>(d - 'a' + 10);
      else if (base == 16 && d >= 'A' && d <= 'F')
        dv = static_cast<unsigned>(d - 'A' + 10);
      else
        break;
      if (dv >= base) fail(pos_ + 1, "invalid digit in an octal literal");
      if (v > (std::numeric_limits<std::uint64_t>::max() - dv) / base) too_big = true;
      v = v * base + dv;
      ++pos_;
    }
    if (base == 16 && pos_ == digits_start) fail(start + 1, "hexadecimal literal without digits");
    // Suffix: u or U, and l, L, ll or LL, in either order.
    const std::size_t suffix_start = pos_;
    while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
    const std::string_view suffix = text_.substr(suffix_start, pos_ - suffix_start);
    if (!valid_suffix(suffix))
      fail(suffix_start + 1, "invalid integer literal suffix '" + std::string(suffix) + "'");
    if (too_big) fail(start + 1, "integer literal out of range (above 2^64 - 1)");
    tok_.kind = Tok::Int;
    tok_.text = std::string(text_.substr(start, pos_ - start));
    const bool beyond = v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    tok_.value = beyond ? 0 : static_cast<std::int64_t>(v);
    tok_.big = beyond ? v : 0;
  }

  static bool valid_suffix(std::string_view s) {
    int u = 0;
    int l = 0;
    std::size_t i = 0;
    while (i < s.size()) {
      if (s[i] == 'u' || s[i] == 'U') {
        ++u;
        ++i;
      } else if (s.substr(i, 2) == "ll" || s.substr(i, 2) == "LL") {
        ++l;
        i += 2;
      } else if (s[i] == 'l' || s[i] == 'L') {
        ++l;
        ++i;
      } else {
        return false;
      }
    }
    return u <= 1 && l <= 1;
  }

  bool is_punct(std::string_view p) const { return tok_.kind == Tok::Punct && tok_.text == p; }
  void expect(std::string_view p, const char* what) {
    if (!is_punct(p))
      fail(tok_.col, std::string("expected ") + what + ", found '" + tok_.text + "'");
    next();
  }

  // ---- term building: C's int/Boolean mixing, constant folding ------------------------
  Term fold(Term t) {
    if (t.num_args() == 0) return t;
    for (std::size_t i = 0; i < t.num_args(); ++i)
      if (!t.arg(i).is_const()) return t;
    auto v = evaluate(t, EmptyValuation{});
    if (!v) return t;
    return t.is_bool() ? em_.bool_val(*v != 0) : em_.int_val(*v);
  }
  Term mk(Op op, std::initializer_list<Term> args) { return fold(em_.mk(op, args)); }
  Term as_int(Term t) {
    if (!t.is_bool()) return t;
    if (t.is_const()) return em_.int_val(t.value());
    return em_.ite(t, em_.int_val(1), em_.int_val(0));
  }
  Term as_bool(Term t) {
    if (t.is_bool()) return t;
    if (t.is_const()) return em_.bool_val(t.value() != 0);
    // ite(c, 1, 0) != 0 is c.
    if (t.op() == Op::Ite && t.arg(1).op() == Op::IntConst && t.arg(2).op() == Op::IntConst &&
        t.arg(1).value() == 1 && t.arg(2).value() == 0)
      return t.arg(0);
    return em_.neq(t, em_.int_val(0));
  }
  Term lnot(Term b) {
    if (b.is_const()) return em_.bool_val(b.value() == 0);
    switch (b.op()) {
      case Op::Eq:
      case Op::Neq:
        if (b.arg(0).is_bool()) break;  // Booleans: keep `not (a = b)`
        [[fallthrough]];
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge: return em_.mk(negate_comparison(b.op()), {b.arg(0), b.arg(1)});
      case Op::Not: return b.arg(0);
      default: break;
    }
    return em_.not_(b);
  }
  // C's truncating `/` (is_div) or `%`, exactly, from the Euclidean Div / Mod: they agree
  // for a non-negative dividend, and C's result for a < 0 is -((-a) op b).
  Term c_divmod(Term a, Term b, bool is_div) {
    const Op op = is_div ? Op::Div : Op::Mod;
    if (a.is_const() && a.value() >= 0) return mk(op, {a, b});
    if (a.is_const()) return mk(Op::Neg, {mk(op, {mk(Op::Neg, {a}), b})});
    return em_.ite(em_.ge(a, em_.int_val(0)), em_.mk(op, {a, b}),
                   em_.neg(em_.mk(op, {em_.neg(a), b})));
  }

  // ---- grammar -----------------------------------------------------------------------
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& q) : p(q) {
      if (++p.depth_ > kMaxNesting) p.fail(p.tok_.col, "expression nested too deeply");
    }
    ~DepthGuard() { --p.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };
  static constexpr int kMaxNesting = 256;  // 10 frames a level: safe under ASan too

  Term expression() {
    DepthGuard guard(*this);
    const std::size_t col = tok_.col;
    try {
      return conditional();
    } catch (const limit_reached&) {
      fail(col, "expression nested too deeply");
    }
  }

  Term conditional() {
    Term c = logical_or();
    if (!is_punct("?")) return c;
    next();
    Term a = expression();
    expect(":", "':' of the conditional operator");
    Term b = conditional();
    Term cond = as_bool(c);
    if (a.is_bool() && b.is_bool()) return fold(em_.ite(cond, a, b));
    return fold(em_.ite(cond, as_int(a), as_int(b)));
  }

  Term logical_or() {
    Term l = logical_and();
    while (is_punct("||")) {
      next();
      Term r = logical_and();
      l = mk(Op::Or, {as_bool(l), as_bool(r)});
    }
    return l;
  }

  Term logical_and() {
    Term l = equality();
    while (is_punct("&&")) {
      next();
      Term r = equality();
      l = mk(Op::And, {as_bool(l), as_bool(r)});
    }
    return l;
  }

  Term equality() {
    Term l = relational();
    while (is_punct("==") || is_punct("!=")) {
      const Op op = tok_.text == "==" ? Op::Eq : Op::Neq;
      next();
      Term r = relational();
      if (l.is_bool() && r.is_bool())
        l = mk(op, {l, r});
      else
        l = mk(op, {as_int(l), as_int(r)});
    }
    return l;
  }

  Term relational() {
    Term l = additive();
    for (;;) {
      Op op;
      if (is_punct("<"))
        op = Op::Lt;
      else if (is_punct("<="))
        op = Op::Le;
      else if (is_punct(">"))
        op = Op::Gt;
      else if (is_punct(">="))
        op = Op::Ge;
      else
        return l;
      next();
      Term r = additive();
      l = mk(op, {as_int(l), as_int(r)});
    }
  }

  Term additive() {
    Term l = multiplicative();
    while (is_punct("+") || is_punct("-")) {
      const Op op = tok_.text == "+" ? Op::Add : Op::Sub;
      next();
      Term r = multiplicative();
      l = mk(op, {as_int(l), as_int(r)});
    }
    return l;
  }

  Term multiplicative() {
    Term l = unary();
    while (is_punct("*") || is_punct("/") || is_punct("%")) {
      const std::string op = tok_.text;
      next();
      Term r = as_int(unary());
      if (op == "*")
        l = mk(Op::Mul, {as_int(l), r});
      else
        l = c_divmod(as_int(l), r, op == "/");
    }
    return l;
  }

  static bool is_type_word(std::string_view w) {
    return w == "int" || w == "long" || w == "short" || w == "char" || w == "signed" ||
           w == "unsigned" || w == "_Bool";
  }

  Term unary() {
    DepthGuard guard(*this);
    if (is_punct("-")) {
      next();
      return mk(Op::Neg, {as_int(unary())});
    }
    if (is_punct("+")) {
      next();
      return as_int(unary());
    }
    if (is_punct("!")) {
      next();
      return lnot(as_bool(unary()));
    }
    if (is_punct("(")) {
      // A cast if a type name follows: look ahead without consuming.
      const std::size_t save_pos = pos_;
      const Token save_tok = tok_;
      next();
      if (tok_.kind == Tok::Ident && is_type_word(tok_.text)) return cast(save_tok.col);
      pos_ = save_pos;
      tok_ = save_tok;
    }
    return primary();
  }

  // After "(" with the current token the first type word: the type, ")", the operand.
  // Casts to signed integer types are read as the identity (exact for in-range values,
  // which is what witnesses write: widening casts such as `(long long)x`); casts to
  // unsigned types change values modulo 2^N on a data model this parser does not know,
  // so they are refused; `(_Bool)e` is e != 0 as an int.
  Term cast(std::size_t col) {
    int n_long = 0, n_short = 0, n_char = 0, n_int = 0, n_signed = 0, n_unsigned = 0, n_bool = 0;
    std::string type;
    while (tok_.kind == Tok::Ident && is_type_word(tok_.text)) {
      const std::string& w = tok_.text;
      n_long += w == "long";
      n_short += w == "short";
      n_char += w == "char";
      n_int += w == "int";
      n_signed += w == "signed";
      n_unsigned += w == "unsigned";
      n_bool += w == "_Bool";
      type += (type.empty() ? "" : " ") + w;
      next();
    }
    if (!is_punct(")")) fail(tok_.col, "expected ')' after the type name '" + type + "'");
    next();
    const bool valid =
        n_long <= 2 && n_short <= 1 && n_char <= 1 && n_int <= 1 && n_signed + n_unsigned <= 1 &&
        (n_short == 0 || n_long == 0) && (n_char == 0 || n_short + n_long + n_int == 0) &&
        (n_bool == 0 || n_long + n_short + n_char + n_int + n_signed + n_unsigned + n_bool == 1);
    if (!valid) fail(col, "invalid type name '" + type + "' in a cast");
    if (n_unsigned > 0) fail(col, "a cast to the unsigned type '" + type + "' is not supported");
    Term x = unary();
    if (n_bool > 0) return as_int(as_bool(x));
    return as_int(x);
  }

  Term primary() {
    if (tok_.kind == Tok::Int) {
      // 2^63 .. 2^64 - 1 (a 64-bit unsigned value, e.g. 18446744073709551615ULL) as pow2 terms.
      Term t = tok_.big != 0 ? big_int_term(em_, BigInt(tok_.big)) : em_.int_val(tok_.value);
      next();
      return t;
    }
    if (tok_.kind == Tok::Ident) {
      if (is_type_word(tok_.text) || tok_.text == "sizeof")
        fail(tok_.col, "unsupported use of '" + tok_.text + "'");
      const std::size_t col = tok_.col;
      std::string path = tok_.text;
      next();
      if (is_punct("(")) fail(col, "function calls are not supported in C expressions here");
      return designated(path, col);
    }
    if (is_punct("(")) {
      next();
      Term t = expression();
      expect(")", "')'");
      return t;
    }
    if (tok_.kind == Tok::End) fail(tok_.col, "expression expected, found the end of the text");
    if (tok_.kind == Tok::Punct && !supported_punct(tok_.text))
      fail(tok_.col, "unsupported operator '" + tok_.text + "'");
    fail(tok_.col, "expression expected, found '" + tok_.text + "'");
  }

  // An identifier and its designators: `a[3]`, `s.f`, `g[1].y[0]` with constant
  // subscripts name the variable of that cell or member (the C front end keeps arrays
  // that fit and structs cell by cell, named by their C designators, see
  // docs/c-frontend.md); `a[e]` with a subscript that is not constant reads a whole array
  // (one variable of the array sort) at e. `->`, `*` and `&` are not read: a witness
  // names pointed-to objects by their own names.
  Term var_term(const std::string& name, std::size_t col) {
    auto id = resolve_(name);
    if (!id) fail(col, "unknown identifier '" + name + "'");
    if (*id >= em_.num_vars()) fail(col, "identifier resolves to an undeclared variable");
    return em_.var(*id);
  }
  Term designated(std::string& path, std::size_t col) {
    const auto whole_array = [&]() -> std::optional<Term> {
      const auto id = resolve_(path);
      if (!id || *id >= em_.num_vars() || em_.variable(*id).type != Type::Array)
        return std::nullopt;
      return em_.var(*id);
    };
    while (is_punct("[") || is_punct(".") || is_punct("->")) {
      if (is_punct("->"))
        fail(tok_.col, "unsupported operator '->' (a witness names a member by its object)");
      if (is_punct(".")) {
        next();
        if (tok_.kind != Tok::Ident) fail(tok_.col, "expected a member name after '.'");
        path += '.';
        path += tok_.text;
        next();
        continue;
      }
      const std::size_t sub_col = tok_.col;
      next();
      Term index = as_int(expression());
      expect("]", "']'");
      if (const auto whole = whole_array()) {
        if (is_punct("[") || is_punct(".") || is_punct("->"))
          fail(tok_.col, "a designator after the subscript of a whole array is not supported");
        return em_.select(*whole, index);
      }
      if (index.op() != Op::IntConst)
        fail(sub_col, "the subscript of '" + path +
                          "' must be a constant here (its cells are separate variables)");
      if (index.value() < 0) fail(sub_col, "negative subscript in '" + path + "[...]'");
      path += '[' + std::to_string(index.value()) + ']';
    }
    const Term t = var_term(path, col);
    if (t.type() == Type::Array) fail(col, "'" + path + "' is an array: name one of its cells");
    return t;
  }

  std::string_view text_;
  ExprManager& em_;
  const CIdentifierResolver& resolve_;
  const std::string& origin_;
  std::size_t pos_ = 0;
  Token tok_;
  int depth_ = 0;
};

}  // namespace detail::cexpr

// Parses a C expression into a Bool term (a non-zero int is true, as in C). The subset:
// integer literals (decimal, octal, hexadecimal; suffixes u, U, l, L, ll, LL; at most
// 2^64 - 1: beyond 2^63 - 1 as pow2 terms, expr/eval_big.hpp), identifiers (also `\result`),
// resolved by `resolve`, with designators (`a[3]`, `s.f`, `g[1].y[0]`: resolved as that whole
// name; `a[e]` for an array-sort variable a reads it at e); parentheses; casts to signed integer
// types (read as the identity, see the parser) and to _Bool; unary - + !; binary * / % + - < <= >
// >= == != && ||; the conditional ?:. C's `/` and `%` are encoded exactly (truncation toward zero,
// remainder with the dividend's sign) by the same case split on the dividend's sign as the C front
// end. A `U` literal is read as its mathematical value (C's conversion of the other operand to
// unsigned is not modelled: exact when that operand is non-negative, as in `\result ==
// 4294967295U`).
//
// An unknown identifier, a syntax error or an unsupported operator (bitwise, shifts,
// assignments, calls, ...) throws input_error({origin, 1, col}, message) with the 1-based
// column `col` of the offending token in `text`.
inline Term parse_c_expression(std::string_view text, ExprManager& em,
                               const CIdentifierResolver& resolve, const std::string& origin) {
  detail::cexpr::Parser p(text, em, resolve, origin);
  return p.whole_expression();
}

// A GraphML `assumption` value: C expressions separated and optionally terminated by ';'
// (`x == 5; y == -1;`), conjoined; true for an empty text. Errors as parse_c_expression.
inline Term parse_c_assumptions(std::string_view text, ExprManager& em,
                                const CIdentifierResolver& resolve, const std::string& origin) {
  detail::cexpr::Parser p(text, em, resolve, origin);
  return p.assumption_list();
}

}  // namespace precis
