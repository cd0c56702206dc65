// The C front end's heap: malloc and calloc of integer arrays and structs of
// a constant size, as a bounded number of objects per allocation site.
//
// Every malloc/calloc call whose result is converted to `T *` (at once, or kept in a
// `void *` variable that the function converts to `T *` only: CIL's `tmp = malloc(n);
// p = (T *)tmp;`) (T an integer type or a
// struct) with a constant size of k * sizeof(T) (k <= the array cell limit) is an
// allocation site. Before the translation each site gets as
// many objects of that shape (structs.cpp, arrays.cpp) as it may run times in one
// execution, at most TranslateOptions::max_objects_per_allocation (collect_allocations),
// global and alive from the start, so every dereference, wherever it is
// translated, counts them among the objects a pointer may reach (pointers.cpp), and a
// counter `heap#L#C#count`. The n-th execution of the site returns the n-th object; the
// execution that would need one more is a bound marker (core/bound_marker.hpp): SAFE
// proves it unreachable, and a path through it is no counterexample.
//
// A malloc'd object starts with arbitrary values, a calloc'd one with zeros: each object
// is handed out once, so its initial values, set at the initial location, are those.
// Allocation succeeds (no null result, as CBMC's default model) but for a size beyond
// any object (below), and free does
// nothing: a freed object stays alive, which only adds executions (using it is undefined
// behaviour, which reachability tasks are free of). The objects' variables are named
// with `#` (`heap#12#5#0.next#ptr`): witnesses never state them.
//
// A size known only at run time, for an integer type, at a site that runs at most once, is
// one SMT array object over a range of addresses as long as the largest object
// (max_object_elements: the size in bytes fits in size_t; variable_size_site); its length
// is the size divided by the element size. A larger size makes the allocation fail: the
// result is the null pointer, as malloc's and calloc's are when no memory is left.
//
// Refused: any other size that is not a constant multiple of the element size, a result kept
// in a `void *` that is converted to no type or to several, realloc.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "precis/core/bound_marker.hpp"
#include "translator.hpp"

namespace precis::c::detail {

bool is_allocation(const clang::CallExpr* ce) {
  const clang::FunctionDecl* f = ce->getDirectCallee();
  if (f == nullptr || f->hasBody()) return false;
  const std::string name = f->getNameAsString();
  return name == "malloc" || name == "calloc" || name == "__builtin_malloc" ||
         name == "__builtin_calloc" || name == "alloca" || name == "__builtin_alloca";
}

namespace {

// One walk over a function's body: its calls, each with whether it may run more than once
// per execution of the function (inside a loop statement, or anywhere in a function with
// a label: a goto may lead back), and its allocation sites: a call converted to `T *` at
// once, or (CIL's style) kept in a `void *` variable that the function converts to `T *`,
// and to no other type.
struct CallSite {
  const clang::CallExpr* call;
  bool repeats;
};
struct FunctionScan {
  std::vector<CallSite> calls;
  std::vector<std::pair<const clang::CallExpr*, clang::QualType>> sites;
  std::unordered_map<const clang::CallExpr*, bool> repeats;
};

FunctionScan scan(const clang::FunctionDecl* fd) {
  FunctionScan out;
  bool has_label = false;
  std::vector<std::pair<const clang::CallExpr*, const clang::VarDecl*>> kept;  // v = malloc()
  std::unordered_map<const clang::VarDecl*, std::vector<clang::QualType>> converted;
  auto void_var = [](const clang::Expr* e) -> const clang::VarDecl* {
    const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto* vd = dr != nullptr ? llvm::dyn_cast<clang::VarDecl>(dr->getDecl()) : nullptr;
    return vd != nullptr && vd->getType()->isVoidPointerType() ? vd->getCanonicalDecl() : nullptr;
  };
  auto allocation = [](const clang::Expr* e) -> const clang::CallExpr* {
    const auto* call = llvm::dyn_cast<clang::CallExpr>(e->IgnoreParenImpCasts());
    return call != nullptr && is_allocation(call) ? call : nullptr;
  };
  std::vector<std::pair<const clang::Stmt*, bool>> todo{{fd->getBody(), false}};
  while (!todo.empty()) {
    auto [s, in_loop] = todo.back();
    todo.pop_back();
    if (s == nullptr) continue;
    if (llvm::isa<clang::LabelStmt>(s)) has_label = true;
    if (const auto* ce = llvm::dyn_cast<clang::CallExpr>(s)) out.calls.push_back({ce, in_loop});
    if (const auto* ce = llvm::dyn_cast<clang::CastExpr>(s);
        ce && ce->getCastKind() == clang::CK_BitCast && ce->getType()->isPointerType()) {
      if (const clang::CallExpr* call = allocation(ce->getSubExpr()))
        out.sites.emplace_back(call, ce->getType()->getPointeeType());
      else if (const clang::VarDecl* v = void_var(ce->getSubExpr()))
        converted[v].push_back(ce->getType()->getPointeeType());
    }
    if (const auto* bo = llvm::dyn_cast<clang::BinaryOperator>(s);
        bo && bo->getOpcode() == clang::BO_Assign)
      if (const clang::VarDecl* v = void_var(bo->getLHS()))
        if (const clang::CallExpr* call = allocation(bo->getRHS())) kept.emplace_back(call, v);
    if (const auto* ds = llvm::dyn_cast<clang::DeclStmt>(s))
      for (const clang::Decl* d : ds->decls())
        if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(d);
            vd && vd->getInit() && vd->getType()->isVoidPointerType())
          if (const clang::CallExpr* call = allocation(vd->getInit()))
            kept.emplace_back(call, vd->getCanonicalDecl());
    const bool loop = llvm::isa<clang::WhileStmt>(s) || llvm::isa<clang::ForStmt>(s) ||
                      llvm::isa<clang::DoStmt>(s);
    // (a DeclStmt's children are its variables' initializers)
    for (const clang::Stmt* c : s->children()) todo.emplace_back(c, in_loop || loop);
  }
  for (const auto& [call, v] : kept) {
    const auto it = converted.find(v);
    if (it == converted.end()) continue;
    const clang::Type* t = object_type(it->second.front());
    if (std::all_of(it->second.begin(), it->second.end(),
                    [&](clang::QualType q) { return object_type(q) == t; }))
      out.sites.emplace_back(call, it->second.front());
  }
  for (CallSite& c : out.calls) {
    c.repeats = c.repeats || has_label;
    out.repeats[c.call] = c.repeats;
  }
  return out;
}

}  // namespace

// The allocation sites of the code the entry function reaches (scan). A site gets as
// many objects as it can run times in one execution, when that is known and below the
// limit: the number of call paths from the entry function to it, if none of them passes
// a loop, a goto or recursion; otherwise the limit. A count too small only makes the
// bound marker reachable (UNKNOWN), never a wrong verdict.
void Translator::collect_allocations() {
  const std::uint32_t limit = opt_.max_objects_per_allocation;
  std::unordered_map<const clang::FunctionDecl*, FunctionScan> scans;
  for (const clang::FunctionDecl* fd : reachable_fns_) scans[fd] = scan(fd);
  // The handles undefined functions return (calls.cpp), known before any dereference.
  for (const clang::FunctionDecl* fd : reachable_fns_)
    for (const CallSite& c : scans[fd].calls) note_external_handle(c.call);
  // runs[f]: how many times f may run in one execution (capped at limit), from its callers.
  std::unordered_map<const clang::FunctionDecl*, std::uint32_t> runs;
  std::unordered_map<const clang::FunctionDecl*, int> state;  // 1: on the stack, 2: done
  std::function<std::uint32_t(const clang::FunctionDecl*)> count =
      [&](const clang::FunctionDecl* f) -> std::uint32_t {
    if (f == reachable_fns_.front()) return 1;
    if (state[f] == 2) return runs[f];
    if (state[f] == 1) return limit;  // recursion
    state[f] = 1;
    std::uint32_t n = 0;
    for (const auto& [caller, sc] : scans)
      for (const CallSite& c : sc.calls) {
        const clang::FunctionDecl* callee = c.call->getDirectCallee();
        if (callee == nullptr || callee->getDefinition() != f) continue;
        n = std::min(limit, n + (c.repeats ? limit : count(caller)));
      }
    state[f] = 2;
    return runs[f] = n;
  };
  for (const clang::FunctionDecl* fd : reachable_fns_)
    for (const auto& [call, pointee] : scans[fd].sites) {
      if (heap_sites_.contains(call)) continue;
      const bool repeats = scans[fd].repeats[call];
      add_heap_site(call, pointee, repeats ? limit : std::max<std::uint32_t>(1, count(fd)));
    }
}

// `heap#LINE#COLUMN`: the prefix of a site's variables (witnesses never state them).
std::string Translator::site_name(const clang::CallExpr* call) const {
  return "heap#" + std::to_string(line_of(call->getExprLoc())) + "#" +
         std::to_string(column_of(call->getExprLoc()));
}

void Translator::add_heap_site(const clang::CallExpr* call, clang::QualType pointee,
                               std::uint32_t objects) {
  HeapSite& h = heap_sites_[call];
  const std::string fn = call->getDirectCallee()->getNameAsString();
  const bool zeroed = fn.find("calloc") != std::string::npos;
  // The size in bytes: malloc(n), calloc(n, m).
  std::optional<std::int64_t> bytes;
  if (call->getNumArgs() == (zeroed ? 2U : 1U)) {
    bytes = constant(call->getArg(0));
    if (zeroed && bytes) {
      const auto m = constant(call->getArg(1));
      bytes = m ? std::optional<std::int64_t>(*bytes * *m) : std::nullopt;
    }
  }
  const bool is_struct_type = is_struct(pointee);
  if (!bytes) {
    if (is_struct_type || !pointee->isIntegralOrEnumerationType()) {
      h.refused = "'" + fn + "' of a size that is not a constant, for objects of type '" +
                  pointee.getAsString() + "'";
      return;
    }
    if (objects != 1) {
      h.refused = "'" + fn +
                  "' of a size that is not a constant, at a call that may run more "
                  "than once";
      return;
    }
    variable_size_site(h, call, pointee, zeroed);
    return;
  }
  if (!is_struct_type && !pointee->isIntegralOrEnumerationType()) {
    h.refused = "'" + fn + "' of objects of type '" + pointee.getAsString() + "'";
    return;
  }
  const std::int64_t elem = ctx_.getTypeSizeInChars(pointee).getQuantity();
  const std::int64_t n = elem > 0 && *bytes % elem == 0 ? *bytes / elem : 0;
  if (n < 1 || static_cast<std::size_t>(n) > opt_.max_array_cells) {
    h.refused = "'" + fn + "' of " + std::to_string(*bytes) + " bytes for objects of type '" +
                pointee.getAsString() + "' (" + std::to_string(elem) + " bytes)";
    return;
  }
  const std::string site = site_name(call);
  at(call->getExprLoc());
  auto init = [&](VarId v, IntType t) {
    if (zeroed) {
      emit(Assign{v, num(0)});
    } else {
      emit(Havoc{v});
      emit(Assume{in_range(em_.var(v), t)});
    }
  };
  for (std::uint32_t k = 0; k < objects; ++k) {
    const std::string name = site + "#" + std::to_string(k);
    if (is_struct_type) {  // one struct, or an array of n (structs.cpp)
      const clang::QualType t =
          n == 1
              ? pointee
              : ctx_.getConstantArrayType(pointee, llvm::APInt(64, static_cast<std::uint64_t>(n)),
                                          nullptr, clang::ArrayType::Normal, 0);
      const StructObject* s = new_struct(name, global_scope, t, call->getExprLoc());
      register_struct(nullptr, s, global_objects_, global_addresses_);
      const StructLayout& l = layout(t, call->getExprLoc());
      for (std::size_t i = 0; i < s->leaves.size(); ++i) init(s->leaves[i], l.types[i]);
      h.addresses.push_back(s->base_id);
    } else {
      ArrayShape shape{int_type(pointee, call->getExprLoc()), static_cast<std::size_t>(n)};
      shape.elem_bytes = elem;
      ArrayObject a = new_array(name, global_scope, shape, true);
      register_array(a, pointee, global_objects_);
      for (VarId c : a.cells) init(c, a.shape.elem);
      h.addresses.push_back(a.base_id);
    }
  }
  h.count = new_var(site + "#count", global_scope);
  emit(Assign{h.count, num(0)});
}

// An integer array of a size known only at run time, from a site that runs at most
// once: one SMT array object (arrays.cpp) over a range of addresses for the largest object,
// and a length variable the allocation sets.
void Translator::variable_size_site(HeapSite& h, const clang::CallExpr* call,
                                    clang::QualType pointee, bool zeroed) {
  const std::string site = site_name(call);
  (void)int_type(pointee, call->getExprLoc());
  h.elem_bytes = ctx_.getTypeSizeInChars(pointee).getQuantity();  // >= 1 for an integer type
  at(call->getExprLoc());
  const VarId arr = new_var(site + "#0", global_scope, Type::Array);
  if (zeroed)
    emit(Assign{arr, em_.const_array(num(0))});
  else
    emit(Havoc{arr});  // reads assume the element type's range (deref_place)
  h.length = new_var(site + "#length", global_scope);
  emit(Assign{*h.length, num(0)});
  const std::int64_t id = reserve_addresses(max_object_elements(h.elem_bytes));
  global_objects_.push_back(MemObject{id, arr, object_type(pointee), nullptr, em_.var(*h.length)});
  h.addresses.push_back(id);
  h.count = new_var(site + "#count", global_scope);
  emit(Assign{h.count, num(0)});
}

// The address of the next object of the site; past the last one, a bound marker.
Term Translator::allocate(const clang::CallExpr* call) {
  const auto it = heap_sites_.find(call);
  const std::string fn = call->getDirectCallee()->getNameAsString();
  if (it == heap_sites_.end())
    unsupported(call, "'" + fn + "' whose result is not converted to a pointer to one object type");
  const HeapSite& h = it->second;
  if (!h.refused.empty()) unsupported(call, h.refused);
  Term length{};
  if (h.length) {  // the size in bytes, then the number of elements
    Term bytes = as_int(rvalue(call->getArg(0)));
    if (call->getNumArgs() == 2) bytes = mk(Op::Mul, {bytes, as_int(rvalue(call->getArg(1)))});
    length = mk(Op::Div, {bytes, num(h.elem_bytes)});
  }
  at(call->getExprLoc());
  const Term count = em_.var(h.count);
  const auto n = static_cast<std::int64_t>(h.addresses.size());
  const Loc ok = fresh(), over = fresh();
  edge(cur_, over, Assume{em_.le(num(n), count)}, line_, col_);
  edge(cur_, ok, Assume{em_.lt(count, num(n))}, line_, col_);
  cur_ = over;
  (void)bound_marker(call, "more than " + std::to_string(n) + " objects from the " + fn +
                               " at line " + std::to_string(line_));
  cur_ = ok;
  Term address = num(h.addresses.back());
  for (std::size_t k = h.addresses.size() - 1; k-- > 0;)
    address =
        em_.ite(em_.eq(count, num(static_cast<std::int64_t>(k))), num(h.addresses[k]), address);
  const VarId result = new_temp();
  std::optional<Loc> done;
  if (h.length) {  // more elements than any object has: the allocation fails with null
    const Loc fits = fresh(), fails = fresh();
    done = fresh();
    const Term max = num(max_object_elements(h.elem_bytes));
    edge(cur_, fails, Assume{em_.gt(length, max)}, line_, col_);
    edge(cur_, fits, Assume{em_.le(length, max)}, line_, col_);
    cur_ = fails;
    emit(Assign{result, num(0)});
    jump(*done);
    cur_ = fits;
    emit(Assign{*h.length, length});
  }
  emit(Assign{result, address});
  emit(Assign{h.count, mk(Op::Add, {count, num(1)})});
  if (done) {
    jump(*done);
    cur_ = *done;
  }
  return em_.var(result);
}

}  // namespace precis::c::detail
