// The C front end: clang's typed AST to a precis CFA. Semantics: docs/c-frontend.md.
//
// The translator walks statements with a "current location" and emits one edge per
// operation. Expressions are translated to pure terms; their side effects (assignments,
// calls, ++/--) are emitted as edges first, in left-to-right order, and an operand whose
// value a later side effect could change is saved in a temporary before it.

#include "precis/frontends/c/c_frontend.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "precis/cfa/builder.hpp"
#include "precis/cfa/cleanup.hpp"
#include "precis/expr/eval.hpp"

#ifndef PRECIS_CLANG_RESOURCE_DIR
#define PRECIS_CLANG_RESOURCE_DIR ""
#endif

namespace precis::c {
namespace {

// ---- integer types ----------------------------------------------------------------------

struct IntType {
  unsigned width = 32;
  bool is_signed = true;
  bool is_bool = false;

  [[nodiscard]] std::int64_t min() const {
    if (is_bool || !is_signed) return 0;
    return width >= 64 ? INT64_MIN : -(std::int64_t{1} << (width - 1));
  }
  [[nodiscard]] std::int64_t max() const {
    if (is_bool) return 1;
    if (is_signed) return width >= 64 ? INT64_MAX : (std::int64_t{1} << (width - 1)) - 1;
    return (std::int64_t{1} << width) - 1;  // width < 64: 64-bit unsigned is unsupported
  }
  [[nodiscard]] bool fits_in(const IntType& o) const {
    return o.min() <= min() && max() <= o.max();
  }
};

// ---- diagnostics ------------------------------------------------------------------------

SourcePosition position_of(const clang::SourceManager& sm, clang::SourceLocation loc,
                           const std::string& fallback_file) {
  SourcePosition pos{fallback_file, 0, 0};
  if (loc.isInvalid()) return pos;
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid()) return pos;
  pos.file = p.getFilename();
  pos.line = p.getLine();
  pos.column = p.getColumn();
  return pos;
}

// Keeps the first error clang reports; turned into an input_error after parsing.
class FirstErrorConsumer : public clang::DiagnosticConsumer {
 public:
  explicit FirstErrorConsumer(std::string file) : file_(std::move(file)) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error || error_) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    SourcePosition pos{file_, 0, 0};
    if (info.hasSourceManager())
      pos = position_of(info.getSourceManager(), info.getLocation(), file_);
    error_ = std::make_pair(pos, std::string(text.str()));
  }
  [[nodiscard]] const std::optional<std::pair<SourcePosition, std::string>>& error() const {
    return error_;
  }

 private:
  std::string file_;
  std::optional<std::pair<SourcePosition, std::string>> error_;
};

// ---- the translator ---------------------------------------------------------------------

class Translator {
 public:
  Translator(clang::ASTContext& ctx, std::string file, const TranslateOptions& opt)
      : ctx_(ctx),
        sm_(ctx.getSourceManager()),
        file_(std::move(file)),
        opt_(opt),
        em_(b_.exprs()) {}

  Cfa run() {
    clang::TranslationUnitDecl* tu = ctx_.getTranslationUnitDecl();
    const clang::FunctionDecl* entry = nullptr;
    for (clang::Decl* d : tu->decls())
      if (auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d))
        if (fd->getNameAsString() == opt_.entry && fd->hasBody()) entry = fd->getDefinition();
    if (entry == nullptr)
      throw input_error(SourcePosition{file_, 0, 0},
                        "no definition of the entry function '" + opt_.entry + "'");

    Loc init = b_.location("init");
    error_ = b_.location("error");
    final_ = b_.location("final");
    sink_ = b_.location("sink");
    b_.initial(init);
    b_.error(error_);
    b_.final_(final_);
    cur_ = init;

    declare_globals(tu);

    // The entry function is the outermost frame; its end is the final location.
    Frame f;
    f.fn = entry;
    f.index = function_index(entry->getNameAsString());
    f.prefix = entry->getNameAsString();
    f.instance = b_.instance(f.prefix);
    f.exit = final_;
    b_.instance(final_, f.instance);
    b_.instance(cur_, f.instance);  // the entry function's code starts here
    frames_.push_back(std::move(f));
    for (const clang::ParmVarDecl* p : entry->parameters()) {
      // main(int argc, char** argv): integer parameters are arbitrary values; others
      // are reported if they are used.
      if (!p->getType()->isIntegralOrEnumerationType()) continue;
      IntType t = int_type(p->getType(), p->getLocation());
      VarId v = new_var(frames_.back().prefix + "::" + p->getNameAsString(), frames_.back().index);
      frames_.back().locals[p] = v;
      emit(Havoc{v});
      emit(Assume{in_range(em_.var(v), t)});
    }
    at(entry->getBody()->getBeginLoc());
    stmt(entry->getBody());
    jump(final_);
    frames_.pop_back();

    Cfa cfa = std::move(b_).build();
    if (opt_.cleanup) {
      CleanupOptions co;
      co.large_block = opt_.large_block;
      co.deadline = opt_.deadline;
      return cleanup(cfa, co);
    }
    return cfa;
  }

  // Where the translation is (for errors raised outside a construct's own check).
  [[nodiscard]] SourcePosition position() const {
    return SourcePosition{file_, line_, line_ != 0 ? 1U : 0U};
  }

 private:
  struct Frame {
    const clang::FunctionDecl* fn = nullptr;
    std::uint32_t index = 0;
    std::string prefix;
    std::uint32_t instance = 0;  // the CFA's tag of this inlined instance (cfa/cfa.hpp)
    std::unordered_map<const clang::VarDecl*, VarId> locals;
    std::unordered_map<const clang::LabelDecl*, Loc> labels;
    Loc exit{};
    std::optional<VarId> ret;
    IntType ret_type;
  };
  struct SwitchContext {
    std::unordered_map<const clang::SwitchCase*, Loc> cases;
  };

  // ---- errors -------------------------------------------------------------------------
  [[noreturn]] void unsupported(clang::SourceLocation loc, const std::string& what) const {
    throw input_error(position_of(sm_, loc, file_), "unsupported: " + what);
  }
  [[noreturn]] void unsupported(const clang::Stmt* s, const std::string& what) const {
    if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) unsupported(e->getExprLoc(), what);
    unsupported(s->getBeginLoc(), what);
  }
  // Bounds the recursion of the translation over nested expressions and statements.
  class Nesting {
   public:
    Nesting(Translator& t, const clang::Stmt* s) : t_(t) {
      if (++t_.nesting_ > t_.opt_.max_nesting) {
        --t_.nesting_;
        const clang::SourceLocation loc =
            llvm::isa<clang::Expr>(s) ? llvm::cast<clang::Expr>(s)->getExprLoc() : s->getBeginLoc();
        throw input_error(position_of(t_.sm_, loc, t_.file_),
                          "expression or statement nested deeper than " +
                              std::to_string(t_.opt_.max_nesting) + " levels");
      }
    }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    ~Nesting() { --t_.nesting_; }

   private:
    Translator& t_;
  };

  std::uint32_t line_of(clang::SourceLocation loc) const {
    auto pos = position_of(sm_, loc, file_);
    return static_cast<std::uint32_t>(pos.line);
  }
  std::uint32_t column_of(clang::SourceLocation loc) const {
    auto pos = position_of(sm_, loc, file_);
    return static_cast<std::uint32_t>(pos.column);
  }
  // A loop statement's head location, with the statement's position (a correctness
  // witness's loop invariant is placed there).
  void mark_loop_head(Loc l, clang::SourceLocation loc) {
    b_.loop_head(l, line_of(loc), column_of(loc));
  }
  // The source position the next edges get (witnesses need line and column).
  void at(clang::SourceLocation loc) {
    auto pos = position_of(sm_, loc, file_);
    line_ = static_cast<std::uint32_t>(pos.line);
    col_ = static_cast<std::uint32_t>(pos.column);
  }

  // ---- types --------------------------------------------------------------------------
  IntType int_type(clang::QualType qt, clang::SourceLocation where) const {
    clang::QualType t = qt.getCanonicalType().getUnqualifiedType();
    const std::string name = qt.getAsString();
    if (t->isBooleanType()) return IntType{1, false, true};
    if (t->isPointerType() || t->isFunctionPointerType())
      unsupported(where, "pointer type '" + name + "'");
    if (t->isArrayType()) unsupported(where, "array type '" + name + "'");
    if (t->isRecordType()) unsupported(where, "struct or union type '" + name + "'");
    if (t->isRealFloatingType() || t->isAnyComplexType())
      unsupported(where, "floating-point type '" + name + "'");
    if (t->isVoidType()) unsupported(where, "use of a void value");
    if (const auto* et = t->getAs<clang::EnumType>()) t = et->getDecl()->getIntegerType();
    if (!t->isIntegerType()) unsupported(where, "type '" + name + "'");
    const auto w = static_cast<unsigned>(ctx_.getIntWidth(t));
    const bool s = t->isSignedIntegerType();
    if (w > 64 || (!s && w >= 64)) unsupported(where, "64-bit unsigned type '" + name + "'");
    return IntType{w, s, false};
  }
  IntType type_of(const clang::Expr* e) const { return int_type(e->getType(), e->getExprLoc()); }

  // ---- terms with constant folding ----------------------------------------------------
  Term fold(Term t) {
    for (std::size_t i = 0; i < t.num_args(); ++i)
      if (!t.arg(i).is_const()) return t;
    if (t.num_args() == 0) return t;
    auto v = evaluate(t, EmptyValuation{});
    if (!v) return t;
    return t.is_bool() ? em_.bool_val(*v != 0) : em_.int_val(*v);
  }
  Term mk(Op op, std::initializer_list<Term> args) { return fold(em_.mk(op, args)); }
  Term num(std::int64_t v) { return em_.int_val(v); }
  Term as_int(Term t) {
    if (!t.is_bool()) return t;
    if (t.is_const()) return num(t.value());
    return em_.ite(t, num(1), num(0));
  }
  Term as_bool(Term t) {
    if (t.is_bool()) return t;
    if (t.is_const()) return em_.bool_val(t.value() != 0);
    // ite(c, 1, 0) != 0 is c: keeps conditions on C's 0/1 results readable.
    if (t.op() == Op::Ite && t.arg(1).is_const() && t.arg(2).is_const() && t.arg(1).value() == 1 &&
        t.arg(2).value() == 0)
      return t.arg(0);
    return em_.neq(t, num(0));
  }
  Term lnot(Term b) {
    if (b.is_const()) return em_.bool_val(b.value() == 0);
    if (b.op() == Op::Not) return b.arg(0);
    if (b.op() == Op::Eq) return em_.neq(b.arg(0), b.arg(1));
    if (b.op() == Op::Neq) return em_.eq(b.arg(0), b.arg(1));
    if (b.op() == Op::Lt) return em_.ge(b.arg(0), b.arg(1));
    if (b.op() == Op::Le) return em_.gt(b.arg(0), b.arg(1));
    if (b.op() == Op::Gt) return em_.le(b.arg(0), b.arg(1));
    if (b.op() == Op::Ge) return em_.lt(b.arg(0), b.arg(1));
    return em_.not_(b);
  }
  Term in_range(Term x, IntType t) {
    return em_.and_(em_.le(num(t.min()), x), em_.le(x, num(t.max())));
  }

  // Conversion between integer types: wrap-around modulo 2^N into the target's range
  // where the source's range does not fit (gcc's behaviour for signed targets).
  Term convert(Term v, IntType from, IntType to) {
    if (to.is_bool) return as_bool(v);
    if (from.fits_in(to)) return v;
    Term x = as_int(v);
    const Term modulus = num(std::int64_t{1} << to.width);  // to.width < 64 here
    if (!to.is_signed) return mk(Op::Mod, {x, modulus});
    const Term half = num(std::int64_t{1} << (to.width - 1));
    return mk(Op::Sub, {mk(Op::Mod, {mk(Op::Add, {x, half}), modulus}), half});
  }
  Term wrap(Term v, IntType t) {
    if (t.is_signed || t.is_bool) return v;
    return mk(Op::Mod, {v, num(std::int64_t{1} << t.width)});
  }

  // Arithmetic of a C binary operator in type `t` (operands are already converted).
  Term arith(clang::BinaryOperatorKind op, Term l, Term r, IntType t, const clang::Expr* where) {
    Term a = as_int(l), b = as_int(r);
    switch (op) {
      case clang::BO_Add: return wrap(mk(Op::Add, {a, b}), t);
      case clang::BO_Sub: return wrap(mk(Op::Sub, {a, b}), t);
      case clang::BO_Mul: return wrap(mk(Op::Mul, {a, b}), t);
      case clang::BO_Div:
        if (!t.is_signed) return mk(Op::Div, {a, b});
        // C truncates towards zero; precis' div is Euclidean. Both agree for a >= 0.
        if (a.is_const() && a.value() >= 0) return mk(Op::Div, {a, b});
        return fold(em_.ite(em_.ge(a, num(0)), mk(Op::Div, {a, b}),
                            mk(Op::Neg, {mk(Op::Div, {mk(Op::Neg, {a}), b})})));
      case clang::BO_Rem:
        if (!t.is_signed) return mk(Op::Mod, {a, b});
        if (a.is_const() && a.value() >= 0) return mk(Op::Mod, {a, b});
        return fold(em_.ite(em_.ge(a, num(0)), mk(Op::Mod, {a, b}),
                            mk(Op::Neg, {mk(Op::Mod, {mk(Op::Neg, {a}), b})})));
      case clang::BO_LT: return mk(Op::Lt, {a, b});
      case clang::BO_GT: return mk(Op::Gt, {a, b});
      case clang::BO_LE: return mk(Op::Le, {a, b});
      case clang::BO_GE: return mk(Op::Ge, {a, b});
      case clang::BO_EQ:
        if (l.is_bool() && r.is_bool()) return mk(Op::Eq, {l, r});
        return mk(Op::Eq, {a, b});
      case clang::BO_NE:
        if (l.is_bool() && r.is_bool()) return mk(Op::Neq, {l, r});
        return mk(Op::Neq, {a, b});
      case clang::BO_Shl:
      case clang::BO_Shr:
      case clang::BO_And:
      case clang::BO_Or:
      case clang::BO_Xor:
        unsupported(where, std::string("bit operation '") +
                               clang::BinaryOperator::getOpcodeStr(op).str() + "'");
      default:
        unsupported(
            where, std::string("operator '") + clang::BinaryOperator::getOpcodeStr(op).str() + "'");
    }
  }

  // ---- CFA emission -------------------------------------------------------------------
  std::uint32_t cur_function() const { return frames_.empty() ? 0 : frames_.back().index; }
  Loc fresh() {
    const Loc l = b_.fresh_location(cur_function());
    if (!frames_.empty()) b_.instance(l, frames_.back().instance);
    return l;
  }
  // Every CFA edge goes through here: the edge budget and the deadline are checked.
  CfaEdge edge(Loc from, Loc to, Operation op, std::uint32_t line, std::uint32_t column = 0) {
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
  CfaEdge emit(Operation op) {
    Loc n = fresh();
    const CfaEdge e = edge(cur_, n, std::move(op), line_, col_);
    cur_ = n;
    return e;
  }
  void jump(Loc to) { edge(cur_, to, Skip{}, line_, col_); }
  // After break/continue/goto/return/error: what follows is unreachable until a label.
  void jump_and_cut(Loc to) {
    jump(to);
    cur_ = fresh();
  }

  std::uint32_t function_index(const std::string& name) {
    if (auto it = fn_index_.find(name); it != fn_index_.end()) return it->second;
    std::uint32_t i = b_.function(name);
    fn_index_.emplace(name, i);
    return i;
  }
  std::string unique_name(const std::string& base) {
    if (names_.insert(base).second) return base;
    for (int k = 2;; ++k) {
      std::string n = base + "#" + std::to_string(k);
      if (names_.insert(n).second) return n;
    }
  }
  VarId new_var(const std::string& name, std::uint32_t scope) {
    return em_.declare(unique_name(name), Type::Int, scope);
  }
  VarId new_temp() {
    std::string p = frames_.empty() ? std::string("__global") : frames_.back().prefix;
    return new_var(p + "::__tmp" + std::to_string(temps_++),
                   frames_.empty() ? global_scope : cur_function());
  }
  // The term's current value, kept safe from later side effects.
  Term snapshot(Term t) {
    if (t.is_const()) return t;
    VarId v = new_temp();
    emit(Assign{v, as_int(t)});
    return em_.var(v);
  }

  // ---- constants ----------------------------------------------------------------------
  std::int64_t to_int64(const llvm::APSInt& v, const clang::Expr* where) const {
    if (v.isSigned()) {
      if (v.getMinSignedBits() > 64) unsupported(where, "integer constant out of range");
      return v.getSExtValue();
    }
    if (v.getActiveBits() > 63) unsupported(where, "integer constant out of range");
    return static_cast<std::int64_t>(v.getZExtValue());
  }
  std::optional<std::int64_t> constant(const clang::Expr* e) const {
    clang::Expr::EvalResult r;
    if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx_)) return std::nullopt;
    return to_int64(r.Val.getInt(), e);
  }

  // ---- globals --------------------------------------------------------------------------
  void collect_static_locals(const clang::Stmt* s, std::vector<const clang::VarDecl*>& out) {
    if (s == nullptr) return;
    if (const auto* ds = llvm::dyn_cast<clang::DeclStmt>(s))
      for (const clang::Decl* d : ds->decls())
        if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(d); vd && vd->isStaticLocal())
          out.push_back(vd);
    for (const clang::Stmt* c : s->children()) collect_static_locals(c, out);
  }

  // Globals start at their initializer or 0 (C's static initialisation), set by edges
  // from the initial location; extern variables without a definition are arbitrary.
  void declare_globals(clang::TranslationUnitDecl* tu) {
    std::vector<const clang::VarDecl*> vars;
    for (clang::Decl* d : tu->decls()) {
      if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(d)) {
        if (vd->getCanonicalDecl() == vd) vars.push_back(vd);
      } else if (const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d)) {
        if (fd->doesThisDeclarationHaveABody()) collect_static_locals(fd->getBody(), vars);
      }
    }
    for (const clang::VarDecl* vd : vars) {
      const clang::VarDecl* def = vd->getDefinition();
      if (def == nullptr) def = vd->getActingDefinition();
      const clang::VarDecl* any = def != nullptr ? def : vd;
      at(any->getLocation());
      IntType t = int_type(any->getType(), any->getLocation());
      std::string name = any->getNameAsString();
      if (vd->isStaticLocal()) {
        const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(vd->getDeclContext());
        name = (fd != nullptr ? fd->getNameAsString() : std::string("static")) + "::" + name;
      }
      VarId v = new_var(name, global_scope);
      globals_[vd->getCanonicalDecl()] = v;
      const clang::Expr* init = nullptr;
      if (def != nullptr) init = def->getInit();
      if (def == nullptr) {
        emit(Havoc{v});
        emit(Assume{in_range(em_.var(v), t)});
      } else if (init != nullptr) {
        auto c = constant(init);
        if (!c) unsupported(init, "non-constant initializer of a global variable");
        emit(Assign{v, as_int(convert(num(*c), type_of(init), t))});
      } else {
        emit(Assign{v, num(0)});
      }
    }
  }

  // ---- variables --------------------------------------------------------------------------
  VarId lookup(const clang::VarDecl* vd, const clang::Expr* where) {
    if (vd->hasGlobalStorage() || vd->getCanonicalDecl()->hasExternalStorage()) {
      if (auto it = globals_.find(vd->getCanonicalDecl()); it != globals_.end()) return it->second;
      unsupported(where, "variable '" + vd->getNameAsString() + "' of unsupported kind");
    }
    if (!frames_.empty()) {
      auto& locals = frames_.back().locals;
      if (auto it = locals.find(vd); it != locals.end()) return it->second;
    }
    // Only a parameter of the entry function with a non-integer type gets here.
    int_type(vd->getType(), where->getExprLoc());
    unsupported(where, "variable '" + vd->getNameAsString() + "'");
  }
  VarId lvalue(const clang::Expr* e) {
    e = e->IgnoreParens();
    if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl())) return lookup(vd, e);
    if (llvm::isa<clang::ArraySubscriptExpr>(e)) unsupported(e, "array access");
    if (llvm::isa<clang::MemberExpr>(e)) unsupported(e, "struct member access");
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e);
        u && u->getOpcode() == clang::UO_Deref)
      unsupported(e, "pointer dereference");
    unsupported(e, "assignment to an expression that is not a variable");
  }

  // The call, if `e` is a call of a __VERIFIER_nondet_ function, possibly behind
  // value-preserving casts.
  const clang::CallExpr* nondet_call(const clang::Expr* e) const {
    e = e->IgnoreParens();
    while (const auto* ic = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
      if (ic->getCastKind() != clang::CK_NoOp && ic->getCastKind() != clang::CK_IntegralCast)
        return nullptr;
      e = ic->getSubExpr()->IgnoreParens();
    }
    const auto* ce = llvm::dyn_cast<clang::CallExpr>(e);
    if (ce == nullptr || ce->getDirectCallee() == nullptr) return nullptr;
    const std::string name = ce->getDirectCallee()->getNameAsString();
    if (name.rfind("__VERIFIER_nondet_", 0) != 0 || ce->getNumArgs() != 0) return nullptr;
    return ce;
  }

  // x := value of `rhs` (already converted to x's type by clang's implicit casts).
  void store(VarId x, IntType t, const clang::Expr* rhs) {
    if (const auto* ce = nondet_call(rhs)) {
      IntType rt = int_type(ce->getDirectCallee()->getReturnType(), ce->getExprLoc());
      if (rt.fits_in(t)) {  // x = __VERIFIER_nondet_T(): havoc x directly, no temporary
        at(ce->getExprLoc());
        b_.nondet(emit(Havoc{x}), ce->getDirectCallee()->getNameAsString());
        emit(Assume{in_range(em_.var(x), rt)});
        return;
      }
    }
    Term v = rvalue(rhs);
    emit(Assign{x, as_int(v)});
  }

  // ---- expressions ----------------------------------------------------------------------
  // Whether evaluating `e` can change a variable or the control flow.
  // Does evaluating s have side effects? An explicit stack: s may be nested 10^5 deep.
  bool impure(const clang::Stmt* s) const {
    std::vector<const clang::Stmt*> todo{s};
    while (!todo.empty()) {
      const clang::Stmt* x = todo.back();
      todo.pop_back();
      if (x == nullptr) continue;
      if (llvm::isa<clang::CallExpr>(x) || llvm::isa<clang::StmtExpr>(x)) return true;
      if (const auto* bo = llvm::dyn_cast<clang::BinaryOperator>(x); bo && bo->isAssignmentOp())
        return true;
      if (const auto* uo = llvm::dyn_cast<clang::UnaryOperator>(x);
          uo && uo->isIncrementDecrementOp())
        return true;
      if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(x)) continue;  // unevaluated
      for (const clang::Stmt* c : x->children()) todo.push_back(c);
    }
    return false;
  }

  // Evaluates `e` for its side effects only.
  void effect(const clang::Expr* e) {
    const Nesting nest(*this, e);
    if (!impure(e)) {
      // No edges, but unsupported constructs are still reported.
      (void)rvalue(e);
      return;
    }
    e = e->IgnoreParens();
    if (const auto* ce = llvm::dyn_cast<clang::CastExpr>(e)) return effect(ce->getSubExpr());
    if (const auto* ce = llvm::dyn_cast<clang::CallExpr>(e)) {
      call(ce, false);
      return;
    }
    if (const auto* bo = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      switch (bo->getOpcode()) {
        case clang::BO_Comma:
          effect(bo->getLHS());
          effect(bo->getRHS());
          return;
        case clang::BO_LAnd:
        case clang::BO_LOr: {
          Loc t = fresh(), j = fresh();
          if (bo->getOpcode() == clang::BO_LAnd)
            branch(bo->getLHS(), t, j);
          else
            branch(bo->getLHS(), j, t);
          cur_ = t;
          effect(bo->getRHS());
          jump(j);
          cur_ = j;
          return;
        }
        default: break;
      }
    }
    if (const auto* uo = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      if (uo->isIncrementDecrementOp()) {
        incdec(uo, false);
        return;
      }
      if (uo->getOpcode() == clang::UO_Extension) return effect(uo->getSubExpr());
    }
    if (const auto* co = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      Loc t = fresh(), f = fresh(), j = fresh();
      branch(co->getCond(), t, f);
      cur_ = t;
      effect(co->getTrueExpr());
      jump(j);
      cur_ = f;
      effect(co->getFalseExpr());
      jump(j);
      cur_ = j;
      return;
    }
    if (const auto* se = llvm::dyn_cast<clang::StmtExpr>(e)) {
      stmt(se->getSubStmt());
      return;
    }
    rvalue(e);
  }

  // The value of `e` as a pure term, after emitting its side effects.
  Term rvalue(const clang::Expr* e) {
    const Nesting nest(*this, e);
    if (const auto* p = llvm::dyn_cast<clang::ParenExpr>(e)) return rvalue(p->getSubExpr());
    if (const auto* il = llvm::dyn_cast<clang::IntegerLiteral>(e)) {
      (void)type_of(il);
      return num(to_int64(llvm::APSInt(il->getValue(), !il->getType()->isSignedIntegerType()), e));
    }
    if (llvm::isa<clang::CharacterLiteral>(e) || llvm::isa<clang::UnaryExprOrTypeTraitExpr>(e) ||
        llvm::isa<clang::ConstantExpr>(e)) {
      if (auto c = constant(e)) return num(*c);
      unsupported(e, "non-constant expression");
    }
    if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl()))
        return em_.var(lookup(vd, e));
      if (const auto* ec = llvm::dyn_cast<clang::EnumConstantDecl>(dr->getDecl()))
        return num(to_int64(ec->getInitVal(), e));
      if (llvm::isa<clang::FunctionDecl>(dr->getDecl())) unsupported(e, "function pointer");
      unsupported(e, "reference to '" + dr->getDecl()->getNameAsString() + "'");
    }
    if (const auto* ce = llvm::dyn_cast<clang::CastExpr>(e)) return cast(ce);
    if (const auto* uo = llvm::dyn_cast<clang::UnaryOperator>(e)) return unary(uo);
    if (const auto* bo = llvm::dyn_cast<clang::BinaryOperator>(e)) return binary(bo);
    if (const auto* co = llvm::dyn_cast<clang::ConditionalOperator>(e)) return conditional(co);
    if (const auto* ce = llvm::dyn_cast<clang::CallExpr>(e)) return call(ce, true);
    if (const auto* se = llvm::dyn_cast<clang::StmtExpr>(e)) {
      // GNU ({ ...; e; }): the value of the last expression statement.
      const clang::CompoundStmt* cs = se->getSubStmt();
      const clang::Stmt* last = cs->body_empty() ? nullptr : cs->body_back();
      for (const clang::Stmt* s : cs->body())
        if (s != last) stmt(s);
      if (const auto* le = llvm::dyn_cast_or_null<clang::Expr>(last)) return rvalue(le);
      if (last != nullptr) stmt(last);
      return num(0);
    }
    if (llvm::isa<clang::ArraySubscriptExpr>(e)) unsupported(e, "array access");
    if (llvm::isa<clang::MemberExpr>(e)) unsupported(e, "struct member access");
    if (llvm::isa<clang::FloatingLiteral>(e)) unsupported(e, "floating-point constant");
    if (llvm::isa<clang::StringLiteral>(e)) unsupported(e, "string literal");
    if (llvm::isa<clang::InitListExpr>(e)) unsupported(e, "initializer list");
    if (llvm::isa<clang::BinaryConditionalOperator>(e))
      unsupported(e, "GNU '?:' with omitted operand");
    unsupported(e, std::string("expression '") + e->getStmtClassName() + "'");
  }

  Term cast(const clang::CastExpr* ce) {
    const clang::Expr* sub = ce->getSubExpr();
    switch (ce->getCastKind()) {
      case clang::CK_LValueToRValue:
      case clang::CK_NoOp: return rvalue(sub);
      case clang::CK_IntegralCast: {
        IntType to = type_of(ce);
        IntType from = type_of(sub);
        return convert(rvalue(sub), from, to);
      }
      case clang::CK_IntegralToBoolean: return as_bool(rvalue(sub));
      case clang::CK_ToVoid: effect(sub); return num(0);
      default: break;
    }
    const clang::QualType to = ce->getType(), from = sub->getType();
    if (to->isAnyPointerType() || from->isAnyPointerType() || to->isArrayType() ||
        from->isArrayType() || from->isFunctionType())
      unsupported(ce, "pointer conversion");
    if (to->isRealFloatingType() || from->isRealFloatingType())
      unsupported(ce, "floating-point conversion");
    unsupported(ce, std::string("cast '") + ce->getCastKindName() + "'");
  }

  Term unary(const clang::UnaryOperator* uo) {
    const clang::Expr* sub = uo->getSubExpr();
    switch (uo->getOpcode()) {
      case clang::UO_Plus:
      case clang::UO_Extension: return rvalue(sub);
      case clang::UO_Minus: return wrap(mk(Op::Neg, {as_int(rvalue(sub))}), type_of(uo));
      case clang::UO_LNot: return lnot(as_bool(rvalue(sub)));
      case clang::UO_Not: unsupported(uo, "bit operation '~'");
      case clang::UO_AddrOf: unsupported(uo, "address-of operator '&'");
      case clang::UO_Deref: unsupported(uo, "pointer dereference");
      case clang::UO_PreInc:
      case clang::UO_PreDec:
      case clang::UO_PostInc:
      case clang::UO_PostDec: return incdec(uo, true);
      default:
        unsupported(uo, std::string("operator '") +
                            clang::UnaryOperator::getOpcodeStr(uo->getOpcode()).str() + "'");
    }
  }

  // ++/--: x = (T)((promoted)x ± 1).
  Term incdec(const clang::UnaryOperator* uo, bool need_value) {
    const clang::Expr* sub = uo->getSubExpr();
    VarId x = lvalue(sub);
    IntType t = type_of(sub);
    clang::QualType pq = sub->getType();
    if (pq->isPromotableIntegerType()) pq = ctx_.getPromotedIntegerType(pq);
    IntType p = int_type(pq, uo->getExprLoc());
    Term old = em_.var(x);
    if (need_value && uo->isPostfix()) old = snapshot(old);
    Term one = num(1);
    Term nv = arith(uo->isIncrementOp() ? clang::BO_Add : clang::BO_Sub, em_.var(x), one, p, uo);
    at(uo->getExprLoc());
    emit(Assign{x, as_int(convert(nv, p, t))});
    return uo->isPostfix() ? old : em_.var(x);
  }

  Term binary(const clang::BinaryOperator* bo) {
    const clang::BinaryOperatorKind op = bo->getOpcode();
    if (op == clang::BO_Assign) {
      VarId x = lvalue(bo->getLHS());
      store(x, type_of(bo->getLHS()), bo->getRHS());
      return em_.var(x);
    }
    if (const auto* ca = llvm::dyn_cast<clang::CompoundAssignOperator>(bo)) {
      VarId x = lvalue(ca->getLHS());
      IntType lt = type_of(ca->getLHS());
      IntType ct = int_type(ca->getComputationLHSType(), ca->getExprLoc());
      IntType rt = int_type(ca->getComputationResultType(), ca->getExprLoc());
      Term r = rvalue(ca->getRHS());
      Term l = convert(em_.var(x), lt, ct);
      Term v = arith(clang::BinaryOperator::getOpForCompoundAssignment(op), l, r, rt, ca);
      emit(Assign{x, as_int(convert(v, rt, lt))});
      return em_.var(x);
    }
    if (op == clang::BO_Comma) {
      effect(bo->getLHS());
      return rvalue(bo->getRHS());
    }
    if (op == clang::BO_LAnd || op == clang::BO_LOr) {
      if (!impure(bo->getRHS())) {
        Term l = as_bool(rvalue(bo->getLHS()));
        Term r = as_bool(rvalue(bo->getRHS()));
        return mk(op == clang::BO_LAnd ? Op::And : Op::Or, {l, r});
      }
      // The right operand has side effects: real short-circuit control flow.
      VarId tmp = new_temp();
      Loc t = fresh(), f = fresh(), j = fresh();
      branch(bo, t, f);
      cur_ = t;
      emit(Assign{tmp, num(1)});
      jump(j);
      cur_ = f;
      emit(Assign{tmp, num(0)});
      jump(j);
      cur_ = j;
      return em_.var(tmp);
    }
    if (auto sum = flat_chain(bo)) return *sum;
    Term l = rvalue(bo->getLHS());
    if (impure(bo->getRHS())) l = snapshot(l);
    Term r = rvalue(bo->getRHS());
    IntType t = bo->isComparisonOp() ? type_of(bo->getLHS()) : type_of(bo);
    return arith(op, l, r, t, bo);
  }

  // A left-deep chain a + b - c + ... (or a * b * ...) of one type and without side
  // effects becomes one n-ary term, built without recursion: a generated sum of 10^5
  // terms must neither overflow the stack nor make a term 10^5 deep. Wrapping an
  // unsigned result once at the end equals wrapping after every step (mod 2^N), and
  // signed arithmetic is on mathematical integers, so the value is the same.
  std::optional<Term> flat_chain(const clang::BinaryOperator* bo) {
    const clang::BinaryOperatorKind op = bo->getOpcode();
    const bool additive = op == clang::BO_Add || op == clang::BO_Sub;
    if (!additive && op != clang::BO_Mul) return std::nullopt;
    const clang::QualType type = bo->getType().getCanonicalType();
    std::vector<std::pair<const clang::Expr*, bool>> operands;  // (operand, subtracted)
    const clang::Expr* cur = bo;
    for (;;) {
      const auto* b = llvm::dyn_cast<clang::BinaryOperator>(cur->IgnoreParens());
      const bool same =
          b != nullptr && b->getType().getCanonicalType() == type &&
          (additive ? (b->getOpcode() == clang::BO_Add || b->getOpcode() == clang::BO_Sub)
                    : b->getOpcode() == clang::BO_Mul);
      if (!same) {
        operands.emplace_back(cur, false);
        break;
      }
      operands.emplace_back(b->getRHS(), b->getOpcode() == clang::BO_Sub);
      cur = b->getLHS();
    }
    if (operands.size() < 3) return std::nullopt;  // a plain binary operation
    for (const auto& [e, neg] : operands)
      if (impure(e)) return std::nullopt;
    std::reverse(operands.begin(), operands.end());
    std::vector<Term> args;
    args.reserve(operands.size());
    for (const auto& [e, neg] : operands) {
      Term x = as_int(rvalue(e));
      args.push_back(neg ? mk(Op::Neg, {x}) : x);
    }
    return wrap(fold(em_.mk(additive ? Op::Add : Op::Mul, args)), type_of(bo));
  }

  Term conditional(const clang::ConditionalOperator* co) {
    const bool is_void = co->getType()->isVoidType();
    if (!is_void && !impure(co->getTrueExpr()) && !impure(co->getFalseExpr())) {
      Term c = as_bool(rvalue(co->getCond()));
      Term a = rvalue(co->getTrueExpr()), b = rvalue(co->getFalseExpr());
      if (!(a.is_bool() && b.is_bool())) a = as_int(a), b = as_int(b);
      if (c.is_const()) return c.value() != 0 ? a : b;
      return em_.ite(c, a, b);
    }
    std::optional<VarId> tmp;
    if (!is_void) tmp = new_temp();
    Loc t = fresh(), f = fresh(), j = fresh();
    branch(co->getCond(), t, f);
    for (auto [loc, arm] : {std::pair{t, co->getTrueExpr()}, std::pair{f, co->getFalseExpr()}}) {
      cur_ = loc;
      if (tmp)
        emit(Assign{*tmp, as_int(rvalue(arm))});
      else
        effect(arm);
      jump(j);
    }
    cur_ = j;
    return tmp ? em_.var(*tmp) : num(0);
  }

  // Control flow on the truth of `e`: to `t` if it holds, to `f` if not. Pure
  // conditions become one assume pair; && || ! ?: , with side effects are unfolded.
  void branch(const clang::Expr* e, Loc t, Loc f) {
    const Nesting nest(*this, e);
    e = e->IgnoreParens();
    if (!impure(e)) {
      Term c = as_bool(rvalue(e));
      if (c.is_const()) {
        jump(c.value() != 0 ? t : f);
        return;
      }
      edge(cur_, t, Assume{c}, line_, col_);
      edge(cur_, f, Assume{lnot(c)}, line_, col_);
      return;
    }
    if (const auto* uo = llvm::dyn_cast<clang::UnaryOperator>(e);
        uo && uo->getOpcode() == clang::UO_LNot)
      return branch(uo->getSubExpr(), f, t);
    if (const auto* ic = llvm::dyn_cast<clang::ImplicitCastExpr>(e);
        ic &&
        (ic->getCastKind() == clang::CK_IntegralToBoolean || ic->getCastKind() == clang::CK_NoOp ||
         (ic->getCastKind() == clang::CK_IntegralCast &&
          type_of(ic->getSubExpr()).fits_in(type_of(ic)))))
      return branch(ic->getSubExpr(), t, f);
    if (const auto* bo = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      if (bo->getOpcode() == clang::BO_LAnd || bo->getOpcode() == clang::BO_LOr) {
        Loc mid = fresh();
        if (bo->getOpcode() == clang::BO_LAnd)
          branch(bo->getLHS(), mid, f);
        else
          branch(bo->getLHS(), t, mid);
        cur_ = mid;
        branch(bo->getRHS(), t, f);
        return;
      }
      if (bo->getOpcode() == clang::BO_Comma) {
        effect(bo->getLHS());
        return branch(bo->getRHS(), t, f);
      }
    }
    if (const auto* co = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      Loc ct = fresh(), cf = fresh();
      branch(co->getCond(), ct, cf);
      cur_ = ct;
      branch(co->getTrueExpr(), t, f);
      cur_ = cf;
      branch(co->getFalseExpr(), t, f);
      return;
    }
    Term c = as_bool(rvalue(e));
    if (c.is_const()) {
      jump(c.value() != 0 ? t : f);
      return;
    }
    edge(cur_, t, Assume{c}, line_, col_);
    edge(cur_, f, Assume{lnot(c)}, line_, col_);
  }

  // ---- calls ----------------------------------------------------------------------------
  // `function`: the nondeterministic function whose return value this is (witnesses
  // give its value as \result of that function).
  Term nondet_value(IntType t, const std::string& function) {
    VarId v = new_temp();
    b_.nondet(emit(Havoc{v}), function);
    emit(Assume{in_range(em_.var(v), t)});
    return em_.var(v);
  }

  Term call(const clang::CallExpr* ce, bool need_value) {
    at(ce->getExprLoc());
    const clang::FunctionDecl* callee = ce->getDirectCallee();
    if (callee == nullptr) unsupported(ce, "call through a function pointer");
    const std::string name = callee->getNameAsString();

    if (name == "reach_error" || name == "__VERIFIER_error" || name == "__assert_fail" ||
        name == "__assert_perror_fail" || name == "__assert") {
      // The call itself is the property violation; string arguments are not evaluated.
      jump_and_cut(error_);
      return num(0);
    }
    if (name == "abort" || name == "exit" || name == "_exit" || name == "_Exit" ||
        name == "__VERIFIER_abort") {
      for (const clang::Expr* a : ce->arguments()) effect(a);
      jump_and_cut(sink_);
      return num(0);
    }
    if (name == "__VERIFIER_assume") {
      if (ce->getNumArgs() != 1)
        unsupported(ce,
                    "__VERIFIER_assume with " + std::to_string(ce->getNumArgs()) + " arguments");
      Loc t = fresh(), f = fresh();  // f: the path ends there
      branch(ce->getArg(0), t, f);
      cur_ = t;
      return num(0);
    }
    if (name.rfind("__VERIFIER_nondet_", 0) == 0) {
      for (const clang::Expr* a : ce->arguments()) effect(a);
      if (callee->getReturnType()->isVoidType()) return num(0);
      return nondet_value(int_type(callee->getReturnType(), ce->getExprLoc()), name);
    }
    if (name == "__builtin_expect" && ce->getNumArgs() == 2) {
      Term v = rvalue(ce->getArg(0));
      effect(ce->getArg(1));
      return v;
    }
    const clang::FunctionDecl* def = callee->getDefinition();
    if (def == nullptr && name == "__VERIFIER_assert" && ce->getNumArgs() == 1) {
      Loc t = fresh();
      branch(ce->getArg(0), t, error_);
      cur_ = t;
      return num(0);
    }
    if (def != nullptr && def->hasBody()) return inline_call(def, ce, need_value);

    // A function without a definition.
    if (!opt_.unknown_functions_nondet)
      unsupported(ce, "call of undefined function '" + name + "'");
    for (const clang::Expr* a : ce->arguments()) {
      const clang::QualType t = a->IgnoreParenImpCasts()->getType();
      if (!t->isIntegralOrEnumerationType())
        unsupported(a, "call of undefined function '" + name + "' with a non-integer argument");
    }
    for (const clang::Expr* a : ce->arguments()) effect(a);
    const clang::QualType rt = callee->getReturnType();
    if (rt->isVoidType()) return num(0);
    if (!rt->isIntegralOrEnumerationType())
      unsupported(ce,
                  "call of undefined function '" + name + "' returning '" + rt.getAsString() + "'");
    IntType t = int_type(rt, ce->getExprLoc());
    if (!need_value) return num(0);
    return nondet_value(t, name);
  }

  // Inlines a call: fresh copies of parameters and locals for each call site.
  Term inline_call(const clang::FunctionDecl* def, const clang::CallExpr* ce, bool need_value) {
    opt_.deadline.check();
    const std::string name = def->getNameAsString();
    for (const Frame& fr : frames_)
      if (fr.fn == def) unsupported(ce, "recursive call of '" + name + "'");
    if (def->isVariadic()) unsupported(ce, "call of variadic function '" + name + "'");
    if (ce->getNumArgs() != def->getNumParams())
      unsupported(ce, "call of '" + name + "' with " + std::to_string(ce->getNumArgs()) +
                          " arguments for " + std::to_string(def->getNumParams()) + " parameters");

    Frame f;
    f.fn = def;
    f.index = function_index(name);
    const int instance = ++instances_[def];
    f.prefix = instance == 1 ? name : name + "#" + std::to_string(instance);
    f.instance = b_.instance(f.prefix);
    f.exit = b_.fresh_location(f.index);
    b_.instance(f.exit, f.instance);
    const clang::QualType rq = def->getReturnType();
    if (!rq->isVoidType()) {
      f.ret_type = int_type(rq, def->getLocation());
      f.ret = new_var(f.prefix + "::__retval", f.index);
    }
    // Arguments are evaluated in the caller, left to right, into the parameter copies.
    for (unsigned i = 0; i < def->getNumParams(); ++i) {
      const clang::ParmVarDecl* p = def->getParamDecl(i);
      IntType pt = int_type(p->getType(), p->getLocation());
      VarId v = new_var(f.prefix + "::" + p->getNameAsString(), f.index);
      f.locals[p] = v;
      const clang::Expr* a = ce->getArg(i);
      at(a->getExprLoc());
      IntType at = type_of(a);
      if (at.width == pt.width && at.is_signed == pt.is_signed && at.is_bool == pt.is_bool)
        store(v, pt, a);
      else  // a call without prototype: clang did not convert the argument
        emit(Assign{v, as_int(convert(rvalue(a), at, pt))});
    }
    frames_.push_back(std::move(f));
    const std::uint32_t saved_line = line_;
    at(def->getBody()->getBeginLoc());
    stmt(def->getBody());
    Frame& fr = frames_.back();
    if (fr.ret) emit(Havoc{*fr.ret});  // falling off the end: the value is indeterminate
    jump(fr.exit);
    cur_ = fr.exit;
    std::optional<VarId> ret = fr.ret;
    frames_.pop_back();
    line_ = saved_line;
    if (!ret || !need_value) return num(0);
    return em_.var(*ret);
  }

  // ---- statements -----------------------------------------------------------------------
  Loc label_location(const clang::LabelDecl* ld) {
    auto& labels = frames_.back().labels;
    if (auto it = labels.find(ld); it != labels.end()) return it->second;
    Loc l = fresh();
    labels.emplace(ld, l);
    return l;
  }

  void local_decl(const clang::VarDecl* vd) {
    at(vd->getLocation());
    if (vd->hasGlobalStorage() || vd->getCanonicalDecl()->hasExternalStorage())
      return;  // set up with the globals
    IntType t = int_type(vd->getType(), vd->getLocation());
    Frame& fr = frames_.back();
    VarId v = new_var(fr.prefix + "::" + vd->getNameAsString(), fr.index);
    fr.locals[vd] = v;
    if (const clang::Expr* init = vd->getInit()) {
      if (llvm::isa<clang::InitListExpr>(init)) unsupported(init, "initializer list");
      store(v, t, init);
    } else {
      // Uninitialised: any value of the type, also on every new execution of the block.
      emit(Havoc{v});
      emit(Assume{in_range(em_.var(v), t)});
    }
  }

  void stmt(const clang::Stmt* s) {
    if (s == nullptr) return;
    const Nesting nest(*this, s);
    at(s->getBeginLoc());
    switch (s->getStmtClass()) {
      case clang::Stmt::CompoundStmtClass:
        for (const clang::Stmt* c : llvm::cast<clang::CompoundStmt>(s)->body()) stmt(c);
        return;
      case clang::Stmt::NullStmtClass: return;
      case clang::Stmt::DeclStmtClass:
        for (const clang::Decl* d : llvm::cast<clang::DeclStmt>(s)->decls()) {
          if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(d)) local_decl(vd);
        }
        return;
      case clang::Stmt::IfStmtClass: {
        const auto* is = llvm::cast<clang::IfStmt>(s);
        Loc t = fresh(), f = fresh(), j = fresh();
        branch(is->getCond(), t, f);
        cur_ = t;
        stmt(is->getThen());
        jump(j);
        cur_ = f;
        stmt(is->getElse());
        jump(j);
        cur_ = j;
        return;
      }
      case clang::Stmt::WhileStmtClass: {
        const auto* ws = llvm::cast<clang::WhileStmt>(s);
        Loc head = fresh(), body = fresh(), exit = fresh();
        mark_loop_head(head, ws->getBeginLoc());
        jump(head);
        cur_ = head;
        branch(ws->getCond(), body, exit);
        loop_body(ws->getBody(), head, exit, body);
        jump(head);
        cur_ = exit;
        return;
      }
      case clang::Stmt::DoStmtClass: {
        const auto* ds = llvm::cast<clang::DoStmt>(s);
        Loc body = fresh(), cond = fresh(), exit = fresh();
        mark_loop_head(body, ds->getBeginLoc());  // every iteration starts at the body
        jump(body);
        loop_body(ds->getBody(), cond, exit, body);
        jump(cond);
        cur_ = cond;
        at(ds->getCond()->getExprLoc());
        branch(ds->getCond(), body, exit);
        cur_ = exit;
        return;
      }
      case clang::Stmt::ForStmtClass: {
        const auto* fs = llvm::cast<clang::ForStmt>(s);
        stmt(fs->getInit());
        Loc head = fresh(), body = fresh(), inc = fresh(), exit = fresh();
        mark_loop_head(head, fs->getBeginLoc());
        jump(head);
        cur_ = head;
        if (fs->getCond() != nullptr)
          branch(fs->getCond(), body, exit);
        else
          jump(body);
        loop_body(fs->getBody(), inc, exit, body);
        jump(inc);
        cur_ = inc;
        if (fs->getInc() != nullptr) {
          at(fs->getInc()->getExprLoc());
          effect(fs->getInc());
        }
        jump(head);
        cur_ = exit;
        return;
      }
      case clang::Stmt::BreakStmtClass:
        if (breaks_.empty()) unsupported(s, "break outside a loop or switch");
        jump_and_cut(breaks_.back());
        return;
      case clang::Stmt::ContinueStmtClass:
        if (continues_.empty()) unsupported(s, "continue outside a loop");
        jump_and_cut(continues_.back());
        return;
      case clang::Stmt::GotoStmtClass:
        jump_and_cut(label_location(llvm::cast<clang::GotoStmt>(s)->getLabel()));
        return;
      case clang::Stmt::LabelStmtClass: {
        const auto* ls = llvm::cast<clang::LabelStmt>(s);
        Loc l = label_location(ls->getDecl());
        jump(l);
        cur_ = l;
        stmt(ls->getSubStmt());
        return;
      }
      case clang::Stmt::ReturnStmtClass: {
        const auto* rs = llvm::cast<clang::ReturnStmt>(s);
        Frame& fr = frames_.back();
        if (const clang::Expr* v = rs->getRetValue()) {
          if (fr.ret)
            store(*fr.ret, fr.ret_type, v);
          else
            effect(v);
        }
        jump_and_cut(frames_.back().exit);
        return;
      }
      case clang::Stmt::SwitchStmtClass: switch_stmt(llvm::cast<clang::SwitchStmt>(s)); return;
      case clang::Stmt::CaseStmtClass:
      case clang::Stmt::DefaultStmtClass: {
        const auto* sc = llvm::cast<clang::SwitchCase>(s);
        if (switches_.empty()) unsupported(s, "case label outside a switch");
        Loc l = switches_.back()->cases.at(sc);
        jump(l);
        cur_ = l;
        stmt(sc->getSubStmt());
        return;
      }
      case clang::Stmt::IndirectGotoStmtClass: unsupported(s, "computed goto");
      case clang::Stmt::GCCAsmStmtClass:
      case clang::Stmt::MSAsmStmtClass: unsupported(s, "inline assembly");
      default: break;
    }
    if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) {
      at(e->getExprLoc());
      effect(e);
      return;
    }
    unsupported(s, std::string("statement '") + s->getStmtClassName() + "'");
  }

  void loop_body(const clang::Stmt* body, Loc cont, Loc brk, Loc start) {
    breaks_.push_back(brk);
    continues_.push_back(cont);
    cur_ = start;
    stmt(body);
    breaks_.pop_back();
    continues_.pop_back();
  }

  void switch_stmt(const clang::SwitchStmt* ss) {
    if (ss->getInit() != nullptr) stmt(ss->getInit());
    const clang::Expr* cond = ss->getCond();
    IntType ct = type_of(cond);
    Term v = as_int(rvalue(cond));
    Loc exit = fresh();
    SwitchContext sw;
    std::vector<Term> others;  // negations of all case conditions, for default
    std::optional<Loc> deflt;
    std::vector<const clang::SwitchCase*> cases;
    for (const clang::SwitchCase* sc = ss->getSwitchCaseList(); sc != nullptr;
         sc = sc->getNextSwitchCase())
      cases.push_back(sc);
    std::reverse(cases.begin(), cases.end());  // the list is in reverse source order
    const Loc dispatch = cur_;
    for (const clang::SwitchCase* sc : cases) {
      Loc l = fresh();
      sw.cases.emplace(sc, l);
      if (const auto* cs = llvm::dyn_cast<clang::CaseStmt>(sc)) {
        auto case_value = [&](const clang::Expr* e) {
          auto c = constant(e);
          if (!c) unsupported(e, "non-constant case label");
          return as_int(convert(num(*c), type_of(e), ct));
        };
        Term lo = case_value(cs->getLHS());
        Term c = mk(Op::Eq, {v, lo});
        if (cs->getRHS() != nullptr)  // GNU case range lo ... hi
          c = mk(Op::And, {mk(Op::Le, {lo, v}), mk(Op::Le, {v, case_value(cs->getRHS())})});
        edge(dispatch, l, Assume{c}, line_of(cs->getBeginLoc()), column_of(cs->getBeginLoc()));
        others.push_back(lnot(c));
      } else {
        deflt = l;
      }
    }
    edge(dispatch, deflt ? *deflt : exit, Assume{fold(em_.conj(others))},
         line_of(ss->getBeginLoc()));
    switches_.push_back(&sw);
    breaks_.push_back(exit);
    cur_ = fresh();  // code before the first case label is unreachable
    stmt(ss->getBody());
    jump(exit);
    breaks_.pop_back();
    switches_.pop_back();
    cur_ = exit;
  }

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  std::string file_;
  const TranslateOptions& opt_;
  CfaBuilder b_;
  ExprManager& em_;
  Loc cur_{};
  Loc error_{}, final_{}, sink_{};
  std::uint32_t line_ = 0;
  std::uint32_t col_ = 0;
  std::vector<Frame> frames_;
  std::vector<Loc> breaks_, continues_;
  std::vector<SwitchContext*> switches_;
  std::unordered_map<const clang::VarDecl*, VarId> globals_;
  std::unordered_map<std::string, std::uint32_t> fn_index_;
  std::unordered_map<const clang::FunctionDecl*, int> instances_;
  std::unordered_set<std::string> names_;
  std::size_t temps_ = 0;
  std::size_t edges_ = 0;
  std::uint32_t nesting_ = 0;
};

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(SourcePosition{path, 0, 0}, "cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

Cfa translate_source(const std::string& code, const std::string& file_name,
                     const TranslateOptions& options) {
  std::string resource =
      options.resource_dir.empty() ? std::string(PRECIS_CLANG_RESOURCE_DIR) : options.resource_dir;
  // `#pragma clang __debug crash` (and llvm_fatal_error, overflow_stack, ...) would
  // crash or hang the verifier on request of the input (found by fuzzing): off.
  std::vector<std::string> args{
      "-xc", "-std=gnu11", options.data_model == DataModel::ILP32 ? "-m32" : "-m64",
      "-w",  "-Xclang",    "-disable-pragma-debug-crash"};
  if (!resource.empty()) {
    args.emplace_back("-resource-dir");
    args.push_back(resource);
  }
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  options.deadline.check();
  FirstErrorConsumer diags(file_name);
  std::unique_ptr<clang::ASTUnit> ast = clang::tooling::buildASTFromCodeWithArgs(
      code, args, file_name, "precis-cfront", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(),
      &diags);
  if (diags.error()) throw input_error(diags.error()->first, diags.error()->second);
  if (!ast) throw input_error(SourcePosition{file_name, 0, 0}, "clang could not parse the file");
  options.deadline.check();
  Translator t(ast->getASTContext(), file_name, options);
  try {
    return t.run();
  } catch (const limit_reached& e) {
    // A term too deep for the recursive walkers over terms is a property of the input.
    if (e.kind() == LimitKind::Depth) throw input_error(t.position(), std::string(e.what()));
    throw;
  }
}

Cfa translate_file(const std::string& path, const TranslateOptions& options) {
  return translate_source(read_whole_file(path), path, options);
}

}  // namespace precis::c
