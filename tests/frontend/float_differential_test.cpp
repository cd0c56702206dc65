// Differential tests of floating point: generated straight-line programs, one per type and
// operator, over operands that cover the zeros, the subnormals, the largest finite
// values, the infinities, NaN and halfway cases of rounding, compiled with gcc for x86-64
// (SSE arithmetic, FLT_EVAL_METHOD 0, -ffp-contract=off) and run, against the CFA
// executed by a concrete walk over precis's evaluation (expr/floating_point.hpp). Results
// are compared bit for bit; two NaNs are equal whatever their payload (precis keeps the
// canonical NaN, SMT-LIB's only one).

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "precis/expr/floating_point.hpp"

namespace float_differential_test {

namespace fs = std::filesystem;

namespace {

struct Result {
  std::string type;  // C type of the global
  std::string name;
};

// The operands of a type, as C expressions that denote them exactly (hexadecimal
// literals; infinities and NaN through gcc's builtins, which precis reads).
std::vector<std::string> operands(bool single) {
  const std::vector<double> values =
      single ? std::vector<double>{0.0,          -0.0,          1.0,        -1.0,
                                   0.1F,         3.0,           16777216.0, 0.5,
                                   FLT_TRUE_MIN, -FLT_TRUE_MIN, FLT_MIN,    FLT_MAX,
                                   -FLT_MAX,     1e-20F,        7e30F,      1.0F + FLT_EPSILON,
                                   1.5,          -2.5}
             : std::vector<double>{0.0,
                                   -0.0,
                                   1.0,
                                   -1.0,
                                   0.1,
                                   3.0,
                                   9007199254740992.0,
                                   0.5,
                                   DBL_TRUE_MIN,
                                   -DBL_TRUE_MIN,
                                   DBL_MIN,
                                   DBL_MAX,
                                   -DBL_MAX,
                                   1e-300,
                                   7e300,
                                   1.0 + DBL_EPSILON,
                                   1.5,
                                   -2.5};
  std::vector<std::string> out;
  for (double v : values) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", v);
    out.push_back(std::string("(") + buf + (single ? "f" : "") + ")");
  }
  out.push_back(single ? "__builtin_inff()" : "__builtin_inf()");
  out.push_back(single ? "(-__builtin_inff())" : "(-__builtin_inf())");
  out.push_back(single ? "__builtin_nanf(\"\")" : "__builtin_nan(\"\")");
  return out;
}

// Compiles `code` with a harness that prints each result global as its bit pattern (or
// its integer value), runs it, and returns name -> value.
std::map<std::string, long long> run_gcc(const std::string& id, const std::string& code,
                                         const std::vector<Result>& results) {
  const fs::path dir = fs::path(PRECIS_CFRONT_TEST_TMP) / ("fp-" + id);
  fs::create_directories(dir);
  std::ofstream(dir / "prog.c") << code;
  std::ofstream h(dir / "harness.c");
  h << "#include <stdio.h>\n#include <string.h>\n";
  for (const auto& g : results) h << "extern " << g.type << " " << g.name << ";\n";
  h << "int __precis_main(void);\nint main(void) {\n  __precis_main();\n";
  for (const auto& g : results) {
    if (g.type == "float")
      h << "  { unsigned u; memcpy(&u, &" << g.name << ", 4); printf(\"" << g.name
        << " %lld\\n\", (long long)u); }\n";
    else if (g.type == "double")
      h << "  { long long u; memcpy(&u, &" << g.name << ", 8); printf(\"" << g.name
        << " %lld\\n\", u); }\n";
    else
      h << "  printf(\"" << g.name << " %lld\\n\", (long long)" << g.name << ");\n";
  }
  h << "  return 0;\n}\n";
  h.close();
  const std::string gcc = std::string(PRECIS_GCC) + " -m64 -O0 -w -ffp-contract=off ";
  const std::string cmd = gcc + "-Dmain=__precis_main -c " + (dir / "prog.c").string() + " -o " +
                          (dir / "prog.o").string() + " && " + gcc + (dir / "harness.c").string() +
                          " " + (dir / "prog.o").string() + " -lm -o " + (dir / "prog").string() +
                          " && " + (dir / "prog").string() + " > " + (dir / "out.txt").string();
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::map<std::string, long long> out;
  std::ifstream in(dir / "out.txt");
  std::string name;
  long long v = 0;
  while (in >> name >> v) out[name] = v;
  return out;
}

bool same(const std::string& type, long long a, long long b) {
  if (type == "float")
    return a == b || (std::isnan(precis::fp::to_float(a)) && std::isnan(precis::fp::to_float(b)));
  if (type == "double")
    return a == b || (std::isnan(precis::fp::to_double(a)) && std::isnan(precis::fp::to_double(b)));
  return a == b;
}

// Runs the program both ways and compares every result; returns how many were compared.
std::size_t differential(const std::string& id, const std::string& code,
                         const std::vector<Result>& results) {
  CAPTURE(id);
  const auto expected = run_gcc(id, code, results);
  REQUIRE(expected.size() == results.size());
  std::size_t compared = 0;
  for (int mode : {0, 1}) {  // raw, and cleaned up with large blocks
    precis::c::TranslateOptions opt;
    opt.cleanup = mode > 0;
    opt.large_block = mode > 0;
    CAPTURE(mode);
    const precis::Cfa cfa = precis::c::translate_source(code, id + ".c", opt);
    const auto r = precis::test::run(cfa, 10000000);
    INFO(r.why);
    REQUIRE(r.ok);
    CHECK(precis::test::replay_agrees(cfa, r));
    for (const auto& g : results) {
      CAPTURE(g.name);
      const auto v = r.value(cfa, g.name);
      REQUIRE(v.has_value());
      const long long want = expected.at(g.name);
      INFO("gcc " << want << ", precis " << *v);
      CHECK(same(g.type, *v, want));
      ++compared;
    }
  }
  return compared;
}

// One program: `T a<i> = operand;` locals, and results `R r<k> = expression;` globals.
struct Program {
  std::string globals, body;
  std::vector<Result> results;
  void result(const std::string& type, const std::string& expr) {
    const std::string name = "r" + std::to_string(results.size());
    globals += type + " " + name + ";\n";
    body += "  " + name + " = " + expr + ";\n";
    results.push_back({type, name});
  }
  [[nodiscard]] std::string code(const std::string& prelude) const {
    return prelude + globals + "int main(void) {\n" + body + "  return 0;\n}\n";
  }
};

std::string operand_decls(const std::string& type, const std::vector<std::string>& ops,
                          const std::string& prefix) {
  std::string s;
  for (std::size_t i = 0; i < ops.size(); ++i)
    s += "  volatile " + type + " " + prefix + std::to_string(i) + " = " + ops[i] + ";\n";
  return s;
}

}  // namespace

TEST_CASE("float differential: + - * / and the comparisons, every operand pair") {
  std::size_t total = 0;
  for (bool single : {true, false}) {
    const std::string type = single ? "float" : "double";
    const auto ops = operands(single);
    for (const char* op : {"+", "-", "*", "/"}) {
      Program p;
      p.body = operand_decls(type, ops, "a");
      for (std::size_t i = 0; i < ops.size(); ++i)
        for (std::size_t j = 0; j < ops.size(); ++j)
          p.result(type, "a" + std::to_string(i) + " " + op + " a" + std::to_string(j));
      total += differential(type + "_" +
                                std::to_string(op[0] == '+'   ? 0
                                               : op[0] == '-' ? 1
                                               : op[0] == '*' ? 2
                                                              : 3),
                            p.code(""), p.results);
    }
    Program c;
    c.body = operand_decls(type, ops, "a");
    for (std::size_t i = 0; i < ops.size(); i += 2)
      for (std::size_t j = 1; j < ops.size(); j += 2)
        for (const char* op : {"<", "<=", "==", "!=", ">", ">="})
          c.result("int", "a" + std::to_string(i) + " " + op + " a" + std::to_string(j));
    total += differential(type + "_compare", c.code(""), c.results);
  }
  MESSAGE("compared " << total << " results");
  CHECK(total > 9000);
}

TEST_CASE("float differential: conversions in every direction") {
  Program p;
  const auto fs = operands(true), ds = operands(false);
  p.body = operand_decls("float", fs, "f") + operand_decls("double", ds, "d");
  const std::vector<std::string> ints = {
      "0", "-7", "16777217", "16777219", "2147483647", "-2147483647 - 1", "123456789"};
  const std::vector<std::string> longs = {"9007199254740993LL", "-9223372036854775807LL - 1",
                                          "9223372036854775807LL", "4611686018427387905LL"};
  const std::vector<std::string> unsigneds = {"4294967295u", "2147483648u", "16777217u"};
  const std::vector<std::string> ulongs = {"18446744073709551615ULL", "9223372036854775808ULL",
                                           "9223372036854777857ULL"};
  for (std::size_t i = 0; i < fs.size(); ++i) p.result("double", "(double)f" + std::to_string(i));
  for (std::size_t i = 0; i < ds.size(); ++i) p.result("float", "(float)d" + std::to_string(i));
  for (const auto& v : ints) {
    p.result("float", "(float)(" + v + ")");
    p.result("double", "(double)(" + v + ")");
  }
  for (const auto& v : longs) {
    p.result("float", "(float)(" + v + ")");
    p.result("double", "(double)(" + v + ")");
  }
  for (const auto& v : unsigneds) p.result("float", "(float)(" + v + ")");
  for (const auto& v : ulongs) {
    p.result("float", "(float)(" + v + ")");
    p.result("double", "(double)(" + v + ")");
  }
  // float -> integer on values in range (out of range is undefined in C)
  const std::vector<std::string> in_range = {
      "2.9", "-2.9", "0.5", "-0.5", "16777216.0", "2147483520.0", "-2147483648.0", "1e-30"};
  for (const auto& v : in_range) {
    p.result("int", "(int)(float)" + v);
    p.result("int", "(int)" + v);
    p.result("long long", "(long long)(" + v + " * 1000.0)");
  }
  p.result("unsigned int", "(unsigned)4294967040.0f");
  p.result("long long", "(long long)(unsigned long long)1.8e19");  // beyond 2^63, wrapped
  p.result("_Bool", "(_Bool)0.0");
  p.result("_Bool", "(_Bool)-0.0");
  p.result("_Bool", "(_Bool)__builtin_nan(\"\")");
  p.result("_Bool", "(_Bool)1e-320");
  // the usual arithmetic conversions: int op float is float, float op double is double
  p.result("float", "3 / 2.0f");
  p.result("double", "0.1f + 0.1");
  p.result("float", "16777217 + 0.0f");
  p.result("int", "(0.1f == 0.1)");
  const std::size_t n = differential("conversions", p.code(""), p.results);
  CHECK(n > 100);
}

TEST_CASE("float differential: math functions IEEE 754 defines exactly") {
  // As a preprocessed task has them: the library's prototypes, <math.h>'s classification
  // macros expanded to gcc's builtins, and glibc's own functions (__isnan, __fpclassify).
  std::string prelude;
  for (const char* fn : {"fabs", "sqrt", "floor", "ceil", "trunc", "round", "rint", "nearbyint"})
    prelude += std::string("double ") + fn + "(double); float " + fn + "f(float);\n";
  prelude +=
      "double fmax(double, double); float fmaxf(float, float); double fmin(double, double);\n"
      "float fminf(float, float); double copysign(double, double); float copysignf(float, float);\n"
      "int __isnan(double); int __isnanf(float); int __isinf(double); int __isinff(float);\n"
      "int __fpclassify(double); int __fpclassifyf(float); int __finite(double);\n"
      "int __signbit(double); int __signbitf(float);\n";
  Program p;
  for (bool single : {true, false}) {
    const std::string type = single ? "float" : "double";
    const std::string s = single ? "f" : "";
    const auto ops = operands(single);
    p.body += operand_decls(type, ops, single ? "f" : "d");
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const std::string a = (single ? "f" : "d") + std::to_string(i);
      for (const char* fn :
           {"fabs", "sqrt", "floor", "ceil", "trunc", "round", "rint", "nearbyint"})
        p.result(type, std::string(fn) + s + "(" + a + ")");
      p.result("int", "__builtin_isnan(" + a + ")");
      p.result("int", "__builtin_isinf_sign(" + a + ")");
      p.result("int", "__builtin_isfinite(" + a + ")");
      p.result("int", "__builtin_isnormal(" + a + ")");
      p.result("int", "__builtin_fpclassify(0, 1, 4, 3, 2, " + a + ")");
      p.result("int", "__isnan" + s + "(" + a + ")");
      p.result("int", "__isinf" + s + "(" + a + ")");
      p.result("int", "__fpclassify" + s + "(" + a + ")");
      p.result("int", "__builtin_isnan(" + a + ") || __signbit" + s + "(" + a + ") != 0");
      p.result(type, "fmax" + s + "(" + a + ", 1.0" + s + ")");
      p.result(type, "fmin" + s + "(" + a + ", -1.0" + s + ")");
      p.result(type, "copysign" + s + "(1.5" + s + ", " + a + ") * (__builtin_isnan(" + a +
                         ") ? 0.0" + s + " : 1.0" + s + ")");
      p.result("int", "__builtin_isless(" + a + ", 1.0" + s + ") + 2 * __builtin_isunordered(" + a +
                          ", 0.0" + s + ")");
    }
    if (!single) p.result("int", "__finite(d0) + __finite(d18)");
  }
  const std::size_t n = differential("math", p.code(prelude), p.results);
  CHECK(n > 500);
}

TEST_CASE("float differential: loops, compound assignments, calls and ++ on floats") {
  Program p;
  p.globals =
      "double acc; float fsum; int steps; float half(float x) { return x / 2; }\n"
      "double poly(double x) { return (x * x - 3.0) * x + 0.5; }\n";
  p.body =
      "  int i;\n  acc = 0; fsum = 0.0f; steps = 0;\n"
      "  for (i = 0; i < 100; i++) { acc += 0.1; fsum += 0.1f; }\n"
      "  { float x = 1.0f; while (x != 0.0f) { x = half(x); steps++; } }\n"
      "  { double y = 0.25; y++; y *= 3; y -= 0.125; y /= 7; acc += y; }\n"
      "  { float z = 16777216.0f; z++; fsum += z - 16777216.0f; }\n"
      "  acc += poly(1.1) + poly(-2.0);\n";
  p.results = {{"double", "acc"}, {"float", "fsum"}, {"int", "steps"}};
  differential("loops", p.code(""), p.results);
}

}  // namespace float_differential_test
