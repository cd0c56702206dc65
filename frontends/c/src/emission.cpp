// The C front end's CFA emission: locations, edges (under the edge budget and the
// deadline), variables and temporaries; errors and the source positions of edges.

#include <cstdint>
#include <string>
#include <utility>

#include "translator.hpp"

namespace precis::c::detail {

// ---- errors -----------------------------------------------------------------------------

void Translator::unsupported(clang::SourceLocation loc, const std::string& what) const {
  throw input_error(position_of(sm_, loc, file_), "unsupported: " + what);
}

void Translator::unsupported(const clang::Stmt* s, const std::string& what) const {
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) unsupported(e->getExprLoc(), what);
  unsupported(s->getBeginLoc(), what);
}

std::uint32_t Translator::line_of(clang::SourceLocation loc) const {
  auto pos = position_of(sm_, loc, file_);
  return static_cast<std::uint32_t>(pos.line);
}

std::uint32_t Translator::column_of(clang::SourceLocation loc) const {
  auto pos = position_of(sm_, loc, file_);
  return static_cast<std::uint32_t>(pos.column);
}

// A loop statement's head location, with the statement's position (a correctness
// witness's loop invariant is placed there).
void Translator::mark_loop_head(Loc l, clang::SourceLocation loc) {
  b_.loop_head(l, line_of(loc), column_of(loc));
}

// The source position the next edges get (witnesses need line and column).
void Translator::at(clang::SourceLocation loc) {
  auto pos = position_of(sm_, loc, file_);
  line_ = static_cast<std::uint32_t>(pos.line);
  col_ = static_cast<std::uint32_t>(pos.column);
}

// ---- CFA emission -----------------------------------------------------------------------

Loc Translator::fresh() {
  const Loc l = b_.fresh_location(cur_function());
  if (!frames_.empty()) b_.instance(l, frames_.back().instance);
  return l;
}

// Every CFA edge goes through here: the edge budget and the deadline are checked.
CfaEdge Translator::edge(Loc from, Loc to, Operation op, std::uint32_t line, std::uint32_t column) {
  const CfaEdge e = b_.edge(from, to, std::move(op), line, column);
  if ((++edges_ & 1023) == 0) {
    opt_.deadline.check();
    if (edges_ > opt_.max_cfa_edges)
      throw limit_reached(LimitKind::Memory, "the program has more than " +
                                                 std::to_string(opt_.max_cfa_edges) +
                                                 " CFA edges after inlining");
  }
  return e;
}

CfaEdge Translator::emit(Operation op) {
  Loc n = fresh();
  const CfaEdge e = edge(cur_, n, std::move(op), line_, col_);
  cur_ = n;
  return e;
}

// After break/continue/goto/return/error: what follows is unreachable until a label.
void Translator::jump_and_cut(Loc to) {
  jump(to);
  cur_ = fresh();
}

std::uint32_t Translator::function_index(const std::string& name) {
  if (auto it = fn_index_.find(name); it != fn_index_.end()) return it->second;
  std::uint32_t i = b_.function(name);
  fn_index_.emplace(name, i);
  return i;
}

std::string Translator::unique_name(const std::string& base) {
  if (names_.insert(base).second) return base;
  for (int k = 2;; ++k) {
    std::string n = base + "#" + std::to_string(k);
    if (names_.insert(n).second) return n;
  }
}

VarId Translator::new_var(const std::string& name, std::uint32_t scope, Type type) {
  const VarId v = em_.declare(unique_name(name), type, scope);
  // In a procedure's code (procedures.cpp): a variable of its activations.
  if (owner_ != nullptr && scope != global_scope) owner_->owned.push_back(v);
  return v;
}

VarId Translator::new_temp(Type type) {
  std::string p = frames_.empty() ? std::string("__global") : frames_.back().prefix;
  return new_var(p + "::__tmp" + std::to_string(temps_++),
                 frames_.empty() ? global_scope : cur_function(), type);
}

// The term's current value, kept safe from later side effects.
Term Translator::snapshot(Term t) {
  if (t.is_const()) return t;
  VarId v = new_temp(is_float(t.type()) ? t.type() : Type::Int);
  emit(Assign{v, as_int(t)});
  return em_.var(v);
}

}  // namespace precis::c::detail
