#pragma once
// The lexer of Theta's textual control-flow automata (.cfa): the reserved words
// (cfa_syntax) and the tokenizer that io/cfa_reader.hpp's parser reads from.
// Positions are 1-based lines and byte columns; a lexical error becomes the stream's last
// token, so the parser reports whichever problem comes first in the file.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace precis {

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
      // A two-character token when `second` follows, else the one-character one.
      auto either = [&](char second, Tok two, Tok one) {
        t.kind = d == second ? two : one;
        len = d == second ? 2 : 1;
      };
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
        case ':': either('=', Tok::ColonEq, Tok::Colon); break;
        case '-': either('>', Tok::Arrow, Tok::Minus); break;
        case '+': either('+', Tok::PlusPlus, Tok::Plus); break;
        case '/': either('=', Tok::Neq, Tok::Slash); break;
        case '<':
          if (d == '=')
            t.kind = Tok::Le, len = 2;
          else if (d == '-')
            t.kind = Tok::LArrow, len = 2;
          else
            t.kind = Tok::Lt;
          break;
        case '>': either('=', Tok::Ge, Tok::Gt); break;
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

}  // namespace cfa_reader_detail

}  // namespace precis
