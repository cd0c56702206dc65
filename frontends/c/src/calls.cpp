// The C front end's calls: the __VERIFIER_ and library functions it knows, undefined
// functions as nondeterministic values, and inlining of defined functions.

#include <optional>
#include <string>
#include <utility>

#include "precis/core/bound_marker.hpp"
#include "translator.hpp"

namespace precis::c::detail {

// ---- calls ------------------------------------------------------------------------------

// `function`: the nondeterministic function whose return value this is (witnesses
// give its value as \result of that function).
Term Translator::nondet_value(IntType t, const std::string& function) {
  VarId v = new_temp(t.sort());
  b_.nondet(emit(Havoc{v}), function);
  if (!t.is_float()) emit(Assume{in_range(em_.var(v), t)});
  return em_.var(v);
}

Term Translator::call(const clang::CallExpr* ce, bool need_value) {
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
      unsupported(ce, "__VERIFIER_assume with " + std::to_string(ce->getNumArgs()) + " arguments");
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
  if (auto v = math_call(ce, name)) return *v;  // floating.cpp
  if (is_allocation(ce)) return allocate(ce);   // refused: not converted to T * (heap.cpp)
  if ((name == "free" || name == "__builtin_free") && ce->getNumArgs() == 1) {
    effect(ce->getArg(0));  // heap.cpp: a freed object stays alive
    return num(0);
  }

  // A function without a definition: a nondeterministic value, and no effect on the
  // program's objects. Its arguments may be integers, string literals, pointers to const
  // (it only reads through them) and handles (below): it cannot write to an object the
  // program reads. A pointer argument has its parameter's type (`strcmp(s.name, "x")`
  // passes a `const char *`), and only its side effects are translated: its value is
  // not needed.
  if (!opt_.unknown_functions_nondet) unsupported(ce, "call of undefined function '" + name + "'");
  for (const clang::Expr* a : ce->arguments()) {
    const clang::Expr* bare = a->IgnoreParenImpCasts();
    const clang::QualType t = a->getType().getCanonicalType();
    if (llvm::isa<clang::StringLiteral>(bare)) continue;
    if (t->isIntegralOrEnumerationType() || t->isRealFloatingType()) {
      effect(a);
      continue;
    }
    if (t->isPointerType() && (t->getPointeeType().isConstQualified() ||
                               external_handles_.contains(object_type(t->getPointeeType())))) {
      if (a->HasSideEffects(ctx_)) effect(a);  // (not its reads: the function reads)
      continue;
    }
    unsupported(a, "call of undefined function '" + name + "' with an argument of type '" +
                       a->getType().getAsString() + "' (it might write through it)");
  }
  const clang::QualType rt = callee->getReturnType();
  if (rt->isVoidType()) return num(0);
  if (external_handle_type(ce) != nullptr) return need_value ? external_handle() : num(0);
  if (!rt->isIntegralOrEnumerationType() && !rt->isRealFloatingType())
    unsupported(ce,
                "call of undefined function '" + name + "' returning '" + rt.getAsString() + "'");
  IntType t = int_type(rt, ce->getExprLoc());
  if (!need_value) return num(0);
  return nondet_value(t, name);
}

// ---- handles: pointers to structs from undefined functions --------------------------------
//
// An undefined function that returns `struct S *` (fopen's FILE *) returns a handle: the
// null pointer, or the address of an object of the library's that the program does not
// see. Each call's handle is a fresh address below zero (the program's objects have
// addresses from 1, pointers.cpp), so two handles never compare equal and no handle
// equals an object's address. The object itself is not modelled: the translation refuses
// to dereference a `struct S *` for such an S (pointees), to convert one to another
// pointer type (pointer_cast) and arithmetic on one (expressions.cpp), so no path can
// reach the object or make one handle from another, and passing the handle
// back to undefined functions (fclose) is allowed. The handles of a program are known
// before the translation (note_external_handle, from collect_allocations' walk).

// The struct type of the handle `ce` returns, or null when it returns none.
const clang::Type* Translator::external_handle_type(const clang::CallExpr* ce) {
  const clang::FunctionDecl* callee = ce->getDirectCallee();
  if (callee == nullptr || callee->getDefinition() != nullptr || is_allocation(ce) ||
      callee->getNameAsString().starts_with("__VERIFIER_"))
    return nullptr;
  const clang::QualType rt = callee->getReturnType().getCanonicalType();
  if (!rt->isPointerType() || !rt->getPointeeType()->isStructureType()) return nullptr;
  return object_type(rt->getPointeeType());
}

void Translator::note_external_handle(const clang::CallExpr* ce) {
  const clang::Type* t = external_handle_type(ce);
  if (t == nullptr) return;
  external_handles_.emplace(t, ce->getDirectCallee()->getNameAsString());
  if (handle_count_) return;
  handle_count_ = new_var("extern#handles", global_scope);
  emit(Assign{*handle_count_, num(0)});
}

// The handle of one call: null or the next fresh address below zero, by a Boolean choice
// of its own (a random run takes either; a witness states no value for it, and
// --validate's replay tries both).
Term Translator::external_handle() {
  emit(Assign{*handle_count_, mk(Op::Sub, {em_.var(*handle_count_), num(1)})});
  const VarId opened = new_temp(Type::Bool);
  emit(Havoc{opened});
  // A copy: the count changes again at the next call, which may come before this value
  // is used (`fopen(a) == fopen(b)`).
  return snapshot(em_.ite(em_.var(opened), em_.var(*handle_count_), num(0)));
}

// The refusal of a dereference or conversion of a handle's pointer type, if `pointee` is one.
void Translator::refuse_handle_access(clang::QualType pointee, const clang::Expr* where,
                                      const char* what) {
  const auto it = external_handles_.find(object_type(pointee));
  if (it == external_handles_.end()) return;
  unsupported(where, std::string(what) + " of a pointer to '" + pointee.getAsString() +
                         "', which the undefined function '" + it->second +
                         "' returns (its object is not modelled)");
}

// The edge to the error location through `havoc __precis_bound_<why>`; what follows the
// call is unreachable on this path.
Term Translator::bound_marker(const clang::CallExpr* ce, const std::string& why) {
  const std::string name = bound_marker_name(why);
  auto it = markers_.find(name);
  if (it == markers_.end()) it = markers_.emplace(name, new_var(name, global_scope)).first;
  at(ce->getExprLoc());
  emit(Havoc{it->second});
  jump_and_cut(error_);
  return num(0);
}

// A call of a defined function: not variadic, one argument per parameter.
void Translator::check_arguments(const clang::FunctionDecl* def, const clang::CallExpr* ce) {
  const std::string name = def->getNameAsString();
  if (def->isVariadic()) unsupported(ce, "call of variadic function '" + name + "'");
  if (ce->getNumArgs() != def->getNumParams())
    unsupported(ce, "call of '" + name + "' with " + std::to_string(ce->getNumArgs()) +
                        " arguments for " + std::to_string(def->getNumParams()) + " parameters");
}

// Evaluates an argument in the caller into `v`, of the parameter's type `pt`.
void Translator::store_argument(VarId v, IntType pt, const clang::Expr* a) {
  at(a->getExprLoc());
  const IntType given = type_of(a);
  if (given.width == pt.width && given.is_signed == pt.is_signed && given.is_bool == pt.is_bool)
    store(v, pt, a);
  else  // a call without prototype: clang did not convert the argument
    emit(Assign{v, as_int(convert(rvalue(a), given, pt))});
}

// Inlines a call: fresh copies of parameters and locals for each call site.
Term Translator::inline_call(const clang::FunctionDecl* def, const clang::CallExpr* ce,
                             bool need_value) {
  if (stack_recursion_ && cycle_of_.contains(def)) return procedure_call(def, ce, need_value);
  opt_.deadline.check();
  const std::string name = def->getNameAsString();
  // Recursion is inlined up to a bound; the call that would go deeper becomes a bound
  // marker (core/bound_marker.hpp): an edge to the error location that no SAFE proof
  // may ignore and no counterexample may pass.
  std::uint32_t depth = 0;
  for (const Frame& fr : frames_) depth += fr.fn == def ? 1U : 0U;
  if (depth > 0) {
    const auto lowered = depths_.find(def);
    const std::uint32_t limit =
        lowered != depths_.end() ? lowered->second : opt_.max_recursion_depth;
    if (depth > limit) return bound_marker(ce, "recursion deeper than " + std::to_string(limit));
    // Over the budget: translate_source tries again with a smaller depth for def; at
    // depth 1 the remaining calls are markers.
    if (++recursive_calls_[def] > opt_.max_recursive_calls) {
      if (limit > 1) throw RecursionBudget{def};
      return bound_marker(
          ce, "recursion beyond " + std::to_string(opt_.max_recursive_calls) + " inlined calls");
    }
  }
  check_arguments(def, ce);

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
    f.ret = new_var(f.prefix + "::__retval", f.index, f.ret_type.sort());
  }
  // Arguments are evaluated in the caller, left to right, into the parameter copies.
  for (unsigned i = 0; i < def->getNumParams(); ++i) {
    const clang::ParmVarDecl* p = def->getParamDecl(i);
    if (is_struct(p->getType())) {  // by value: a copy (structs.cpp)
      const StructObject* s = new_struct(f.prefix + "::" + p->getNameAsString(), f.index,
                                         p->getType(), p->getLocation());
      register_struct(p, s, f.objects, f.addresses);
      f.structs[p] = s;
      at(ce->getArg(i)->getExprLoc());
      copy_struct(Region{{{s->base_id, s}}, num(s->base_id), 0, {}}, region(ce->getArg(i)),
                  p->getType(), ce->getArg(i));
      continue;
    }
    IntType pt = int_type(p->getType(), p->getLocation());
    VarId v = new_var(f.prefix + "::" + p->getNameAsString() + pointer_suffix(p->getType()),
                      f.index, pt.sort());
    f.locals[p] = v;
    register_scalar(p, v, f.objects, f.addresses);
    store_argument(v, pt, ce->getArg(i));
  }
  frames_.push_back(std::move(f));
  predeclare_objects(def->getBody());  // pointers.cpp
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

}  // namespace precis::c::detail
