#pragma once
// Reader for the int, bool and bit-vector part of Theta's textual control-flow automata
// (.cfa). A `bv[N]` variable (N in 1..64) becomes an int variable that holds the
// unsigned value of its bits, in [0, 2^N) (an assume on the first edge and after each
// havoc keeps it there), and the bv operators become exact integer terms
// (expr/bit_vector.hpp).
//
//   precis::Cfa cfa = precis::read_cfa_file("model.cfa");
//   precis::Cfa cfa = precis::parse_cfa(text, "model.cfa");
//
// The grammar is described in docs/cfa-format.md (Theta's CfaDsl.g4). Reading is three
// steps, a header each: io/cfa_lexer.hpp (tokens), io/cfa_parser.hpp with
// io/cfa_expression_parser.hpp (the syntax tree of io/cfa_syntax_tree.hpp) and, here,
// the resolution of names and types into the CFA.
// Every problem in the input is reported as one precis::input_error with file, line and
// column (1-based, columns count bytes; a leading UTF-8 byte-order mark is skipped).
// read_cfa_file reads regular files only (a FIFO would block).
// fuzz/fuzz_cfa_reader.cpp fuzzes all of this.

#include <algorithm>
#include <array>
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

#include <boost/container/small_vector.hpp>

#include "precis/cfa/builder.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/big_int.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/expr/bit_vector.hpp"
#include "precis/expr/term.hpp"
#include "precis/io/cfa_parser.hpp"

namespace precis {

namespace cfa_reader_detail {

// Names and types of a parsed file, and the CFA: variables, locations, and the edges'
// operations as terms (bit-vector operators through expr/bit_vector.hpp).
class Resolver {
 public:
  explicit Resolver(ParsedCfa parsed)
      : file_(std::move(parsed.file)),
        nodes_(std::move(parsed.nodes)),
        globals_(std::move(parsed.globals)),
        main_(std::move(parsed.main)),
        end_pos_(parsed.end_pos) {}

 private:
  [[noreturn]] void fail(Pos p, const std::string& msg) const {
    throw input_error(SourcePosition{file_, p.line, p.col}, msg);
  }

  // ---- names and types ----------------------------------------------------------------
  struct VarInfo {
    VarId id;
    VarType type;
  };

  // A resolved expression: its term and, for a bit-vector, its width (0: int or bool).
  struct Typed {
    Term term;
    unsigned width = 0;
  };
  static std::string type_name(Type t, unsigned width) {
    return width > 0 ? "bv[" + std::to_string(width) + "]" : std::string(to_string(t));
  }
  static std::string type_name(const Typed& x) { return type_name(x.term.type(), x.width); }
  // Runs `build`, reporting the term layer's type errors and depth limit at `at`.
  template <class F>
  auto guarded(Pos at, F&& build) const {
    try {
      return build();
    } catch (const type_error& e) {
      fail(at, std::string("type error: ") + e.what());
    } catch (const limit_reached& e) {
      // The reader's own bound (max_cfa_nesting) is below ExprManager's, so this only
      // fires with a manager built with a smaller bound; report it where it happens.
      if (e.kind() != LimitKind::Depth) throw;
      fail(at, std::string("expression nested too deeply: ") + e.what());
    }
  }

  Typed to_term(NodeId id, ExprManager& em) const {
    const Node& n = nodes_[id];
    if (n.bv != BvOp::None) return bv_term(n, em);
    switch (n.op) {
      case Op::Var: {
        auto it = vars_.find(n.name);
        if (it == vars_.end()) fail(n.pos, "unknown variable '" + std::string(n.name) + "'");
        return {em.var(it->second.id), it->second.type.width};
      }
      case Op::IntConst: return {em.int_val(n.value)};
      case Op::BoolConst: return {em.bool_val(n.value != 0)};
      default: break;
    }
    boost::container::small_vector<Term, 3> args;
    boost::container::small_vector<unsigned, 3> widths;
    for (NodeId k : n.kids) {
      const Typed t = to_term(k, em);
      args.push_back(t.term);
      widths.push_back(t.width);
    }
    // Bit-vectors meet the int and bool operators only in '=', '/=' and if-then-else,
    // between two of one width.
    const bool polymorphic = n.op == Op::Eq || n.op == Op::Neq || n.op == Op::Ite;
    const std::size_t first = n.op == Op::Ite ? 1 : 0;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (polymorphic && i >= first) {
        if (i > first && widths[i] != widths[first])
          fail(nodes_[n.kids[i]].pos, std::string("type error: operands of '") +
                                          ExprManager::op_name(n.op) + "' have different types (" +
                                          type_name(args[first].type(), widths[first]) + " and " +
                                          type_name(args[i].type(), widths[i]) + ")");
      } else if (widths[i] > 0) {
        fail(nodes_[n.kids[i]].pos,
             std::string("type error: operator '") + ExprManager::op_name(n.op) + "' expects " +
                 (n.op == Op::Ite ? "a bool condition" : "int or bool operands") + ", got " +
                 type_name(args[i].type(), widths[i]) + " (bit-vectors use bvadd, bvult, ...)");
      }
    }
    const Term t = guarded(n.pos, [&] {
      if (n.op == Op::BitAnd) return em.bit_and(args[0], args[1], static_cast<unsigned>(n.value));
      return em.mk(n.op, std::span<const Term>(args.data(), args.size()));
    });
    return {t, n.op == Op::Ite ? widths[1] : 0};
  }

  // A bit-vector operator over its operands' terms (expr/bit_vector.hpp).
  Typed bv_term(const Node& n, ExprManager& em) const {
    BitVectorTerms bv(em);
    if (n.bv == BvOp::Lit)
      return {bv.literal(BigInt(static_cast<std::uint64_t>(n.value)), n.width), n.width};
    const std::string word(n.name);
    // The parser builds every bit-vector operator but literals with one or two operands.
    const std::size_t arity = std::min<std::size_t>(n.kids.size(), 2);
    std::array<Typed, 2> a{};
    for (std::size_t i = 0; i < arity; ++i) {
      a[i] = to_term(n.kids[i], em);
      if (a[i].width == 0)
        fail(nodes_[n.kids[i]].pos,
             "type error: '" + word + "' expects bit-vector operands, got " + type_name(a[i]));
    }
    const unsigned w = a[0].width;
    if (arity == 2 && n.bv != BvOp::Concat && a[1].width != w)
      fail(nodes_[n.kids[1]].pos, "type error: operands of '" + word + "' have different widths (" +
                                      type_name(a[0]) + " and " + type_name(a[1]) + ")");
    const Term x = a[0].term, y = arity == 2 ? a[1].term : Term();
    return guarded(n.pos, [&]() -> Typed {
      switch (n.bv) {
        case BvOp::Add: return {bv.add(x, y, w), w};
        case BvOp::Sub: return {bv.sub(x, y, w), w};
        case BvOp::Mul: return {bv.mul(x, y, w), w};
        case BvOp::Udiv: return {bv.udiv(x, y, w), w};
        case BvOp::Urem: return {bv.urem(x, y, w), w};
        case BvOp::Sdiv: return {bv.sdiv(x, y, w), w};
        case BvOp::Srem: return {bv.srem(x, y, w), w};
        case BvOp::Smod: return {bv.smod(x, y, w), w};
        case BvOp::Or: return {bv.bit_or(x, y, w), w};
        case BvOp::And: return {bv.bit_and(x, y, w), w};
        case BvOp::Xor: return {bv.bit_xor(x, y, w), w};
        case BvOp::Shl: return {bv.shl(x, y, w), w};
        case BvOp::Lshr: return {bv.lshr(x, y, w), w};
        case BvOp::Ashr: return {bv.ashr(x, y, w), w};
        case BvOp::Rol: return {bv.rol(x, y, w), w};
        case BvOp::Ror: return {bv.ror(x, y, w), w};
        case BvOp::Ult: return {bv.ult(x, y)};
        case BvOp::Ule: return {bv.ule(x, y)};
        case BvOp::Ugt: return {bv.ult(y, x)};
        case BvOp::Uge: return {bv.ule(y, x)};
        case BvOp::Slt: return {bv.slt(x, y, w)};
        case BvOp::Sle: return {bv.sle(x, y, w)};
        case BvOp::Sgt: return {bv.slt(y, x, w)};
        case BvOp::Sge: return {bv.sle(y, x, w)};
        case BvOp::Neg: return {bv.neg(x, w), w};
        case BvOp::Pos: return {x, w};
        case BvOp::Not: return {bv.bit_not(x, w), w};
        case BvOp::Concat: {
          const unsigned m = a[1].width;
          if (w + m > BitVectorTerms::max_width)
            fail(n.pos, "unsupported concatenation of " + type_name(a[0]) + " and " +
                            type_name(a[1]) +
                            ": wider than 64 bits (precis reads bit-vectors "
                            "of 1 to 64 bits)");
          return {bv.concat(x, y, m), w + m};
        }
        case BvOp::ZeroExt:
        case BvOp::SignExt:
          if (n.width < w)
            fail(n.pos, "type error: '" + word + "' to bv[" + std::to_string(n.width) +
                            "] from the wider " + type_name(a[0]));
          return {n.bv == BvOp::ZeroExt ? bv.zero_extend(x) : bv.sign_extend(x, w, n.width),
                  n.width};
        case BvOp::Extract: {
          const auto hi = n.value, lo = n.value2;
          if (hi > static_cast<std::int64_t>(w))
            fail(n.pos, "extraction [" + std::to_string(hi) + ":" + std::to_string(lo) +
                            "] outside the bits of " + type_name(a[0]) + " (0.." +
                            std::to_string(w - 1) + ")");
          return {bv.extract(x, static_cast<unsigned>(hi), static_cast<unsigned>(lo), w),
                  static_cast<unsigned>(hi - lo)};
        }
        case BvOp::None:
        case BvOp::Lit: break;
      }
      fail(n.pos, "unsupported operator '" + word + "'");  // unreachable
    });
  }

 public:
  // The CFA of the parsed file.
  Cfa run() {
    if (!main_) fail(end_pos_, "no main process (expected 'main process NAME { ... }')");
    const Process& p = *main_;
    CfaBuilder b;
    std::unordered_map<std::string_view, Pos> declared_at;
    auto declare = [&](const VarDecl& d) {
      if (auto it = declared_at.find(d.name); it != declared_at.end())
        fail(d.pos, "duplicate declaration of variable '" + std::string(d.name) +
                        "' (first declared at line " + std::to_string(it->second.line) + ")");
      declared_at.emplace(d.name, d.pos);
      vars_.emplace(d.name, VarInfo{b.var(std::string(d.name), d.type.type), d.type});
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
    // A bv[N] variable holds a value in [0, 2^N): at the start and after each havoc.
    BitVectorTerms bv(em);
    auto in_range = [&](const VarInfo& v) {
      const Term x = em.var(v.id);
      return em.and_(em.le(em.int_val(0), x), em.lt(x, bv.pow2k(v.type.width)));
    };
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
            const Typed c = to_term(s.expr, em);
            if (!c.term.is_bool())
              fail(
                  nodes_[s.expr].pos,
                  std::string("type error: 'assume' needs a bool expression, got ") + type_name(c));
            ops.emplace_back(Assume{c.term}, line);
            break;
          }
          case StmtKind::Havoc: {
            auto it = vars_.find(s.var);
            if (it == vars_.end()) fail(s.var_pos, "unknown variable '" + std::string(s.var) + "'");
            ops.emplace_back(Havoc{it->second.id}, line);
            if (it->second.type.width > 0) ops.emplace_back(Assume{in_range(it->second)}, line);
            break;
          }
          case StmtKind::Assign: {
            auto it = vars_.find(s.var);
            if (it == vars_.end()) fail(s.var_pos, "unknown variable '" + std::string(s.var) + "'");
            const Typed v = to_term(s.expr, em);
            const VarType& target = it->second.type;
            if (v.term.type() != target.type || v.width != target.width)
              fail(nodes_[s.expr].pos, "type error: cannot assign a " + type_name(v) +
                                           " expression to " +
                                           type_name(target.type, target.width) + " variable '" +
                                           std::string(s.var) + "'");
            ops.emplace_back(Assign{it->second.id, v.term}, line);
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
    std::vector<Term> ranges;
    std::optional<Pos> first_bv;
    for (const std::vector<VarDecl>* decls : {&std::as_const(globals_), &p.vars})
      for (const VarDecl& d : *decls)
        if (d.type.width > 0) {
          ranges.push_back(in_range(vars_.at(d.name)));
          if (!first_bv) first_bv = d.pos;
        }
    if (ranges.empty()) {
      b.initial(*init);
    } else {  // a new first edge, on the line of the first bv declaration
      const Loc start = b.fresh_location(0);
      b.edge(start, *init, Assume{em.conj(ranges)}, static_cast<std::uint32_t>(first_bv->line));
      b.initial(start);
    }
    if (err) b.error(*err);
    if (fin) b.final_(*fin);
    try {
      return std::move(b).build();
    } catch (const std::invalid_argument& e) {
      fail(p.pos, e.what());  // unreachable: the checks above come first
    }
  }

 private:
  std::string file_;
  std::vector<Node> nodes_;
  std::vector<VarDecl> globals_;
  std::optional<Process> main_;
  Pos end_pos_;
  std::unordered_map<std::string_view, VarInfo> vars_;
};

}  // namespace cfa_reader_detail

// Parses .cfa text; `filename` is used in error positions only.
inline Cfa parse_cfa(std::string_view text, const std::string& filename) {
  return cfa_reader_detail::Resolver(cfa_reader_detail::Parser(text, filename).parse()).run();
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
