// Differential tests: small deterministic C programs compiled with gcc -m32 and run,
// against the CFA executed by a concrete walk (and replayed by precis::replay). The
// globals listed are printed by a harness at exit and compared.

#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "helpers.hpp"

namespace differential_test {

namespace fs = std::filesystem;

namespace {

struct Global {
  std::string type;
  std::string name;
};

// How to run a 32-bit program here: directly, or through qemu-i386 (Debian's qemu-user)
// on a kernel without IA32 emulation, where exec fails with "Exec format error" (some
// VMs' kernels). Decided once, by compiling and running an empty program.
const std::string& run32_prefix() {
  static const std::string prefix = [] {
    // One folder per process: CTest runs the cases as parallel processes, and two that
    // wrote and ran the same probe at once failed ("text file busy").
    const fs::path dir =
        fs::path(PRECIS_CFRONT_TEST_TMP) / ("probe32-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "probe.c") << "int main(void) { return 0; }\n";
    const std::string exe = (dir / "probe").string();
    const std::string build = std::string(PRECIS_GCC) + " -m32 -O0 -w " +
                              (dir / "probe.c").string() + " -o " + exe + " 2>/dev/null";
    if (std::system(build.c_str()) != 0) return std::string();  // the test fails loudly
    if (std::system((exe + " 2>/dev/null").c_str()) == 0) return std::string();
    if (std::system(("qemu-i386 " + exe + " 2>/dev/null").c_str()) == 0)
      return std::string("qemu-i386 ");
    return std::string();
  }();
  return prefix;
}

// Compiles `code` with a harness that prints the globals at exit, runs it, and returns
// name -> value.
std::map<std::string, long long> run_gcc(const std::string& id, const std::string& code,
                                         const std::vector<Global>& globals) {
  fs::path dir = fs::path(PRECIS_CFRONT_TEST_TMP) / id;
  fs::create_directories(dir);
  std::ofstream(dir / "prog.c") << code;
  std::ofstream h(dir / "harness.c");
  h << "#include <stdio.h>\n#include <stdlib.h>\n";
  for (const auto& g : globals) h << "extern " << g.type << " " << g.name << ";\n";
  h << "int __precis_main(void);\nstatic void dump(void) {\n";
  for (const auto& g : globals)
    h << "  printf(\"" << g.name << " %lld\\n\", (long long)" << g.name << ");\n";
  h << "}\nint main(void) { atexit(dump); __precis_main(); return 0; }\n";
  h.close();
  const std::string gcc = std::string(PRECIS_GCC) + " -m32 -O0 -w ";
  std::string cmd = gcc + "-Dmain=__precis_main -c " + (dir / "prog.c").string() + " -o " +
                    (dir / "prog.o").string() + " && " + gcc + (dir / "harness.c").string() + " " +
                    (dir / "prog.o").string() + " -o " + (dir / "prog").string() + " && " +
                    run32_prefix() + (dir / "prog").string() + " > " + (dir / "out.txt").string();
  INFO("a 32-bit program must run here: directly, or through qemu-i386 (qemu-user)");
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::map<std::string, long long> out;
  std::ifstream in(dir / "out.txt");
  std::string name;
  long long v;
  while (in >> name >> v) out[name] = v;
  return out;
}

void differential(const std::string& id, const std::string& code,
                  const std::vector<Global>& globals,
                  const precis::c::TranslateOptions& base = {}) {
  CAPTURE(id);
  auto expected = run_gcc(id, code, globals);
  REQUIRE(expected.size() == globals.size());
  for (int mode : {0, 1, 2}) {  // raw, cleaned up, cleaned up with block merging
    precis::c::TranslateOptions opt = base;
    opt.cleanup = mode > 0;
    opt.large_block = mode == 2;
    CAPTURE(mode);
    precis::Cfa cfa = precis::c::translate_source(code, id + ".c", opt);
    auto r = precis::test::run(cfa);
    CAPTURE(precis::test::dump(cfa));
    INFO(r.why);
    REQUIRE(r.ok);
    CHECK(r.end != *cfa.error_location());
    CHECK(precis::test::replay_agrees(cfa, r));
    for (const auto& g : globals) {
      CAPTURE(g.name);
      auto v = r.value(cfa, g.name);
      REQUIRE(v.has_value());
      CHECK(*v == expected.at(g.name));
    }
  }
}

}  // namespace

TEST_CASE("differential: loops") {
  differential("loops", R"(
int s = 0, p = 1, w = 0, d = 0, f = 0;
int main() {
  int i;
  for (i = 0; i < 10; i++) { if (i == 7) continue; s += i; }
  while (p < 1000) p = p * 3;
  do { w++; } while (w < 5 && w != 3);
  for (;;) { d += 2; if (d > 9) break; }
  i = 0;
  while (1) { i++; if (i % 2) continue; f += i; if (i >= 10) break; }
  return 0;
}
)",
               {{"int", "s"}, {"int", "p"}, {"int", "w"}, {"int", "d"}, {"int", "f"}});
}

TEST_CASE("differential: calls + return values + fresh locals") {
  differential("calls", R"(
int g = 0, r1 = 0, r2 = 0, r3 = 0, cnt = 0;
int sq(int x) { int t; t = x * x; return t; }
int add3(int a, int b, int c) { g += a; return a + b + c; }
void bump(void) { cnt++; }
int fact(int n) { int acc = 1; while (n > 1) { acc *= n; n--; } return acc; }
int sign(int v) { if (v < 0) return -1; else if (v == 0) return 0; return 1; }
int main() {
  int k;
  r1 = sq(7) + add3(1, 2, 3);
  for (k = 0; k < 4; k++) bump();
  r2 = fact(6) - sq(sq(2));
  r3 = sign(-5) * 100 + sign(0) * 10 + sign(9);
  k = add3(g, g, g);
  g = g + k;
  return 0;
}
)",
               {{"int", "g"}, {"int", "r1"}, {"int", "r2"}, {"int", "r3"}, {"int", "cnt"}});
}

TEST_CASE("differential: unsigned wrap-around and conversions") {
  differential("unsigned", R"(
unsigned int u = 0, v = 5, big = 0; unsigned char c = 250; signed char sc = 100;
unsigned short us = 0; int back = 0, neg = 0; long l = 0; _Bool b = 0, b2 = 0;
unsigned int q = 0, m = 0;
int main() {
  u = u - 1;
  v = v - 10;
  big = 4000000000u + 500000000u;
  c = c + 10;
  sc = sc + 100;
  us = 65535; us++;
  back = (int)4294967295u;
  neg = -7;
  q = (unsigned)neg / 3u;
  m = (unsigned)neg % 10u;
  l = (long)(unsigned char)300;
  b = 256;
  b2 = (_Bool)(c - 4);
  return 0;
}
)",
               {{"unsigned int", "u"},
                {"unsigned int", "v"},
                {"unsigned int", "big"},
                {"unsigned char", "c"},
                {"signed char", "sc"},
                {"unsigned short", "us"},
                {"int", "back"},
                {"long", "l"},
                {"_Bool", "b"},
                {"_Bool", "b2"},
                {"unsigned int", "q"},
                {"unsigned int", "m"}});
}

TEST_CASE("differential: 64-bit unsigned arithmetic, constants and conversions") {
  // Values beyond 2^63 (pow2(64) in precis' terms); results kept in long long globals
  // (gcc wraps the conversion, as precis does).
  differential("unsigned64", R"(
typedef unsigned long long u64;
u64 m = 18446744073709551615ULL, h = 0x8000000000000000ULL, z = 0;
long long r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0, r9 = 0;
long long r10 = 0, r11 = 0, r12 = 0, r13 = 0, r14 = 0;
int main() {
  u64 x = m;
  x = x + 2;                 /* wraps to 1 */
  r0 = x;
  r1 = z - 1;                /* 2^64 - 1 */
  r2 = h / 3;
  r3 = m % 1000;
  r4 = h * 2 + 7;            /* wraps to 7 */
  r5 = (m > h) + 2 * (h > 5) + 4 * ((u64)-1 == m);
  r6 = (int)m;               /* -1 */
  r7 = (unsigned)m;          /* 2^32 - 1 */
  r8 = (u64)-5 / 2;
  long long s = -9;
  u64 w = s;                 /* 2^64 - 9 */
  r9 = w % 7;
  r10 = (long long)(w >> 1);
  r11 = ~z;
  r12 = (m & 0xF0F0) | (h ^ 3);
  u64 i;
  for (i = m - 3; i != 2; i++) r13++;  /* wraps through 0 */
  r14 = -h;
  return 0;
}
)",
               {{"long long", "r0"},
                {"long long", "r1"},
                {"long long", "r2"},
                {"long long", "r3"},
                {"long long", "r4"},
                {"long long", "r5"},
                {"long long", "r6"},
                {"long long", "r7"},
                {"long long", "r8"},
                {"long long", "r9"},
                {"long long", "r10"},
                {"long long", "r11"},
                {"long long", "r12"},
                {"long long", "r13"},
                {"long long", "r14"}});
}

TEST_CASE("differential: signed division and remainder truncate") {
  differential("division", R"(
int a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;
int main() {
  int x = -7, y = 2;
  a = x / y; b = x % y; c = 7 / -2; d = 7 % -2; e = x / -y; f = x % -y;
  g = 7 / 2; h = -8 % 4;
  return 0;
}
)",
               {{"int", "a"},
                {"int", "b"},
                {"int", "c"},
                {"int", "d"},
                {"int", "e"},
                {"int", "f"},
                {"int", "g"},
                {"int", "h"}});
}

TEST_CASE("differential: short-circuit with side effects + ?: + comma") {
  differential("shortcircuit", R"(
int n = 0, m = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, calls = 0;
int tick(int v) { calls++; return v; }
int main() {
  r1 = (n++ > 0) && (m++ > 0);
  r2 = (n++ > 0) || (m++ > 0);
  r3 = tick(0) && tick(1);
  r4 = tick(1) ? tick(20) : tick(30);
  r5 = (n += 2, m *= 3, n + m);
  if (tick(0) || tick(2) > 1) r5 += 100;
  while (tick(0) && tick(1)) { r5 = -1; }
  return 0;
}
)",
               {{"int", "n"},
                {"int", "m"},
                {"int", "r1"},
                {"int", "r2"},
                {"int", "r3"},
                {"int", "r4"},
                {"int", "r5"},
                {"int", "calls"}});
}

TEST_CASE("differential: switch with fall-through + goto") {
  differential("switch", R"(
int t0 = 0, t1 = 0, t2 = 0, t3 = 0, gt = 0;
int classify(int v) {
  int r = 0;
  switch (v) {
    case 0: r += 1;
    case 1: r += 10; break;
    case 2:
    case 3: r += 100;
    default: r += 1000;
    case 9: r += 5; break;
  }
  return r;
}
int main() {
  int i = 0;
  t0 = classify(0); t1 = classify(1); t2 = classify(3); t3 = classify(7) + classify(9);
again:
  i++;
  if (i < 5) goto again;
  switch (i) { case 5: gt = 55; }
  goto out;
  gt = -1;
out:
  return 0;
}
)",
               {{"int", "t0"}, {"int", "t1"}, {"int", "t2"}, {"int", "t3"}, {"int", "gt"}});
}

TEST_CASE("differential: compound assignment + ++/-- + char and short") {
  differential("compound", R"(
int a = 5, pre = 0, post = 0; unsigned u = 3; char ch = 120; short sh = 32767;
unsigned char uc = 0;
int main() {
  a += 3; a -= 1; a *= 4; a /= 3; a %= 5;
  pre = ++a + 10;
  post = a++ + 10;
  u -= 5; u *= 2;
  ch += 10;
  sh++;
  uc--;
  --uc;
  return 0;
}
)",
               {{"int", "a"},
                {"int", "pre"},
                {"int", "post"},
                {"unsigned", "u"},
                {"char", "ch"},
                {"short", "sh"},
                {"unsigned char", "uc"}});
}

// Recursion: linear, branching, mutual, and a void function changing globals.
const char* const kRecursion = R"(
int f5 = 0, fib9 = 0, ev = 0, od = 0, depth = 0, sum = 0;
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int is_odd(int n);
int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
void down(int n) { depth++; if (n > 0) down(n - 1); sum += n; }
int main() {
  f5 = fact(5);
  fib9 = fib(9);
  ev = is_even(10);
  od = is_odd(7);
  down(20);
  return 0;
}
)";
const std::vector<Global> kRecursionGlobals{{"int", "f5"}, {"int", "fib9"},  {"int", "ev"},
                                            {"int", "od"}, {"int", "depth"}, {"int", "sum"}};

TEST_CASE("differential: recursion inlined (linear, branching, mutual)") {
  precis::c::TranslateOptions inlined;
  inlined.recursion = precis::c::RecursionMode::Inline;
  differential("recursion", kRecursion, kRecursionGlobals, inlined);
}

// The same program, and deeper ones, with recursion as procedures with an explicit
// stack (procedures.cpp): fib(20) is 21,891 calls, down(3000) 3,000 activations deep; a
// call in a loop, calls in arguments, a global changed by the callee, two cycles (one
// calling the other), a non-recursive function inlined into a recursive one, a void
// recursion and a switch in a recursive body.
TEST_CASE("differential: recursion with an explicit stack (deep, mutual, nested cycles)") {
  precis::c::TranslateOptions stack;
  stack.recursion = precis::c::RecursionMode::Stack;
  differential("recursion_stack", kRecursion, kRecursionGlobals, stack);
  differential("recursion_stack_deep", R"(
int fib20 = 0, ev = 0, depth = 0, sum = 0, calls = 0, ack = 0, mix = 0, loop = 0, sw = 0;
int fib(int n) { calls++; if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int is_odd(int n);
int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
void down(int n) { depth++; if (n > 0) down(n - 1); sum += n; }
int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}
int twice(int x) { int y = x; y += x; return y; }
int g(int n);
int h(int n) { int k = 0, i; for (i = 0; i < n; i++) k += fib(i); return k; }
int g(int n) { int a = n, b; if (n <= 0) return h(4); b = g(n - 1); return twice(a) + b + h(2); }
int cases(int n) {
  int r = 0;
  switch (n % 3) { case 0: r = 1; break; case 1: r = cases(n - 1) * 2; break; default: r = cases(n - 1) + 3; }
  return n <= 0 ? 1 : r;
}
int main() {
  int i;
  fib20 = fib(20);
  ev = is_even(1001);
  down(3000);
  ack = ackermann(2, 3);
  mix = g(5);
  for (i = 0; i < 5; i++) loop += fib(i) * (i + 1);
  sw = cases(10);
  return 0;
}
)",
               {{"int", "fib20"},
                {"int", "ev"},
                {"int", "depth"},
                {"int", "sum"},
                {"int", "calls"},
                {"int", "ack"},
                {"int", "mix"},
                {"int", "loop"},
                {"int", "sw"}},
               stack);
}

TEST_CASE("differential: arrays, cell by cell (initializers, variable indices, compound)") {
  differential("arrays", R"(
int g[5];
int init[6] = {3, 1, 4, 1};
unsigned char bytes[4] = {250, 251, 252, 253};
int s = 0, m = 0, c = 0, last = 0, post = 0, pre = 0, z = 0, w = 0;
int main() {
  int a[8] = {0};  // (the test executor cannot copy unknown cells)
  int i, j;
  for (i = 0; i < 8; i++) a[i] = i * i;
  for (i = 0; i < 8; i++) s += a[i];
  for (i = 0; i < 5; i++) g[i] = a[7 - i] - a[i];
  m = g[0] + g[4];
  for (i = 0; i < 4; i++) bytes[i] += 10;
  c = bytes[0] + bytes[3];
  j = 2;
  a[j] += 100;
  a[j + 1] *= 3;
  post = a[j]++;
  pre = ++a[j + 1];
  last = a[2] + a[3] + init[2] + init[5];
  int b[3] = {7};
  z = b[0] * 100 + b[1] * 10 + b[2];
  int k = 0;
  b[k++] = 9;
  w = b[0] + k;
  return 0;
}
)",
               {{"int", "s"},
                {"int", "m"},
                {"int", "c"},
                {"int", "last"},
                {"int", "post"},
                {"int", "pre"},
                {"int", "z"},
                {"int", "w"}});
}

TEST_CASE("differential: large arrays as SMT arrays (select, store, initializers, wrap)") {
  differential("smt_arrays", R"(
int g[1000];
int init[300] = {3, 1, 4, 1};
unsigned char bytes[500] = {250, 251};
signed char sc[200] = {0};
int s = 0, m = 0, c = 0, last = 0, post = 0, pre = 0, w = 0, neg = 0;
int main() {
  int a[400] = {0};
  int i, j;
  for (i = 0; i < 400; i++) a[i] = i * i;
  for (i = 0; i < 400; i += 7) s += a[i];
  for (i = 0; i < 1000; i += 3) g[i] = a[i % 400] - i;
  m = g[999] + g[3] + g[4];
  bytes[0] += 10;
  bytes[1] = bytes[1] * 3;
  c = bytes[0] + bytes[1] + bytes[499];
  sc[7] = 200;
  sc[8] = -129;
  neg = sc[7] * 1000 + sc[8];
  j = 2;
  a[j] += 100;
  a[j + 1] *= 3;
  post = a[j]++;
  pre = ++a[j + 1];
  last = a[2] + a[3] + init[2] + init[299];
  int k = 0;
  a[k++] = 9;
  w = a[0] + k;
  return 0;
}
)",
               {{"int", "s"},
                {"int", "m"},
                {"int", "c"},
                {"int", "last"},
                {"int", "post"},
                {"int", "pre"},
                {"int", "w"},
                {"int", "neg"}});
}

TEST_CASE("differential: pointers into SMT arrays, and heap arrays of a run-time size") {
  differential("smt_array_pointers", R"(
extern void *malloc(unsigned long);
extern void *calloc(unsigned long, unsigned long);
int big[500];
int s = 0, t = 0, u = 0, v = 0, w = 0;
void fill(int *p, int n, int step) {
  for (int i = 0; i < n; i++) p[i] = i * step;
}
int sum(const int *p, int n) {
  int r = 0;
  for (int i = 0; i < n; i++) r += *(p + i);
  return r;
}
int main() {
  fill(big, 500, 3);
  s = sum(big + 100, 50);
  int *q = &big[7];
  *q += 1000;
  q[2] = -5;
  t = big[7] + big[9] + *(q + 1);
  int n = 137;
  int *h = calloc(n, sizeof(int));  // (the executor reads no unknown cell)
  fill(h, n, 2);
  h[136] = 1;
  u = sum(h, n);
  unsigned char *c = calloc(n, 1);
  c[3] = 300;
  v = c[3] + c[4] + c[136];
  short *z = calloc(n - 37, sizeof(short));
  for (int k = 0; k < 100; k++) z[k] = (short)(k * 1000);
  w = z[99] + z[40];
  return 0;
}
)",
               {{"int", "s"}, {"int", "t"}, {"int", "u"}, {"int", "v"}, {"int", "w"}});
}

TEST_CASE("differential: variable-length arrays (lengths set at each declaration, sizeof)") {
  differential("vla", R"(
int s = 0, t = 0, u = 0, v = 0;
void fill(int *p, int n, int step) {
  for (int i = 0; i < n; i++) p[i] = i * step;
}
int main() {
  int n = 40;
  for (int j = 1; j <= 3; j++) {
    int a[n * j];  // a new array, of another length, on each iteration
    fill(a, n * j, j);
    s += a[n * j - 1];
    t += (int)(sizeof(a) / sizeof(a[0]));
  }
  unsigned char c[n + 3];
  for (int k = 0; k < n + 3; k++) c[k] = (unsigned char)(k * 50);
  u = c[n + 2] + c[5];
  short z[n];
  z[0] = 40000;
  v = z[0] + (int)sizeof z;
  return 0;
}
)",
               {{"int", "s"}, {"int", "t"}, {"int", "u"}, {"int", "v"}});
}

TEST_CASE("differential: large arrays of structs, one SMT array per leaf") {
  differential("struct_columns", R"(
struct In { short q; unsigned char x[3]; };
struct S { int p; struct In t; unsigned f : 5; };
struct S g[3000];
struct P { int a, b; };
struct P init[2000] = {{1, 2}, {3}, [7] = {.b = 9}};
int s = 0, t = 0, u = 0, v = 0, w = 0;
int main() {
  for (int i = 0; i < 3000; i += 7) {
    g[i].p = i;
    g[i].t.q = (short)(i * 100);
    g[i].t.x[2] = (unsigned char)(i + 250);
    g[i].f = i;  // wraps at 5 bits
  }
  struct S one = g[700];
  s = one.p + one.t.q + one.t.x[2] + one.f;
  g[1] = g[7];
  g[2] = one;
  t = g[1].p + g[1].t.x[2] + g[2].t.q + g[3].p;
  struct P local[5000];
  for (int k = 0; k < 5000; k++) local[k].a = k;
  local[4999].b = -1;
  u = local[4999].a + local[4999].b + local[17].a;
  v = init[0].a + init[0].b + init[1].a + init[1].b + init[7].b + init[1999].a;
  int k = 2;
  w = g[k * 7].t.x[2] + (g[++k].p == 0);
  return 0;
}
)",
               {{"int", "s"}, {"int", "t"}, {"int", "u"}, {"int", "v"}, {"int", "w"}});
}

TEST_CASE("differential: pointers to elements of large arrays of structs") {
  differential("struct_column_pointers", R"(
struct P { int x; short y; unsigned char z[2]; };
struct P g[1500];
struct Q { int a; short b; };
struct Q h[1200] = {{1, 2}, [700] = {.b = -5}, {7, 8}};
int s = 0, t = 0, u = 0, v = 0, w = 0;
void init(struct P *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i].x = i;
    a[i].y = (short)(-i);
    a[i].z[1] = (unsigned char)(i + 200);
  }
}
int sum_x(const struct P *p, int n) {
  int r = 0;
  for (int i = 0; i < n; i++) r += (p + i)->x;
  return r;
}
int main() {
  init(g, 1500);
  struct P *q = &g[5];
  q->x += 100;
  (q + 1)->y = 7;
  struct P *r = g;
  r[2] = g[1];
  s = g[5].x + g[6].y + g[2].x + g[2].z[1];
  t = sum_x(g + 1000, 100);
  struct P local[2000];
  init(local, 2000);
  struct P *e = &local[1999];
  u = e->x + e->y + e->z[1] + (int)(e - local);
  struct P copy = *q;
  v = copy.x + copy.z[1];
  const struct Q *hp = h;  // an initialized array that a pointer reaches
  w = hp->a + hp->b + hp[700].b + hp[701].a + (hp + 701)->b + h[701].b + hp[5].a;
  return 0;
}
)",
               {{"int", "s"}, {"int", "t"}, {"int", "u"}, {"int", "v"}, {"int", "w"}});
}

TEST_CASE("differential: pointers to scalars and into arrays, as parameters and results") {
  differential("pointers", R"(
int g = 5, h = 7, sw1 = 0, sw2 = 0, sum = 0, diff = 0, via = 0, vp = 0, eq = 0, nul = 0;
int back_over = 0;
int arr[6] = {1, 2, 3, 4, 5, 6};
void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
int *larger(int *a, int *b) { return *a > *b ? a : b; }
int main() {
  int x = 1, y = 2;
  int *p = &x;
  *p = 10;
  swap(&x, &y);
  sw1 = x; sw2 = y;
  swap(&g, &h);
  *larger(&g, &h) += 100;
  int *q;
  for (q = arr; q < arr + 6; q++) sum += *q;
  diff = &arr[5] - &arr[1];
  p = &arr[2];
  p[1] = 40;
  via = arr[3] + *(p + 2) + p[-1];
  void *v = &y;
  int *back = (int *)v;
  vp = *back;
  eq = (p == &arr[2]) + 2 * (p != &x);
  int *z = 0;
  nul = z == 0 && !z;
  // y exists for the whole block: after the goto, *p is the y of the last pass.
  int n = 0;
  p = 0;
again:
  if (p != 0) back_over += *p;
  int y2 = 5 + n;
  p = &y2;
  if (++n < 3) goto again;
  return 0;
}
)",
               {{"int", "g"},
                {"int", "h"},
                {"int", "sw1"},
                {"int", "sw2"},
                {"int", "sum"},
                {"int", "diff"},
                {"int", "via"},
                {"int", "vp"},
                {"int", "eq"},
                {"int", "nul"},
                {"int", "back_over"}});
}

TEST_CASE("differential: structs: members, copies, initializers, pointers, by value") {
  differential("structs", R"(
struct P { int x; short y; };
struct Q { struct P a; struct P b; unsigned char n; struct Q *self; };
struct node { int v; struct node *next; };
struct Q g = {{1, 2}, {3}, 300};
struct node n1, n2, n3;
int r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0, r9 = 0, r10 = 0;
int sum(struct P p) { p.x += 1000; return p.x + p.y; }
void move(struct P *p, int d) { p->x += d; p->y -= d; }
struct P *pick(struct P *a, struct P *b) { return a->x > b->x ? a : b; }
int main() {
  struct P u = {7, 8};
  struct P v;
  v = u;
  move(&v, 3);
  r1 = v.x * 100 + v.y;
  r2 = sum(v) + u.x;  // the parameter is a copy: u and v unchanged
  r3 = v.x;
  struct Q q = g;
  q.self = &q;
  q.self->b.y = 70;
  struct P *pb = &q.b;
  pb->x += 5;
  r4 = q.a.x * 1000 + q.a.y * 100 + q.b.x * 10 + q.n + q.b.y + g.b.x;
  pick(&u, &v)->y = 55;
  r5 = u.y * 100 + v.y;
  int *ip = &q.a.x;
  *ip = 99;
  r6 = q.a.x;
  n1.next = &n2; n2.next = &n3; n3.next = 0;
  n1.v = 1; n2.v = 20; n3.v = 300;
  for (struct node *p = &n1; p; p = p->next) r7 += p->v;
  struct node *last = &n1;
  while (last->next) last = last->next;
  r8 = last->v;
  *pb = u;
  r9 = q.b.x * 100 + q.b.y;
  r10 = (pb == &q.b) + 2 * (q.self == &q) + 4 * (n3.next == 0);
  return 0;
}
)",
               {{"int", "r1"},
                {"int", "r2"},
                {"int", "r3"},
                {"int", "r4"},
                {"int", "r5"},
                {"int", "r6"},
                {"int", "r7"},
                {"int", "r8"},
                {"int", "r9"},
                {"int", "r10"}});
}

TEST_CASE("differential: arrays of structs, array members, 2-D arrays, struct pointer steps") {
  differential("aggregates", R"(
#include <stdlib.h>
struct P { int x; short y; };
struct S { int n; unsigned char a[3]; struct P ps[2]; };
struct P g[3] = {{1, 2}, {3, 4}};
int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
int r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0;
int total(struct P *p, int n) { int t = 0; for (int k = 0; k < n; k++) t += p[k].x * 10 + p[k].y; return t; }
int main() {
  struct S s = {3, {10, 20, 250}, {{5, 6}, {7, 8}}};
  for (int i = 0; i < 3; i++) s.a[i] += 10;
  r1 = s.a[0] * 10000 + s.a[1] * 100 + s.a[2];
  for (int j = 0; j < 2; j++) s.ps[j].y = s.ps[1 - j].x + j;
  r2 = s.ps[0].y * 100 + s.ps[1].y;
  struct P *p = g;
  p[2].x = 9;
  p++;
  r3 = p->x * 100 + (p + 1)->x * 10 + (int)(p - g) + (int)(&g[2] - p) * 1000;
  p -= 1;
  p += 2;
  r4 = p->x + total(g, 3);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) r5 += m[i][j] * (i + 1) * (j + 1);
  struct P *q = malloc(3 * sizeof(struct P));
  for (int k = 0; k < 3; k++) { q[k].x = k; q[k].y = k * k; }
  struct P *e = &q[2];
  r6 = e->y * 10 + e[-1].x + total(q, 3);
  unsigned char *c = s.a;
  r7 = c[1] + *(c + 2) + (int)(&s.a[2] - c);
  struct S t = s;
  t.ps[1] = g[2];
  r8 = t.ps[1].x * 100 + s.ps[1].x + t.n;
  return 0;
}
)",
               {{"int", "r1"},
                {"int", "r2"},
                {"int", "r3"},
                {"int", "r4"},
                {"int", "r5"},
                {"int", "r6"},
                {"int", "r7"},
                {"int", "r8"}});
}

TEST_CASE("differential: bit-fields wrap at their width") {
  differential(
      "bitfields", R"(
struct F { unsigned a : 3; int b : 4; unsigned : 5; unsigned char c : 2; _Bool d : 1; int e; };
struct F g = {9, 7, 5, 1, 42};
int r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0;
int main() {
  struct F f = {.a = 6, .b = -3, .e = 1};
  f.a += 3;       // 9 mod 8
  f.b = f.b - 6;  // -9 in 4 signed bits: 7
  f.c = 7;        // 3
  f.d = 2;        // _Bool: 1
  r1 = f.a * 1000 + f.b * 100 + f.c * 10 + f.d;
  f.a++;
  f.b++;
  r2 = f.a * 100 + f.b;  // 2, -8
  r3 = g.a * 100 + g.b * 10 + g.c;  // 1, 7, 1
  for (int i = 0; i < 20; i++) g.b--;
  r4 = g.b;  // 7 - 20 = -13 -> 3
  struct F h = g;
  h.a = h.a - 2;  // 1 - 2 -> 7
  r5 = h.a + g.e;
  r6 = sizeof(struct F);
  return 0;
}
)",
      {{"int", "r1"}, {"int", "r2"}, {"int", "r3"}, {"int", "r4"}, {"int", "r5"}, {"int", "r6"}});
}

TEST_CASE("differential: the heap: malloc'd structs in a list, calloc'd arrays, free") {
  differential("heap", R"(
#include <stdlib.h>
struct node { int v; struct node *next; };
int r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0;
struct node *cil_push(struct node *head, int v) {  // CIL's style: the result kept in a void *
  void *tmp;
  struct node *n;
  tmp = malloc(sizeof(struct node));
  n = (struct node *)tmp;
  n->v = v;
  n->next = head;
  return n;
}
struct node *push(struct node *head, int v) {
  struct node *p = (struct node *)malloc(sizeof(struct node));
  p->v = v;
  p->next = head;
  return p;
}
int main() {
  struct node *head = 0;
  for (int i = 1; i <= 4; i++) head = push(head, i * i);
  for (struct node *q = head; q; q = q->next) r1 = r1 * 10 + q->v % 10;
  int *a = calloc(5, sizeof(int));
  a[1] = 7;
  for (int i = 0; i < 5; i++) r2 += a[i] * (i + 1);
  int *b = malloc(3 * sizeof *b);
  b[0] = 1; b[1] = 2; b[2] = 3;
  r3 = (a != b) + 2 * (b[2] == 3);
  free(b);
  struct node *two = malloc(sizeof *two);
  two->next = head->next;
  r4 = two->next->v;
  struct node *c = cil_push(cil_push(0, 5), 6);
  r5 = c->v * 10 + c->next->v;
  free(a);
  return 0;
}
)",
               {{"int", "r1"}, {"int", "r2"}, {"int", "r3"}, {"int", "r4"}, {"int", "r5"}});
}

TEST_CASE("differential: pointers to pointers (out-parameters, list insertion through **)") {
  differential(
      "pointers_to_pointers", R"(
#include <stdlib.h>
struct node { int v; struct node *next; };
struct node *head = 0;
int g = 1, h = 2, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0;
void pick(int **out, int c) { *out = c ? &g : &h; }
void swap_ptr(int **a, int **b) { int *t = *a; *a = *b; *b = t; }
void push(struct node **list, int v) {
  struct node *n = malloc(sizeof *n);
  n->v = v;
  n->next = *list;
  *list = n;
}
void append(int v) {  /* the last link's address, walked with a struct node ** */
  struct node **p = &head;
  while (*p) p = &(*p)->next;
  struct node *n = malloc(sizeof *n);
  n->v = v;
  n->next = 0;
  *p = n;
}
int main() {
  int *p = 0, *q = &g;
  pick(&p, 0);
  *p += 40;                 /* h = 42 */
  swap_ptr(&p, &q);         /* p = &g, q = &h */
  r1 = *p * 100 + *q;
  int x = 3, *px = &x, **ppx = &px, ***pppx = &ppx;
  ***pppx = 9;
  r2 = x + (**ppx == 9) * 10 + (*pppx == &px) * 100;
  struct node *list = 0;
  for (int i = 1; i <= 3; i++) push(&list, i);
  for (struct node *n = list; n; n = n->next) r3 = r3 * 10 + n->v;
  append(4); append(5); append(6);
  for (struct node *n = head; n; n = n->next) r4 = r4 * 10 + n->v;
  struct node **last = &head->next->next;
  (*last)->v = 60;
  r5 = head->next->next->v;
  r6 = (p == &g) + 2 * (q == &h) + 4 * (*ppx == &x);
  return 0;
}
)",
      {{"int", "r1"}, {"int", "r2"}, {"int", "r3"}, {"int", "r4"}, {"int", "r5"}, {"int", "r6"}});
}

TEST_CASE("differential: exit ends the path") {
  differential("exit", R"(
#include <stdlib.h>
int before = 0, after = 0;
void stop(int code) { exit(code); }
int main() { before = 1; stop(0); after = 1; return 0; }
)",
               {{"int", "before"}, {"int", "after"}});
}

// ---- bit operations, generated -----------------------------------------------
// For every integer type: & | ^ ~ << >> and their compound assignments on operands that
// cover 0, +-1, the extremes and bit patterns, each result kept in a long long global.
// Operations with undefined behaviour are left out (a shift count outside the promoted
// width, a signed left shift that overflows), so gcc's value is C's value.

namespace {

struct CType {
  const char* name;
  unsigned width;
  bool is_signed;
};

// The values of `t` as long long (a 64-bit unsigned value by its two's complement bits:
// 2^64 - 1 is -1, converted back on store).
std::vector<long long> sample_values(const CType& t) {
  const long long max =
      t.is_signed ? (1LL << (t.width - 1)) - 1 : (t.width >= 64 ? -1 : (1LL << t.width) - 1);
  const long long min = t.is_signed ? -max - 1 : 0;
  std::vector<long long> v = {0, 1, 5, max, max - 1, min, 0x5A5A5A5A5A5A5A5ALL & max};
  if (t.is_signed)
    v.insert(v.end(), {-1, -6, min + 1, -0x35});
  else
    v.push_back(1LL << (t.width - 1));
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::string literal(long long v) {
  // -2^63 has no literal; everything else as a long long constant, converted on store.
  if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
  return std::to_string(v) + "LL";
}

void bit_differential(const CType& t) {
  const unsigned promoted = t.width < 32 ? 32 : t.width;
  const bool promoted_signed = t.width < 32 ? true : t.is_signed;
  const std::vector<long long> vals = sample_values(t);
  std::ostringstream decl, body;
  std::vector<Global> globals;
  for (std::size_t i = 0; i < vals.size(); ++i)
    decl << t.name << " a" << i << " = " << literal(vals[i]) << ";\n";
  // A new long long global holding `expr`; the statement that sets it.
  auto keep = [&](const std::string& expr) {
    const std::string name = "r" + std::to_string(globals.size());
    decl << "long long " << name << " = 0;\n";
    globals.push_back({"long long", name});
    return name + " = " + expr + ";";
  };
  auto result = [&](const std::string& expr) { body << "  " << keep(expr) << "\n"; };
  for (unsigned n : {0U, 1U, 3U, promoted / 2, promoted - 1})
    decl << "int n" << n << " = " << n << ";\n";  // shift counts read from variables
  for (std::size_t i = 0; i < vals.size(); ++i) {
    const std::string a = "a" + std::to_string(i);
    result("~" + a);
    for (std::size_t j = 0; j < vals.size(); ++j) {
      const std::string b = "a" + std::to_string(j);
      for (const char* op : {"&", "|", "^"}) result(a + " " + op + " " + b);
    }
    for (unsigned n : {0U, 1U, 3U, promoted / 2, promoted - 1}) {
      const std::string c = std::to_string(n), var = "n" + std::to_string(n);
      result(a + " >> " + c);
      result(a + " >> " + var);
      // Left shifts only where C defines the value.
      // a * 2^n < 2^(P-1) iff a < 2^(P-1-n).
      if (promoted_signed && (vals[i] < 0 || (vals[i] >> (promoted - 1 - n)) != 0)) continue;
      result(a + " << " + c);
      result(a + " << " + var);
    }
    // Compound assignments convert back into the operand's type.
    const std::string b = "a" + std::to_string((i + 3) % vals.size());
    for (const char* op : {"&=", "|=", "^=", ">>="}) {
      const std::string rhs = std::string(op) == ">>=" ? "2" : b;
      body << "  { " << t.name << " x = " << a << "; x " << op << " " << rhs << "; " << keep("x")
           << " }\n";
    }
  }
  const std::string code = decl.str() + "int main() {\n" + body.str() + "  return 0;\n}\n";
  std::string id = std::string("bits_") + t.name;
  std::replace(id.begin(), id.end(), ' ', '_');
  differential(id, code, globals);
}

}  // namespace

TEST_CASE("differential: bit operations at every width and signedness") {
  for (const CType& t : {CType{"signed char", 8, true}, CType{"unsigned char", 8, false},
                         CType{"short", 16, true}, CType{"unsigned short", 16, false},
                         CType{"int", 32, true}, CType{"unsigned int", 32, false},
                         CType{"long long", 64, true}, CType{"unsigned long long", 64, false}}) {
    CAPTURE(t.name);
    bit_differential(t);
  }
}

}  // namespace differential_test
