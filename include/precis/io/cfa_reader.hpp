#pragma once
// Reader for the int/bool part of Theta's textual control-flow automata (.cfa).
//
//   precis::Cfa cfa = precis::read_cfa_file("model.cfa");
//   precis::Cfa cfa = precis::parse_cfa(text, "model.cfa");
//
// A hand-written lexer and a precedence-climbing parser for the grammar described in
// docs/cfa-format.md (Theta's CfaDsl.g4). Parsing builds a small syntax tree first and
// resolves names and types afterwards, so declarations may follow their uses as in
// Theta, and the non-main processes can be parsed and dropped without a symbol table.
// Every problem in the input is reported as one precis::input_error with file, line and
// column (1-based, columns count bytes; a leading UTF-8 byte-order mark is skipped).
// The parser never recurses deeper than max_cfa_nesting levels, so hostile input cannot
// overflow the stack; chains of one n-ary operator (or, and, +, *) become one flat term,
// so reading is linear in the size of the input. read_cfa_file reads regular files only
// (a FIFO would block). fuzz/fuzz_cfa_reader.cpp fuzzes all of this.

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#endif

#include "precis/cfa/builder.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// Deepest nesting of parentheses, if-then-else and types, and the deepest expression
// tree, that the reader accepts. Deeper input is an input_error, not a stack overflow.
// 256 keeps the recursive descent well inside an 8 MiB stack even in sanitizer builds
// (1000 levels overflowed under ASan).
inline constexpr std::size_t max_cfa_nesting = 256;

namespace cfa_syntax {

// Theta reserves these words: they cannot name variables, locations or processes.
inline bool is_keyword(std::string_view s) {
  static constexpr std::string_view words[] = {"var",
                                               "main",
                                               "process",
                                               "init",
                                               "final",
                                               "error",
                                               "loc",
                                               "bool",
                                               "int",
                                               "rat",
                                               "bv",
                                               "fp",
                                               "if",
                                               "then",
                                               "else",
                                               "iff",
                                               "imply",
                                               "forall",
                                               "exists",
                                               "or",
                                               "and",
                                               "xor",
                                               "not",
                                               "mod",
                                               "rem",
                                               "true",
                                               "false",
                                               "default",
                                               "havoc",
                                               "assume",
                                               "return",
                                               "bv_zero_extend",
                                               "bv_sign_extend",
                                               "bvadd",
                                               "bvsub",
                                               "bvpos",
                                               "bvneg",
                                               "bvmul",
                                               "bvudiv",
                                               "bvsdiv",
                                               "bvsmod",
                                               "bvurem",
                                               "bvsrem",
                                               "bvor",
                                               "bvand",
                                               "bvxor",
                                               "bvnot",
                                               "bvshl",
                                               "bvashr",
                                               "bvlshr",
                                               "bvrol",
                                               "bvror",
                                               "bvult",
                                               "bvule",
                                               "bvugt",
                                               "bvuge",
                                               "bvslt",
                                               "bvsle",
                                               "bvsgt",
                                               "bvsge",
                                               "fpabs",
                                               "fpfrombv",
                                               "fpisnan",
                                               "fpmax",
                                               "fpmin",
                                               "fprem",
                                               "fproundtoint",
                                               "fpsqrt",
                                               "fptobv",
                                               "fptofp",
                                               "fpsub",
                                               "fpadd",
                                               "fpmul",
                                               "fpdiv",
                                               "fppos",
                                               "fpneg"};
  for (auto w : words)
    if (w == s) return true;
  return false;
}

// Keywords of the bit-vector and floating-point theories (operators precis cannot read).
inline bool is_bv_fp_keyword(std::string_view s) {
  return (s.starts_with("bv") || s.starts_with("fp")) && is_keyword(s);
}

inline bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(s[0])) return false;
  for (char c : s)
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

}  // namespace cfa_syntax

namespace cfa_reader_detail {

enum class Tok : std::uint8_t {
  End,
  Error,  // a lexical error, always the last token
  Ident,
  Int,
  BvLit,
  RatLit,
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Comma,
  Colon,
  ColonEq,
  Arrow,
  LArrow,
  Eq,
  Neq,
  Lt,
  Le,
  Gt,
  Ge,
  Plus,
  PlusPlus,
  Minus,
  Star,
  Slash,
  Prime
};

struct Pos {
  std::size_t line = 1;
  std::size_t col = 1;
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text;  // the source text (or the message of an Error token)
  Pos pos;
  std::size_t offset = 0;
};

// Tokenizes the whole input up front. A lexical error becomes an Error token that ends
// the stream, so the parser reports whichever problem comes first in the file.
inline std::vector<Token> tokenize(std::string_view src, std::string& error_message) {
  std::vector<Token> out;
  std::size_t i = 0, line = 1, col = 1;
  // A UTF-8 byte-order mark (editors on Windows write one) is skipped at the start of
  // the file only; it does not count as a column. Anywhere else it is an error.
  if (src.starts_with("\xEF\xBB\xBF")) i = 3;
  auto advance = [&](std::size_t n) {
    for (std::size_t k = 0; k < n && i < src.size(); ++k, ++i) {
      if (src[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  };
  auto at = [&](std::size_t k) -> char { return i + k < src.size() ? src[i + k] : '\0'; };
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  auto is_ident = [&](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || is_digit(c);
  };
  auto is_hex = [&](char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  };
  while (true) {
    // whitespace and comments
    char c = at(0);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      advance(1);
      continue;
    }
    if (c == '/' && at(1) == '/') {
      while (i < src.size() && src[i] != '\n') advance(1);
      continue;
    }
    if (c == '/' && at(1) == '*') {
      Pos start{line, col};
      std::size_t start_off = i;
      advance(2);
      while (i < src.size() && !(src[i] == '*' && at(1) == '/')) advance(1);
      if (i >= src.size()) {
        error_message = "unterminated comment ('/*' without '*/')";
        out.push_back({Tok::Error, src.substr(start_off, 2), start, start_off});
        return out;
      }
      advance(2);
      continue;
    }
    Token t;
    t.pos = Pos{line, col};
    t.offset = i;
    if (i >= src.size()) {
      t.kind = Tok::End;
      out.push_back(t);
      return out;
    }
    std::size_t len = 1;
    if (is_digit(c)) {
      len = 0;
      while (is_digit(at(len))) ++len;
      t.kind = Tok::Int;
      char base = at(len + 1);
      if (at(len) == '\'' && (base == 'b' || base == 'd' || base == 'x')) {
        // bit-vector literal N'b0101, N'd-5, N'xAF (read only to reject it precisely)
        len += 2;
        if (base == 'd' && (at(len) == '+' || at(len) == '-')) ++len;
        while (is_hex(at(len))) ++len;
        t.kind = Tok::BvLit;
      } else if (at(len) == '%' && is_digit(at(len + 1))) {
        ++len;
        while (is_digit(at(len))) ++len;
        t.kind = Tok::RatLit;
      }
    } else if (is_ident(c)) {
      len = 0;
      while (is_ident(at(len))) ++len;
      t.kind = Tok::Ident;
    } else {
      char d = at(1);
      switch (c) {
        case '(': t.kind = Tok::LParen; break;
        case ')': t.kind = Tok::RParen; break;
        case '{': t.kind = Tok::LBrace; break;
        case '}': t.kind = Tok::RBrace; break;
        case '[': t.kind = Tok::LBracket; break;
        case ']': t.kind = Tok::RBracket; break;
        case ',': t.kind = Tok::Comma; break;
        case '\'': t.kind = Tok::Prime; break;
        case '*': t.kind = Tok::Star; break;
        case '=': t.kind = Tok::Eq; break;
        case ':':
          t.kind = d == '=' ? Tok::ColonEq : Tok::Colon;
          len = d == '=' ? 2 : 1;
          break;
        case '-':
          t.kind = d == '>' ? Tok::Arrow : Tok::Minus;
          len = d == '>' ? 2 : 1;
          break;
        case '+':
          t.kind = d == '+' ? Tok::PlusPlus : Tok::Plus;
          len = d == '+' ? 2 : 1;
          break;
        case '/':
          t.kind = d == '=' ? Tok::Neq : Tok::Slash;
          len = d == '=' ? 2 : 1;
          break;
        case '<':
          if (d == '=')
            t.kind = Tok::Le, len = 2;
          else if (d == '-')
            t.kind = Tok::LArrow, len = 2;
          else
            t.kind = Tok::Lt;
          break;
        case '>':
          t.kind = d == '=' ? Tok::Ge : Tok::Gt;
          len = d == '=' ? 2 : 1;
          break;
        default: {
          std::string shown;
          auto u = static_cast<unsigned char>(c);
          if (u >= 0x20 && u < 0x7f) {
            shown = std::string("'") + c + "'";
          } else {
            static constexpr char hex[] = "0123456789abcdef";
            shown = std::string("'\\x") + hex[u >> 4] + hex[u & 15] + "'";
          }
          error_message = "unexpected character " + shown;
          t.kind = Tok::Error;
          t.text = src.substr(i, 1);
          out.push_back(t);
          return out;
        }
      }
    }
    t.text = src.substr(i, len);
    out.push_back(t);
    advance(len);
  }
}

// ---- syntax tree --------------------------------------------------------------------

using NodeId = std::uint32_t;

struct Node {
  Op op = Op::Var;  // Var, IntConst, BoolConst or an operator
  std::int64_t value = 0;
  std::string_view name;  // for Var
  Pos pos;                // where the expression starts
  boost::container::small_vector<NodeId, 3> kids;
  std::uint32_t depth = 1;
};

struct VarDecl {
  std::string_view name;
  Pos pos;
  Type type = Type::Int;
};

enum class LocKind : std::uint8_t { Plain, Init, Final, Error };

struct LocDecl {
  std::string_view name;
  Pos pos;       // of the name
  Pos kind_pos;  // of the 'init' / 'final' / 'error' keyword
  LocKind kind = LocKind::Plain;
};

enum class StmtKind : std::uint8_t { Assign, Havoc, Assume };

struct Stmt {
  StmtKind kind = StmtKind::Assume;
  std::string_view var;
  Pos var_pos;
  NodeId expr = 0;
  Pos pos;
};

struct EdgeDecl {
  std::string_view from, to;
  Pos from_pos, to_pos;
  std::vector<Stmt> stmts;
};

struct Process {
  std::string_view name;
  Pos pos;  // of the name
  std::vector<VarDecl> vars;
  std::vector<LocDecl> locs;
  std::vector<EdgeDecl> edges;
};

class Parser {
 public:
  Parser(std::string_view src, std::string file)
      : src_(src), file_(std::move(file)), toks_(tokenize(src, lex_error_)) {}

  Cfa run() {
    parse_file();
    return resolve();
  }

 private:
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
    Parser& p;
    NestingGuard(Parser& parser, Pos pos) : p(parser) {
      if (++p.nesting_ > max_cfa_nesting) {
        p.fail(pos, "nesting too deep (more than " + std::to_string(max_cfa_nesting) + " levels)");
      }
    }
    ~NestingGuard() { --p.nesting_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;
  };

  // ---- declarations -------------------------------------------------------------------
  void parse_file() {
    while (cur().kind != Tok::End) {
      if (is_word("var")) {
        take();
        globals_.push_back(parse_decl(true));
      } else if (is_word("main") || is_word("process")) {
        parse_process();
      } else {
        expected("'var', 'process' or 'main process'");
      }
    }
    end_pos_ = cur().pos;
  }

  // name ':' type. With `must_be_supported`, a type other than int/bool is an error.
  VarDecl parse_decl(bool must_be_supported) {
    const Token& n = expect_name("a variable name");
    VarDecl d{n.text, n.pos, Type::Int};
    expect(Tok::Colon, "':'");
    auto t = parse_type(must_be_supported);
    if (t) d.type = *t;
    return d;
  }

  // Returns the type if it is int or bool; otherwise either fails (`must_be_supported`)
  // or returns nullopt after parsing the whole type.
  std::optional<Type> parse_type(bool must_be_supported) {
    const Token& start = cur();
    NestingGuard guard(*this, start.pos);
    if (is_word("int")) {
      take();
      return Type::Int;
    }
    if (is_word("bool")) {
      take();
      return Type::Bool;
    }
    if (is_word("rat")) {
      take();
    } else if (is_word("bv")) {
      take();
      expect(Tok::LBracket, "'['");
      expect(Tok::Int, "the bit-vector width");
      expect(Tok::RBracket, "']'");
    } else if (is_word("fp")) {
      take();
      expect(Tok::LBracket, "'['");
      expect(Tok::Int, "the exponent width");
      if (cur().kind != Tok::Comma && cur().kind != Tok::Colon) expected("',' or ':'");
      take();
      expect(Tok::Int, "the significand width");
      expect(Tok::RBracket, "']'");
    } else if (cur().kind == Tok::LBracket) {
      take();
      parse_type(false);
      expect(Tok::RBracket, "']'");
      expect(Tok::Arrow, "'->'");
      parse_type(false);
    } else if (cur().kind == Tok::LParen) {
      take();
      parse_type(false);
      while (cur().kind == Tok::Comma) {
        take();
        parse_type(false);
      }
      expect(Tok::RParen, "')'");
      expect(Tok::Arrow, "'->'");
      parse_type(false);
    } else {
      expected("a type ('int' or 'bool')");
    }
    if (must_be_supported) {
      std::string text(src_.substr(start.offset, end_of_previous() - start.offset));
      fail(start.pos, "unsupported type '" + text + "' (precis reads int and bool)");
    }
    return std::nullopt;
  }

  void parse_process() {
    std::optional<Pos> main_pos;
    if (is_word("main")) {
      main_pos = cur().pos;
      take();
    }
    expect_word("process");
    const Token& name = expect_name("a process name");
    Process proc{name.text, name.pos, {}, {}, {}};
    if (main_pos && main_) {
      fail(*main_pos, "second main process '" + std::string(name.text) + "' (the first is '" +
                          std::string(main_->name) + "' at line " +
                          std::to_string(main_->pos.line) + ")");
    }
    if (cur().kind == Tok::LParen) {  // parameters: parsed and ignored, as Theta does
      take();
      if (cur().kind != Tok::RParen) {
        parse_decl(false);
        while (cur().kind == Tok::Comma) {
          take();
          parse_decl(false);
        }
      }
      expect(Tok::RParen, "')'");
    }
    expect(Tok::LBrace, "'{'");
    const bool is_main = main_pos.has_value();
    while (cur().kind != Tok::RBrace) {
      if (cur().kind == Tok::End) expected("'}' to close process '" + std::string(proc.name) + "'");
      if (is_word("var")) {
        take();
        proc.vars.push_back(parse_decl(is_main));
      } else if (is_word("loc") || is_word("init") || is_word("final") || is_word("error")) {
        LocDecl l;
        l.kind_pos = cur().pos;
        if (is_word("init")) l.kind = LocKind::Init;
        if (is_word("final")) l.kind = LocKind::Final;
        if (is_word("error")) l.kind = LocKind::Error;
        if (l.kind != LocKind::Plain) take();
        expect_word("loc");
        const Token& n = expect_name("a location name");
        l.name = n.text;
        l.pos = n.pos;
        proc.locs.push_back(l);
      } else if (cur().kind == Tok::Ident && !cfa_syntax::is_keyword(cur().text)) {
        if (is_main) {
          proc.edges.push_back(parse_edge());
        } else {
          skip_edge();
        }
      } else {
        expected("'var', 'loc', an edge or '}'");
      }
    }
    take();  // '}'
    if (is_main) main_ = std::move(proc);
  }

  // Edges of other processes are dropped; their statements may use theories precis
  // does not read, so only the braces are matched (expressions contain none).
  void skip_edge() {
    expect_name("a location name");
    expect(Tok::Arrow, "'->'");
    expect_name("a location name");
    if (cur().kind != Tok::LBrace) return;
    take();
    while (cur().kind != Tok::RBrace) {
      if (cur().kind == Tok::End || cur().kind == Tok::LBrace)
        expected("'}' to close the edge's statements");
      take();
    }
    take();
  }

  EdgeDecl parse_edge() {
    EdgeDecl e;
    const Token& from = expect_name("a location name");
    e.from = from.text;
    e.from_pos = from.pos;
    expect(Tok::Arrow, "'->'");
    const Token& to = expect_name("a location name");
    e.to = to.text;
    e.to_pos = to.pos;
    if (cur().kind != Tok::LBrace) return e;  // a brace-less edge is a skip
    take();
    while (cur().kind != Tok::RBrace) {
      Stmt s;
      s.pos = cur().pos;
      if (is_word("havoc")) {
        take();
        const Token& v = expect_name("a variable name");
        s.kind = StmtKind::Havoc;
        s.var = v.text;
        s.var_pos = v.pos;
      } else if (is_word("assume")) {
        take();
        s.kind = StmtKind::Assume;
        s.expr = parse_expr();
      } else if (is_word("return")) {
        fail(s.pos, "unsupported statement 'return' (precis reads assignments, havoc and assume)");
      } else if (cur().kind == Tok::Ident && !cfa_syntax::is_keyword(cur().text)) {
        const Token& v = take();
        s.kind = StmtKind::Assign;
        s.var = v.text;
        s.var_pos = v.pos;
        expect(Tok::ColonEq, "':='");
        s.expr = parse_expr();
      } else if (cur().kind == Tok::End) {
        expected("'}' to close the edge's statements");
      } else {
        expected("a statement ('x := e', 'havoc x', 'assume e') or '}'");
      }
      e.stmts.push_back(s);
    }
    take();  // '}'
    return e;
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
    AddL = 17,
    MulL = 18
  };
  enum class Assoc : std::uint8_t { Nary, Right, Left, Single };
  struct BinOp {
    Op op;
    int level;
    Assoc assoc;
  };

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
        return std::nullopt;
      default: return std::nullopt;
    }
  }

  [[noreturn]] void unsupported_operator(const Token& t) const {
    fail(t.pos, "unsupported operator '" + std::string(t.text) + "' (precis reads int and bool)");
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
      if (t.kind == Tok::PlusPlus) {
        fail(t.pos,
             "unsupported operator '++' (bit-vector concatenation; precis reads int and bool)");
      }
      if (t.kind == Tok::Ident && cfa_syntax::is_bv_fp_keyword(t.text)) unsupported_operator(t);
      if (t.kind == Tok::Ident && (t.text == "fpmax" || t.text == "fpmin")) unsupported_operator(t);
      auto op = binop(t);
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
          Pos p = take().pos;
          NodeId rhs = parse_bin(op->level + 1);
          if (lhs_is_open_chain && nodes_[lhs].op == op->op &&
              (op->op == Op::Add || op->op == Op::Mul)) {
            append_kid(lhs, rhs, p);
          } else {
            lhs = make(op->op, lpos, {lhs, rhs}, p);
            lhs_is_open_chain = op->op == Op::Add || op->op == Op::Mul;
          }
          break;
        }
        case Assoc::Single: {
          Pos p = take().pos;
          NodeId rhs = parse_bin(op->level + 1);
          lhs = make(op->op, lpos, {lhs, rhs}, p);
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
    return parse_prefix();
  }

  // Prefix '+' / '-' (iteratively, so '- - - x' cannot exhaust the stack), then a
  // primary expression. '-' directly before a literal folds into the literal.
  NodeId parse_prefix() {
    std::vector<std::pair<bool, Pos>> signs;  // (is_minus, position)
    while (cur().kind == Tok::Plus || cur().kind == Tok::Minus) {
      signs.emplace_back(cur().kind == Tok::Minus, cur().pos);
      take();
    }
    NodeId n;
    std::size_t remaining = signs.size();
    if (cur().kind == Tok::Int) {
      bool negate = false;
      while (remaining > 0 && !signs[remaining - 1].first) --remaining;  // '+' is identity
      if (remaining > 0) {
        negate = true;
        --remaining;
      }
      const Token& lit = take();
      Pos p = negate ? signs[remaining].second : lit.pos;
      n = make(Op::IntConst, p, {}, p);
      nodes_[n].value = parse_int(lit, negate);
      check_postfix(n);
    } else {
      n = parse_postfix();
    }
    for (std::size_t i = remaining; i-- > 0;) {
      if (!signs[i].first) continue;
      n = make(Op::Neg, signs[i].second, {n}, signs[i].second);
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

  NodeId parse_postfix() {
    NodeId n = parse_primary();
    check_postfix(n);
    return n;
  }

  void check_postfix(NodeId n) {
    const Token& t = cur();
    switch (t.kind) {
      case Tok::LBracket:
        fail(t.pos,
             "unsupported array access or bit-vector extraction (precis reads int and bool)");
      case Tok::Prime: fail(t.pos, "unsupported primed variable (precis reads int and bool)");
      case Tok::LParen:
        if (nodes_[n].op == Op::Var)
          fail(t.pos, "unsupported function application (precis reads int and bool)");
        break;
      case Tok::Ident:
        if (t.text == "bv_zero_extend" || t.text == "bv_sign_extend") unsupported_operator(t);
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
      case Tok::BvLit:
        fail(t.pos, "unsupported bit-vector literal '" + std::string(t.text) +
                        "' (precis reads int and bool)");
      case Tok::RatLit:
        fail(t.pos, "unsupported rational literal '" + std::string(t.text) +
                        "' (precis reads int and bool)");
      case Tok::LBracket: fail(t.pos, "unsupported array literal (precis reads int and bool)");
      case Tok::LParen: {
        if ((peek(1).kind == Tok::RParen && peek(2).kind == Tok::Arrow) ||
            (peek(1).kind == Tok::Ident && peek(2).kind == Tok::Colon))
          fail(t.pos, "unsupported function literal (precis reads int and bool)");
        take();
        NodeId n = parse_expr();
        expect(Tok::RParen, "')'");
        nodes_[n].pos = t.pos;  // the expression starts at its '('
        return n;
      }
      default: expected("an expression");
    }
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

  // ---- names and types ----------------------------------------------------------------
  struct VarInfo {
    VarId id;
    Type type;
  };

  Term to_term(NodeId id, ExprManager& em) const {
    const Node& n = nodes_[id];
    switch (n.op) {
      case Op::Var: {
        auto it = vars_.find(n.name);
        if (it == vars_.end()) fail(n.pos, "unknown variable '" + std::string(n.name) + "'");
        return em.var(it->second.id);
      }
      case Op::IntConst: return em.int_val(n.value);
      case Op::BoolConst: return em.bool_val(n.value != 0);
      default: break;
    }
    boost::container::small_vector<Term, 3> args;
    for (NodeId k : n.kids) args.push_back(to_term(k, em));
    try {
      if (n.op == Op::BitAnd) return em.bit_and(args[0], args[1], static_cast<unsigned>(n.value));
      return em.mk(n.op, std::span<const Term>(args.data(), args.size()));
    } catch (const type_error& e) {
      fail(n.pos, std::string("type error: ") + e.what());
    } catch (const limit_reached& e) {
      // The reader's own bound (max_cfa_nesting) is below ExprManager's, so this only
      // fires with a manager built with a smaller bound; report it where it happens.
      if (e.kind() != LimitKind::Depth) throw;
      fail(n.pos, std::string("expression nested too deeply: ") + e.what());
    }
  }

  Cfa resolve() {
    if (!main_) fail(end_pos_, "no main process (expected 'main process NAME { ... }')");
    const Process& p = *main_;
    CfaBuilder b;
    std::unordered_map<std::string_view, Pos> declared_at;
    auto declare = [&](const VarDecl& d) {
      if (auto it = declared_at.find(d.name); it != declared_at.end())
        fail(d.pos, "duplicate declaration of variable '" + std::string(d.name) +
                        "' (first declared at line " + std::to_string(it->second.line) + ")");
      declared_at.emplace(d.name, d.pos);
      vars_.emplace(d.name, VarInfo{b.var(std::string(d.name), d.type), d.type});
    };
    for (const VarDecl& d : globals_) declare(d);
    for (const VarDecl& d : p.vars) declare(d);

    std::unordered_map<std::string_view, std::pair<Loc, Pos>> locs;
    std::optional<Loc> init, fin, err;
    std::optional<LocDecl> init_decl, fin_decl, err_decl;
    for (const LocDecl& l : p.locs) {
      if (auto it = locs.find(l.name); it != locs.end())
        fail(l.pos, "duplicate declaration of location '" + std::string(l.name) +
                        "' (first declared at line " + std::to_string(it->second.second.line) +
                        ")");
      Loc loc = b.location(std::string(l.name));
      locs.emplace(l.name, std::make_pair(loc, l.pos));
      auto unique = [&](std::optional<LocDecl>& slot, const char* what) {
        if (slot)
          fail(l.kind_pos, std::string("second ") + what + " location '" + std::string(l.name) +
                               "' (the first is '" + std::string(slot->name) + "' at line " +
                               std::to_string(slot->pos.line) + ")");
        slot = l;
      };
      if (l.kind == LocKind::Init) {
        unique(init_decl, "init");
        init = loc;
      } else if (l.kind == LocKind::Final) {
        unique(fin_decl, "final");
        fin = loc;
      } else if (l.kind == LocKind::Error) {
        unique(err_decl, "error");
        err = loc;
      }
    }
    if (!init) fail(p.pos, "process '" + std::string(p.name) + "' has no init location");

    auto lookup = [&](std::string_view name, Pos pos) {
      auto it = locs.find(name);
      if (it == locs.end()) fail(pos, "unknown location '" + std::string(name) + "'");
      return it->second.first;
    };
    ExprManager& em = b.exprs();
    for (const EdgeDecl& e : p.edges) {
      Loc from = lookup(e.from, e.from_pos);
      Loc to = lookup(e.to, e.to_pos);
      if (fin && from == *fin)
        fail(e.from_pos, "edge leaves the final location '" + std::string(e.from) +
                             "' (final and error locations have no outgoing edges)");
      if (err && from == *err)
        fail(e.from_pos, "edge leaves the error location '" + std::string(e.from) +
                             "' (final and error locations have no outgoing edges)");
      std::vector<std::pair<Operation, std::uint32_t>> ops;
      for (const Stmt& s : e.stmts) {
        auto line = static_cast<std::uint32_t>(s.pos.line);
        switch (s.kind) {
          case StmtKind::Assume: {
            Term c = to_term(s.expr, em);
            if (!c.is_bool())
              fail(nodes_[s.expr].pos,
                   std::string("type error: 'assume' needs a bool expression, got ") +
                       to_string(c.type()));
            ops.emplace_back(Assume{c}, line);
            break;
          }
          case StmtKind::Havoc: {
            auto it = vars_.find(s.var);
            if (it == vars_.end()) fail(s.var_pos, "unknown variable '" + std::string(s.var) + "'");
            ops.emplace_back(Havoc{it->second.id}, line);
            break;
          }
          case StmtKind::Assign: {
            auto it = vars_.find(s.var);
            if (it == vars_.end()) fail(s.var_pos, "unknown variable '" + std::string(s.var) + "'");
            Term v = to_term(s.expr, em);
            if (v.type() != it->second.type)
              fail(nodes_[s.expr].pos, std::string("type error: cannot assign a ") +
                                           to_string(v.type()) + " expression to " +
                                           to_string(it->second.type) + " variable '" +
                                           std::string(s.var) + "'");
            ops.emplace_back(Assign{it->second.id, v}, line);
            break;
          }
        }
      }
      // The same chain as CfaBuilder::chain (fresh "__N" locations), but each edge keeps
      // the line of its own statement.
      if (ops.empty()) {
        b.edge(from, to, Skip{}, static_cast<std::uint32_t>(e.from_pos.line));
        continue;
      }
      Loc at = from;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        Loc next = i + 1 == ops.size() ? to : b.fresh_location(0);
        b.edge(at, next, std::move(ops[i].first), ops[i].second);
        at = next;
      }
    }
    b.initial(*init);
    if (err) b.error(*err);
    if (fin) b.final_(*fin);
    try {
      return std::move(b).build();
    } catch (const std::invalid_argument& e) {
      fail(p.pos, e.what());  // unreachable: the checks above come first
    }
  }

  std::string_view src_;
  std::string file_;
  std::string lex_error_;
  std::vector<Token> toks_;
  std::size_t cur_ = 0;
  std::size_t nesting_ = 0;
  std::vector<Node> nodes_;
  std::vector<VarDecl> globals_;
  std::optional<Process> main_;
  Pos end_pos_;
  std::unordered_map<std::string_view, VarInfo> vars_;
};

}  // namespace cfa_reader_detail

// Parses .cfa text; `filename` is used in error positions only.
inline Cfa parse_cfa(std::string_view text, const std::string& filename) {
  return cfa_reader_detail::Parser(text, filename).run();
}

namespace cfa_reader_detail {

// What a path names, for the "not a regular file" message.
inline const char* file_kind(std::filesystem::file_type t) {
  using std::filesystem::file_type;
  switch (t) {
    case file_type::directory: return "a directory";
    case file_type::fifo: return "a FIFO";
    case file_type::socket: return "a socket";
    case file_type::character: return "a character device";
    case file_type::block: return "a block device";
    default: return "of another kind";
  }
}

[[noreturn]] inline void not_regular(const std::string& path, std::filesystem::file_type t) {
  throw input_error(SourcePosition{path, 0, 0},
                    "cannot read '" + path + "': not a regular file (it is " + file_kind(t) + ")");
}

#if defined(__unix__) || defined(__APPLE__)
// Opens without blocking (a FIFO without a writer would block open() forever) and
// checks the type of what was opened, not of what the path named a moment earlier.
inline std::string read_regular_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // NOLINT
  if (fd < 0) throw input_error(SourcePosition{path, 0, 0}, "cannot open file '" + path + "'");
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct ::stat st {};
  if (::fstat(fd, &st) != 0)
    throw input_error(SourcePosition{path, 0, 0}, "cannot read file '" + path + "'");
  if (!S_ISREG(st.st_mode)) {
    using std::filesystem::file_type;
    file_type t = S_ISDIR(st.st_mode)    ? file_type::directory
                  : S_ISFIFO(st.st_mode) ? file_type::fifo
                  : S_ISSOCK(st.st_mode) ? file_type::socket
                  : S_ISCHR(st.st_mode)  ? file_type::character
                  : S_ISBLK(st.st_mode)  ? file_type::block
                                         : file_type::unknown;
    not_regular(path, t);
  }
  std::string text;
  if (st.st_size > 0) text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  while (true) {
    const ::ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw input_error(SourcePosition{path, 0, 0}, "cannot read file '" + path + "'");
    }
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}
#else
inline std::string read_regular_file(const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || st.type() == std::filesystem::file_type::not_found)
    throw input_error(SourcePosition{path, 0, 0}, "cannot open file '" + path + "'");
  if (st.type() != std::filesystem::file_type::regular) not_regular(path, st.type());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(SourcePosition{path, 0, 0}, "cannot open file '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw input_error(SourcePosition{path, 0, 0}, "cannot read file '" + path + "'");
  return ss.str();
}
#endif

}  // namespace cfa_reader_detail

// Reads and parses a .cfa file. A missing or unreadable file, or a path that is not a
// regular file (a directory, a FIFO, a device), is an input_error naming it.
inline Cfa read_cfa_file(const std::string& path) {
  return parse_cfa(cfa_reader_detail::read_regular_file(path), path);
}

}  // namespace precis
