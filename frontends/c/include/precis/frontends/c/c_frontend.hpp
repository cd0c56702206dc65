#pragma once
// The C front end: SV-COMP reachability tasks (C files and their task.yml) to precis
// control-flow automata. Parsing, preprocessing and typing are clang's (libclang-cpp);
// the semantics of the translation are in docs/c-frontend.md.
//
//   precis::c::Task task = precis::c::read_task("loops/sum01-1.yml");
//   precis::Cfa cfa = precis::c::translate_file(task.c_file, {.data_model = task.data_model});
//
// Anything the translation cannot represent exactly (floating point, and the other
// constructs docs/c-frontend.md lists as refused) raises precis::input_error with
// file:line:col and a message starting with "unsupported: ", so that a verifier answers
// UNKNOWN.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"

namespace precis::c {

// ILP32: 32-bit int, long and pointers (the SV-COMP tasks here); LP64: 64-bit long.
enum class DataModel { ILP32, LP64 };

// How recursive functions are translated (docs/c-frontend.md, "Recursion"):
// Inline: inlined up to a depth, the deeper call a bound marker; Stack: each function of
// a cycle of the call graph once, as a procedure whose calls push the caller's variables
// onto arrays (exact at any depth; refused where its code dereferences a pointer);
// Auto: the stack where the program calls a recursive function and the stack
// translation can express it, inlined otherwise.
enum class RecursionMode { Auto, Inline, Stack };

struct TranslateOptions {
  DataModel data_model = DataModel::ILP32;
  // Remove unreachable locations and collapse skip chains (precis/cfa/cleanup.hpp).
  bool cleanup = true;
  // With cleanup: also merge straight-line pieces (the restricted large-block encoding
  // of precis/cfa/cleanup.hpp).
  bool large_block = false;
  // A call of a function that is declared but not defined, has no pointer arguments and
  // returns an integer (or nothing) yields a nondeterministic value of its return type
  // and is assumed to leave program variables unchanged (the SV-COMP convention).
  // When false such calls are unsupported.
  bool unknown_functions_nondet = true;
  // Name of the function where execution starts.
  std::string entry = "main";
  // Extra arguments for clang (-D, -I, ...).
  std::vector<std::string> extra_args;
  // Overrides the clang resource directory (builtin headers) found at build time.
  std::string resource_dir;
  // The run's deadline: checked before and after clang's parse, at every inlined call
  // and every 1024 CFA edges (limit_reached of kind Time).
  Deadline deadline;
  // Inlining can multiply a program (f0 calls f1 twice, f1 calls f2 twice, ...): past
  // this many CFA edges the translation stops (limit_reached of kind Memory).
  std::size_t max_cfa_edges = 4'000'000;
  // Expressions and statements nested deeper than this are an input error: the
  // translation recurses over them. Chains of one operator (a + b + c + ..., a && b
  // && ...) do not nest: they become one n-ary term.
  std::uint32_t max_nesting = 2000;
  // Recursion is inlined up to this many active calls of one function, and for at most
  // max_recursive_calls recursive calls in all (a function calling itself twice doubles
  // per level). The call that would go beyond becomes a bound marker
  // (precis/core/bound_marker.hpp): SAFE stays sound, a path through it is no
  // counterexample, and the verdict is UNKNOWN ("recursion deeper than N") where only
  // such paths reach the error.
  std::uint32_t max_recursion_depth = 64;
  RecursionMode recursion = RecursionMode::Auto;
  // Arrays of at most this many elements are encoded cell by cell (one variable per
  // element), and aggregates of at most 8 times as many scalars leaf by leaf; larger
  // aggregates and heap arrays are unsupported.
  std::size_t max_array_cells = 128;
  // One-dimensional integer arrays of more elements than this that no pointer reaches
  // are one variable of the array sort (SMT arrays); the others are cell by cell (up to
  // max_array_cells). Measured (bench/README.md, "Large arrays as SMT arrays"): cells give
  // invariants over every cell for free (a 4-cell array written at nondeterministic
  // indices is SAFE only cell by cell), but a loop over the array costs 0.06, 0.19, 0.55,
  // 2.1 s at 4, 8, 16, 32 cells and > 60 s at 100, against 0.05 s at any size as an SMT
  // array. precis-verify's --array-cells.
  std::size_t max_cellwise_array = 8;
  std::size_t max_recursive_calls = 4096;
  // Each malloc/calloc call site of the program has this many heap objects; the
  // allocation that would need one more is a bound marker, as deeper recursion is.
  std::uint32_t max_objects_per_allocation = 8;
};

// Parses and translates a C file. Throws precis::input_error on a parse error or an
// unsupported construct.
Cfa translate_file(const std::string& path, const TranslateOptions& options = {});

// The same for a program held in memory; `file_name` is used in messages and for
// relative includes.
Cfa translate_source(const std::string& code, const std::string& file_name = "input.c",
                     const TranslateOptions& options = {});

// RecursionMode::Auto's translation, and where it is the stack translation, the inlined
// one too (parsed once; within a tenth of the time left, at most 30 s, else none):
// neither decides every recursive program. With the stack,
// fib(25) runs to its end and a summary-like invariant (f's value <= 3 at its exit) is
// found without unrolling; inlined, a relation between an argument and the value (f(n)
// == n for n <= 20) is proved path by path, and a bug 10 calls deep is a short path
// (bench/README.md, "Recursion with an explicit stack"). precis-verify's portfolio runs
// on `primary`, then on `inlined`.
struct Translations {
  Cfa primary;
  std::optional<Cfa> inlined;
  bool stack = false;  // `primary` has recursive functions as procedures with a stack
  // Why a recursive program has no `inlined` translation (its share of the time, the
  // memory limit, or a construct inlining refuses); empty otherwise.
  std::string inlined_failure{};
};
Translations translate_file_both(const std::string& path, const TranslateOptions& options = {});
Translations translate_source_both(const std::string& code,
                                   const std::string& file_name = "input.c",
                                   const TranslateOptions& options = {});

// An SV-COMP task definition (format 1.0, 1.1 or 2.0): the C file, the expected verdict of the
// unreach-call property and the data model.
struct Task {
  std::string yml_file;
  std::string c_file;                    // resolved against the folder of the .yml
  std::string property_file;             // as written in the .yml, empty if none
  std::optional<bool> expected_verdict;  // true = safe; of the unreach-call property
  DataModel data_model = DataModel::ILP32;
};

// Reads an SV-COMP task file (YAML, with yaml-cpp). Throws precis::input_error with
// the position for invalid YAML, a malformed task, or a task without the unreach-call
// property (precis checks nothing else: "unsupported property").
Task read_task(const std::string& yml_path);

// One loop invariant of a correctness witness (YAML format 2.0, entry type
// invariant_set): the loop statement's position (1-based line and column; column 0 if
// the witness gives none), its function if given, and the C expression.
struct WitnessInvariant {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string function;
  std::string value;
  SourcePosition where;  // of the entry in the witness file, for messages
  // Of the value's first character in the witness file (after a quote), for messages about
  // the expression: its column k is at value_where.column + k - 1 (exact unless an escape
  // sequence comes before it).
  SourcePosition value_where;
};

// Reads the loop invariants of a correctness witness with yaml-cpp. Throws
// precis::input_error with the witness's line and column for a malformed witness.
std::vector<WitnessInvariant> read_correctness_witness(const std::string& path);

}  // namespace precis::c
