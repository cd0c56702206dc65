// The C front end's structs (issue 26): struct objects scalarised field by field, member
// access, struct assignment and initialisation, pointers to structs.
//
// A struct object `s` of type `struct S { int a; struct T { int b; int *p; } t; }` is one
// program variable per scalar leaf, in declaration order with nested structs flattened:
// `s.a`, `s.t.b`, `s.t.p#ptr` (locals `f::s.a`). Every domain and the solver see plain
// integers, and a correctness witness may name a leaf as C does. `s.t.b` is that leaf; a
// struct assignment `s = u` (also an initializer, or a struct passed by value) copies the
// leaves one by one; an initializer list sets them (missing members are 0, as in C); a
// local without initializer has arbitrary leaves.
//
// Leaf k of a struct has the address base_id + k, and a nested struct the address of its
// first leaf (pointers.cpp), so `&s`, `&s.t` and `&s.t.b` are addresses. `p->b` with p of
// type `struct T *` selects among the address-taken struct objects of type T (the
// nested `s.t` included) by the address p holds: the path continues only where p is one
// of them, a read is an ite over their leaf b, a write a guarded assignment per object
// (the same Place as an array access, arrays.cpp). A pointer to a dead struct, to another
// type or to nothing is undefined behaviour and ends the path.
//
// Refused: unions, bit-fields, array members and arrays of structs, struct return values,
// arithmetic on pointers to structs, malloc.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

bool Translator::is_struct(clang::QualType qt) { return qt.getCanonicalType()->isStructureType(); }

// The layout of a struct type (computed once per type), or refused.
const StructLayout& Translator::layout(clang::QualType record, clang::SourceLocation where) {
  const clang::Type* key = object_type(record);
  if (auto it = layouts_.find(key); it != layouts_.end()) return it->second;
  const clang::RecordDecl* rd = record->getAsRecordDecl();
  if (rd != nullptr) rd = rd->getDefinition();
  if (rd == nullptr || !is_struct(record))
    unsupported(where, "struct or union type '" + record.getAsString() + "'");
  StructLayout l;
  for (const clang::FieldDecl* fd : rd->fields()) {
    const clang::QualType ft = fd->getType();
    std::string member(1, '.');  // (not "." + name: GCC 12's -Wrestrict false positive)
    member += fd->getNameAsString();
    if (fd->isBitField()) unsupported(fd->getLocation(), "bit-field member '" + member + "'");
    if (ft->isArrayType())
      unsupported(fd->getLocation(), "array member '" + fd->getNameAsString() + "' of a struct");
    if (is_struct(ft)) {
      const StructLayout& inner = layout(ft, fd->getLocation());
      const std::size_t first = l.leaves.size();
      l.members.emplace_back(first, ft);
      for (const auto& [k, t] : inner.members) l.members.emplace_back(first + k, t);
      for (const auto& [path, t] : inner.leaves) l.leaves.emplace_back(member + path, t);
    } else {
      (void)int_type(ft, fd->getLocation());  // an integer or a pointer, or refused
      l.leaves.emplace_back(member, ft);
    }
  }
  if (l.leaves.empty())
    unsupported(where, "struct type '" + record.getAsString() + "' without members");
  return layouts_.emplace(key, std::move(l)).first->second;
}

// The first leaf of member `fd` within its struct.
std::size_t Translator::field_offset(const clang::FieldDecl* fd, clang::SourceLocation where) {
  std::size_t k = 0;
  for (const clang::FieldDecl* f : fd->getParent()->fields()) {
    if (f == fd) return k;
    k += is_struct(f->getType()) ? layout(f->getType(), where).leaves.size() : 1;
  }
  unsupported(where, "member '" + fd->getNameAsString() + "' not found in its struct");
}

const StructObject* Translator::new_struct(const std::string& name, std::uint32_t scope,
                                           clang::QualType t, clang::SourceLocation where) {
  const StructLayout& l = layout(t, where);
  StructObject s;
  s.type = object_type(t);
  s.name = name;
  s.leaves.reserve(l.leaves.size());
  for (const auto& [path, lt] : l.leaves)
    s.leaves.push_back(new_var(name + path + pointer_suffix(lt), scope));
  return &structs_.emplace_back(std::move(s));
}

// Gives the struct its addresses. If `vd`'s address is taken (or vd is null: an object
// only a pointer reaches), the struct, its leaves and its nested structs become objects a
// pointer may reach.
void Translator::register_struct(
    const clang::VarDecl* vd, const StructObject* s, std::vector<MemObject>& objects,
    std::unordered_map<const clang::VarDecl*, std::int64_t>& addresses) {
  auto& so = const_cast<StructObject&>(*s);  // NOLINT: created by new_struct, owned here
  so.base_id = next_address_;
  next_address_ += static_cast<std::int64_t>(s->leaves.size()) + 1;
  if (vd != nullptr && address_taken_.count(vd->getCanonicalDecl()) == 0) return;
  const StructLayout& l = layout(clang::QualType(s->type, 0), clang::SourceLocation());
  objects.push_back(MemObject{s->base_id, 0, s->type, s});
  for (std::size_t k = 0; k < s->leaves.size(); ++k)
    objects.push_back(MemObject{s->base_id + static_cast<std::int64_t>(k), s->leaves[k],
                                object_type(l.leaves[k].second), nullptr});
  for (const auto& [first, t] : l.members) {
    StructObject view;
    view.type = object_type(t);
    view.name = s->name;
    view.base_id = s->base_id + static_cast<std::int64_t>(first);
    const std::size_t n = layout(t, clang::SourceLocation()).leaves.size();
    const auto from = s->leaves.begin() + static_cast<std::ptrdiff_t>(first);
    view.leaves.assign(from, from + static_cast<std::ptrdiff_t>(n));
    const StructObject* v = &structs_.emplace_back(std::move(view));
    objects.push_back(MemObject{v->base_id, 0, v->type, v});
  }
  if (vd != nullptr) addresses[vd] = s->base_id;
}

const StructObject* Translator::struct_of(const clang::VarDecl* vd) {
  if (vd->hasGlobalStorage() || vd->getCanonicalDecl()->hasExternalStorage()) {
    auto it = global_structs_.find(vd->getCanonicalDecl());
    return it != global_structs_.end() ? it->second : nullptr;
  }
  if (frames_.empty()) return nullptr;
  auto& structs = frames_.back().structs;
  auto it = structs.find(vd);
  return it != structs.end() ? it->second : nullptr;
}

// ---- initialisation ---------------------------------------------------------------------

void Translator::init_struct(const StructObject* s, const clang::Expr* init, bool zero,
                             bool constant_only) {
  init_leaves(s, 0, clang::QualType(s->type, 0), init, zero, constant_only);
}

// Sets the leaves from `first` on of a member of type `t` from `init`: an initializer
// list (missing members are 0), a struct value (copied), nothing (0 if `zero`, else any
// values).
void Translator::init_leaves(const StructObject* s, std::size_t first, clang::QualType t,
                             const clang::Expr* init, bool zero, bool constant_only) {
  const StructLayout& l = layout(t, init != nullptr ? init->getExprLoc() : clang::SourceLocation());
  if (init == nullptr) {
    for (std::size_t k = 0; k < l.leaves.size(); ++k) {
      const VarId v = s->leaves[first + k];
      if (zero) {
        emit(Assign{v, num(0)});
      } else {
        emit(Havoc{v});
        emit(Assume{in_range(em_.var(v), int_type(l.leaves[k].second, clang::SourceLocation()))});
      }
    }
    return;
  }
  const auto* list = llvm::dyn_cast<clang::InitListExpr>(init->IgnoreParenImpCasts());
  if (list == nullptr) {
    if (constant_only) unsupported(init, "non-constant initializer of a global struct");
    const Region from = region(init);
    copy_struct(Region{{{s->base_id, s}}, num(s->base_id), first}, from, t, init);
    return;
  }
  std::size_t k = first;
  unsigned i = 0;
  for (const clang::FieldDecl* fd : t->getAsRecordDecl()->getDefinition()->fields()) {
    const clang::Expr* e = i < list->getNumInits() ? list->getInit(i) : nullptr;
    ++i;
    if (e != nullptr && llvm::isa<clang::ImplicitValueInitExpr>(e)) e = nullptr;
    const clang::QualType ft = fd->getType();
    if (is_struct(ft)) {
      init_leaves(s, k, ft, e, true, constant_only);
      k += layout(ft, fd->getLocation()).leaves.size();
      continue;
    }
    const VarId v = s->leaves[k++];
    const IntType it = int_type(ft, fd->getLocation());
    if (e == nullptr) {
      emit(Assign{v, num(0)});
      continue;
    }
    at(e->getExprLoc());
    if (constant_only && is_pointer(ft)) {
      emit(Assign{v, rvalue(e)});  // an address (of an object declared before) or 0
    } else if (constant_only) {
      auto c = constant(e);
      if (!c) unsupported(e, "non-constant initializer of a global struct");
      emit(Assign{v, as_int(convert(num(*c), type_of(e), it))});
    } else {
      store(v, it, e);
    }
  }
}

// ---- struct lvalues ---------------------------------------------------------------------

Region Translator::region(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* ic = llvm::dyn_cast<clang::ImplicitCastExpr>(e);
      ic && (ic->getCastKind() == clang::CK_LValueToRValue || ic->getCastKind() == clang::CK_NoOp))
    return region(ic->getSubExpr());
  if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e))
    if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl())) {
      const StructObject* s = struct_of(vd);
      if (s == nullptr) unsupported(e, "struct variable '" + vd->getNameAsString() + "'");
      return Region{{{s->base_id, s}}, num(s->base_id), 0};
    }
  if (const auto* me = llvm::dyn_cast<clang::MemberExpr>(e)) return member_region(me);
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e);
      u && u->getOpcode() == clang::UO_Deref)
    return deref_region(rvalue(u->getSubExpr()), e->getType(), e);
  if (llvm::isa<clang::ArraySubscriptExpr>(e)) unsupported(e, "array of structs");
  if (llvm::isa<clang::CallExpr>(e)) unsupported(e, "call returning a struct");
  unsupported(e, "struct-valued expression");
}

// The struct objects of type `pointee` that `address` may point to.
Region Translator::deref_region(Term address, clang::QualType pointee, const clang::Expr* where) {
  const clang::Type* t = object_type(pointee);
  if (!is_struct(pointee))
    unsupported(where, "struct or union type '" + pointee.getAsString() + "'");
  Region r;
  r.key = address.is_const() ? address : snapshot(address);
  auto add = [&](const std::vector<MemObject>& objects) {
    for (const MemObject& o : objects)
      if (o.type == t && o.agg != nullptr) r.objects.emplace_back(o.id, o.agg);
  };
  add(global_objects_);
  for (const Frame& fr : frames_) add(fr.objects);
  if (r.objects.empty())
    unsupported(where, "dereference of a pointer to '" + pointee.getAsString() +
                           "': no struct of that type has its address taken");
  at(where->getExprLoc());
  std::vector<Term> is_object;
  for (const auto& [id, s] : r.objects) is_object.push_back(em_.eq(r.key, num(id)));
  emit(Assume{em_.disj(is_object)});  // anything else is undefined: the path ends
  if (r.key.is_const())
    for (const auto& o : r.objects)
      if (o.first == r.key.value()) r.objects = {o};
  return r;
}

Region Translator::member_region(const clang::MemberExpr* me) {
  const clang::Expr* base = me->getBase();
  const clang::QualType bt = me->isArrow() ? base->getType()->getPointeeType() : base->getType();
  if (!is_struct(bt)) unsupported(me, "member of a union");
  const auto* fd = llvm::dyn_cast<clang::FieldDecl>(me->getMemberDecl());
  if (fd == nullptr) unsupported(me, "member access");
  Region r = me->isArrow() ? deref_region(rvalue(base), bt, me) : region(base);
  r.offset += field_offset(fd, me->getExprLoc());
  return r;
}

Place Translator::leaf_place(const Region& r, std::size_t leaf) {
  if (r.objects.size() == 1) return Place{r.objects.front().second->leaves[leaf], {}, Term{}};
  Place p{std::nullopt, {}, r.key};
  for (const auto& [id, s] : r.objects) p.cells.emplace_back(id, s->leaves[leaf]);
  return p;
}

Place Translator::member_place(const clang::MemberExpr* me) {
  if (is_struct(me->getType()))
    unsupported(me, "struct value of member '" + me->getMemberDecl()->getNameAsString() + "'");
  const Region r = member_region(me);
  return leaf_place(r, r.offset);
}

// &s.f, &p->f: the address of the member's first leaf.
Term Translator::member_address(const clang::MemberExpr* me) {
  const Region r = member_region(me);
  return mk(Op::Add, {r.key, num(static_cast<std::int64_t>(r.offset))});
}

// to = from, leaf by leaf; the values are read before the first write when a pointer
// selects either side (the two may be one object).
void Translator::copy_struct(const Region& to, const Region& from, clang::QualType t,
                             const clang::Expr* where) {
  const std::size_t n = layout(t, where->getExprLoc()).leaves.size();
  const bool aliased = to.objects.size() > 1 || from.objects.size() > 1;
  std::vector<Term> values;
  values.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Term v = load(leaf_place(from, from.offset + k));
    values.push_back(aliased ? snapshot(v) : v);
  }
  at(where->getExprLoc());
  for (std::size_t k = 0; k < n; ++k) write(leaf_place(to, to.offset + k), values[k]);
}

}  // namespace precis::c::detail
