// The C front end's pointers, without a heap: pointers to integer objects
// (address-taken scalars, array cells), `void *` in between.
//
// Every object a pointer may reach gets an address when it comes to life: an
// address-taken scalar (found once over the whole program, collect_address_taken) one,
// an array N consecutive ones (and a gap, so one past its end is no other object). The
// null pointer is 0. A pointer is an integer variable holding an address, so `p + i`,
// `p - q`, `p == q`, `!p` and passing pointers to and from functions are integer terms.
//
// The points-to sets are by type and lifetime: *p, with p of type T *, may be any live
// object of type T whose address exists (a global, or a local of a call being inlined),
// since a pointer to a dead object, to another type, or to nothing is undefined
// behaviour. A dereference is a Place over those objects keyed by the address: the path
// continues only where the address is one of theirs, a read is an ite over them, a
// write one guarded assignment per object (arrays.cpp's load and write). A single
// candidate is that variable.
//
// A pointer variable is named `p#ptr` (`f::p#ptr`): its value is an address of precis's,
// not of the machine, so witnesses, which name only variables without `#`, never state
// it; counterexamples show it.
//
// Pointers to structs work the same way, over the address-taken struct objects of the
// type (structs.cpp); arithmetic on them is refused.
//
// A pointer to a pointer (`int **`, `struct node **`) is one more pointer type: its objects
// are the address-taken pointer variables (and pointer members of structs) of the pointee
// type, whose cells hold addresses.
//
// Refused: pointers to functions and to arrays; casts between a pointer
// and an integer (addresses are not numbers of the machine) and between pointers to
// different integer types (the object would be read as another type); malloc.

#include <string>
#include <unordered_map>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

// A pointer to an integer type (enums, _Bool included), to a struct, to void, or to such a
// pointer (`int **`, `struct node **`: the pointee is a pointer variable whose address is
// taken, an object like any integer one).
bool Translator::is_pointer(clang::QualType qt) {
  const clang::QualType t = qt.getCanonicalType();
  if (!t->isPointerType()) return false;
  const clang::QualType p = t->getPointeeType().getCanonicalType();
  return p->isVoidType() || p->isIntegralOrEnumerationType() || p->isStructureType() ||
         is_pointer(p);
}

// Every variable under `&` in `s` (a function body or an initializer).
// Every variable whose storage a pointer may reach: under `&` (also `&s.f[2].g`), or an
// array inside an aggregate that decays to a pointer (`int *p = s.a;`); a decay that is
// only a subscript's base (`s.a[i]`) is an access, not an address.
void Translator::collect_address_taken(const clang::Stmt* s) {
  auto mark = [&](const clang::Expr* e) {
    for (;;) {
      e = e->IgnoreParens();
      if (const auto* me = llvm::dyn_cast<clang::MemberExpr>(e); me && !me->isArrow()) {
        e = me->getBase();
      } else if (const auto* as = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
        e = as->getBase()->IgnoreParenImpCasts();
        if (!e->getType()->isArrayType()) return;  // p[i]: an object p points to
      } else {
        break;
      }
    }
    if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl()))
        address_taken_.insert(vd->getCanonicalDecl());
  };
  std::vector<const clang::Stmt*> todo{s};
  while (!todo.empty()) {
    const clang::Stmt* x = todo.back();
    todo.pop_back();
    if (x == nullptr) continue;
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(x);
        u && u->getOpcode() == clang::UO_AddrOf)
      mark(u->getSubExpr());
    if (const auto* ic = llvm::dyn_cast<clang::ImplicitCastExpr>(x);
        ic && ic->getCastKind() == clang::CK_ArrayToPointerDecay)
      mark(ic->getSubExpr());
    if (const auto* as = llvm::dyn_cast<clang::ArraySubscriptExpr>(x)) {
      const clang::Expr* base = as->getBase()->IgnoreParens();
      if (const auto* ic = llvm::dyn_cast<clang::ImplicitCastExpr>(base);
          ic && ic->getCastKind() == clang::CK_ArrayToPointerDecay)
        base = ic->getSubExpr();  // an access: the decay takes no address
      todo.push_back(base);
      todo.push_back(as->getIdx());
      continue;
    }
    for (const clang::Stmt* c : x->children()) todo.push_back(c);  // (with initializers)
  }
}

// The first of `n` fresh addresses, and a gap after them: one past the object is no other
// object. Addresses are 62-bit integers (types.cpp); the translation stops long before.
std::int64_t Translator::reserve_addresses(std::int64_t n) {
  constexpr std::int64_t kLast = std::int64_t{1} << 60;
  if (n < 0 || n >= kLast - next_address_)
    throw input_error(position(), "unsupported: more objects than precis' addresses take");
  const std::int64_t id = next_address_;
  next_address_ += n + 1;
  return id;
}

void Translator::register_scalar(
    const clang::VarDecl* vd, VarId v, std::vector<MemObject>& objects,
    std::unordered_map<const clang::VarDecl*, std::int64_t>& addresses) {
  if (address_taken_.count(vd->getCanonicalDecl()) == 0) return;
  const std::int64_t id = reserve_addresses(1);
  objects.push_back(MemObject{id, v, object_type(vd->getType())});
  addresses[vd] = id;
}

void Translator::register_array(ArrayObject& a, clang::QualType elem,
                                std::vector<MemObject>& objects) {
  if (a.whole) {  // one object over a range of addresses (as long as the longest array)
    a.base_id =
        reserve_addresses(a.shape.length_expr != nullptr ? max_object_elements(a.shape.elem_bytes)
                                                         : static_cast<std::int64_t>(a.shape.size));
    objects.push_back(MemObject{a.base_id, *a.whole, object_type(elem), nullptr, a.length});
    return;
  }
  a.base_id = reserve_addresses(static_cast<std::int64_t>(a.cells.size()));
  for (std::size_t k = 0; k < a.cells.size(); ++k)
    objects.push_back(
        MemObject{a.base_id + static_cast<std::int64_t>(k), a.cells[k], object_type(elem)});
}

// The objects of a call's blocks that a pointer may reach (address-taken scalars, arrays)
// exist for the whole call in C, not from their declaration on: after a `goto` back
// over `int y; p = &y;`, *p is y. So they are created, and get their addresses, when the
// call starts; local_decl only initialises them.
void Translator::predeclare_objects(const clang::Stmt* body) {
  Frame& fr = frames_.back();
  std::vector<const clang::Stmt*> todo{body};
  while (!todo.empty()) {
    const clang::Stmt* x = todo.back();
    todo.pop_back();
    if (x == nullptr) continue;
    if (const auto* ds = llvm::dyn_cast<clang::DeclStmt>(x))
      for (const clang::Decl* d : ds->decls()) {
        const auto* vd = llvm::dyn_cast<clang::VarDecl>(d);
        if (vd == nullptr || vd->hasGlobalStorage() || vd->hasExternalStorage()) continue;
        const std::string name = fr.prefix + "::" + vd->getNameAsString();
        if (is_aggregate(vd->getType())) {  // structs.cpp
          const StructObject* s = new_struct(name, fr.index, vd->getType(), vd->getLocation(), true,
                                             address_taken_.count(vd->getCanonicalDecl()) != 0);
          register_struct(vd, s, fr.objects, fr.addresses);
          fr.structs[vd] = s;
        } else if (auto shape = array_shape(vd->getType(), vd->getLocation())) {
          ArrayObject a =
              new_array(name, fr.index, *shape, address_taken_.count(vd->getCanonicalDecl()) != 0);
          register_array(a, ctx_.getAsArrayType(vd->getType())->getElementType(), fr.objects);
          fr.arrays[vd] = std::move(a);
        } else if (address_taken_.count(vd->getCanonicalDecl()) != 0) {
          if (int_type(vd->getType(), vd->getLocation()).is_float())
            unsupported(vd->getLocation(), "the address of a floating-point variable");
          const VarId v = new_var(name + pointer_suffix(vd->getType()), fr.index);
          fr.locals[vd] = v;
          register_scalar(vd, v, fr.objects, fr.addresses);
        }
      }
    for (const clang::Stmt* c : x->children()) todo.push_back(c);
  }
}

// The address of an array's first cell (the array-to-pointer decay).
Term Translator::array_address(const clang::Expr* array_expr) {
  if (auto r = array_region(array_expr)) {           // inside an aggregate
    if (!r->whole) no_leaf_address(*r, array_expr);  // (a whole columns object: its start)
    return region_address(*r);
  }
  const ArrayObject* a = array_of(array_expr);
  if (a == nullptr) unsupported(array_expr, "array that is not an array variable");
  return num(a->base_id);
}

Term Translator::address_of(const clang::UnaryOperator* uo) {
  const clang::Expr* sub = uo->getSubExpr()->IgnoreParens();
  if (!is_pointer(uo->getType()))
    unsupported(uo, "pointer type '" + uo->getType().getAsString() + "'");
  if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(sub))
    if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl())) {
      if (vd->hasGlobalStorage() || vd->getCanonicalDecl()->hasExternalStorage()) {
        if (auto it = global_addresses_.find(vd->getCanonicalDecl()); it != global_addresses_.end())
          return num(it->second);
      } else if (!frames_.empty()) {
        auto& addresses = frames_.back().addresses;
        if (auto it = addresses.find(vd); it != addresses.end()) return num(it->second);
      }
      unsupported(uo, "address of '" + vd->getNameAsString() + "'");
    }
  if (const auto* me = llvm::dyn_cast<clang::MemberExpr>(sub)) return member_address(me);
  if (const auto* as = llvm::dyn_cast<clang::ArraySubscriptExpr>(sub)) {
    if (auto r = array_region(as->getBase())) {  // &s.a[i], &m[i][j] (structs.cpp)
      index_region(*r, as->getBase()->IgnoreParenImpCasts()->getType(), as->getIdx(), as);
      if (!is_struct(as->getType())) no_leaf_address(*r, as);  // (&a[i] of structs: an element)
      return region_address(*r);
    }
    if (is_struct_pointer(as->getBase()->getType())) {  // &p[i]: p + i struct steps
      const Term p = rvalue(as->getBase());
      const Term i = as_int(rvalue(as->getIdx()));
      return mk(
          Op::Add,
          {p, mk(Op::Mul, {i, num(static_cast<std::int64_t>(struct_stride(as->getBase())))})});
    }
    // &a[i] (i may be one past the end) or &p[i]: an address, no access.
    const ArrayObject* a = array_of(as->getBase());
    const Term base = a != nullptr ? num(a->base_id) : rvalue(as->getBase());
    return mk(Op::Add,
              {impure(as->getIdx()) ? snapshot(base) : base, as_int(rvalue(as->getIdx()))});
  }
  if (const auto* d = llvm::dyn_cast<clang::UnaryOperator>(sub);
      d && d->getOpcode() == clang::UO_Deref)
    return rvalue(d->getSubExpr());  // &*p is p
  unsupported(uo, "address of an expression that is not a variable or an array element");
}

// The live objects of type `pointee` (structs, or scalars) whose address `key` may hold.
// An address that is none of them (null, dangling, another type) is undefined behaviour:
// the path continues only where it is one of them.
std::vector<MemObject> Translator::pointees(Term key, clang::QualType pointee, bool structs,
                                            const clang::Expr* where) {
  if (emitting_ != nullptr) refuse_in_procedure(where->getExprLoc(), "a dereference");
  refuse_handle_access(pointee, where, "dereference");  // calls.cpp
  const clang::Type* t = object_type(pointee);
  std::vector<MemObject> out;
  auto add = [&](const std::vector<MemObject>& objects) {
    for (const MemObject& o : objects)
      if (o.type == t && (o.agg != nullptr) == structs) out.push_back(o);
  };
  add(global_objects_);
  for (const Frame& fr : frames_) add(fr.objects);
  if (out.empty()) {
    // No object of the type is alive: the pointer is null or dangling, and the path ends
    // here as at every such dereference (global pointers that the program never sets,
    // read in code only those reach). Unless an extern variable without a definition may
    // hold an address of the library's: then the object may exist, and it is refused.
    if (arbitrary_externs_)
      unsupported(where, "dereference of a pointer to '" + pointee.getAsString() + "': no " +
                             (structs ? "struct" : "object") +
                             " of that type has its address taken");
    at(where->getExprLoc());
    emit(Assume{em_.false_()});
    return {dead_object(pointee, structs, where)};
  }
  at(where->getExprLoc());
  std::vector<Term> is_object;
  for (const MemObject& o : out)
    is_object.push_back(o.is_array() ? in_array(key, o.id, o.length) : em_.eq(key, num(o.id)));
  emit(Assume{em_.disj(is_object)});
  return out;
}

// A stand-in for the objects of a type that no pointer reaches, so that the translation of
// a dereference on a path that ended (pointees) goes on: a variable, or a struct whose
// leaves are variables, one per type, never written before and read on no feasible path.
MemObject Translator::dead_object(clang::QualType pointee, bool structs, const clang::Expr* where) {
  const clang::Type* t = object_type(pointee);
  if (const auto it = dead_objects_.find(t); it != dead_objects_.end()) return it->second;
  MemObject o;
  o.type = t;
  const std::string name = "dead#" + std::to_string(dead_objects_.size());
  if (structs) {
    std::vector<MemObject> parts;  // (only the stand-in itself is used)
    std::unordered_map<const clang::VarDecl*, std::int64_t> none;
    register_struct(nullptr, new_struct(name, global_scope, pointee, where->getExprLoc()), parts,
                    none);
    o = parts.front();
  } else {
    (void)int_type(pointee, where->getExprLoc());  // an integer type, or refused
    o.var = new_var(name, global_scope);
    o.id = reserve_addresses(1);
  }
  return dead_objects_.emplace(t, o).first->second;
}

Place Translator::deref_place(Term address, clang::QualType pointee, const clang::Expr* where) {
  if (pointee->isVoidType()) unsupported(where, "dereference of a void pointer");
  const IntType type = int_type(pointee, where->getExprLoc());  // an integer type, or refused
  Place p{std::nullopt, {}, address.is_const() ? address : snapshot(address)};
  const std::vector<MemObject> objects = pointees(p.key, pointee, false, where);
  for (const MemObject& o : objects) {
    if (!o.is_array()) {
      p.cells.emplace_back(o.id, o.var);
      continue;
    }
    // An SMT array: the element at the address minus the array's first address (inside
    // its range, which pointees() assumed when it is the only object). Its cells may hold
    // any value of the type (a malloc'd array): a read assumes the range.
    const Term index = mk(Op::Sub, {p.key, num(o.id)});
    const Term inside = objects.size() == 1 ? em_.true_() : in_array(p.key, o.id, o.length);
    p.arrays.push_back(ArrayCell{o.var, index, inside, type});
  }
  if (!p.arrays.empty()) return p;  // (the shortcuts below know cells only)
  if (p.cells.size() == 1) return Place{p.cells.front().second, {}, Term{}};
  if (p.key.is_const())
    for (const auto& [id, var] : p.cells)
      if (id == p.key.value()) return Place{var, {}, Term{}};
  return p;
}

// Whether `address` falls into the SMT array at first address `id` of `length` elements.
Term Translator::in_array(Term address, std::int64_t id, Term length) {
  return em_.and_(em_.le(num(id), address), em_.lt(address, mk(Op::Add, {num(id), length})));
}

// Casts that involve pointers.
Term Translator::pointer_cast(const clang::CastExpr* ce) {
  const clang::Expr* sub = ce->getSubExpr();
  switch (ce->getCastKind()) {
    case clang::CK_NullToPointer: effect(sub); return num(0);
    case clang::CK_ArrayToPointerDecay:
      if (!is_pointer(ce->getType()))
        unsupported(ce, "pointer type '" + ce->getType().getAsString() + "'");
      return array_address(sub);
    case clang::CK_PointerToBoolean: return em_.neq(rvalue(sub), num(0));
    case clang::CK_BitCast: {
      if (const auto* call = llvm::dyn_cast<clang::CallExpr>(sub->IgnoreParens());
          call && is_allocation(call))
        return allocate(call);  // heap.cpp
      // void * and back keep the object; T * to U * for integer types T != U does not.
      if (!is_pointer(ce->getType()) || !is_pointer(sub->getType()))
        unsupported(ce, "pointer conversion");
      const clang::QualType to = ce->getType()->getPointeeType(),
                            from = sub->getType()->getPointeeType();
      if (object_type(to) != object_type(from)) refuse_handle_access(from, ce, "conversion");
      if (!to->isVoidType() && !from->isVoidType() && object_type(to) != object_type(from))
        unsupported(ce, "pointer conversion from '" + sub->getType().getAsString() + "' to '" +
                            ce->getType().getAsString() + "' (the object would change its type)");
      return rvalue(sub);
    }
    case clang::CK_IntegralToPointer:
    case clang::CK_PointerToIntegral:
      unsupported(ce, "conversion between a pointer and an integer");
    case clang::CK_FunctionToPointerDecay: unsupported(ce, "function pointer");
    default: unsupported(ce, "pointer conversion");
  }
}

}  // namespace precis::c::detail
