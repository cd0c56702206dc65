// The C front end's translator, clang's typed AST to a precis CFA (a header private to
// frontends/c/src): the Translator class, its state and the declarations of its members.
// Semantics: docs/c-frontend.md.
//
// The translator walks statements with a "current location" and emits one edge per
// operation. Expressions are translated to pure terms; their side effects (assignments,
// calls, ++/--) are emitted as edges first, in left-to-right order, and an operand whose
// value a later side effect could change is saved in a temporary before it.
//
// Where the members are defined: run in c_frontend.cpp (with parsing, the entry points);
// types.cpp (integer types, conversions, C arithmetic, constants); emission.cpp (CFA
// locations, edges, variables, errors); declarations.cpp (globals, static and block-scope
// variables); expressions.cpp (variables, side effects, values, conditions); calls.cpp;
// statements.cpp; arrays.cpp, structs.cpp, pointers.cpp, heap.cpp; procedures.cpp
// (recursive functions with an explicit stack).

#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/APSInt.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "precis/cfa/builder.hpp"
#include "precis/core/big_int.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/frontends/c/c_frontend.hpp"

namespace precis::c::detail {

// ---- integer types ----------------------------------------------------------------------

// A C scalar type: an integer type (width, signedness, _Bool), or a floating-point type
// (`fp` is Type::Float32 for float, Type::Float64 for double; width 32 or 64), whose
// values are precis's floating-point terms (expr/term.hpp).
struct IntType {
  unsigned width = 32;
  bool is_signed = true;
  bool is_bool = false;
  Type fp = Type::Int;

  [[nodiscard]] bool is_float() const { return fp != Type::Int; }
  // The sort of a variable of this type.
  [[nodiscard]] Type sort() const { return is_float() ? fp : Type::Int; }

  // The range, exact: 64-bit unsigned types reach 2^64 - 1 (width <= 64).
  [[nodiscard]] BigInt min() const {
    if (is_bool || !is_signed) return 0;
    return -(BigInt(1) << (width - 1));
  }
  [[nodiscard]] BigInt max() const {
    if (is_bool) return 1;
    if (is_signed) return (BigInt(1) << (width - 1)) - 1;
    return (BigInt(1) << width) - 1;
  }
  // Every value of this type is one of `o` (a _Bool is an unsigned 1-bit type here).
  [[nodiscard]] bool fits_in(const IntType& o) const {
    if (is_float() || o.is_float()) return fp == o.fp;
    const unsigned ow = o.is_bool ? 1 : o.width, w = is_bool ? 1 : width;
    const bool signed_ = is_signed && !is_bool, o_signed = o.is_signed && !o.is_bool;
    if (signed_) return o_signed && ow >= w;
    return o_signed ? ow > w : ow >= w;
  }
};

// ---- diagnostics ------------------------------------------------------------------------

inline SourcePosition position_of(const clang::SourceManager& sm, clang::SourceLocation loc,
                                  const std::string& fallback_file) {
  SourcePosition pos{fallback_file, 0, 0};
  if (loc.isInvalid()) return pos;
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isInvalid()) return pos;
  pos.file = p.getFilename();
  pos.line = p.getLine();
  pos.column = p.getColumn();
  return pos;
}

// A call of malloc, calloc or alloca (heap.cpp), without a definition in the program.
bool is_allocation(const clang::CallExpr* ce);

// An object's type as points-to sets compare it: canonical and unqualified.
inline const clang::Type* object_type(clang::QualType t) {
  return t.getCanonicalType().getUnqualifiedType().getTypePtr();
}

// ---- the translator ---------------------------------------------------------------------

// A one-dimensional integer array type: its element type and constant size, or the
// expression of its length (a variable-length array, size 0).
struct ArrayShape {
  IntType elem;
  std::size_t size = 0;
  const clang::Expr* length_expr = nullptr;
  std::int64_t elem_bytes = 0;
};
// An integer array (arrays.cpp): cell by cell, the cells with the addresses base_id,
// base_id + 1, ... (pointers.cpp); or, above TranslateOptions::max_cellwise_array, and for
// a variable-length array, one variable of the array sort (`whole`). `unconstrained`:
// a whole array whose cells may hold any integer (a local without initializer), so a
// read assumes its value in the element type's range. `length` is the number of
// elements: the constant shape.size, or (a variable-length array) the variable its
// declaration sets from shape.length_expr.
// The largest constant-size array precis takes: 2^28 elements.
inline constexpr std::size_t kMaxWholeArray = std::size_t{1} << 28;
struct ArrayObject {
  std::vector<VarId> cells;
  ArrayShape shape;
  std::string name;
  std::int64_t base_id = 0;
  std::optional<VarId> whole;
  Term length{};
  bool unconstrained = false;
};
// A cell of an SMT array that a place may be (arrays.cpp): the array's element at `index`
// where `inside` holds (true for an array subscript, the address range behind a pointer).
// `range`: the cells may hold any value of this type (a local without initializer, a
// malloc'd array), so a read assumes the value in it.
struct ArrayCell {
  VarId array;
  Term index;
  Term inside;
  std::optional<IntType> range{};
};
// What an assignment writes or a read reads: a variable, or the one of `cells` whose key
// equals `key` (an array cell by its index, an object by its address) or of `arrays`
// whose `inside` holds.
struct Place {
  std::optional<VarId> var;
  std::vector<std::pair<std::int64_t, VarId>> cells;
  Term key;
  std::vector<ArrayCell> arrays{};
};
// A struct object, or an array of structs or of arrays, leaf by leaf (structs.cpp): its
// scalar leaves in declaration (and index) order, nested aggregates flattened; leaf k has
// the address base_id + k.
struct StructObject {
  std::vector<VarId> leaves;
  const clang::Type* type = nullptr;  // canonical, unqualified struct or array type
  std::string name;
  std::int64_t base_id = 0;
  // A large array of structs no pointer reaches (struct_columns.cpp): instead of leaves,
  // one SMT array per leaf of the element type, indexed by the element; `unconstrained`
  // as for ArrayObject.
  std::vector<VarId> columns;
  clang::QualType element{};
  std::size_t length = 0;
  std::size_t stride = 0;   // the element's leaf count: element k has the addresses from
                            // base_id + k * stride (a pointer may reach it, pointers.cpp)
  bool by_address = false;  // the columns are indexed by the element's address, not by k
  bool unconstrained = false;
  [[nodiscard]] bool is_columns() const { return !columns.empty(); }
};
// An aggregate type's layout: its leaves (path from the object, as in `.f[2].g`, and
// type; the integer type of the values, narrower for a bit-field, which no pointer
// reaches) and the structs nested in it (first leaf, type).
struct StructLayout {
  std::vector<std::pair<std::string, clang::QualType>> leaves;
  std::vector<IntType> types;
  std::vector<bool> bit_fields;
  std::vector<std::pair<std::size_t, clang::QualType>> members;
};
// A variable index into an aggregate: it adds index * stride leaves, 0 <= index < count.
struct DynamicIndex {
  Term index;
  std::size_t stride = 1;
  std::size_t count = 1;
};
// An lvalue inside aggregates: the objects it may be in (by address; several behind a
// pointer, selected by `key`), its first leaf within each, plus variable indices.
struct Region {
  std::vector<std::pair<std::int64_t, const StructObject*>> objects;
  Term key;
  std::size_t offset = 0;
  std::vector<DynamicIndex> dynamic;
  Term element{};      // in a columns object: the element's index (offset is within it)
  bool whole = false;  // a columns object itself, before a subscript selects the element
};
// An object whose address a pointer may hold (pointers.cpp): an address-taken scalar, an
// array cell, a struct or one of its leaves or nested structs, with its address (1, 2,
// ...; 0 is the null pointer) and its type; `agg` is the struct, for a struct.
struct MemObject {
  std::int64_t id = 0;
  VarId var = 0;
  const clang::Type* type = nullptr;  // canonical, unqualified
  const StructObject* agg = nullptr;
  // An SMT array (`var` of the array sort, arrays.cpp): the elements at the addresses
  // id, id + 1, ..., id + length - 1 (a constant, or a heap array's length variable).
  Term length{};
  [[nodiscard]] bool is_array() const { return length.valid(); }
};

// A malloc/calloc call site (heap.cpp): its objects' addresses, the variable counting
// the objects handed out, or why the site is refused.
struct HeapSite {
  std::vector<std::int64_t> addresses;
  VarId count = 0;
  std::string refused;
  // A variable size (an integer array, heap.cpp): one SMT array object whose length
  // the allocation sets from its size in bytes.
  std::optional<VarId> length;
  std::int64_t elem_bytes = 0;
};

// Thrown when inlining the recursion of `fn` to its depth would take more than
// max_recursive_calls calls; translate_source retries with a smaller depth for fn.
struct RecursionBudget {
  const clang::FunctionDecl* fn;
};
// Recursion depth per function, where lowered from TranslateOptions::max_recursion_depth.
using RecursionDepths = std::unordered_map<const clang::FunctionDecl*, std::uint32_t>;

// Raised where a recursive function cannot be a procedure with an explicit stack
// (procedures.cpp): a dereference or an allocation in its code, a struct parameter, a
// local array of the array sort. translate_source then keeps the inlined translation.
struct StackRefused {
  SourcePosition where;
  std::string what;
};

// A recursive function (one of a cycle of the call graph) translated once, as a
// procedure with an explicit stack (procedures.cpp, TranslateOptions::recursion). A call
// assigns the parameters and `site`, the number of the call site, and jumps to `entry`;
// `exit` returns to the call site whose number `site` holds. A call from a function of
// the same cycle (`caller`) first pushes those of the caller's variables (`owned`: its
// locals, parameters, temporaries and `site`) that are live where the call returns, onto
// one array each (`saves`), indexed by the caller's `sp`, and pops them on the way back.
struct Procedure {
  struct Param {
    const clang::ParmVarDecl* decl;
    VarId var;
    IntType type;
  };
  struct Call {
    Procedure* code = nullptr;    // the procedure whose code calls (null: other code)
    Procedure* caller = nullptr;  // the same, if of the same cycle (the call pushes)
    Loc before{}, after{};        // where the call leaves its code and comes back
    std::vector<VarId> args;      // temporaries holding the arguments
    std::uint32_t line = 0, column = 0;
  };
  const clang::FunctionDecl* fn = nullptr;
  std::size_t cycle = 0;  // its strongly connected component of the call graph
  std::uint32_t index = 0, instance = 0;
  std::string prefix;
  Loc entry{}, exit{};
  std::vector<Param> params;
  std::optional<VarId> ret;
  IntType ret_type;
  VarId site = 0, sp = 0;
  std::vector<VarId> owned;
  std::unordered_map<VarId, VarId> saves;  // owned variable -> its stack (made when pushed)
  std::vector<Call> calls;  // the calls of this procedure; call k returns where site == k
};

class Translator {
 public:
  // `stack_recursion`: recursive functions become procedures with an explicit stack
  // (procedures.cpp) instead of being inlined to a depth.
  Translator(clang::ASTContext& ctx, std::string file, const TranslateOptions& opt,
             const RecursionDepths& depths, bool stack_recursion = false)
      : ctx_(ctx),
        sm_(ctx.getSourceManager()),
        file_(std::move(file)),
        opt_(opt),
        depths_(depths),
        stack_recursion_(stack_recursion),
        em_(b_.exprs()) {}

  // Drives the translation (c_frontend.cpp).
  Cfa run();

  // Whether run() made procedures (a recursive function is called).
  [[nodiscard]] bool made_procedures() const { return !procedures_.empty(); }

  // Where the translation is (for errors raised outside a construct's own check).
  [[nodiscard]] SourcePosition position() const {
    return SourcePosition{file_, line_, line_ != 0 ? 1U : 0U};
  }

 private:
  struct Frame {
    const clang::FunctionDecl* fn = nullptr;
    std::uint32_t index = 0;
    std::string prefix;
    std::uint32_t instance = 0;  // the CFA's tag of this inlined instance (cfa/cfa.hpp)
    std::unordered_map<const clang::VarDecl*, VarId> locals;
    std::unordered_map<const clang::VarDecl*, ArrayObject> arrays;
    std::unordered_map<const clang::VarDecl*, const StructObject*> structs;
    std::unordered_map<const clang::VarDecl*, std::int64_t> addresses;  // address-taken scalars
    std::vector<MemObject> objects;  // the frame's objects a pointer may reach
    std::unordered_map<const clang::LabelDecl*, Loc> labels;
    Loc exit{};
    std::optional<VarId> ret;
    IntType ret_type;
  };
  struct SwitchContext {
    std::unordered_map<const clang::SwitchCase*, Loc> cases;
  };
  // Bounds the recursion of the translation over nested expressions and statements.
  class Nesting {
   public:
    Nesting(Translator& t, const clang::Stmt* s) : t_(t) {
      if (++t_.nesting_ > t_.opt_.max_nesting) {
        --t_.nesting_;
        const clang::SourceLocation loc =
            llvm::isa<clang::Expr>(s) ? llvm::cast<clang::Expr>(s)->getExprLoc() : s->getBeginLoc();
        throw input_error(position_of(t_.sm_, loc, t_.file_),
                          "expression or statement nested deeper than " +
                              std::to_string(t_.opt_.max_nesting) + " levels");
      }
    }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    ~Nesting() { --t_.nesting_; }

   private:
    Translator& t_;
  };

  // ---- errors and source positions (emission.cpp) -------------------------------------
  [[noreturn]] void unsupported(clang::SourceLocation loc, const std::string& what) const;
  [[noreturn]] void unsupported(const clang::Stmt* s, const std::string& what) const;
  std::uint32_t line_of(clang::SourceLocation loc) const;
  std::uint32_t column_of(clang::SourceLocation loc) const;
  void mark_loop_head(Loc l, clang::SourceLocation loc);
  void at(clang::SourceLocation loc);

  // ---- types, conversions and C arithmetic (types.cpp) --------------------------------
  IntType int_type(clang::QualType qt, clang::SourceLocation where) const;
  IntType type_of(const clang::Expr* e) const { return int_type(e->getType(), e->getExprLoc()); }
  Term fold(Term t);
  Term mk(Op op, std::initializer_list<Term> args) { return fold(em_.mk(op, args)); }
  Term num(std::int64_t v) { return em_.int_val(v); }
  // Any integer as a term: beyond int64 (the constants of 64-bit unsigned types, 2^64) as
  // pow2(k) plus or minus an int64 constant, which precis' evaluators and cvc5 read exactly.
  Term big(const BigInt& v) { return big_int_term(em_, v); }
  Term pow2k(unsigned k) { return k <= 62 ? num(std::int64_t{1} << k) : em_.pow2(num(k)); }
  Term as_int(Term t);
  Term as_bool(Term t);
  Term lnot(Term b);
  Term in_range(Term x, IntType t);
  // 0 of the type (+0.0 for a floating-point type).
  Term zero(IntType t) { return t.is_float() ? em_.fp_val(t.fp, 0) : num(0); }
  // C's floating-point operators and the math library functions IEEE 754 defines
  // (floating.cpp).
  Term float_arith(clang::BinaryOperatorKind op, Term a, Term b, const clang::Expr* where);
  std::optional<Term> math_call(const clang::CallExpr* ce, const std::string& name);
  Term float_literal(const clang::FloatingLiteral* fl);
  Term convert(Term v, IntType from, IntType to);
  Term wrap(Term v, IntType t);
  Term arith(clang::BinaryOperatorKind op, Term l, Term r, IntType t, const clang::Expr* where);
  // ---- bit operations (bit_operations.cpp) ---------------------------------------------
  Term bit_op(clang::BinaryOperatorKind op, Term a, Term b, IntType t, const clang::Expr* where);
  Term bit_not(Term a, IntType t);
  Term to_unsigned(Term a, IntType t);
  Term from_unsigned(Term u, IntType t);
  // An integer constant expression's value: exact (64-bit unsigned ones included), as an
  // int64 (sizes, counts; beyond it refused), or as a term (big()).
  BigInt to_big(const llvm::APSInt& v, const clang::Expr* where) const;
  std::optional<BigInt> constant_value(const clang::Expr* e) const;
  std::optional<std::int64_t> constant(const clang::Expr* e) const;
  std::optional<Term> constant_term(const clang::Expr* e);
  // constant_term(e), or an `unsupported: what` error at e.
  Term constant_or_refuse(const clang::Expr* e, const std::string& what);

  // ---- CFA emission (emission.cpp) ----------------------------------------------------
  std::uint32_t cur_function() const { return frames_.empty() ? 0 : frames_.back().index; }
  Loc fresh();
  CfaEdge edge(Loc from, Loc to, Operation op, std::uint32_t line, std::uint32_t column = 0);
  CfaEdge emit(Operation op);
  void jump(Loc to) { edge(cur_, to, Skip{}, line_, col_); }
  void jump_and_cut(Loc to);
  std::uint32_t function_index(const std::string& name);
  std::string unique_name(const std::string& base);
  VarId new_var(const std::string& name, std::uint32_t scope, Type type = Type::Int);
  VarId new_temp(Type type = Type::Int);
  Term snapshot(Term t);

  // ---- declarations (declarations.cpp) ------------------------------------------------
  void collect_reachable(const clang::FunctionDecl* entry);
  void collect_static_locals(const clang::Stmt* s, std::vector<const clang::VarDecl*>& out);
  void declare_globals(clang::TranslationUnitDecl* tu);
  void local_decl(const clang::VarDecl* vd);

  // ---- variables and expressions (expressions.cpp) ------------------------------------
  VarId lookup(const clang::VarDecl* vd, const clang::Expr* where);
  VarId lvalue(const clang::Expr* e);
  const clang::CallExpr* nondet_call(const clang::Expr* e) const;
  void store(VarId x, IntType t, const clang::Expr* rhs);
  bool impure(const clang::Stmt* s) const;
  void effect(const clang::Expr* e);
  Term rvalue(const clang::Expr* e);
  Term cast(const clang::CastExpr* ce);
  Term unary(const clang::UnaryOperator* uo);
  Term incdec(const clang::UnaryOperator* uo, bool need_value);
  Term binary(const clang::BinaryOperator* bo);
  std::optional<Term> flat_chain(const clang::BinaryOperator* bo);
  Term conditional(const clang::ConditionalOperator* co);
  void branch(const clang::Expr* e, Loc t, Loc f);

  // ---- arrays (arrays.cpp) ------------------------------------------------------------
  std::optional<ArrayShape> array_shape(clang::QualType qt, clang::SourceLocation where) const;
  ArrayObject new_array(const std::string& name, std::uint32_t scope, const ArrayShape& shape,
                        bool needs_addresses);
  [[nodiscard]] std::int64_t max_object_elements(std::int64_t elem_bytes) const;
  std::optional<Term> vla_size(const clang::Expr* e);
  void init_array(ArrayObject& a, const clang::Expr* init, bool zero, bool constant_only);
  const ArrayObject* array_of(const clang::Expr* base);
  Place element_place(const clang::ArraySubscriptExpr* e);
  Place place(const clang::Expr* e);
  Term load(const Place& p);
  void write(const Place& p, Term value);

  // ---- structs and other aggregates (structs.cpp) ---------------------------------------
  static bool is_struct(clang::QualType qt);
  static bool is_aggregate(clang::QualType qt);
  const StructLayout& layout(clang::QualType t, clang::SourceLocation where);
  std::size_t leaf_count(clang::QualType t, clang::SourceLocation where);
  std::size_t member_leaves(const clang::FieldDecl* fd, clang::SourceLocation where);
  std::optional<IntType> bit_field_type(const clang::Expr* lvalue) const;
  std::size_t field_offset(const clang::FieldDecl* fd, clang::SourceLocation where);
  std::optional<Region> array_region(const clang::Expr* array_expr);
  void index_region(Region& r, clang::QualType array_type, const clang::Expr* idx,
                    const clang::Expr* where);
  Term region_address(const Region& r);
  std::size_t struct_stride(const clang::Expr* pointer);
  static bool is_struct_pointer(clang::QualType t) {
    return t->isPointerType() && is_struct(t->getPointeeType());
  }
  std::optional<Term> struct_pointer_arithmetic(const clang::BinaryOperator* bo);
  const StructObject* new_struct(const std::string& name, std::uint32_t scope, clang::QualType t,
                                 clang::SourceLocation where, bool may_be_columns = false,
                                 bool address_taken = false);
  void register_struct(const clang::VarDecl* vd, const StructObject* s,
                       std::vector<MemObject>& objects,
                       std::unordered_map<const clang::VarDecl*, std::int64_t>& addresses);
  const StructObject* struct_of(const clang::VarDecl* vd);
  void init_struct(const StructObject* s, const clang::Expr* init, bool zero, bool constant_only);
  void init_leaves(const StructObject* s, std::size_t first, clang::QualType t,
                   const clang::Expr* init, bool zero, bool constant_only);
  Region region(const clang::Expr* e);
  Region deref_region(Term address, clang::QualType pointee, const clang::Expr* where);
  Region member_region(const clang::MemberExpr* me);
  Place leaf_place(const Region& r, std::size_t leaf);
  Place aggregate_element_place(const clang::ArraySubscriptExpr* e);
  Place member_place(const clang::MemberExpr* me);
  Term member_address(const clang::MemberExpr* me);
  void copy_struct(const Region& to, const Region& from, clang::QualType t,
                   const clang::Expr* where);
  // ---- large arrays of structs, one SMT array per leaf (struct_columns.cpp) -------------
  bool wants_columns(clang::QualType t, clang::SourceLocation where, bool address_taken);
  const StructObject* new_columns(const std::string& name, std::uint32_t scope, clang::QualType t,
                                  clang::SourceLocation where);
  void init_columns(const StructObject* s, const clang::Expr* init, bool zero, bool constant_only);
  bool index_columns(Region& r, clang::QualType array_type, const clang::Expr* idx,
                     const clang::Expr* where);
  ArrayCell column_cell(const Region& r, std::int64_t id, const StructObject* s, std::size_t leaf);
  void register_columns(const clang::VarDecl* vd, const StructObject* s,
                        std::vector<MemObject>& objects,
                        std::unordered_map<const clang::VarDecl*, std::int64_t>& addresses);
  void no_leaf_address(const Region& r, const clang::Expr* where);

  // ---- the heap (heap.cpp) ------------------------------------------------------------
  void collect_allocations();
  void add_heap_site(const clang::CallExpr* call, clang::QualType pointee, std::uint32_t objects);
  Term allocate(const clang::CallExpr* call);
  Term in_array(Term address, std::int64_t id, Term length);
  [[nodiscard]] std::string site_name(const clang::CallExpr* call) const;
  void variable_size_site(HeapSite& h, const clang::CallExpr* call, clang::QualType pointee,
                          bool zeroed);

  // ---- pointers (pointers.cpp) --------------------------------------------------------
  static bool is_pointer(clang::QualType qt);
  static std::string pointer_suffix(clang::QualType qt) { return is_pointer(qt) ? "#ptr" : ""; }
  void collect_address_taken(const clang::Stmt* s);
  void predeclare_objects(const clang::Stmt* body);
  std::int64_t reserve_addresses(std::int64_t n);
  void register_scalar(const clang::VarDecl* vd, VarId v, std::vector<MemObject>& objects,
                       std::unordered_map<const clang::VarDecl*, std::int64_t>& addresses);
  void register_array(ArrayObject& a, clang::QualType elem, std::vector<MemObject>& objects);
  Term address_of(const clang::UnaryOperator* uo);
  Term array_address(const clang::Expr* array_expr);
  std::vector<MemObject> pointees(Term key, clang::QualType pointee, bool structs,
                                  const clang::Expr* where);
  MemObject dead_object(clang::QualType pointee, bool structs, const clang::Expr* where);
  Place deref_place(Term address, clang::QualType pointee, const clang::Expr* where);
  Term pointer_cast(const clang::CastExpr* ce);

  // ---- calls (calls.cpp) --------------------------------------------------------------
  Term nondet_value(IntType t, const std::string& function);
  Term call(const clang::CallExpr* ce, bool need_value);
  Term inline_call(const clang::FunctionDecl* def, const clang::CallExpr* ce, bool need_value);
  void check_arguments(const clang::FunctionDecl* def, const clang::CallExpr* ce);
  void store_argument(VarId v, IntType pt, const clang::Expr* a);
  Term bound_marker(const clang::CallExpr* ce, const std::string& why);
  static const clang::Type* external_handle_type(const clang::CallExpr* ce);
  void note_external_handle(const clang::CallExpr* ce);
  Term external_handle();
  void refuse_handle_access(clang::QualType pointee, const clang::Expr* where, const char* what);

  // ---- recursive functions as procedures with a stack (procedures.cpp) -----------------
  void find_recursive_functions();
  Procedure& procedure(const clang::FunctionDecl* fn);
  Term procedure_call(const clang::FunctionDecl* def, const clang::CallExpr* ce, bool need_value);
  void emit_procedure(Procedure& p);
  void link_procedures();
  std::unordered_map<Loc, std::vector<VarId>> live_after_calls(const Procedure& q);
  void chain(Loc from, Loc to, const std::vector<Operation>& ops, std::uint32_t index,
             std::uint32_t instance, std::uint32_t line, std::uint32_t column);
  // In a procedure's code: what the stack translation cannot express (StackRefused).
  void refuse_in_procedure(clang::SourceLocation loc, const std::string& what) const;

  // ---- statements (statements.cpp) ----------------------------------------------------
  Loc label_location(const clang::LabelDecl* ld);
  void stmt(const clang::Stmt* s);
  void loop_body(const clang::Stmt* body, Loc cont, Loc brk, Loc start);
  void switch_stmt(const clang::SwitchStmt* ss);

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  std::string file_;
  const TranslateOptions& opt_;
  const RecursionDepths& depths_;
  const bool stack_recursion_;
  CfaBuilder b_;
  ExprManager& em_;
  Loc cur_{};
  Loc error_{}, final_{}, sink_{};
  std::uint32_t line_ = 0;
  std::uint32_t col_ = 0;
  std::vector<Frame> frames_;
  std::vector<Loc> breaks_, continues_;
  std::vector<SwitchContext*> switches_;
  // What the entry function can reach (declarations.cpp): function definitions, and the
  // globals they or the initializers of those globals name (canonical decls).
  std::vector<const clang::FunctionDecl*> reachable_fns_;
  std::unordered_set<const clang::VarDecl*> used_globals_;
  std::unordered_map<const clang::VarDecl*, VarId> globals_;
  std::unordered_map<const clang::VarDecl*, ArrayObject> global_arrays_;  // by canonical decl
  std::unordered_map<const clang::VarDecl*, const StructObject*> global_structs_;  // canonical
  std::deque<StructObject> structs_;  // every struct object and nested struct view
  std::unordered_map<const clang::Type*, StructLayout> layouts_;
  std::unordered_map<const clang::CallExpr*, HeapSite> heap_sites_;
  std::unordered_set<const clang::VarDecl*> address_taken_;  // canonical decls under `&`
  std::unordered_map<const clang::VarDecl*, std::int64_t> global_addresses_;
  std::vector<MemObject> global_objects_;
  std::int64_t next_address_ = 1;  // 0 is the null pointer
  std::unordered_map<std::string, std::uint32_t> fn_index_;
  std::unordered_map<const clang::FunctionDecl*, int> instances_;
  // Recursive calls inlined so far, per function.
  std::unordered_map<const clang::FunctionDecl*, std::size_t> recursive_calls_;
  std::unordered_map<std::string, VarId> markers_;  // bound marker variables by name
  // The struct types of handles (calls.cpp), each with a function that returns one, and
  // the variable whose decrements give each handle its address.
  std::unordered_map<const clang::Type*, std::string> external_handles_;
  std::optional<VarId> handle_count_;
  // Whether the program uses an extern variable without a definition (its value, maybe a
  // pointer to a library's object, is arbitrary), and the stand-in objects of types no
  // pointer can reach (pointers.cpp: pointees).
  bool arbitrary_externs_ = false;
  std::unordered_map<const clang::Type*, MemObject> dead_objects_;
  // Procedures (stack_recursion_): the cycle of each recursive function, the procedures
  // made so far, the one whose body is being emitted, and the one whose activations own
  // the variables made now (new_var).
  std::unordered_map<const clang::FunctionDecl*, std::size_t> cycle_of_;
  std::deque<Procedure> procedures_;
  std::unordered_map<const clang::FunctionDecl*, Procedure*> procedure_of_;
  Procedure* emitting_ = nullptr;
  Procedure* owner_ = nullptr;
  std::unordered_set<std::string> names_;
  std::size_t temps_ = 0;
  std::size_t edges_ = 0;
  std::uint32_t nesting_ = 0;
};

}  // namespace precis::c::detail
