// The C front end's variable declarations: globals and static locals (set up from the
// initial location) and block-scope variables.

#include <string>
#include <unordered_set>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

// ---- what the entry function reaches ----------------------------------------------------

// Only the functions the entry function can call (directly, or by naming them) and the
// globals those functions name are translated: a program's other functions and globals,
// of types the front end may refuse (the heap of product-lines' unused exception
// handling), do not make the task unsupported, and add no variables.
void Translator::collect_reachable(const clang::FunctionDecl* entry) {
  std::unordered_set<const clang::FunctionDecl*> seen_fns{entry};
  std::vector<const clang::Stmt*> todo{entry->getBody()};
  reachable_fns_.push_back(entry);
  while (!todo.empty()) {
    const clang::Stmt* s = todo.back();
    todo.pop_back();
    if (s == nullptr) continue;
    if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(s)) {
      if (const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(dr->getDecl())) {
        const clang::FunctionDecl* def = fd->getDefinition();
        if (def != nullptr && def->hasBody() && seen_fns.insert(def).second) {
          reachable_fns_.push_back(def);
          todo.push_back(def->getBody());
        }
      } else if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl());
                 vd && vd->hasGlobalStorage() && !vd->isStaticLocal()) {
        if (used_globals_.insert(vd->getCanonicalDecl()).second) {
          const clang::VarDecl* def = vd->getDefinition();
          if (def != nullptr && def->getInit() != nullptr) todo.push_back(def->getInit());
        }
      }
    }
    for (const clang::Stmt* c : s->children()) todo.push_back(c);  // (with initializers)
  }
}

// ---- globals ----------------------------------------------------------------------------

void Translator::collect_static_locals(const clang::Stmt* s,
                                       std::vector<const clang::VarDecl*>& out) {
  if (s == nullptr) return;
  if (const auto* ds = llvm::dyn_cast<clang::DeclStmt>(s))
    for (const clang::Decl* d : ds->decls())
      if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(d); vd && vd->isStaticLocal())
        out.push_back(vd);
  for (const clang::Stmt* c : s->children()) collect_static_locals(c, out);
}

// Globals start at their initializer or 0 (C's static initialisation), set by edges
// from the initial location; extern variables without a definition are arbitrary.
void Translator::declare_globals(clang::TranslationUnitDecl* tu) {
  std::vector<const clang::VarDecl*> vars;
  for (clang::Decl* d : tu->decls())
    if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(d))
      if (vd->getCanonicalDecl() == vd && used_globals_.contains(vd)) vars.push_back(vd);
  for (const clang::FunctionDecl* fd : reachable_fns_) collect_static_locals(fd->getBody(), vars);
  for (const clang::VarDecl* vd : vars) {
    const clang::VarDecl* def = vd->getDefinition();
    if (def == nullptr) def = vd->getActingDefinition();
    const clang::VarDecl* any = def != nullptr ? def : vd;
    if (def == nullptr) arbitrary_externs_ = true;  // (pointers.cpp: pointees)
    at(any->getLocation());
    std::string name = any->getNameAsString();
    if (vd->isStaticLocal()) {
      const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(vd->getDeclContext());
      name = (fd != nullptr ? fd->getNameAsString() : std::string("static")) + "::" + name;
    }
    if (is_aggregate(any->getType())) {  // structs.cpp
      const StructObject* s = new_struct(name, global_scope, any->getType(), any->getLocation(),
                                         true, address_taken_.count(vd->getCanonicalDecl()) != 0);
      register_struct(vd->getCanonicalDecl(), s, global_objects_, global_addresses_);
      global_structs_.emplace(vd->getCanonicalDecl(), s);
      init_struct(s, def != nullptr ? def->getInit() : nullptr, def != nullptr, true);
      continue;
    }
    if (auto shape = array_shape(any->getType(), any->getLocation())) {  // arrays.cpp
      ArrayObject a =
          new_array(name, global_scope, *shape, address_taken_.count(vd->getCanonicalDecl()) != 0);
      register_array(a, ctx_.getAsArrayType(any->getType())->getElementType(), global_objects_);
      init_array(a, def != nullptr ? def->getInit() : nullptr, def != nullptr, true);
      global_arrays_.emplace(vd->getCanonicalDecl(), std::move(a));
      continue;
    }
    IntType t = int_type(any->getType(), any->getLocation());
    VarId v = new_var(name + pointer_suffix(any->getType()), global_scope, t.sort());
    globals_[vd->getCanonicalDecl()] = v;
    register_scalar(vd->getCanonicalDecl(), v, global_objects_, global_addresses_);
    const clang::Expr* init = nullptr;
    if (def != nullptr) init = def->getInit();
    if (def == nullptr) {
      emit(Havoc{v});
      emit(Assume{in_range(em_.var(v), t)});
    } else if (init != nullptr && is_pointer(any->getType())) {
      emit(Assign{v, rvalue(init)});  // an address (of an object declared before) or 0
    } else if (init != nullptr && (t.is_float() || type_of(init).is_float())) {
      // A floating constant expression: pure, folded to its value.
      emit(Assign{v, as_int(convert(rvalue(init), type_of(init), t))});
    } else if (init != nullptr) {
      emit(Assign{v, as_int(convert(
                         constant_or_refuse(init, "non-constant initializer of a global variable"),
                         type_of(init), t))});
    } else {
      emit(Assign{v, zero(t)});
    }
  }
}

// ---- block-scope variables --------------------------------------------------------------

void Translator::local_decl(const clang::VarDecl* vd) {
  at(vd->getLocation());
  if (vd->hasGlobalStorage() || vd->getCanonicalDecl()->hasExternalStorage())
    return;  // set up with the globals
  Frame& fr = frames_.back();
  if (auto it = fr.arrays.find(vd); it != fr.arrays.end()) {  // created at the call's entry
    init_array(it->second, vd->getInit(), false, false);
    return;
  }
  if (auto it = fr.structs.find(vd); it != fr.structs.end()) {  // created at the call's entry
    init_struct(it->second, vd->getInit(), false, false);
    return;
  }
  IntType t = int_type(vd->getType(), vd->getLocation());
  VarId v = 0;
  if (auto it = fr.locals.find(vd); it != fr.locals.end()) {
    v = it->second;  // an address-taken scalar, created at the call's entry
  } else {
    v = new_var(fr.prefix + "::" + vd->getNameAsString() + pointer_suffix(vd->getType()), fr.index,
                t.sort());
    fr.locals[vd] = v;
  }
  if (const clang::Expr* init = vd->getInit()) {
    if (llvm::isa<clang::InitListExpr>(init)) unsupported(init, "initializer list");
    store(v, t, init);
  } else {
    // Uninitialised: any value of the type, also on every new execution of the block.
    emit(Havoc{v});
    emit(Assume{in_range(em_.var(v), t)});
  }
}

}  // namespace precis::c::detail
