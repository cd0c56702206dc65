// Snippets to CFA: shape and operations of every construct the front end supports.

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "helpers.hpp"
#include "precis/core/bound_marker.hpp"

namespace constructs_test {

using precis::test::has_op;
using precis::test::ops;
using precis::test::tr;

namespace {
std::string all(const precis::Cfa& cfa) {
  std::string s;
  for (const auto& o : ops(cfa)) s += o + "\n";
  return s;
}
}  // namespace

TEST_CASE("globals start at 0 or their initializer - locals are nondeterministic") {
  auto cfa = tr(
      "int g; int h = 3; unsigned char c = 300; int main() { int x; int y = 1; return g + h + c; "
      "}");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "g := 0"));
  CHECK(has_op(cfa, "h := 3"));
  CHECK(has_op(cfa, "c := 44"));
  CHECK(has_op(cfa, "havoc main::x"));
  CHECK(has_op(cfa, "assume (-2147483648) <= main::x and main::x <= 2147483647"));
  CHECK(has_op(cfa, "main::y := 1"));
  CHECK(cfa.exprs().find("main::x")->scope == 0);
  CHECK(cfa.exprs().find("g")->scope == precis::global_scope);
}

TEST_CASE("only what the entry function reaches is translated") {
  // An unused global and an uncalled function, both of types the front end refuses, do
  // not make the program unsupported; an unused global adds no variable.
  const std::string unused =
      "union U { int i; char c; };\n"
      "union U u; int unused_int = 7;\n"
      "void push(int v) { void* raw = __builtin_malloc(16); u.i = v; }\n";
  auto cfa = tr(unused + "int g = 2; int main() { int s = 0; static int k = 1; s = g + k; }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "g := 2"));
  CHECK(has_op(cfa, "main::k := 1"));
  CHECK(cfa.exprs().find("unused_int") == nullptr);
  // Reached through a called function or another global's initializer, they are translated
  // (and the union is refused).
  auto via_init = tr("int a = 5; int* p = &a; int main() { return *p; }");
  CHECK(has_op(via_init, "a := 5"));
  CHECK_THROWS_WITH_AS(tr(unused + "int main() { push(1); }"), doctest::Contains("unsupported"),
                       precis::input_error);
}

TEST_CASE("error functions lead to the error location - abort and exit to a sink") {
  for (const char* call :
       {"reach_error()", "__VERIFIER_error()", "__assert_fail(\"0\", \"f.c\", 3, \"main\")"}) {
    CAPTURE(call);
    auto cfa =
        tr(std::string("void reach_error(); void __VERIFIER_error(); void __assert_fail(const "
                       "char*, const char*, unsigned, const char*);\n"
                       "int main() { int x = 0; if (x) ") +
           call + "; return 0; }");
    CHECK(precis::test::error_reachable(cfa));
  }
  auto cfa =
      tr("void abort(void); void exit(int); void reach_error();\n"
         "int main() { int x = 0; if (x) abort(); if (x) exit(1); return 0; }");
  CHECK_FALSE(precis::test::error_reachable(cfa));
  // reach_error's own body is not inlined: the call is the violation.
  cfa = tr("void reach_error() {} int main() { reach_error(); }");
  CHECK(precis::test::error_reachable(cfa));
  // assert from <assert.h>, preprocessed by clang.
  cfa = tr("#include <assert.h>\nint main() { int x = 1; assert(x == 1); return 0; }");
  CHECK(precis::test::error_reachable(cfa));
  CHECK(has_op(cfa, "assume main::x /= 1"));
}

TEST_CASE("__VERIFIER_nondet_T is a havoc in T's range - __VERIFIER_assume an assume") {
  auto cfa =
      tr("int __VERIFIER_nondet_int(); _Bool __VERIFIER_nondet_bool(); unsigned "
         "__VERIFIER_nondet_uint();\n"
         "char __VERIFIER_nondet_char(); void __VERIFIER_assume(int);\n"
         "int main() { int x = __VERIFIER_nondet_int(); _Bool b = __VERIFIER_nondet_bool();\n"
         "unsigned u = __VERIFIER_nondet_uint(); char c = __VERIFIER_nondet_char();\n"
         "__VERIFIER_assume(x > 5); return 0; }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "havoc main::x"));
  CHECK(has_op(cfa, "havoc main::b"));
  CHECK(has_op(cfa, "assume 0 <= main::b and main::b <= 1"));
  CHECK(has_op(cfa, "assume 0 <= main::u and main::u <= 4294967295"));
  CHECK(has_op(cfa, "assume (-128) <= main::c and main::c <= 127"));
  CHECK(has_op(cfa, "assume main::x > 5"));
  // Witnesses name the function of each such havoc; the first one starts in
  // main's inlined instance, so that its variable has a source name there.
  std::map<std::string, std::string> called;
  for (auto e : cfa.edges())
    if (const std::string* f = cfa.nondet_function(e))
      called[to_string(cfa.operation(e), cfa.exprs())] = *f;
  CHECK(called["havoc main::x"] == "__VERIFIER_nondet_int");
  CHECK(called["havoc main::b"] == "__VERIFIER_nondet_bool");
  CHECK(called["havoc main::u"] == "__VERIFIER_nondet_uint");
  CHECK(called["havoc main::c"] == "__VERIFIER_nondet_char");
  for (auto e : cfa.edges())
    if (to_string(cfa.operation(e), cfa.exprs()) == "havoc main::x") {
      REQUIRE(cfa.instance_of(cfa.source(e)) != nullptr);
      CHECK(*cfa.instance_of(cfa.source(e)) == "main");
    }
  // An uninitialized local is a havoc, but not a call.
  auto plain = tr("int main() { int y; return y; }");
  for (auto e : plain.edges()) CHECK(plain.nondet_function(e) == nullptr);
  CHECK(has_op(plain, "havoc main::y"));
}

TEST_CASE("if/else gives an assume pair - while a loop back to its head") {
  auto cfa = tr("int main() { int x = 0; while (x < 10) { if (x == 3) x = x + 2; else x++; } }");
  CAPTURE(precis::test::dump(cfa));
  CHECK(has_op(cfa, "assume main::x < 10"));
  CHECK(has_op(cfa, "assume main::x >= 10"));
  CHECK(has_op(cfa, "assume main::x = 3"));
  CHECK(has_op(cfa, "assume main::x /= 3"));
  CHECK(has_op(cfa, "main::x := main::x + 2"));
  CHECK(has_op(cfa, "main::x := main::x + 1"));
  // Exactly one location has the two loop-condition edges.
  int heads = 0;
  for (auto l : cfa.locations()) {
    int n = 0;
    for (auto e : cfa.out_edges(l))
      if (precis::to_string(cfa.operation(e), cfa.exprs()).find("< 10") != std::string::npos ||
          precis::to_string(cfa.operation(e), cfa.exprs()).find(">= 10") != std::string::npos)
        ++n;
    if (n == 2) ++heads;
  }
  CHECK(heads == 1);
}

TEST_CASE("short-circuit: pure operands stay one condition + side effects are unfolded") {
  auto cfa = tr("int main() { int a = 1, b = 2; if (a > 0 && b > 0) a = 5; }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "assume main::a > 0 and main::b > 0"));
  cfa = tr("int main() { int a = 1, b = 2; if (a > 0 && b++ > 0) a = 5; }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "assume main::a > 0"));
  CHECK(has_op(cfa, "assume main::a <= 0"));
  CHECK(has_op(cfa, "main::b := main::b + 1"));
}

TEST_CASE("?: on pure operands is an ite - comma evaluates both") {
  auto cfa = tr("int main() { int a = 1, b; b = a > 0 ? 10 : 20; b = (a = 3, a + 1); }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "main::b := if main::a > 0 then 10 else 20"));
  CHECK(has_op(cfa, "main::a := 3"));
  CHECK(has_op(cfa, "main::b := main::a + 1"));
}

TEST_CASE("calls are inlined with fresh copies of parameters and locals") {
  auto cfa =
      tr("int f(int p) { int l = p + 1; return l; }\n"
         "int main() { int r = f(1) + f(2); }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "f::p := 1"));
  CHECK(has_op(cfa, "f#2::p := 2"));
  CHECK(has_op(cfa, "f::l := f::p + 1"));
  CHECK(has_op(cfa, "f#2::l := f#2::p + 1"));
  CHECK(has_op(cfa, "f::__retval := f::l"));
  CHECK(has_op(cfa, "main::r := main::__tmp0 + f#2::__retval"));
  // Locations of the inlined body belong to function f.
  CHECK(cfa.functions().size() == 2);
  CHECK(cfa.functions()[1] == "f");
  CHECK(cfa.exprs().find("f::l")->scope == 1);
}

TEST_CASE("recursion is inlined up to the bound - the call beyond is a bound marker") {
  precis::c::TranslateOptions opt;
  opt.recursion = precis::c::RecursionMode::Inline;
  opt.max_recursion_depth = 3;
  auto cfa =
      tr("int f(int n) { return n <= 0 ? 0 : 1 + f(n - 1); }\n"
         "int main() { int r = f(2); }",
         opt);
  CAPTURE(all(cfa));
  // f, f#2, f#3 (the entry call and 2 recursive ones up to depth 3), f#4 at depth 3, and
  // the call at depth 4 is the marker: a havoc of the marker variable, then the error.
  CHECK(has_op(cfa, "f::n := 2"));
  CHECK(has_op(cfa, "f#4::n := f#3::n - 1"));
  CHECK(cfa.exprs().find("f#5::n") == nullptr);
  const std::string marker = precis::bound_marker_name("recursion deeper than 3");
  CHECK(marker == "__precis_bound_recursion_deeper_than_3");
  CHECK(has_op(cfa, "havoc " + marker));
  CHECK(precis::test::error_reachable(cfa));
  // A function calling itself twice doubles per level: the depth is lowered (64, 32,
  // 16, 14, ...) until the recursive calls fit the budget, uniformly on every branch.
  opt.max_recursion_depth = 64;
  opt.max_recursive_calls = 40;  // 2 + 4 + 8 + 16 = 30 calls at depth 4; 62 at depth 5
  auto fib =
      tr("int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
         "int main() { return fib(6); }",
         opt);
  CHECK(has_op(fib, "havoc " + precis::bound_marker_name("recursion deeper than 4")));
}

TEST_CASE("recursion as a procedure with an explicit stack - auto takes it where inlining cut") {
  precis::c::TranslateOptions opt;
  opt.recursion = precis::c::RecursionMode::Stack;
  const std::string fib =
      "int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }\n"
      "int main() { int r = fib(30); return r; }";
  auto cfa = tr(fib, opt);
  CAPTURE(all(cfa));
  // One body, no copies and no marker: the outside call resets the stack, assigns the
  // parameter and the call site's number.
  CHECK(cfa.exprs().find("fib#2::n") == nullptr);
  CHECK(has_op(cfa, "fib::__sp := 0"));
  CHECK(has_op(cfa, "fib::__site := 0"));
  CHECK_FALSE(all(cfa).find("__precis_bound_") != std::string::npos);
  // A call from fib pushes only what is live where it returns: n (and `site`) at the
  // first call, the first call's value (not n) at the second; the return pops them.
  CHECK(has_op(cfa, "fib::__stack_fib::n := fib::__stack_fib::n[fib::__sp <- fib::n]"));
  CHECK(has_op(cfa,
               "fib::__stack_fib::__site := "
               "fib::__stack_fib::__site[fib::__sp <- fib::__site]"));
  CHECK(has_op(cfa, "fib::__sp := fib::__sp + 1"));
  CHECK(has_op(cfa, "fib::__sp := fib::__sp - 1"));
  CHECK(has_op(cfa, "fib::n := fib::__stack_fib::n[fib::__sp]"));
  CHECK(has_op(cfa, "assume fib::__site = 2"));
  CHECK_FALSE(has_op(cfa, "assume fib::__site = 3"));
  int pushes = 0;
  for (const auto& o : ops(cfa)) pushes += o.rfind("fib::__stack_", 0) == 0 ? 1 : 0;
  CHECK(pushes == 4);  // n and site at the first call; its value and site at the second
  CHECK(precis::test::error_reachable(cfa) == false);

  // Auto: inlining always cuts recursion at a depth (with a marker), so the stack
  // translation is the primary one, and translate_source_both keeps the inlined one.
  precis::c::TranslateOptions automatic;
  auto deep = tr(fib, automatic);
  CHECK(deep.exprs().find("fib::__site") != nullptr);
  CHECK(deep.exprs().find("fib#2::n") == nullptr);
  auto both = precis::c::translate_source_both(fib, "test.c", automatic);
  CHECK(both.primary.exprs().find("fib::__site") != nullptr);
  REQUIRE(both.inlined.has_value());
  CHECK(both.inlined->exprs().find("fib#2::n") != nullptr);
  // Without recursion there is one translation.
  CHECK_FALSE(precis::c::translate_source_both("int main() { return 0; }", "test.c").inlined);
  // Inline: the marker stays.
  precis::c::TranslateOptions inlined;
  inlined.recursion = precis::c::RecursionMode::Inline;
  CHECK(all(tr(fib, inlined)).find("__precis_bound_recursion") != std::string::npos);
}

TEST_CASE("auto keeps the stack translation alone where inlining runs out of its budget") {
  // Ten recursive calls per activation: inlining them to any depth passes the edge
  // budget (a memory limit), which the stack translation, one body, stays far below.
  std::string body;
  for (int i = 0; i < 10; ++i)
    body += "  int a" + std::to_string(i) + " = f(n - 1) + " +
            (i == 0 ? std::string("0") : "a" + std::to_string(i - 1)) + ";\n";
  const std::string code = "int f(int n) {\n  if (n <= 0) return 1;\n" + body +
                           "  return a9 % 1000;\n}\n"
                           "int main() { return f(2); }";
  precis::c::TranslateOptions opt;
  opt.max_cfa_edges = 3000;
  const auto both = precis::c::translate_source_both(code, "test.c", opt);
  CHECK_FALSE(both.inlined.has_value());
  CHECK(both.inlined_failure.find("more than 3000 CFA edges after inlining") != std::string::npos);
  CHECK(both.primary.exprs().find("f::__site") != nullptr);
  CHECK(both.primary.num_edges() < 3000);
  // The stack translation is whole: it runs to f(2)'s value (11^2 calls).
  const auto run = precis::test::run(both.primary);
  INFO(run.why);
  CHECK(run.ok);
  CHECK(run.end != *both.primary.error_location());
}

TEST_CASE(
    "recursion with a stack is refused where its code dereferences - auto keeps the inlining") {
  const std::string deref =
      "int g;\n"
      "void f(int *p, int n) { if (n > 0) { *p += 1; f(p, n - 1); } }\n"
      "int main() { f(&g, 100); return g; }";
  precis::c::TranslateOptions stack;
  stack.recursion = precis::c::RecursionMode::Stack;
  CHECK_THROWS_WITH_AS(tr(deref, stack),
                       doctest::Contains("test.c:2:38: error: unsupported: a dereference in a "
                                         "recursive function with an explicit stack"),
                       precis::input_error);
  auto cfa = tr(deref);  // auto: the inlined translation with its marker
  CHECK(all(cfa).find("__precis_bound_recursion_deeper_than_64") != std::string::npos);
}

TEST_CASE("switch dispatches on case values + default takes the rest") {
  auto cfa =
      tr("int main() { int x = 2, y = 0; switch (x) { case 1: y = 1; case 2: y = 2; break;"
         " default: y = 3; } }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "assume main::x = 1"));
  CHECK(has_op(cfa, "assume main::x = 2"));
  CHECK(has_op(cfa, "assume main::x /= 1 and main::x /= 2"));
}

TEST_CASE("goto and labels - do-while - for with continue") {
  auto cfa =
      tr("int main() { int i = 0; L: i++; if (i < 3) goto L; do { i--; } while (i > 0);"
         " for (i = 0; i < 4; i++) { if (i == 1) continue; } return 0; }");
  auto r = precis::test::run(cfa);
  INFO(r.why);
  REQUIRE(r.ok);
  CHECK(r.end == *cfa.final_location());
  CHECK(*r.value(cfa, "main::i") == 4);
}

TEST_CASE("unsigned arithmetic wraps modulo 2^N - conversions to narrower signed types wrap") {
  auto cfa = tr("unsigned u; int main() { u = u + 1; signed char c = u; _Bool b = u; }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "u := (u + 1) mod 4294967296"));
  CHECK(has_op(cfa, "main::c := (u + 128) mod 256 - 128"));
  CHECK(has_op(cfa, "main::b := if u /= 0 then 1 else 0"));
}

TEST_CASE("signed / and % truncate towards zero") {
  auto cfa = tr("int main() { int a = -7, b = 2, q = a / b, r = a % b; }");
  CAPTURE(all(cfa));
  CHECK(
      has_op(cfa, "main::q := if main::a >= 0 then main::a / main::b else -(-main::a / main::b)"));
  CHECK(has_op(cfa,
               "main::r := if main::a >= 0 then main::a mod main::b else -(-main::a mod main::b)"));
}

TEST_CASE("undefined integer functions without pointer arguments return nondeterministic values") {
  auto cfa = tr("int ext(int); int main() { int x = ext(3); }");
  CHECK(has_op(cfa, "havoc main::__tmp0"));
  precis::c::TranslateOptions strict;
  strict.unknown_functions_nondet = false;
  CHECK_THROWS_AS(tr("int ext(int); int main() { int x = ext(3); }", strict), precis::input_error);
}

TEST_CASE("undefined functions: string literals and pointers to const are only read") {
  // printf's format is not evaluated; the call returns a nondeterministic int.
  auto cfa = tr("int printf(const char *, ...); int main() { int n = printf(\"%d\", 7); }");
  CHECK(has_op(cfa, "havoc main::__tmp0"));
  CHECK(has_op(cfa, "main::n := main::__tmp0"));
  // A string literal whose value is discarded does nothing (instrumented code tags
  // assertions this way).
  auto tagged = tr("int main() { int x = (\"14_6632\", 5); }");
  CHECK(has_op(tagged, "main::x := 5"));
}

TEST_CASE("a dereference where no object of the type is alive ends the path") {
  // Global pointers the program never sets (null): what reads through them is dead code.
  auto cfa =
      tr("struct S { int f; struct S *next; }; struct S *head; int *q;"
         "int main() { int a = head->next->f; int b = *q; }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "main::__tmp0 := head#ptr"));           // the first dereference's address
  CHECK(all(cfa).find("main::a :=") == std::string::npos);  // and nothing after it
  CHECK(all(cfa).find("main::b :=") == std::string::npos);
}

TEST_CASE("a handle from an undefined function is null or a fresh address below zero") {
  auto cfa =
      tr("typedef struct _IO_FILE FILE; FILE *fopen(const char *, const char *);"
         "int fclose(FILE *); int main() { FILE *a = fopen(\"a\", \"r\"); FILE *b = fopen(\"b\", "
         "\"r\"); if (a) fclose(a); }");
  CAPTURE(all(cfa));
  CHECK(has_op(cfa, "extern#handles := 0"));
  CHECK(has_op(cfa, "extern#handles := extern#handles - 1"));
  CHECK(has_op(cfa, "main::a#ptr := main::__tmp1"));
}

TEST_CASE("enums + sizeof + casts and character constants are constants") {
  auto cfa = tr("enum E { A = 3, B }; int main() { int x = B + sizeof(int) + (char)'a'; }");
  CHECK(has_op(cfa, "main::x := 105"));
}

TEST_CASE("static locals are globals initialised once") {
  auto cfa =
      tr("int f() { static int n = 5; n++; return n; } int main() { int a = f(); a = f(); }");
  CHECK(has_op(cfa, "f::n := 5"));
  auto r = precis::test::run(cfa);
  REQUIRE(r.ok);
  CHECK(*r.value(cfa, "f::n") == 7);
}

TEST_CASE("edges carry the source line") {
  auto cfa = tr("int main() {\n  int x = 0;\n  x = 4;\n}");
  bool found = false;
  for (auto e : cfa.edges())
    if (precis::to_string(cfa.operation(e), cfa.exprs()) == "main::x := 4")
      found = cfa.line(e) == 3;
  CHECK(found);
}

TEST_CASE("the cleanup removes skip chains and unreachable code") {
  const char* code =
      "void reach_error(); void abort();\nint main() { int x = 0; { ; } "
      "if (x) { reach_error(); abort(); } return 0; }";
  auto raw = precis::test::tr_raw(code);
  auto clean = tr(code);
  CHECK(clean.num_locations() < raw.num_locations());
  for (auto e : clean.edges())
    CHECK_FALSE(std::holds_alternative<precis::Skip>(clean.operation(e)));
}

TEST_CASE("an allocation site has as many objects as it can run times (at most the limit)") {
  // Named heap#LINE#COLUMN#k: the site in mk runs once per call of mk (two call paths),
  // the one in the loop up to the limit, the one in main once.
  auto cfa =
      tr("#include <stdlib.h>\n"
         "int *mk(void) { return malloc(sizeof(int)); }\n"
         "int main() {\n"
         "  int *a = mk(), *b = mk();\n"
         "  for (int i = 0; i < 3; i++) { int *c = malloc(sizeof(int)); *c = i; }\n"
         "  int *d = calloc(2, sizeof(int));\n"
         "  return *a + *b + d[1];\n"
         "}\n");
  auto objects = [&](const std::string& site) {
    int n = 0;
    while (cfa.exprs().find(site + "#" + std::to_string(n) + "[0]") != nullptr) ++n;
    return n;
  };
  CHECK(objects("heap#2#24") == 2);
  CHECK(objects("heap#5#42") == 8);
  CHECK(objects("heap#6#12") == 1);
  CHECK(cfa.exprs().find("heap#6#12#0[1]") != nullptr);  // calloc(2, ...): two cells
}

}  // namespace constructs_test
