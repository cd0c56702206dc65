#pragma once
// The parser of Theta's textual control-flow automata (.cfa): declarations, processes,
// locations and edges, over io/cfa_expression_parser.hpp's token cursor and expression
// grammar; it builds a syntax tree (ParsedCfa). Names and types are resolved afterwards
// by io/cfa_reader.hpp, so declarations may follow their uses as in Theta, and the
// non-main processes are parsed and dropped without a symbol table. Every problem is one
// precis::input_error with file, line and column.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "precis/expr/term.hpp"
#include "precis/io/cfa_expression_parser.hpp"
#include "precis/io/cfa_lexer.hpp"
#include "precis/io/cfa_syntax_tree.hpp"

namespace precis {
namespace cfa_reader_detail {

class Parser : ExpressionParser {
 public:
  using ExpressionParser::ExpressionParser;

  // The syntax tree of the whole file; names and types are resolved by io/cfa_reader.hpp.
  ParsedCfa parse() && {
    parse_file();
    return ParsedCfa{std::move(file_), std::move(nodes_), std::move(globals_), std::move(main_),
                     end_pos_};
  }

 private:
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

  // name ':' type. With `must_be_supported`, a type other than int/bool/bv is an error.
  VarDecl parse_decl(bool must_be_supported) {
    const Token& n = expect_name("a variable name");
    VarDecl d{n.text, n.pos, {}};
    expect(Tok::Colon, "':'");
    auto t = parse_type(must_be_supported);
    if (t) d.type = *t;
    return d;
  }

  // Returns the type if it is int, bool or bv[N]; otherwise either fails
  // (`must_be_supported`) or returns nullopt after parsing the whole type.
  std::optional<VarType> parse_type(bool must_be_supported) {
    const Token& start = cur();
    NestingGuard guard(*this, start.pos);
    if (is_word("int")) {
      take();
      return VarType{Type::Int, 0};
    }
    if (is_word("bool")) {
      take();
      return VarType{Type::Bool, 0};
    }
    if (is_word("bv")) {
      take();
      const unsigned width = parse_bv_width(start.pos, must_be_supported);
      if (!must_be_supported) return std::nullopt;
      return VarType{Type::Int, width};
    }
    if (is_word("rat")) {
      take();
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
      expected("a type ('int', 'bool' or 'bv[N]')");
    }
    if (must_be_supported) {
      std::string text(src_.substr(start.offset, end_of_previous() - start.offset));
      fail(start.pos, "unsupported type '" + text + "' (precis reads int, bool and bv[N])");
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

  std::vector<VarDecl> globals_;
  std::optional<Process> main_;
  Pos end_pos_;
};

}  // namespace cfa_reader_detail

}  // namespace precis
