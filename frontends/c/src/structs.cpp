// The C front end's structs and other aggregates: structs, arrays of structs
// and multi-dimensional arrays, scalarised leaf by leaf; member access, indexing, struct
// assignment and initialisation, pointers to structs.
//
// An aggregate object `s` of type `struct S { int a; struct T { int b; int *p; } t[2]; }`
// is one program variable per scalar leaf, in declaration and index order with nested
// aggregates flattened: `s.a`, `s.t[0].b`, `s.t[0].p#ptr`, `s.t[1].b`, ... (locals
// `f::s.a`). Every domain and the solver see plain integers, and a correctness witness may
// name a leaf as C does. (One-dimensional integer arrays that are not struct members are
// arrays.cpp's.) `s.t[1].b` is that leaf; a struct assignment `s = u` (also an
// initializer, or a struct passed by value) copies the leaves one by one; an initializer
// list sets them (missing members are 0, as in C); a local without initializer has
// arbitrary leaves.
//
// An lvalue inside an aggregate is a Region: the objects it may be in, its first leaf, and
// the variable indices on the way (`s.t[i].b`: leaf 1 + 3i, 0 <= i < 2, checked like an
// array index). Its scalar leaf is a Place keyed by the leaf's address, so a variable
// index is an ite over the candidate leaves and a guarded write to each, as in arrays.cpp.
//
// Leaf k has the address base_id + k and a nested struct the address of its first leaf
// (pointers.cpp), so `&s`, `&s.t[1]` and `&s.t[i].b` are addresses, and pointer
// arithmetic on `struct T *` steps by T's leaf count. `p->b` with p of type `struct T *`
// selects among the address-taken struct objects of type T (nested ones and array
// elements included) by the address p holds: the path continues only where p is one of
// them. A pointer to a dead struct, to another type or to nothing is undefined behaviour
// and ends the path.
//
// A bit-field is a leaf of its width: every store converts the value to it (wrapping,
// as gcc does for a signed one), and no pointer reaches it.
//
// An array of structs of more than max_cellwise_array (8) elements whose address no
// pointer takes is one SMT array per leaf instead (struct_columns.cpp).
//
// Refused: unions, struct return values, pointers to arrays, other aggregates of more
// than 8 x max_array_cells leaves.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

bool Translator::is_struct(clang::QualType qt) { return qt.getCanonicalType()->isStructureType(); }

// Structs, and arrays whose elements are structs or arrays.
bool Translator::is_aggregate(clang::QualType qt) {
  const clang::QualType t = qt.getCanonicalType();
  if (t->isStructureType()) return true;
  const auto* at = llvm::dyn_cast<clang::ArrayType>(t.getTypePtr());
  if (at == nullptr) return false;
  const clang::QualType e = at->getElementType().getCanonicalType();
  return e->isStructureType() || e->isArrayType();
}

// The layout of a struct or constant-size array type (computed once per type), or
// refused.
const StructLayout& Translator::layout(clang::QualType t, clang::SourceLocation where) {
  const clang::Type* key = object_type(t);
  if (auto it = layouts_.find(key); it != layouts_.end()) return it->second;
  StructLayout l;
  // Appends the leaves of a part of type pt at path `path`.
  auto part = [&](const std::string& path, clang::QualType pt, clang::SourceLocation at) {
    if (pt->isArrayType() || is_struct(pt)) {
      const StructLayout& inner = layout(pt, at);  // (a reference into the node-based map)
      const std::size_t first = l.leaves.size();
      if (is_struct(pt)) l.members.emplace_back(first, pt);
      for (const auto& [k, mt] : inner.members) l.members.emplace_back(first + k, mt);
      for (const auto& [p, lt] : inner.leaves) l.leaves.emplace_back(path + p, lt);
      l.types.insert(l.types.end(), inner.types.begin(), inner.types.end());
      l.bit_fields.insert(l.bit_fields.end(), inner.bit_fields.begin(), inner.bit_fields.end());
    } else {
      l.types.push_back(int_type(pt, at));  // an integer or a pointer, or refused
      l.bit_fields.push_back(false);
      l.leaves.emplace_back(path, pt);
    }
  };
  if (const auto* ca = ctx_.getAsConstantArrayType(t)) {
    const std::uint64_t n = ca->getSize().getZExtValue();
    if (n == 0) unsupported(where, "array type '" + t.getAsString() + "' of no elements");
    if (n > 8 * opt_.max_array_cells)
      unsupported(where, "array type '" + t.getAsString() + "': " + std::to_string(n) +
                             " elements, more than the leaf-wise encoding takes");
    for (std::uint64_t j = 0; j < n; ++j) {
      std::string path(1, '[');  // (not "[" + ...: GCC 12's -Wrestrict false positive)
      path += std::to_string(j);
      path += ']';
      part(path, ca->getElementType(), where);
    }
  } else if (t->isArrayType()) {
    unsupported(where, "array type '" + t.getAsString() + "' without a constant size");
  } else {
    const clang::RecordDecl* rd = t->getAsRecordDecl();
    if (rd != nullptr) rd = rd->getDefinition();
    if (rd == nullptr || !is_struct(t))
      unsupported(where, "struct or union type '" + t.getAsString() + "'");
    for (const clang::FieldDecl* fd : rd->fields()) {
      if (fd->isUnnamedBitfield()) continue;  // padding: no value
      std::string member(1, '.');
      member += fd->getNameAsString();
      part(member, fd->getType(), fd->getLocation());
      if (fd->isBitField()) {  // a value of its width (C11 6.7.2.1): wrapped on every store
        IntType& bt = l.types.back();
        bt.width = fd->getBitWidthValue(ctx_);
        l.bit_fields.back() = true;
        if (bt.width == 0) unsupported(fd->getLocation(), "bit-field of width 0");
      }
    }
  }
  if (l.leaves.empty()) unsupported(where, "type '" + t.getAsString() + "' without members");
  if (l.leaves.size() > 8 * opt_.max_array_cells)
    unsupported(where, "type '" + t.getAsString() + "' of " + std::to_string(l.leaves.size()) +
                           " scalars, more than the leaf-wise encoding takes (" +
                           std::to_string(8 * opt_.max_array_cells) + ")");
  return layouts_.emplace(key, std::move(l)).first->second;
}

std::size_t Translator::leaf_count(clang::QualType t, clang::SourceLocation where) {
  return t->isArrayType() || is_struct(t) ? layout(t, where).leaves.size() : 1;
}

std::size_t Translator::member_leaves(const clang::FieldDecl* fd, clang::SourceLocation where) {
  return fd->isUnnamedBitfield() ? 0 : leaf_count(fd->getType(), where);
}

// The integer type of the bit-field an lvalue designates, if it designates one.
std::optional<IntType> Translator::bit_field_type(const clang::Expr* lvalue) const {
  const clang::FieldDecl* fd = lvalue->getSourceBitField();
  if (fd == nullptr) return std::nullopt;
  IntType t = int_type(fd->getType(), lvalue->getExprLoc());
  t.width = fd->getBitWidthValue(ctx_);
  return t;
}

// The first leaf of member `fd` within its struct.
std::size_t Translator::field_offset(const clang::FieldDecl* fd, clang::SourceLocation where) {
  std::size_t k = 0;
  for (const clang::FieldDecl* f : fd->getParent()->fields()) {
    if (f == fd) return k;
    k += member_leaves(f, where);
  }
  unsupported(where, "member '" + fd->getNameAsString() + "' not found in its struct");
}

const StructObject* Translator::new_struct(const std::string& name, std::uint32_t scope,
                                           clang::QualType t, clang::SourceLocation where,
                                           bool may_be_columns, bool address_taken) {
  if (may_be_columns && wants_columns(t, where, address_taken))
    return new_columns(name, scope, t, where);  // struct_columns.cpp
  const StructLayout& l = layout(t, where);
  StructObject s;
  s.type = object_type(t);
  s.name = name;
  s.leaves.reserve(l.leaves.size());
  for (const auto& [path, lt] : l.leaves)
    s.leaves.push_back(new_var(name + path + pointer_suffix(lt), scope,
                               lt->isRealFloatingType() ? int_type(lt, where).sort() : Type::Int));
  return &structs_.emplace_back(std::move(s));
}

// Gives the object its addresses. If `vd`'s address is taken (or vd is null: an object
// only a pointer reaches), the object, its leaves and its nested structs become objects
// a pointer may reach.
void Translator::register_struct(
    const clang::VarDecl* vd, const StructObject* s, std::vector<MemObject>& objects,
    std::unordered_map<const clang::VarDecl*, std::int64_t>& addresses) {
  if (s->is_columns()) return register_columns(vd, s, objects, addresses);  // struct_columns.cpp
  auto& so = const_cast<StructObject&>(*s);  // NOLINT: created by new_struct, owned here
  so.base_id = reserve_addresses(static_cast<std::int64_t>(s->leaves.size()));
  if (vd != nullptr && address_taken_.count(vd->getCanonicalDecl()) == 0) return;
  const StructLayout& l = layout(clang::QualType(s->type, 0), clang::SourceLocation());
  if (is_struct(clang::QualType(s->type, 0)))
    objects.push_back(MemObject{s->base_id, 0, s->type, s});
  for (std::size_t k = 0; k < s->leaves.size(); ++k)
    if (!l.bit_fields[k])  // a bit-field has no address
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
  if (s->is_columns()) return init_columns(s, init, zero, constant_only);
  init_leaves(s, 0, clang::QualType(s->type, 0), init, zero, constant_only);
}

// Sets the leaves from `first` on of a part of type `t` from `init`: an initializer list
// (missing members and elements are 0), a struct value (copied), nothing (0 if `zero`,
// else any values).
void Translator::init_leaves(const StructObject* s, std::size_t first, clang::QualType t,
                             const clang::Expr* init, bool zero, bool constant_only) {
  const clang::SourceLocation where =
      init != nullptr ? init->getExprLoc() : clang::SourceLocation();
  if (!t->isArrayType() && !is_struct(t)) {  // one scalar leaf
    const VarId v = s->leaves[first];
    const IntType declared = int_type(t, where);
    const IntType lt = layout(clang::QualType(s->type, 0), where).types[first];  // bit-field?
    if (init == nullptr) {
      if (zero) {
        emit(Assign{v, num(0)});
      } else {
        emit(Havoc{v});
        emit(Assume{in_range(em_.var(v), lt)});
      }
      return;
    }
    at(init->getExprLoc());
    if (constant_only && is_pointer(t)) {
      emit(Assign{v, rvalue(init)});  // an address (of an object declared before) or 0
    } else if (constant_only) {
      emit(
          Assign{v, as_int(convert(constant_or_refuse(init, "non-constant initializer of a global"),
                                   type_of(init), lt))});
    } else if (lt.width != declared.width) {
      emit(Assign{v, as_int(convert(rvalue(init), declared, lt))});
    } else {
      store(v, lt, init);
    }
    return;
  }
  const auto* list =
      init != nullptr ? llvm::dyn_cast<clang::InitListExpr>(init->IgnoreParenImpCasts()) : nullptr;
  if (init != nullptr && list == nullptr) {
    if (t->isArrayType() || constant_only)
      unsupported(init, "initializer of '" + t.getAsString() + "' other than a list");
    const Region from = region(init);
    copy_struct(Region{{{s->base_id, s}}, num(s->base_id), first, {}}, from, t, init);
    return;
  }
  // The parts in order: the elements of an array, the members of a struct.
  std::vector<clang::QualType> parts;
  if (const auto* ca = ctx_.getAsConstantArrayType(t)) {
    parts.assign(ca->getSize().getZExtValue(), ca->getElementType());
  } else {
    for (const clang::FieldDecl* fd : t->getAsRecordDecl()->getDefinition()->fields())
      if (!fd->isUnnamedBitfield()) parts.push_back(fd->getType());  // (lists skip padding)
  }
  if (list != nullptr && list->getNumInits() > parts.size())
    unsupported(init, "initializer list longer than the object");
  std::size_t k = first;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const clang::Expr* e = list != nullptr && i < list->getNumInits() ? list->getInit(i) : nullptr;
    if (e != nullptr && llvm::isa<clang::ImplicitValueInitExpr>(e)) e = nullptr;
    init_leaves(s, k, parts[i], e, zero || list != nullptr, constant_only);
    k += leaf_count(parts[i], where);
  }
}

// ---- lvalues inside aggregates ----------------------------------------------------------

Region Translator::region(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* ic = llvm::dyn_cast<clang::ImplicitCastExpr>(e);
      ic && (ic->getCastKind() == clang::CK_LValueToRValue || ic->getCastKind() == clang::CK_NoOp))
    return region(ic->getSubExpr());
  if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e))
    if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl())) {
      const StructObject* s = struct_of(vd);
      if (s == nullptr) unsupported(e, "variable '" + vd->getNameAsString() + "'");
      Region r{{{s->base_id, s}}, num(s->base_id), 0, {}};
      r.whole = s->is_columns();
      return r;
    }
  if (const auto* me = llvm::dyn_cast<clang::MemberExpr>(e)) return member_region(me);
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e);
      u && u->getOpcode() == clang::UO_Deref)
    return deref_region(rvalue(u->getSubExpr()), e->getType(), e);
  if (const auto* as = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
    if (auto r = array_region(as->getBase())) {
      index_region(*r, as->getBase()->IgnoreParenImpCasts()->getType(), as->getIdx(), as);
      return *r;
    }
    // p[i] with p a pointer to a struct: *(p + i), i steps of the struct's leaf count.
    const Term p = rvalue(as->getBase());
    const Term i = as_int(rvalue(as->getIdx()));
    const auto w = static_cast<std::int64_t>(struct_stride(as->getBase()));
    return deref_region(mk(Op::Add, {p, mk(Op::Mul, {i, num(w)})}), e->getType(), e);
  }
  if (llvm::isa<clang::CallExpr>(e)) unsupported(e, "call returning a struct");
  unsupported(e, "struct-valued expression");
}

// The region of an array lvalue inside an aggregate (the base of a subscript, before its
// decay to a pointer), or nullopt when the base is a pointer or an arrays.cpp array.
std::optional<Region> Translator::array_region(const clang::Expr* array_expr) {
  const clang::Expr* b = array_expr->IgnoreParens();
  if (const auto* ic = llvm::dyn_cast<clang::ImplicitCastExpr>(b);
      ic && ic->getCastKind() == clang::CK_ArrayToPointerDecay)
    b = ic->getSubExpr()->IgnoreParens();
  if (!b->getType()->isArrayType()) return std::nullopt;
  if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(b))
    if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl()); vd && !struct_of(vd))
      return std::nullopt;
  return region(b);
}

// r[idx] for r of type `array_type`: a constant index moves the first leaf; a variable
// one is saved, the path continues only where it is inside the array, and it is added to
// the region's variable indices.
void Translator::index_region(Region& r, clang::QualType array_type, const clang::Expr* idx,
                              const clang::Expr* where) {
  if (index_columns(r, array_type, idx, where)) return;  // struct_columns.cpp
  const auto* ca = ctx_.getAsConstantArrayType(array_type);
  if (ca == nullptr) unsupported(where, "subscript of an array without a constant size");
  const auto n = static_cast<std::int64_t>(ca->getSize().getZExtValue());
  const std::size_t w = leaf_count(ca->getElementType(), where->getExprLoc());
  const Term i = as_int(rvalue(idx));
  if (i.is_const()) {
    if (i.value() < 0 || i.value() >= n)
      unsupported(where, "index " + std::to_string(i.value()) + " outside an array of " +
                             std::to_string(n) + " elements");
    r.offset += static_cast<std::size_t>(i.value()) * w;
    return;
  }
  std::size_t cells = r.objects.size() * static_cast<std::size_t>(n);
  for (const DynamicIndex& d : r.dynamic) cells *= d.count;
  if (cells > 8 * opt_.max_array_cells)
    unsupported(where, "access that may reach " + std::to_string(cells) +
                           " cells, more than the leaf-wise encoding takes");
  const Term saved = snapshot(i);
  at(where->getExprLoc());
  emit(Assume{em_.and_(em_.le(num(0), saved), em_.lt(saved, num(n)))});
  r.dynamic.push_back(DynamicIndex{saved, w, static_cast<std::size_t>(n)});
}

// The address of the region's first leaf.
Term Translator::region_address(const Region& r) {
  Term a = mk(Op::Add, {r.key, num(static_cast<std::int64_t>(r.offset))});
  if (r.element.valid())  // an element of a columns object (struct_columns.cpp)
    a = mk(Op::Add,
           {a, mk(Op::Mul,
                  {r.element, num(static_cast<std::int64_t>(r.objects.front().second->stride))})});
  for (const DynamicIndex& d : r.dynamic)
    a = mk(Op::Add, {a, mk(Op::Mul, {d.index, num(static_cast<std::int64_t>(d.stride))})});
  return a;
}

// The leaf count of the struct a `struct S *` expression points to: its pointer step.
std::size_t Translator::struct_stride(const clang::Expr* pointer) {
  const clang::QualType t = pointer->getType();
  if (!t->isPointerType() || !is_struct(t->getPointeeType()))
    unsupported(pointer, "subscript of an expression that is not an array or a pointer");
  return leaf_count(t->getPointeeType(), pointer->getExprLoc());
}

// The struct objects of type `pointee` that `address` may point to.
Region Translator::deref_region(Term address, clang::QualType pointee, const clang::Expr* where) {
  if (!is_struct(pointee))
    unsupported(where, "struct or union type '" + pointee.getAsString() + "'");
  Region r;
  r.key = address.is_const() ? address : snapshot(address);
  for (const MemObject& o : pointees(r.key, pointee, true, where))  // pointers.cpp
    r.objects.emplace_back(o.id, o.agg);
  if (r.key.is_const()) {  // the one object at that address, if it is among them
    const std::int64_t k = r.key.value();
    for (const auto& o : r.objects) {
      const StructObject* s = o.second;
      const bool here =
          s->is_columns()
              ? o.first <= k && k - o.first < static_cast<std::int64_t>(s->length * s->stride)
              : o.first == k;
      if (here) {
        r.objects = {std::pair(o)};
        break;
      }
    }
  }
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

// The scalar leaf `leaf` (counted from the objects' first leaf, variable indices at 0):
// one variable, or the candidate leaves keyed by their addresses.
Place Translator::leaf_place(const Region& r, std::size_t leaf) {
  if (r.objects.size() == 1 && r.dynamic.empty() && !r.objects.front().second->is_columns())
    return Place{r.objects.front().second->leaves[leaf], {}, Term{}};
  std::vector<std::size_t> positions{leaf};
  for (const DynamicIndex& d : r.dynamic) {
    std::vector<std::size_t> next;
    for (std::size_t p : positions)
      for (std::size_t j = 0; j < d.count; ++j) next.push_back(p + j * d.stride);
    positions = std::move(next);
  }
  Region at_leaf = r;
  at_leaf.offset = leaf;
  Place p{std::nullopt, {}, region_address(at_leaf)};
  for (const auto& [id, s] : r.objects) {
    if (s->is_columns()) {  // its element's leaf: a cell of the leaf's SMT array
      p.arrays.push_back(column_cell(r, id, s, leaf));  // struct_columns.cpp
      continue;
    }
    for (std::size_t k : positions)
      p.cells.emplace_back(s->base_id + static_cast<std::int64_t>(k), s->leaves[k]);
  }
  return p;
}

Place Translator::member_place(const clang::MemberExpr* me) {
  if (me->getType()->isArrayType() || is_struct(me->getType()))
    unsupported(me, "aggregate value of member '" + me->getMemberDecl()->getNameAsString() + "'");
  const Region r = member_region(me);
  return leaf_place(r, r.offset);
}

// a[i] of a scalar element, with `a` inside an aggregate (s.a[i], m[i][j], p->a[i]).
Place Translator::aggregate_element_place(const clang::ArraySubscriptExpr* e) {
  std::optional<Region> r = array_region(e->getBase());
  if (!r) unsupported(e, "subscript of an expression that is not an array or a pointer");
  index_region(*r, e->getBase()->IgnoreParenImpCasts()->getType(), e->getIdx(), e);
  return leaf_place(*r, r->offset);
}

// &s.f, &p->f: the address of the member's first leaf.
Term Translator::member_address(const clang::MemberExpr* me) {
  const Region r = member_region(me);
  no_leaf_address(r, me);  // struct_columns.cpp
  return region_address(r);
}

// to = from, leaf by leaf; the values are read before the first write when a pointer or
// a variable index selects either side (the two may overlap).
void Translator::copy_struct(const Region& to, const Region& from, clang::QualType t,
                             const clang::Expr* where) {
  const std::size_t n = leaf_count(t, where->getExprLoc());
  const bool aliased = to.objects.size() > 1 || from.objects.size() > 1 || !to.dynamic.empty() ||
                       !from.dynamic.empty();
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
