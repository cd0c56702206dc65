// The C front end's large arrays of structs, one SMT array per leaf.
//
// An array `struct S a[N]` of more than TranslateOptions::max_cellwise_array elements (8,
// as for integer arrays; structs.cpp's leaf-wise encoding costs seconds from a few
// hundred leaves on) whose address no pointer takes is one variable of the array sort per
// scalar leaf of S, indexed by the element (`a[].p`, `a[].t.q`,
// `a[].x[2]`; locals `f::a[].p`): a[i].p reads select(a[].p, i), a write stores, and a
// copy of a[i] to or from a struct goes leaf by leaf (structs.cpp's Region, whose
// `element` is the index). The element index is checked like any array index
// (arrays.cpp): the path continues only where 0 <= i < N. Static storage starts as
// constant arrays 0, an initializer list stores its elements (each a list of S's scalar
// members), a local without initializer is havocked and a read assumes the leaf type's
// range (C gives every object a value of its type).
//
// Such an array whose address is taken or that decays to a pointer stays leaf-wise up to
// the leaf-wise limit; beyond it, element k has the addresses from base + k * stride
// (stride: S's leaf count, the step of a `struct S *`), its columns are indexed by the
// element's address rather than k, and a `struct S *` may point to an element: p->f
// reads the column of f at p (structs.cpp's deref regions), a[i].f at base + i * stride. An address
// inside an element (`&a[i].f`, the decay of a member array) is refused, as is a variable index
// into an array member of an element.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

// Whether an object of type t is a columns object: an array of structs of more elements
// than TranslateOptions::max_cellwise_array, the threshold of integer arrays (arrays.cpp),
// or, if a pointer may reach it, of more leaves than the leaf-wise encoding takes.
bool Translator::wants_columns(clang::QualType t, clang::SourceLocation where, bool address_taken) {
  const auto* ca = ctx_.getAsConstantArrayType(t.getCanonicalType());
  if (ca == nullptr || !is_struct(ca->getElementType())) return false;
  const std::uint64_t n = ca->getSize().getZExtValue();
  if (n == 0 || n > kMaxWholeArray) return false;  // (refused by the leaf-wise encoding)
  const std::size_t w = layout(ca->getElementType(), where).leaves.size();
  return address_taken ? n * w > 8 * opt_.max_array_cells : n > opt_.max_cellwise_array;
}

const StructObject* Translator::new_columns(const std::string& name, std::uint32_t scope,
                                            clang::QualType t, clang::SourceLocation where) {
  const auto* ca = ctx_.getAsConstantArrayType(t.getCanonicalType());
  StructObject s;
  s.type = object_type(t);
  s.name = name;
  s.element = ca->getElementType().getCanonicalType().getUnqualifiedType();
  s.length = static_cast<std::size_t>(ca->getSize().getZExtValue());
  const StructLayout& l = layout(s.element, where);
  s.stride = l.leaves.size();
  for (const auto& [path, lt] : l.leaves)
    if (lt->isRealFloatingType())  // a column is of the array sort, int -> int
      unsupported(where, "array of structs with a floating-point member '" + path + "'");
  for (const auto& [path, lt] : l.leaves)
    s.columns.push_back(new_var(name + "[]" + path + pointer_suffix(lt), scope, Type::Array));
  return &structs_.emplace_back(std::move(s));
}

void Translator::init_columns(const StructObject* s, const clang::Expr* init, bool zero,
                              bool constant_only) {
  auto& so = const_cast<StructObject&>(*s);  // NOLINT: created by new_columns, owned here
  const StructLayout& l = layout(s->element, clang::SourceLocation());
  const clang::InitListExpr* list = nullptr;
  if (init != nullptr) {
    list = llvm::dyn_cast<clang::InitListExpr>(init->IgnoreParenImpCasts());
    if (list == nullptr) unsupported(init, "array initializer other than a list");
    if (list->getNumInits() > s->length)
      unsupported(init, "initializer list longer than the array");
  }
  so.unconstrained = list == nullptr && !zero;
  for (const VarId c : s->columns) {
    if (so.unconstrained)
      emit(Havoc{c});
    else
      emit(Assign{c, em_.const_array(num(0))});
  }
  std::size_t members = 0;  // the struct's members, if each is one scalar leaf
  for (const clang::FieldDecl* fd : s->element->getAsRecordDecl()->getDefinition()->fields())
    if (!fd->isUnnamedBitfield()) ++members;
  for (std::size_t k = 0; list != nullptr && k < list->getNumInits(); ++k) {
    const clang::Expr* e = list->getInit(k);
    if (llvm::isa<clang::ImplicitValueInitExpr>(e)) continue;
    const auto* el = llvm::dyn_cast<clang::InitListExpr>(e->IgnoreParenImpCasts());
    if (el == nullptr || members != l.leaves.size())
      unsupported(e,
                  "initializer of an element of a large array of structs other than a list "
                  "of scalar members");
    for (std::size_t j = 0; j < el->getNumInits(); ++j) {
      const clang::Expr* v = el->getInit(j);
      if (llvm::isa<clang::ImplicitValueInitExpr>(v)) continue;  // 0, from the constant array
      at(v->getExprLoc());
      Term x;
      if (constant_only && !is_pointer(l.leaves[j].second)) {
        x = as_int(convert(constant_or_refuse(v, "non-constant initializer of a global array"),
                           type_of(v), l.types[j]));
      } else {
        x = as_int(convert(rvalue(v), type_of(v), l.types[j]));
      }
      const VarId c = s->columns[j];
      const auto at_k = static_cast<std::int64_t>(  // (by_address: set before, at registration)
          s->by_address ? static_cast<std::size_t>(s->base_id) + k * s->stride : k);
      emit(Assign{c, em_.store(em_.var(c), num(at_k), x)});
    }
  }
}

// The object's addresses: element k's leaves from base_id + k * stride on. A pointer may
// reach the elements if the array's address is taken (a `struct S *` to an element, as
// pointers.cpp's struct objects; an address inside an element is refused,
// no_leaf_address).
void Translator::register_columns(
    const clang::VarDecl* vd, const StructObject* s, std::vector<MemObject>& objects,
    std::unordered_map<const clang::VarDecl*, std::int64_t>& addresses) {
  auto& so = const_cast<StructObject&>(*s);  // NOLINT: created by new_columns, owned here
  const auto span = static_cast<std::int64_t>(s->length * s->stride);
  so.base_id = reserve_addresses(span);
  if (vd == nullptr || address_taken_.count(vd->getCanonicalDecl()) == 0) return;
  objects.push_back(MemObject{s->base_id, 0, object_type(s->element), s, num(span)});
  addresses[vd] = s->base_id;
  so.by_address = true;  // p->f is then select(f's column, p): no division by the stride
}

// Refuses an address inside an element of a columns object (of a member, or of a cell of
// a member array): no integer object stands for its leaf.
void Translator::no_leaf_address(const Region& r, const clang::Expr* where) {
  for (const auto& o : r.objects)
    if (o.second->is_columns())
      unsupported(where, "address of a member of an element of '" + o.second->name +
                             "' (a large array of structs)");
}

// r[idx] when r is (inside) a columns object: on the object itself the index selects the
// element; inside an element (an array member) it must be a constant and moves the leaf.
// False when r is not in a single columns object.
bool Translator::index_columns(Region& r, clang::QualType array_type, const clang::Expr* idx,
                               const clang::Expr* where) {
  if (r.objects.size() != 1 || !r.objects.front().second->is_columns()) return false;
  const StructObject* s = r.objects.front().second;
  const Term i = as_int(rvalue(idx));
  const auto* ca = ctx_.getAsConstantArrayType(array_type);
  if (ca == nullptr) unsupported(where, "subscript of an array without a constant size");
  const auto n = static_cast<std::int64_t>(ca->getSize().getZExtValue());
  if (i.is_const() && (i.value() < 0 || i.value() >= n))
    unsupported(where, "index " + std::to_string(i.value()) + " outside an array of " +
                           std::to_string(n) + " elements");
  if (!r.whole) {  // an array member of the element
    if (!i.is_const())
      unsupported(where, "variable index into an array member of an element of '" + s->name +
                             "' (a large array of structs)");
    r.offset +=
        static_cast<std::size_t>(i.value()) * leaf_count(ca->getElementType(), where->getExprLoc());
    return true;
  }
  r.whole = false;
  if (i.is_const()) {
    r.element = i;
    return true;
  }
  r.element = snapshot(i);
  at(where->getExprLoc());
  emit(Assume{em_.and_(em_.le(num(0), r.element), em_.lt(r.element, num(n)))});
  return true;
}

// The cell of leaf `leaf` (counted from its element's first leaf) of the element of
// columns object s (at address id) that r designates: by the subscript's index, or by
// the address r holds (a pointer to the element), where that address is in s's range.
ArrayCell Translator::column_cell(const Region& r, std::int64_t id, const StructObject* s,
                                  std::size_t leaf) {
  if (!r.dynamic.empty())
    throw input_error(position(),
                      "unsupported: variable index into an array member of an "
                      "element of '" +
                          s->name + "' (a large array of structs)");
  if (r.whole)
    throw std::logic_error("column_cell: a leaf of '" + s->name + "' without an element");
  const auto stride = static_cast<std::int64_t>(s->stride);
  Term index = r.element, inside = em_.true_();
  if (index.valid() && s->by_address) {  // a subscript of an array a pointer may reach
    index = mk(Op::Add, {num(id), mk(Op::Mul, {index, num(stride)})});
  } else if (!index.valid()) {  // behind a pointer (by_address): the element's address
    if (!s->by_address)
      throw std::logic_error("column_cell: '" + s->name + "' behind a pointer, indexed by element");
    index = r.key;
    if (r.objects.size() > 1)  // (pointees() assumed it is in one of the objects)
      inside = in_array(r.key, id, num(static_cast<std::int64_t>(s->length * s->stride)));
  }
  const std::optional<IntType> range =
      s->unconstrained ? std::optional(layout(s->element, clang::SourceLocation()).types[leaf])
                       : std::nullopt;
  return ArrayCell{s->columns.at(leaf), index, inside, range};
}

}  // namespace precis::c::detail
