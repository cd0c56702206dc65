#pragma once
// The expressions of Theta's textual control-flow automata (.cfa): a precedence-climbing
// parser over io/cfa_lexer.hpp's tokens that builds syntax-tree nodes (io/
// cfa_syntax_tree.hpp), and the token cursor that io/cfa_parser.hpp's declarations,
// processes and edges share. Every problem is one precis::input_error with file, line
// and column. The parser never recurses deeper than max_cfa_nesting levels, so hostile
// input cannot overflow the stack; chains of one n-ary operator (or, and, +, *) become
// one flat node, so parsing is linear in the size of the input.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "precis/core/big_int.hpp"
#include "precis/core/input_error.hpp"
#include "precis/expr/term.hpp"
#include "precis/io/cfa_lexer.hpp"
#include "precis/io/cfa_syntax_tree.hpp"

namespace precis {

// Deepest nesting of parentheses, if-then-else and types, and the deepest expression
// tree, that the reader accepts. Deeper input is an input_error, not a stack overflow.
// 256 keeps the recursive descent well inside an 8 MiB stack even in sanitizer builds
// (1000 levels overflowed under ASan).
inline constexpr std::size_t max_cfa_nesting = 256;
namespace cfa_reader_detail {

// The token cursor and the expression grammar. io/cfa_parser.hpp derives the file's
// grammar from it; the nodes built here end up in its ParsedCfa.
class ExpressionParser {
 public:
  ExpressionParser(std::string_view src, std::string file)
      : src_(src), file_(std::move(file)), toks_(tokenize(src, lex_error_)) {}

 protected:
  // ---- errors and tokens ------------------------------------------------------------
  [[noreturn]] void fail(Pos p, const std::string& msg) const {
    throw input_error(SourcePosition{file_, p.line, p.col}, msg);
  }

  const Token& peek(std::size_t k = 0) const {
    std::size_t j = cur_ + k;
    return j < toks_.size() ? toks_[j] : toks_.back();
  }
  // Every token the parser looks at as current goes through here, so a lexical error is
  // reported exactly when the parser reaches it.
  const Token& cur() const {
    const Token& t = peek();
    if (t.kind == Tok::Error) fail(t.pos, lex_error_);
    return t;
  }
  const Token& take() {
    const Token& t = cur();
    if (t.kind != Tok::End) ++cur_;
    return t;
  }
  bool is_word(std::string_view w, std::size_t k = 0) const {
    const Token& t = peek(k);
    return t.kind == Tok::Ident && t.text == w;
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::End: return "end of file";
      case Tok::Int: return "integer literal '" + std::string(t.text) + "'";
      case Tok::Ident:
        return (cfa_syntax::is_keyword(t.text) ? "keyword '" : "identifier '") +
               std::string(t.text) + "'";
      default: return "'" + std::string(t.text) + "'";
    }
  }
  [[noreturn]] void expected(const std::string& what) const {
    const Token& t = cur();
    fail(t.pos, "expected " + what + ", found " + describe(t));
  }
  const Token& expect(Tok k, const char* what) {
    if (cur().kind != k) expected(what);
    return take();
  }
  void expect_word(std::string_view w) {
    if (!is_word(w)) expected("'" + std::string(w) + "'");
    take();
  }
  const Token& expect_name(const char* what) {
    const Token& t = cur();
    if (t.kind != Tok::Ident) expected(what);
    if (cfa_syntax::is_keyword(t.text))
      fail(t.pos, std::string("expected ") + what + ", found keyword '" + std::string(t.text) +
                      "' (keywords cannot be used as names)");
    return take();
  }
  std::size_t end_of_previous() const {
    if (cur_ == 0) return 0;
    const Token& t = toks_[cur_ - 1];
    return t.offset + t.text.size();
  }

  struct NestingGuard {
    ExpressionParser& p;
    NestingGuard(ExpressionParser& parser, Pos pos) : p(parser) {
      if (++p.nesting_ > max_cfa_nesting) {
        p.fail(pos, "nesting too deep (more than " + std::to_string(max_cfa_nesting) + " levels)");
      }
    }
    ~NestingGuard() { --p.nesting_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;
  };

  // ---- bit-vector types ---------------------------------------------------------
  // '[' N ']' after a 'bv' at `start`: the width, checked to be in 1..64 (unchecked, 0,
  // without `check`: another process's parameter may have any width).
  unsigned parse_bv_width(Pos start, bool check = true) {
    expect(Tok::LBracket, "'['");
    const Token& w = expect(Tok::Int, "the bit-vector width");
    expect(Tok::RBracket, "']'");
    if (!check) return 0;
    const std::int64_t n = parse_int(w, false);
    if (n < 1 || n > static_cast<std::int64_t>(ExprManager::max_bit_width))
      fail(start, "unsupported type 'bv[" + std::string(w.text) +
                      "]' (precis reads bit-vectors of 1 to 64 bits)");
    return static_cast<unsigned>(n);
  }

  // ---- expressions ------------------------------------------------------------------
  enum Level : int {
    IffL = 3,
    ImplyL = 4,
    OrL = 7,
    XorL = 8,
    AndL = 9,
    NotL = 10,
    EqL = 11,
    RelL = 12,
    BvOrL = 13,
    BvXorL = 14,
    BvAndL = 15,
    ShiftL = 16,
    AddL = 17,
    MulL = 18,
    ConcatL = 19
  };
  enum class Assoc : std::uint8_t { Nary, Right, Left, Single };
  struct BinOp {
    Op op;  // Op::Var for a bit-vector operator
    int level;
    Assoc assoc;
    BvOp bv = BvOp::None;
  };

  // Theta's binary bit-vector operators, by their words.
  static std::optional<BinOp> bv_binop(std::string_view w) {
    struct Entry {
      std::string_view word;
      BvOp op;
      int level;
      Assoc assoc;
    };
    static constexpr Entry table[] = {
        {"bvult", BvOp::Ult, RelL, Assoc::Single},
        {"bvule", BvOp::Ule, RelL, Assoc::Single},
        {"bvugt", BvOp::Ugt, RelL, Assoc::Single},
        {"bvuge", BvOp::Uge, RelL, Assoc::Single},
        {"bvslt", BvOp::Slt, RelL, Assoc::Single},
        {"bvsle", BvOp::Sle, RelL, Assoc::Single},
        {"bvsgt", BvOp::Sgt, RelL, Assoc::Single},
        {"bvsge", BvOp::Sge, RelL, Assoc::Single},
        {"bvor", BvOp::Or, BvOrL, Assoc::Single},
        {"bvxor", BvOp::Xor, BvXorL, Assoc::Single},
        {"bvand", BvOp::And, BvAndL, Assoc::Single},
        {"bvshl", BvOp::Shl, ShiftL, Assoc::Single},
        {"bvashr", BvOp::Ashr, ShiftL, Assoc::Single},
        {"bvlshr", BvOp::Lshr, ShiftL, Assoc::Single},
        {"bvrol", BvOp::Rol, ShiftL, Assoc::Single},
        {"bvror", BvOp::Ror, ShiftL, Assoc::Single},
        {"bvadd", BvOp::Add, AddL, Assoc::Left},
        {"bvsub", BvOp::Sub, AddL, Assoc::Left},
        {"bvmul", BvOp::Mul, MulL, Assoc::Left},
        {"bvudiv", BvOp::Udiv, MulL, Assoc::Left},
        {"bvsdiv", BvOp::Sdiv, MulL, Assoc::Left},
        {"bvsmod", BvOp::Smod, MulL, Assoc::Left},
        {"bvurem", BvOp::Urem, MulL, Assoc::Left},
        {"bvsrem", BvOp::Srem, MulL, Assoc::Left},
    };
    for (const Entry& e : table)
      if (e.word == w) return BinOp{Op::Var, e.level, e.assoc, e.op};
    return std::nullopt;
  }

  std::optional<BinOp> binop(const Token& t) const {
    switch (t.kind) {
      case Tok::Eq: return BinOp{Op::Eq, EqL, Assoc::Single};
      case Tok::Neq: return BinOp{Op::Neq, EqL, Assoc::Single};
      case Tok::Lt: return BinOp{Op::Lt, RelL, Assoc::Single};
      case Tok::Le: return BinOp{Op::Le, RelL, Assoc::Single};
      case Tok::Gt: return BinOp{Op::Gt, RelL, Assoc::Single};
      case Tok::Ge: return BinOp{Op::Ge, RelL, Assoc::Single};
      case Tok::Plus: return BinOp{Op::Add, AddL, Assoc::Left};
      case Tok::Minus: return BinOp{Op::Sub, AddL, Assoc::Left};
      case Tok::Star: return BinOp{Op::Mul, MulL, Assoc::Left};
      case Tok::Slash: return BinOp{Op::Div, MulL, Assoc::Left};
      case Tok::Ident:
        if (t.text == "iff") return BinOp{Op::Iff, IffL, Assoc::Right};
        if (t.text == "imply") return BinOp{Op::Imply, ImplyL, Assoc::Right};
        if (t.text == "or") return BinOp{Op::Or, OrL, Assoc::Nary};
        if (t.text == "xor") return BinOp{Op::Xor, XorL, Assoc::Right};
        if (t.text == "and") return BinOp{Op::And, AndL, Assoc::Nary};
        if (t.text == "mod") return BinOp{Op::Mod, MulL, Assoc::Left};
        if (t.text == "rem") return BinOp{Op::Rem, MulL, Assoc::Left};
        return bv_binop(t.text);
      case Tok::PlusPlus: return BinOp{Op::Var, ConcatL, Assoc::Left, BvOp::Concat};
      default: return std::nullopt;
    }
  }

  [[noreturn]] void unsupported_operator(const Token& t) const {
    fail(t.pos, "unsupported operator '" + std::string(t.text) +
                    "' (precis reads int, bool and bit-vectors)");
  }
  // A binary node: an Op, or a bit-vector operator named by the token `word`.
  NodeId make_bin(const BinOp& op, const Token& word, Pos pos, NodeId a, NodeId b, Pos at) {
    NodeId n = make(op.op, pos, {a, b}, at);
    nodes_[n].bv = op.bv;
    if (op.bv != BvOp::None) nodes_[n].name = word.text;
    return n;
  }

  NodeId make(Op op, Pos pos, std::initializer_list<NodeId> kids, Pos at) {
    Node n;
    n.op = op;
    n.pos = pos;
    for (NodeId k : kids) {
      n.kids.push_back(k);
      n.depth = std::max(n.depth, nodes_[k].depth + 1);
    }
    if (n.depth > max_cfa_nesting)
      fail(at, "expression nested too deeply (more than " + std::to_string(max_cfa_nesting) +
                   " levels)");
    nodes_.push_back(std::move(n));
    return static_cast<NodeId>(nodes_.size() - 1);
  }
  void append_kid(NodeId parent, NodeId kid, Pos at) {
    nodes_[parent].kids.push_back(kid);
    nodes_[parent].depth = std::max(nodes_[parent].depth, nodes_[kid].depth + 1);
    if (nodes_[parent].depth > max_cfa_nesting)
      fail(at, "expression nested too deeply (more than " + std::to_string(max_cfa_nesting) +
                   " levels)");
  }

  NodeId parse_expr() {
    const Token& t = cur();
    NestingGuard guard(*this, t.pos);
    if (is_word("if")) {
      Pos p = take().pos;
      NodeId c = parse_expr();
      expect_word("then");
      NodeId a = parse_expr();
      expect_word("else");
      NodeId b = parse_expr();
      return make(Op::Ite, p, {c, a, b}, p);
    }
    return parse_bin(IffL);
  }

  // Precedence climbing over the binary levels >= min_level.
  NodeId parse_bin(int min_level) {
    NodeId lhs = parse_not(min_level);
    bool lhs_is_open_chain = false;  // lhs is an Add/Mul built by this loop (flattened)
    while (true) {
      const Token& t = cur();
      auto op = binop(t);
      if (!op && t.kind == Tok::Ident && cfa_syntax::is_bv_fp_keyword(t.text))
        unsupported_operator(t);
      if (t.kind == Tok::Ident && (t.text == "fpmax" || t.text == "fpmin")) unsupported_operator(t);
      if (!op || op->level < min_level) break;
      Pos lpos = nodes_[lhs].pos;
      switch (op->assoc) {
        case Assoc::Nary:
        case Assoc::Right: {
          std::vector<NodeId> items{lhs};
          std::vector<Pos> op_pos;
          while (cur().kind == Tok::Ident && cur().text == t.text) {
            op_pos.push_back(take().pos);
            items.push_back(parse_bin(op->level + 1));
          }
          if (op->assoc == Assoc::Nary) {
            NodeId n = make(op->op, lpos, {items[0], items[1]}, op_pos[0]);
            for (std::size_t i = 2; i < items.size(); ++i) append_kid(n, items[i], op_pos[i - 1]);
            lhs = n;
          } else {
            NodeId n = items.back();
            for (std::size_t i = items.size() - 1; i-- > 0;)
              n = make(op->op, nodes_[items[i]].pos, {items[i], n}, op_pos[i]);
            lhs = n;
          }
          lhs_is_open_chain = false;
          break;
        }
        case Assoc::Left: {
          const Token& word = take();
          Pos p = word.pos;
          NodeId rhs = parse_bin(op->level + 1);
          if (lhs_is_open_chain && nodes_[lhs].op == op->op && op->bv == BvOp::None &&
              (op->op == Op::Add || op->op == Op::Mul)) {
            append_kid(lhs, rhs, p);
          } else {
            lhs = make_bin(*op, word, lpos, lhs, rhs, p);
            lhs_is_open_chain = op->bv == BvOp::None && (op->op == Op::Add || op->op == Op::Mul);
          }
          break;
        }
        case Assoc::Single: {
          const Token& word = take();
          Pos p = word.pos;
          NodeId rhs = parse_bin(op->level + 1);
          lhs = make_bin(*op, word, lpos, lhs, rhs, p);
          lhs_is_open_chain = false;
          auto next = binop(cur());
          if (next && next->level == op->level)
            fail(cur().pos, "'" + std::string(cur().text) + "' cannot be chained after '" +
                                std::string(t.text) + "'; use parentheses");
          break;
        }
      }
    }
    return lhs;
  }

  NodeId parse_not(int min_level) {
    if (is_word("not")) {
      if (min_level > NotL)
        fail(cur().pos,
             "'not' needs parentheses here (it binds looser than '=' and cannot be stacked)");
      Pos p = take().pos;
      NodeId a = parse_bin(EqL);
      return make(Op::Not, p, {a}, p);
    }
    return parse_extend();
  }

  // `e bv_zero_extend bv[N]` and `e bv_sign_extend bv[N]` (Theta's level 20, looser than
  // the prefix operators), repeatable.
  NodeId parse_extend() {
    NodeId n = parse_prefix();
    while (is_word("bv_zero_extend") || is_word("bv_sign_extend")) {
      const Token& word = take();
      const Pos type_pos = cur().pos;
      expect_word("bv");
      const unsigned width = parse_bv_width(type_pos);
      const NodeId e = make(Op::Var, nodes_[n].pos, {n}, word.pos);
      nodes_[e].bv = word.text == "bv_zero_extend" ? BvOp::ZeroExt : BvOp::SignExt;
      nodes_[e].width = width;
      nodes_[e].name = word.text;
      n = e;
    }
    return n;
  }

  // Prefix '+', '-', bvneg, bvpos and bvnot (iteratively, so '- - - x' cannot exhaust the
  // stack), then a primary expression. '-' directly before a literal folds into the
  // literal.
  struct Prefix {
    BvOp bv;     // None for '+' and '-'
    bool minus;  // '-'
    Pos pos;
    std::string_view word;
  };
  NodeId parse_prefix() {
    std::vector<Prefix> ops;
    while (true) {
      const Token& t = cur();
      if (t.kind == Tok::Plus || t.kind == Tok::Minus) {
        ops.push_back({BvOp::None, t.kind == Tok::Minus, t.pos, t.text});
      } else if (is_word("bvneg") || is_word("bvpos") || is_word("bvnot")) {
        const BvOp op = t.text == "bvneg" ? BvOp::Neg : t.text == "bvpos" ? BvOp::Pos : BvOp::Not;
        ops.push_back({op, false, t.pos, t.text});
      } else {
        break;
      }
      take();
    }
    auto is_plus = [](const Prefix& x) { return x.bv == BvOp::None && !x.minus; };
    NodeId n;
    std::size_t remaining = ops.size();
    if (cur().kind == Tok::Int) {
      bool negate = false;
      while (remaining > 0 && is_plus(ops[remaining - 1])) --remaining;  // '+' is identity
      if (remaining > 0 && ops[remaining - 1].bv == BvOp::None) {
        negate = true;
        --remaining;
      }
      const Token& lit = take();
      Pos p = negate ? ops[remaining].pos : lit.pos;
      n = make(Op::IntConst, p, {}, p);
      nodes_[n].value = parse_int(lit, negate);
      check_postfix(n);
    } else {
      n = parse_postfix();
    }
    for (std::size_t i = remaining; i-- > 0;) {
      if (is_plus(ops[i])) continue;
      n = make(ops[i].bv == BvOp::None ? Op::Neg : Op::Var, ops[i].pos, {n}, ops[i].pos);
      nodes_[n].bv = ops[i].bv;
      if (ops[i].bv != BvOp::None) nodes_[n].name = ops[i].word;
    }
    return n;
  }

  std::int64_t parse_int(const Token& lit, bool negate) const {
    // Magnitude up to 2^63 when negated (INT64_MIN), 2^63 - 1 otherwise.
    const std::uint64_t limit = negate ? (std::uint64_t{1} << 63) : (std::uint64_t{1} << 63) - 1;
    std::uint64_t v = 0;
    for (char c : lit.text) {
      auto d = static_cast<std::uint64_t>(c - '0');
      if (v > (limit - d) / 10)
        fail(lit.pos, "integer literal '" + std::string(lit.text) +
                          "' does not fit in 64 bits (precis reads integers in [-2^63, 2^63-1])");
      v = v * 10 + d;
    }
    if (!negate) return static_cast<std::int64_t>(v);
    if (v == (std::uint64_t{1} << 63)) return INT64_MIN;
    return -static_cast<std::int64_t>(v);
  }

  // A primary expression and its bit-vector extractions `e[hi:lo]` (bits lo..hi-1).
  NodeId parse_postfix() {
    NodeId n = parse_primary();
    while (cur().kind == Tok::LBracket && peek(1).kind == Tok::Int && peek(2).kind == Tok::Colon) {
      const Pos at = take().pos;
      const Token& hi = take();
      take();  // ':'
      const Token& lo = expect(Tok::Int, "the low bit of the extraction");
      expect(Tok::RBracket, "']'");
      const std::int64_t h = parse_int(hi, false), l = parse_int(lo, false);
      if (l >= h)
        fail(at, "empty extraction [" + std::string(hi.text) + ":" + std::string(lo.text) +
                     "] (bits lo..hi-1: hi must be above lo)");
      const NodeId e = make(Op::Var, nodes_[n].pos, {n}, at);
      nodes_[e].bv = BvOp::Extract;
      nodes_[e].value = h;
      nodes_[e].value2 = l;
      nodes_[e].name = "extraction";
      n = e;
    }
    check_postfix(n);
    return n;
  }

  void check_postfix(NodeId n) {
    const Token& t = cur();
    switch (t.kind) {
      case Tok::LBracket:
        fail(t.pos, "unsupported array access (precis reads int, bool and bit-vectors)");
      case Tok::Prime:
        fail(t.pos, "unsupported primed variable (precis reads int, bool and bit-vectors)");
      case Tok::LParen:
        if (nodes_[n].op == Op::Var && nodes_[n].bv == BvOp::None)
          fail(t.pos, "unsupported function application (precis reads int, bool and bit-vectors)");
        break;
      default: break;
    }
  }

  NodeId parse_primary() {
    const Token& t = cur();
    switch (t.kind) {
      case Tok::Ident: {
        if (t.text == "true" || t.text == "false") {
          take();
          NodeId n = make(Op::BoolConst, t.pos, {}, t.pos);
          nodes_[n].value = t.text == "true" ? 1 : 0;
          return n;
        }
        if (cfa_syntax::is_bv_fp_keyword(t.text)) unsupported_operator(t);
        if (t.text == "forall" || t.text == "exists")
          fail(t.pos, "unsupported quantifier '" + std::string(t.text) +
                          "' (precis reads quantifier-free int and bool)");
        if (t.text == "not")
          fail(t.pos,
               "'not' needs parentheses here (it binds looser than '=' and cannot be stacked)");
        if (t.text == "if") fail(t.pos, "'if' expression needs parentheses here");
        if (cfa_syntax::is_keyword(t.text)) expected("an expression");
        if ((t.text == "iand" || t.text == "pow2") && peek(1).kind == Tok::LParen)
          return parse_bit_function();
        take();
        NodeId n = make(Op::Var, t.pos, {}, t.pos);
        nodes_[n].name = t.text;
        return n;
      }
      case Tok::Int: {
        take();
        NodeId n = make(Op::IntConst, t.pos, {}, t.pos);
        nodes_[n].value = parse_int(t, false);
        return n;
      }
      case Tok::BvLit: return parse_bv_literal();
      case Tok::RatLit:
        fail(t.pos, "unsupported rational literal '" + std::string(t.text) +
                        "' (precis reads int, bool and bit-vectors)");
      case Tok::LBracket:
        fail(t.pos, "unsupported array literal (precis reads int, bool and bit-vectors)");
      case Tok::LParen: {
        if ((peek(1).kind == Tok::RParen && peek(2).kind == Tok::Arrow) ||
            (peek(1).kind == Tok::Ident && peek(2).kind == Tok::Colon))
          fail(t.pos, "unsupported function literal (precis reads int, bool and bit-vectors)");
        take();
        NodeId n = parse_expr();
        expect(Tok::RParen, "')'");
        nodes_[n].pos = t.pos;  // the expression starts at its '('
        return n;
      }
      default: expected("an expression");
    }
  }

  // N'bBITS, N'dDECIMAL (with an optional sign) or N'xHEX: the bits of the N-bit value
  // (a negative decimal is taken in two's complement). A value that does not fit in N
  // bits is an error, not silently truncated.
  NodeId parse_bv_literal() {
    const Token& t = take();
    const std::string_view text = t.text;
    const std::size_t q = text.find('\'');
    const std::uint64_t limit = ExprManager::max_bit_width;
    std::uint64_t n = 0;
    for (char c : text.substr(0, q)) {
      n = n * 10 + static_cast<std::uint64_t>(c - '0');
      if (n > limit) break;
    }
    if (n < 1 || n > limit)
      fail(t.pos, "unsupported bit-vector literal '" + std::string(text) +
                      "' (precis reads bit-vectors of 1 to 64 bits)");
    const char base = text[q + 1];
    std::string_view digits = text.substr(q + 2);
    bool negative = false;
    if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    const unsigned radix = base == 'b' ? 2 : base == 'd' ? 10 : 16;
    if (digits.empty()) fail(t.pos, "bit-vector literal '" + std::string(text) + "' has no digits");
    BigInt v = 0;
    for (char c : digits) {
      const unsigned d =
          c <= '9' ? static_cast<unsigned>(c - '0') : static_cast<unsigned>((c | 0x20) - 'a') + 10;
      if (d >= radix)
        fail(t.pos, "bit-vector literal '" + std::string(text) + "': digit '" + c +
                        "' is not a base-" + std::to_string(radix) + " digit");
      v = v * radix + d;
      if (v > (BigInt(1) << 65)) break;  // too large anyway; keep the number small
    }
    if (negative) v = -v;
    const BigInt m = BigInt(1) << n;
    if (v >= m || v < -(m >> 1))
      fail(t.pos, "bit-vector literal '" + std::string(text) + "' does not fit in " +
                      std::to_string(n) + " bits");
    if (v < 0) v += m;
    const NodeId lit = make(Op::Var, t.pos, {}, t.pos);
    nodes_[lit].bv = BvOp::Lit;
    nodes_[lit].width = static_cast<unsigned>(n);
    nodes_[lit].value = static_cast<std::int64_t>(static_cast<std::uint64_t>(v));
    return lit;
  }

  // iand(k, a, b) (k an integer literal in 1..64) and pow2(a): precis' bit operations
  // (expr/term.hpp), written like applications. Not keywords: a variable may be called
  // iand; only a following '(' makes the name an operator.
  NodeId parse_bit_function() {
    const Token& name = take();
    expect(Tok::LParen, "'('");
    if (name.text == "pow2") {
      NodeId a = parse_expr();
      expect(Tok::RParen, "')'");
      return make(Op::Pow2, name.pos, {a}, name.pos);
    }
    const Token& width = cur();
    if (width.kind != Tok::Int) expected("the bit width of 'iand' (an integer literal)");
    take();
    const std::int64_t k = parse_int(width, false);
    if (k < 1 || k > static_cast<std::int64_t>(ExprManager::max_bit_width))
      fail(width.pos, "bit width " + std::string(width.text) + " of 'iand' is outside 1.." +
                          std::to_string(ExprManager::max_bit_width));
    expect(Tok::Comma, "','");
    NodeId a = parse_expr();
    expect(Tok::Comma, "','");
    NodeId b = parse_expr();
    expect(Tok::RParen, "')'");
    NodeId n = make(Op::BitAnd, name.pos, {a, b}, name.pos);
    nodes_[n].value = k;
    return n;
  }

  std::string_view src_;
  std::string file_;
  std::string lex_error_;
  std::vector<Token> toks_;
  std::size_t cur_ = 0;
  std::size_t nesting_ = 0;
  std::vector<Node> nodes_;
};

}  // namespace cfa_reader_detail

}  // namespace precis
