// The C front end's arrays: one-dimensional arrays of integers, local and
// global, with initializers and variable indices, of a constant size or variable-length.
//
// An array `int a[N]` that a pointer reaches, with N <= max_array_cells (128), (or with
// N <= TranslateOptions::max_cellwise_array, 8 by default) is N variables
// `a[0]`, ..., `a[N-1]` (locals `f::a[k]`), so every domain and the solver see plain
// integers and a correctness witness may name a cell as C does. An access with a constant
// index is that cell. With a variable index i (saved first, as any operand a later side
// effect could change):
//   - the path continues only where 0 <= i < N: an access outside the array is undefined
//     behaviour, which SV-COMP's reachability tasks are free of (it ends the path, like
//     abort(), and is not an error of the property);
//   - a read is ite(i = 0, a[0], ite(i = 1, a[1], ... a[N-1]));
//   - a write a[i] = v is N assignments a[k] := ite(i = k, v, a[k]).
// Every cell also has an address, so an array decays to a pointer to its first cell
// (pointers.cpp).
//
// Any other array (up to kMaxWholeArray elements) is one variable of the array sort (expr/term.hpp:
// select, store, constant arrays; the solver's theory of arrays): a read a[i] is select(a, i), a
// write a[i] = v is a := store(a, i, v), static storage starts as the constant array 0, and an
// initializer list stores its elements over it. The index is checked as above. A local without
// initializer is havocked, and a read of it assumes the value in the element type's range (C gives
// every object a value of its type). A pointer that reaches such an array (one of more than 128
// cells whose address is taken) holds an address in a range of its own, and a dereference reads
// at the address minus the range's start (pointers.cpp).
//
// A variable-length array `int a[n]` (a local) is always an SMT array, with a length
// variable `a#length` that its declaration sets from n, each time it runs (C11 6.7.6.2):
// the path continues only where 1 <= n and n elements fit into the largest object
// (max_object_elements; a length below 1 is undefined behaviour, a larger one overflows
// the stack). Its cells start unconstrained; an index is checked against the length
// variable; `sizeof a` is the length times the element size. A pointer that reaches it
// holds an address in a range as long as the largest object.
//
// Arrays of arrays and arrays of non-integers are refused (arrays of structs are
// structs.cpp's).

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

// The shape of a one-dimensional integer array type, or nullopt for a type that is not
// an array. Refuses the arrays this encoding does not take.
std::optional<ArrayShape> Translator::array_shape(clang::QualType qt,
                                                  clang::SourceLocation where) const {
  const clang::QualType t = qt.getCanonicalType();
  if (!t->isArrayType()) return std::nullopt;
  const clang::QualType et = ctx_.getAsArrayType(t)->getElementType();
  const std::string name = qt.getAsString();
  if (et->isArrayType()) unsupported(where, "multi-dimensional array type '" + name + "'");
  if (et->isRecordType())  // (arrays of structs are structs.cpp's)
    unsupported(where, "array of unions '" + name + "'");
  if (et->isRealFloatingType())  // cells hold integers (the array sort is int -> int)
    unsupported(where, "array of floating-point values '" + name + "'");
  ArrayShape shape{int_type(et, where)};
  shape.elem_bytes = ctx_.getTypeSizeInChars(et).getQuantity();
  if (const auto* va = ctx_.getAsVariableArrayType(t); va != nullptr && va->getSizeExpr()) {
    shape.length_expr = va->getSizeExpr();
    return shape;
  }
  const auto* ca = ctx_.getAsConstantArrayType(t);
  if (ca == nullptr) unsupported(where, "array type '" + name + "' without a size");
  const std::uint64_t n = ca->getSize().getZExtValue();
  if (n == 0) unsupported(where, "array type '" + name + "' of no elements");
  if (n > kMaxWholeArray)
    unsupported(where, "array type '" + name + "': " + std::to_string(n) +
                           " elements, more than precis' arrays take (" +
                           std::to_string(kMaxWholeArray) + ")");
  shape.size = static_cast<std::size_t>(n);
  return shape;
}

// The most elements an object can have: its size in bytes fits in size_t, and is below
// 2^47 bytes (the address space of an x86-64 process, which no object exceeds).
std::int64_t Translator::max_object_elements(std::int64_t elem_bytes) const {
  const std::uint64_t width = ctx_.getTypeSize(ctx_.getSizeType());
  const std::int64_t bytes = width >= 47 ? std::int64_t{1} << 47 : (std::int64_t{1} << width) - 1;
  return bytes / std::max<std::int64_t>(elem_bytes, 1);
}

// `sizeof a` for a variable-length array a: its length times its element's size.
std::optional<Term> Translator::vla_size(const clang::Expr* e) {
  const auto* u = llvm::dyn_cast<clang::UnaryExprOrTypeTraitExpr>(e);
  if (u == nullptr || u->getKind() != clang::UETT_SizeOf || u->isArgumentType())
    return std::nullopt;
  const clang::Expr* arg = u->getArgumentExpr()->IgnoreParens();
  if (!llvm::isa<clang::DeclRefExpr>(arg) || !arg->getType()->isVariableArrayType())
    return std::nullopt;
  const ArrayObject* a = array_of(arg);
  if (a == nullptr || a->shape.length_expr == nullptr) return std::nullopt;
  return mk(Op::Mul, {a->length, num(a->shape.elem_bytes)});
}

ArrayObject Translator::new_array(const std::string& name, std::uint32_t scope,
                                  const ArrayShape& shape, bool needs_addresses) {
  ArrayObject a;
  a.shape = shape;
  a.name = name;
  if (shape.length_expr != nullptr) {  // a variable-length array: its length set at the declaration
    a.whole = new_var(name, scope, Type::Array);
    a.length = em_.var(new_var(name + "#length", scope));
    return a;
  }
  const std::size_t n = shape.size;
  a.length = num(static_cast<std::int64_t>(n));
  // Cells have addresses, an SMT array has none: an array a pointer may reach (address
  // taken, decayed to a pointer, on the heap) stays cell by cell.
  if (n > opt_.max_cellwise_array && (!needs_addresses || n > opt_.max_array_cells)) {
    a.whole = new_var(name, scope, Type::Array);
    return a;
  }
  a.cells.reserve(n);
  for (std::size_t k = 0; k < n; ++k)
    a.cells.push_back(new_var(name + "[" + std::to_string(k) + "]", scope));
  return a;
}

// Sets the cells from `init` (an initializer list; missing elements are 0, as in C), or
// to 0 (`zero`: static storage), or to any value of the element type (a local without
// initializer).
void Translator::init_array(ArrayObject& a, const clang::Expr* init, bool zero,
                            bool constant_only) {
  const clang::InitListExpr* list = nullptr;
  if (init != nullptr) {
    list = llvm::dyn_cast<clang::InitListExpr>(init->IgnoreParenImpCasts());
    if (list == nullptr) unsupported(init, "array initializer other than a list");
    if (list->getNumInits() > a.shape.size)
      unsupported(init, "initializer list longer than the array");
  }
  if (a.shape.length_expr != nullptr) {  // C11 6.7.6.2: evaluated each time the declaration runs
    at(a.shape.length_expr->getExprLoc());
    const Term n = snapshot(as_int(rvalue(a.shape.length_expr)));
    // A length below 1 is undefined behaviour, one beyond any object's size leaves no
    // object (the stack overflows): the path ends in both cases.
    emit(Assume{
        em_.and_(em_.le(num(1), n), em_.le(n, num(max_object_elements(a.shape.elem_bytes))))});
    emit(Assign{a.length.var(), n});
  }
  if (a.whole) {
    const VarId x = *a.whole;
    a.unconstrained = list == nullptr && !zero;
    if (a.unconstrained) {
      emit(Havoc{x});
      return;
    }
    emit(Assign{x, em_.const_array(num(0))});
    for (std::size_t k = 0; list != nullptr && k < list->getNumInits(); ++k) {
      const clang::Expr* e = list->getInit(k);
      if (llvm::isa<clang::ImplicitValueInitExpr>(e)) continue;
      at(e->getExprLoc());
      Term v;
      if (constant_only) {
        v = as_int(convert(constant_or_refuse(e, "non-constant initializer of a global array"),
                           type_of(e), a.shape.elem));
      } else {
        v = as_int(rvalue(e));
      }
      emit(Assign{x, em_.store(em_.var(x), num(static_cast<std::int64_t>(k)), v)});
    }
    return;
  }
  for (std::size_t k = 0; k < a.cells.size(); ++k) {
    const clang::Expr* e = list != nullptr && k < list->getNumInits() ? list->getInit(k) : nullptr;
    if (e != nullptr && llvm::isa<clang::ImplicitValueInitExpr>(e)) e = nullptr;
    const VarId c = a.cells[k];
    if (e != nullptr) {
      at(e->getExprLoc());
      if (constant_only) {
        emit(Assign{
            c, as_int(convert(constant_or_refuse(e, "non-constant initializer of a global array"),
                              type_of(e), a.shape.elem))});
      } else {
        store(c, a.shape.elem, e);
      }
    } else if (list != nullptr || zero) {
      emit(Assign{c, num(0)});
    } else {
      emit(Havoc{c});
      emit(Assume{in_range(em_.var(c), a.shape.elem)});
    }
  }
}

// The array a subscript's base names (through the array-to-pointer decay), or nullptr
// when the base is a pointer.
const ArrayObject* Translator::array_of(const clang::Expr* base) {
  const clang::Expr* b = base->IgnoreParenImpCasts();
  if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(b))
    if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl())) {
      if (vd->hasGlobalStorage() || vd->getCanonicalDecl()->hasExternalStorage()) {
        if (auto it = global_arrays_.find(vd->getCanonicalDecl()); it != global_arrays_.end())
          return &it->second;
      } else if (!frames_.empty()) {
        auto& arrays = frames_.back().arrays;
        if (auto it = arrays.find(vd); it != arrays.end()) return &it->second;
      }
    }
  if (is_pointer(base->getType())) return nullptr;
  unsupported(base, "subscript of an expression that is not an array variable or a pointer");
}

Place Translator::element_place(const clang::ArraySubscriptExpr* e) {
  if (array_region(e->getBase())) return aggregate_element_place(e);  // structs.cpp
  const ArrayObject* a = array_of(e->getBase());
  if (a == nullptr) {  // p[i] is *(p + i): the cells are consecutive addresses
    const Term p = rvalue(e->getBase());
    const Term address =
        mk(Op::Add, {impure(e->getIdx()) ? snapshot(p) : p, as_int(rvalue(e->getIdx()))});
    return deref_place(address, e->getType(), e);
  }
  const Term i = as_int(rvalue(e->getIdx()));
  const bool checked = i.is_const() && a->length.is_const();  // here, once
  if (checked && (i.value() < 0 || i.value() >= a->length.value()))
    unsupported(e, "index " + std::to_string(i.value()) + " outside the array '" + a->name +
                       "' of " + std::to_string(a->length.value()) + " elements");
  if (i.is_const() && !a->whole)
    return Place{a->cells[static_cast<std::size_t>(i.value())], {}, Term{}};
  const Term saved = i.is_const() ? i : snapshot(i);
  at(e->getExprLoc());
  if (!checked) emit(Assume{em_.and_(em_.le(num(0), saved), em_.lt(saved, a->length))});
  if (a->whole) {
    const std::optional<IntType> range =
        a->unconstrained ? std::optional(a->shape.elem) : std::nullopt;
    return Place{std::nullopt, {}, saved, {ArrayCell{*a->whole, saved, em_.true_(), range}}};
  }
  Place p{std::nullopt, {}, saved};
  for (std::size_t k = 0; k < a->cells.size(); ++k)
    p.cells.emplace_back(static_cast<std::int64_t>(k), a->cells[k]);
  return p;
}

Place Translator::place(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* as = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) return element_place(as);
  if (const auto* me = llvm::dyn_cast<clang::MemberExpr>(e))
    return member_place(me);  // structs.cpp
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e);
      u && u->getOpcode() == clang::UO_Deref)
    return deref_place(rvalue(u->getSubExpr()), e->getType(), e);
  return Place{lvalue(e), {}, Term{}};
}

// The cell whose key matches: ite(key = k0, c0, ite(key = k1, c1, ... c_last)), over
// the SMT array cells, then the cells.
Term Translator::load(const Place& p) {
  if (p.var) return em_.var(*p.var);
  std::optional<Term> r;
  for (auto it = p.arrays.rbegin(); it != p.arrays.rend(); ++it) {
    const Term read = em_.select(em_.var(it->array), it->index);
    if (it->range) {  // (an unconstrained cell: C gives it a value of its type)
      const Term in_type = in_range(read, *it->range);
      emit(Assume{it->inside == em_.true_() ? in_type : em_.imply(it->inside, in_type)});
    }
    r = r ? em_.ite(it->inside, read, *r) : read;
  }
  for (std::size_t k = p.cells.size(); k-- > 0;) {
    const Term cell = em_.var(p.cells[k].second);
    r = r ? em_.ite(em_.eq(p.key, num(p.cells[k].first)), cell, *r) : cell;
  }
  return *r;
}

void Translator::write(const Place& p, Term value) {
  if (p.var) {
    emit(Assign{*p.var, as_int(value)});
    return;
  }
  const Term v = snapshot(as_int(value));  // the cells change one by one
  for (const auto& [key, cell] : p.cells)
    emit(Assign{cell, em_.ite(em_.eq(p.key, num(key)), v, em_.var(cell))});
  for (const ArrayCell& c : p.arrays) {
    const Term a = em_.var(c.array);
    const Term stored = em_.store(a, c.index, v);
    emit(Assign{c.array, c.inside == em_.true_() ? stored : em_.ite(c.inside, stored, a)});
  }
}

}  // namespace precis::c::detail
