// The C front end's expressions: variables as lvalues and stores, side effects as edges,
// values as pure terms (casts, operators, ?:), and conditions as control flow (branch).

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

// ---- variables --------------------------------------------------------------------------

VarId Translator::lookup(const clang::VarDecl* vd, const clang::Expr* where) {
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

VarId Translator::lvalue(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e))
    if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl())) return lookup(vd, e);
  if (llvm::isa<clang::ArraySubscriptExpr>(e)) unsupported(e, "array access");
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e);
      u && u->getOpcode() == clang::UO_Deref)
    unsupported(e, "pointer dereference");
  unsupported(e, "assignment to an expression that is not a variable");
}

// The call, if `e` is a call of a __VERIFIER_nondet_ function, possibly behind
// value-preserving casts.
const clang::CallExpr* Translator::nondet_call(const clang::Expr* e) const {
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
void Translator::store(VarId x, IntType t, const clang::Expr* rhs) {
  if (const auto* ce = nondet_call(rhs)) {
    IntType rt = int_type(ce->getDirectCallee()->getReturnType(), ce->getExprLoc());
    if (rt.fits_in(t)) {  // x = __VERIFIER_nondet_T(): havoc x directly, no temporary
      at(ce->getExprLoc());
      b_.nondet(emit(Havoc{x}), ce->getDirectCallee()->getNameAsString());
      if (!rt.is_float()) emit(Assume{in_range(em_.var(x), rt)});
      return;
    }
  }
  Term v = rvalue(rhs);
  emit(Assign{x, as_int(v)});
}

// ---- expressions ------------------------------------------------------------------------

// Whether evaluating `e` can change a variable or the control flow (emits edges).
// An explicit stack: s may be nested 10^5 deep.
bool Translator::impure(const clang::Stmt* s) const {
  std::vector<const clang::Stmt*> todo{s};
  while (!todo.empty()) {
    const clang::Stmt* x = todo.back();
    todo.pop_back();
    if (x == nullptr) continue;
    if (llvm::isa<clang::CallExpr>(x) || llvm::isa<clang::StmtExpr>(x)) return true;
    if (const auto* bo = llvm::dyn_cast<clang::BinaryOperator>(x); bo && bo->isAssignmentOp())
      return true;
    if (const auto* uo = llvm::dyn_cast<clang::UnaryOperator>(x);
        uo && (uo->isIncrementDecrementOp() || uo->getOpcode() == clang::UO_Deref))
      return true;
    if (const auto* me = llvm::dyn_cast<clang::MemberExpr>(x); me && me->isArrow())
      return true;  // p->f is *p's member
    // An access through a variable index or a pointer emits its own edges (the path
    // ends outside the array or the objects, arrays.cpp, pointers.cpp): C evaluates it
    // only where it is reached, so `i < n && a[i] == 0` must stay control flow.
    if (const auto* as = llvm::dyn_cast<clang::ArraySubscriptExpr>(x);
        as && (!as->getIdx()->isEvaluatable(ctx_) ||
               !as->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()))
      return true;
    if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(x)) continue;  // unevaluated
    for (const clang::Stmt* c : x->children()) todo.push_back(c);
  }
  return false;
}

// Evaluates `e` for its side effects only.
void Translator::effect(const clang::Expr* e) {
  const Nesting nest(*this, e);
  // A string literal whose value is discarded (`("tag", f())`, instrumented code) does
  // nothing.
  if (llvm::isa<clang::StringLiteral>(e->IgnoreParenImpCasts())) return;
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
Term Translator::rvalue(const clang::Expr* e) {
  const Nesting nest(*this, e);
  if (const auto* p = llvm::dyn_cast<clang::ParenExpr>(e)) return rvalue(p->getSubExpr());
  if (const auto* il = llvm::dyn_cast<clang::IntegerLiteral>(e)) {
    (void)type_of(il);
    return big(to_big(llvm::APSInt(il->getValue(), !il->getType()->isSignedIntegerType()), e));
  }
  if (llvm::isa<clang::CharacterLiteral>(e) || llvm::isa<clang::UnaryExprOrTypeTraitExpr>(e) ||
      llvm::isa<clang::ConstantExpr>(e)) {
    if (auto c = constant_term(e)) return *c;
    if (auto v = vla_size(e)) return *v;  // arrays.cpp
    unsupported(e, "non-constant expression");
  }
  if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl()))
      return em_.var(lookup(vd, e));
    if (const auto* ec = llvm::dyn_cast<clang::EnumConstantDecl>(dr->getDecl()))
      return big(to_big(ec->getInitVal(), e));
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
  if (const auto* as = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) return load(element_place(as));
  if (const auto* me = llvm::dyn_cast<clang::MemberExpr>(e)) return load(member_place(me));
  if (const auto* fl = llvm::dyn_cast<clang::FloatingLiteral>(e)) return float_literal(fl);
  if (llvm::isa<clang::StringLiteral>(e)) unsupported(e, "string literal");
  if (llvm::isa<clang::InitListExpr>(e)) unsupported(e, "initializer list");
  if (llvm::isa<clang::BinaryConditionalOperator>(e))
    unsupported(e, "GNU '?:' with omitted operand");
  unsupported(e, std::string("expression '") + e->getStmtClassName() + "'");
}

Term Translator::cast(const clang::CastExpr* ce) {
  const clang::Expr* sub = ce->getSubExpr();
  switch (ce->getCastKind()) {
    case clang::CK_LValueToRValue:
    case clang::CK_NoOp: return rvalue(sub);
    case clang::CK_IntegralCast: {
      IntType to = type_of(ce);
      IntType from = type_of(sub);
      return convert(rvalue(sub), from, to);
    }
    case clang::CK_IntegralToBoolean:
    case clang::CK_FloatingToBoolean: return as_bool(rvalue(sub));
    case clang::CK_FloatingCast:
    case clang::CK_IntegralToFloating:
    case clang::CK_FloatingToIntegral: return convert(rvalue(sub), type_of(sub), type_of(ce));
    case clang::CK_ToVoid: effect(sub); return num(0);
    case clang::CK_NullToPointer:
    case clang::CK_ArrayToPointerDecay:
    case clang::CK_PointerToBoolean:
    case clang::CK_BitCast:
    case clang::CK_IntegralToPointer:
    case clang::CK_PointerToIntegral:
    case clang::CK_FunctionToPointerDecay: return pointer_cast(ce);  // pointers.cpp
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

Term Translator::unary(const clang::UnaryOperator* uo) {
  const clang::Expr* sub = uo->getSubExpr();
  switch (uo->getOpcode()) {
    case clang::UO_Plus:
    case clang::UO_Extension: return rvalue(sub);
    case clang::UO_Minus:
      if (type_of(uo).is_float()) return mk(Op::FpNeg, {rvalue(sub)});
      return wrap(mk(Op::Neg, {as_int(rvalue(sub))}), type_of(uo));
    case clang::UO_LNot: return lnot(as_bool(rvalue(sub)));
    case clang::UO_Not: return bit_not(as_int(rvalue(sub)), type_of(uo));
    case clang::UO_AddrOf: return address_of(uo);  // pointers.cpp
    case clang::UO_Deref: return load(deref_place(rvalue(sub), uo->getType(), uo));
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
Term Translator::incdec(const clang::UnaryOperator* uo, bool need_value) {
  const clang::Expr* sub = uo->getSubExpr();
  const Place x = place(sub);
  if (is_struct_pointer(sub->getType())) {  // steps of the struct's leaf count (structs.cpp)
    refuse_handle_access(sub->getType()->getPointeeType(), uo, "arithmetic");  // calls.cpp
    Term old = load(x);
    if (need_value && uo->isPostfix()) old = snapshot(old);
    const auto w = static_cast<std::int64_t>(struct_stride(sub));
    at(uo->getExprLoc());
    write(x, mk(uo->isIncrementOp() ? Op::Add : Op::Sub, {load(x), num(w)}));
    return uo->isPostfix() ? old : load(x);
  }
  IntType t = type_of(sub);
  clang::QualType pq = sub->getType();
  if (pq->isPromotableIntegerType()) pq = ctx_.getPromotedIntegerType(pq);
  IntType p = int_type(pq, uo->getExprLoc());
  Term old = load(x);
  if (need_value && uo->isPostfix()) old = snapshot(old);
  Term one = p.is_float() ? fold(em_.fp_convert(num(1), p.fp)) : num(1);
  Term nv = arith(uo->isIncrementOp() ? clang::BO_Add : clang::BO_Sub, load(x), one, p, uo);
  at(uo->getExprLoc());
  write(x, convert(nv, p, bit_field_type(sub).value_or(t)));
  return uo->isPostfix() ? old : load(x);
}

Term Translator::binary(const clang::BinaryOperator* bo) {
  const clang::BinaryOperatorKind op = bo->getOpcode();
  if (op == clang::BO_Assign && is_struct(bo->getLHS()->getType())) {  // structs.cpp
    const Region to = region(bo->getLHS());
    copy_struct(to, region(bo->getRHS()), bo->getLHS()->getType(), bo);
    return num(0);
  }
  if (const auto v = struct_pointer_arithmetic(bo)) return *v;  // structs.cpp
  if (op == clang::BO_Assign) {
    const Place x = place(bo->getLHS());
    if (const auto bt = bit_field_type(bo->getLHS())) {  // the value of the field's width
      write(x, convert(rvalue(bo->getRHS()), type_of(bo->getLHS()), *bt));
      return load(x);
    }
    if (x.var) {
      store(*x.var, type_of(bo->getLHS()), bo->getRHS());
      return em_.var(*x.var);
    }
    write(x, rvalue(bo->getRHS()));
    return load(x);
  }
  if (const auto* ca = llvm::dyn_cast<clang::CompoundAssignOperator>(bo)) {
    const Place x = place(ca->getLHS());
    IntType lt = type_of(ca->getLHS());
    IntType ct = int_type(ca->getComputationLHSType(), ca->getExprLoc());
    IntType rt = int_type(ca->getComputationResultType(), ca->getExprLoc());
    Term r = rvalue(ca->getRHS());
    Term l = convert(load(x), lt, ct);
    Term v = arith(clang::BinaryOperator::getOpForCompoundAssignment(op), l, r, rt, ca);
    write(x, convert(v, rt, bit_field_type(ca->getLHS()).value_or(lt)));
    return load(x);
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

// p + n, p - n, p - q, p += n, p -= n on pointers to structs: a struct's leaves have
// consecutive addresses (structs.cpp), so a step is the struct's leaf count.
std::optional<Term> Translator::struct_pointer_arithmetic(const clang::BinaryOperator* bo) {
  const clang::BinaryOperatorKind op = bo->getOpcode();
  const clang::Expr* l = bo->getLHS();
  const clang::Expr* r = bo->getRHS();
  const bool lp = is_struct_pointer(l->getType()), rp = is_struct_pointer(r->getType());
  if (!lp && !rp) return std::nullopt;
  if (op == clang::BO_AddAssign || op == clang::BO_SubAssign || op == clang::BO_Add ||
      op == clang::BO_Sub)
    refuse_handle_access((lp ? l : r)->getType()->getPointeeType(), bo, "arithmetic");  // calls.cpp
  if (op == clang::BO_AddAssign || op == clang::BO_SubAssign) {
    const Place x = place(l);
    const Term n = as_int(rvalue(r));
    const auto w = static_cast<std::int64_t>(struct_stride(l));
    at(bo->getExprLoc());
    write(x,
          mk(op == clang::BO_AddAssign ? Op::Add : Op::Sub, {load(x), mk(Op::Mul, {n, num(w)})}));
    return load(x);
  }
  if (op != clang::BO_Add && op != clang::BO_Sub) return std::nullopt;
  Term a = rvalue(l);
  if (impure(r)) a = snapshot(a);
  const Term b = rvalue(r);
  const auto w = static_cast<std::int64_t>(struct_stride(lp ? l : r));
  if (lp && rp) return mk(Op::Div, {mk(Op::Sub, {a, b}), num(w)});  // elements apart
  if (lp) return mk(op == clang::BO_Add ? Op::Add : Op::Sub, {a, mk(Op::Mul, {as_int(b), num(w)})});
  return mk(Op::Add, {b, mk(Op::Mul, {as_int(a), num(w)})});  // n + p
}

// A left-deep chain a + b - c + ... (or a * b * ...) of one type and without side
// effects becomes one n-ary term, built without recursion: a generated sum of 10^5
// terms must neither overflow the stack nor make a term 10^5 deep. Wrapping an
// unsigned result once at the end equals wrapping after every step (mod 2^N), and
// signed arithmetic is on mathematical integers, so the value is the same.
std::optional<Term> Translator::flat_chain(const clang::BinaryOperator* bo) {
  const clang::BinaryOperatorKind op = bo->getOpcode();
  const bool additive = op == clang::BO_Add || op == clang::BO_Sub;
  if (!additive && op != clang::BO_Mul) return std::nullopt;
  const clang::QualType type = bo->getType().getCanonicalType();
  if (type->isRealFloatingType()) return std::nullopt;        // IEEE addition does not associate
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

Term Translator::conditional(const clang::ConditionalOperator* co) {
  const bool is_void = co->getType()->isVoidType();
  // A constant condition (<math.h>'s `sizeof (x) == sizeof (float) ? __isnanf (x) : ...`):
  // only the arm C evaluates is translated.
  if (const auto c = constant_value(co->getCond())) {
    const clang::Expr* arm = *c != 0 ? co->getTrueExpr() : co->getFalseExpr();
    if (is_void) {
      effect(arm);
      return num(0);
    }
    return rvalue(arm);
  }
  if (!is_void && !impure(co->getTrueExpr()) && !impure(co->getFalseExpr())) {
    Term c = as_bool(rvalue(co->getCond()));
    Term a = rvalue(co->getTrueExpr()), b = rvalue(co->getFalseExpr());
    if (!(a.is_bool() && b.is_bool())) a = as_int(a), b = as_int(b);
    if (a.type() != b.type())  // (void) arms aside, clang converts both to the result type
      unsupported(co, "conditional operator with operands of different types");
    if (c.is_const()) return c.value() != 0 ? a : b;
    return em_.ite(c, a, b);
  }
  std::optional<VarId> tmp;
  if (!is_void) tmp = new_temp(type_of(co).sort());
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
void Translator::branch(const clang::Expr* e, Loc t, Loc f) {
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

}  // namespace precis::c::detail
