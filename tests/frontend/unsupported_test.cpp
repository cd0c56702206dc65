// Every unsupported construct is reported as "unsupported: ..." at file:line:col.

#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "helpers.hpp"

namespace unsupported_test {

namespace {

// Translates `code` and returns the error message (empty if it translated).
std::string error_of(const std::string& code) {
  try {
    precis::test::tr(code);
  } catch (const precis::input_error& e) {
    return e.what();
  }
  return "";
}

void expect(const std::string& code, const std::string& where, const std::string& what) {
  CAPTURE(code);
  std::string msg = error_of(code);
  CHECK(msg.find("test.c:" + where + ": error: unsupported: " + what) != std::string::npos);
  if (msg.find("test.c:" + where) == std::string::npos || msg.find(what) == std::string::npos)
    MESSAGE("got: " << msg);
}

}  // namespace

TEST_CASE("pointers outside the model (no heap, integer objects only)") {
  expect("int main() {\n  int (*pa)[3];\n}", "2:9", "pointer type 'int (*)[3]'");
  expect("int g; int main() {\n  long x = (long)&g;\n}", "2:12",
         "conversion between a pointer and an integer");
  expect("int g; int main() {\n  char *c = (char *)&g;\n}", "2:13",
         "pointer conversion from 'int *' to 'char *'");
  // argv points outside the program's objects: a use of it is refused, not guessed.
  expect("int main(int argc, char** argv) {\n  return argv[0][0];\n}", "2:10", "variable 'argv'");
  // No object of the type: the dereference ends the path (constructs_test.cpp), unless an
  // extern variable without a definition may hold the address of one.
  expect("extern int *ep;\nint main() {\n  int *p = ep;\n  return *p;\n}", "4:10",
         "dereference of a pointer to 'int': no object of that type has its address taken");
  expect("extern void *malloc(unsigned long);\nint main() {\n  void *p = malloc(4);\n}", "3:13",
         "'malloc' whose result is not converted to a pointer to one object type");
}

TEST_CASE("arrays precis does not take + structs + unions") {
  expect("int a[300000000];\nint main() { return a[0]; }", "1:5",
         "array type 'int[300000000]': 300000000 elements, more than precis' arrays take "
         "(268435456)");
  expect("int main() {\n  int a[1000];\n  return a[1000];\n}", "3:10",
         "index 1000 outside the array 'main::a' of 1000 elements");
  expect("int main(int n) {\n  int m[n][2];\n  return 0;\n}", "2:7",
         "array type 'int[n][2]' without a constant size");
  expect(
      "struct P { int x; };\nstruct P g[2000];\nint main() {\n  int *p = &g[3].x;\n"
      "  return *p;\n}",
      "4:18", "address of a member of an element of 'g' (a large array of structs)");
  expect("int main() {\n  int m[2][3];\n  return m[2][0];\n}", "3:10",
         "index 2 outside an array of 2 elements");
  expect("int main() {\n  int m[400][3];\n}", "2:7",
         "type 'int[400][3]' of 1200 scalars, more than the leaf-wise encoding takes (1024)");
  expect("int main() {\n  int a[3];\n  return a[3];\n}", "3:10",
         "index 3 outside the array 'main::a' of 3 elements");
  expect("union U { int f; };\nint main() {\n  union U u;\n}", "3:11", "struct or union type");
}

TEST_CASE("the heap: what stays outside") {
  const std::string decl = "extern void *malloc(unsigned long);\n";
  expect(decl +
             "int main() {\n  void *v = malloc(4);\n  int *p = (int *)v;\n  short *q = "
             "(short *)v;\n}",
         "3:13", "'malloc' whose result is not converted to a pointer to one object type");
  expect(decl +
             "int main(int n) {\n  int *p;\n  for (int k = 0; k < 2; k++)\n    p = malloc(n * "
             "sizeof(int));\n}",
         "5:9", "'malloc' of a size that is not a constant, at a call that may run more than once");
  expect(decl + "struct S { int f; };\nint main(int n) {\n  struct S *p = malloc(n * 4);\n}",
         "4:17", "'malloc' of a size that is not a constant, for objects of type 'struct S'");
  expect(decl + "int main() {\n  int *p = malloc(6);\n}", "3:12",
         "'malloc' of 6 bytes for objects of type 'int' (4 bytes)");
  expect(decl + "struct S { int f, g; };\nint main() {\n  struct S *p = malloc(12);\n}", "4:17",
         "'malloc' of 12 bytes for objects of type 'struct S' (8 bytes)");
}

TEST_CASE("structs: what stays outside") {
  expect("union U { int f; };\nint main() {\n  union U a[2];\n}", "3:11",
         "array of unions 'union U[2]'");
  expect(
      "struct T { int a[400]; } x, y, z;\nint i;\nint main() {\n  struct T *p = i ? &x : &y;\n"
      "  p = i > 1 ? &z : p;\n  return p->a[i];\n}",
      "6:10", "access that may reach 1200 cells, more than the leaf-wise encoding takes");
  expect(
      "struct S { int f; };\nstruct S mk(void) { struct S s = {1}; return s; }\n"
      "int main() {\n  struct S t = mk();\n}",
      "4:16", "call returning a struct");
  expect(
      "struct S { int f; };\nextern struct S *es;\nint main() {\n  struct S *p = es;\n"
      "  return p->f;\n}",
      "5:13",
      "dereference of a pointer to 'struct S': no struct of that type has its address taken");
  expect("union U { int a; int b; };\nstruct S { union U u; };\nint main() {\n  struct S s;\n}",
         "2:20", "struct or union type 'union U'");
}

TEST_CASE("floating point: what stays outside") {
  // float and double are read (floating.cpp); these are refused at their position.
  CHECK(error_of("int main() {\n  double d = 1.0;\n  int x = d * 2.5f;\n}").empty());
  expect("int main() {\n  long double d = 1.0;\n}", "2:15", "floating-point type 'long double'");
  expect("int main() {\n  float a[4];\n}", "2:9", "array of floating-point values 'float[4]'");
  expect("int fesetround(int);\nint main() {\n  fesetround(0x400);\n}", "3:3",
         "'fesetround': precis models the rounding mode to nearest, ties to even, only");
  expect("int main() {\n  float f = 1;\n  float *p = &f;\n}", "2:9",
         "the address of a floating-point variable");
  expect("int main() {\n  _Complex double z;\n}", "2:19", "complex type");
}

TEST_CASE("bit operations: what stays outside (undefined shift counts)") {
  // A constant shift count outside the promoted width is undefined behaviour in C.
  expect("int main() {\n  int a = 1;\n  a = a << 32;\n}", "3:9", "shift by 32, outside 0..31");
  expect("int main() {\n  int a = 1;\n  a >>= -1;\n}", "3:5", "shift by -1, outside 0..31");
}

TEST_CASE("unknown functions with pointer arguments + function pointers") {
  // An undefined function may write through a pointer that is not to const.
  expect("int ext(int *p);\nint g;\nint main() {\n  return ext(&g);\n}", "4:14",
         "call of undefined function 'ext' with an argument of type 'int *' (it might write "
         "through it)");
  expect("int scanf(const char *, ...);\nint main() {\n  int x;\n  scanf(\"%d\", &x);\n}", "4:15",
         "call of undefined function 'scanf' with an argument of type 'int *'");
  // Pointers from undefined functions: only handles to structs, never dereferenced.
  expect("char *getenv(const char *);\nint main() {\n  char *h = getenv(\"HOME\");\n}", "3:13",
         "call of undefined function 'getenv' returning 'char *'");
  expect("int f(void) { return 1; }\nint main() {\n  int (*fp)(void) = f;\n}", "3:9",
         "pointer type");
}

TEST_CASE("handles from undefined functions: no dereference, conversion or arithmetic") {
  const std::string decl =
      "struct F { int fd; };\nstruct F *open_f(const char *);\nint main() {\n"
      "  struct F *f = open_f(\"x\");\n";
  // The library's object behind a handle is not modelled: a path that reads it is refused.
  expect(decl + "  return f->fd;\n}", "5:13",
         "dereference of a pointer to 'struct F', which the undefined function 'open_f' "
         "returns (its object is not modelled)");
  expect(decl + "  struct F copy = *f;\n}", "5:19", "dereference of a pointer to 'struct F'");
  expect(decl + "  void *v = f;\n}", "5:13", "conversion of a pointer to 'struct F'");
  expect(decl + "  f++;\n}", "5:4", "arithmetic of a pointer to 'struct F'");
  // Also where the dereference comes before any call that returns the handle.
  expect(
      "struct F { int fd; };\nstruct F *open_f(void);\nint get(struct F *p) { return "
      "p->fd; }\nint main() {\n  struct F s;\n  get(&s);\n  open_f();\n}",
      "3:34", "dereference of a pointer to 'struct F'");
}

TEST_CASE("integer types wider than 64 bits") {
  // LP64 has __int128 (ILP32 has none: clang itself says so); precis refuses it.
  const std::string code = "int main() {\n  unsigned __int128 x = 0;\n}";
  precis::c::TranslateOptions lp64;
  lp64.data_model = precis::c::DataModel::LP64;
  std::string msg;
  try {
    precis::test::tr(code, lp64);
  } catch (const precis::input_error& e) {
    msg = e.what();
  }
  CHECK(msg.find("test.c:2:21: error: unsupported: 128-bit integer type 'unsigned __int128'") !=
        std::string::npos);
  CHECK(error_of(code).find("test.c:2:12: error: __int128 is not supported on this target") !=
        std::string::npos);
}

TEST_CASE("computed goto and inline assembly") {
  expect("int main() {\n  __asm__(\"nop\");\n}", "2:3", "inline assembly");
}

TEST_CASE("parse errors are input errors with a position") {
  std::string msg = error_of("int main() {\n  int x = ;\n}");
  CHECK(msg.find("test.c:2:11: error: expected expression") != std::string::npos);
  msg = error_of("int f() { return 0; }");
  CHECK(msg.find("no definition of the entry function 'main'") != std::string::npos);
}

// Two damaged copies of an sv-benchmarks task that the fuzzer found: clang's typo
// correction alone used 8 GB in 2.5 minutes on the first and more than 25 s on the
// second (clang -fsyntax-only too). With spelling correction off and clang stopping at
// the first error, each is one input error at its position (a regression would hang
// this test, not pass it).
TEST_CASE("damaged files: the first error, without clang's typo correction") {
  const std::string dir = PRECIS_FUZZ_REGRESSIONS_DIR;
  const std::pair<const char*, const char*> cases[] = {
      {"typo_correction_oom.c",
       "typo_correction_oom.c:224:4: error: use of undeclared identifier 'C_129'"},
      {"typo_correction_timeout.c",
       "typo_correction_timeout.c:188:8: error: conflicting types for 'Id_MCDC_89'"}};
  for (const auto& [name, expected] : cases) {
    const std::string file = name;
    CAPTURE(file);
    std::string msg;
    try {
      precis::c::translate_file(dir + "/" + file);
    } catch (const precis::input_error& e) {
      msg = e.what();
    }
    CHECK(msg.find(expected) != std::string::npos);
    if (msg.find(expected) == std::string::npos) MESSAGE("got: " << msg);
  }
}

}  // namespace unsupported_test
