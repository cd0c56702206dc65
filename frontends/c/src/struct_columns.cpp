// The C front end's large arrays of structs (issue 26), one SMT array per leaf.
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
// Such an array whose address is taken or that decays to a pointer stays leaf-wise (and
// is refused beyond the limit); an index into an array member of an element must be a
// constant.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

// Whether an object of type t (whose address no pointer takes) is a columns object: an
// array of structs of more elements than TranslateOptions::max_cellwise_array, the
// threshold of integer arrays (arrays.cpp).
bool Translator::wants_columns(clang::QualType t, clang::SourceLocation where) {
  const auto* ca = ctx_.getAsConstantArrayType(t.getCanonicalType());
  if (ca == nullptr || !is_struct(ca->getElementType())) return false;
  const std::uint64_t n = ca->getSize().getZExtValue();
  if (n == 0 || n > kMaxWholeArray) return false;  // (refused by the leaf-wise encoding)
  (void)layout(ca->getElementType(), where);  // (refuses what the element may not be)
  return n > opt_.max_cellwise_array;
}

const StructObject* Translator::new_columns(const std::string& name, std::uint32_t scope,
                                            clang::QualType t, clang::SourceLocation where) {
  const auto* ca = ctx_.getAsConstantArrayType(t.getCanonicalType());
  StructObject s;
  s.type = object_type(t);
  s.name = name;
  s.element = ca->getElementType().getCanonicalType().getUnqualifiedType();
  s.length = static_cast<std::size_t>(ca->getSize().getZExtValue());
  for (const auto& [path, lt] : layout(s.element, where).leaves)
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
        auto c = constant(v);
        if (!c) unsupported(v, "non-constant initializer of a global array");
        x = as_int(convert(num(*c), type_of(v), l.types[j]));
      } else {
        x = as_int(convert(rvalue(v), type_of(v), l.types[j]));
      }
      const VarId c = s->columns[j];
      emit(Assign{c, em_.store(em_.var(c), num(static_cast<std::int64_t>(k)), x)});
    }
  }
}

// r[idx] when r is (inside) a columns object: the first index selects the element, a
// later one (into an array member of the element) must be a constant and moves the leaf.
// False when r is not in a columns object.
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
  if (r.element.valid()) {  // an array member of the element
    if (!i.is_const())
      unsupported(where, "variable index into an array member of an element of '" + s->name +
                             "' (a large array of structs)");
    r.offset +=
        static_cast<std::size_t>(i.value()) * leaf_count(ca->getElementType(), where->getExprLoc());
    return true;
  }
  if (i.is_const()) {
    r.element = i;
    return true;
  }
  r.element = snapshot(i);
  at(where->getExprLoc());
  emit(Assume{em_.and_(em_.le(num(0), r.element), em_.lt(r.element, num(n)))});
  return true;
}

// The leaf `leaf` of the element r selects: the column's cell at the element's index.
Place Translator::column_place(const Region& r, std::size_t leaf) {
  const StructObject* s = r.objects.front().second;
  if (!r.element.valid())
    throw std::logic_error("column_place: a leaf of '" + s->name + "' without an element");
  const std::optional<IntType> range =
      s->unconstrained ? std::optional(layout(s->element, clang::SourceLocation()).types[leaf])
                       : std::nullopt;
  return Place{
      std::nullopt, {}, Term{}, {ArrayCell{s->columns.at(leaf), r.element, em_.true_(), range}}};
}

}  // namespace precis::c::detail
