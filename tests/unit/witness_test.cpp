// Witness files (io/witness.hpp), SHA-256 (io/sha256.hpp), and the translation between
// terms and C expressions (expr/c_expression.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "precis/expr/c_expression.hpp"
#include "precis/expr/eval.hpp"
#include "precis/io/sha256.hpp"
#include "precis/io/witness.hpp"

using namespace precis;

namespace witness_test {

namespace {

// A scratch file that is removed at the end of the test.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name, const std::string& contents = "") {
    static std::mt19937_64 rng{std::random_device{}()};
    path = std::filesystem::temp_directory_path() /
           ("precis_witness_test_" + std::to_string(rng()) + "_" + name);
    std::ofstream(path, std::ios::binary) << contents;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] std::string str() const { return path.string(); }
};

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

// The input_error that `f` throws (fails the test if it throws nothing).
template <class F>
std::optional<input_error> error_of(F&& f) {
  try {
    f();
  } catch (const input_error& e) {
    return e;
  }
  FAIL("no input_error thrown");
  return std::nullopt;
}

}  // namespace

// ---- SHA-256 ------------------------------------------------------------------------------

TEST_CASE("sha256: FIPS 180-4 test vectors") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: lengths around the padding boundary (values from Python's hashlib)") {
  const std::map<std::size_t, std::string> expected = {
      {55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"},
      {56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"},
      {63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"},
      {64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"},
      {65, "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"},
      {119, "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"},
      {120, "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"},
      {128, "24da1b81d0b16df6428eee73c69fcb2a93c76bc6df706f0c6670fe6bfe800464"}};
  for (const auto& [n, hex] : expected) CHECK(sha256_hex(std::string(n, 'x')) == hex);
}

TEST_CASE("sha256: files are hashed as bytes; a missing file is an input error") {
  std::string bytes;
  for (int rep = 0; rep < 3; ++rep)
    for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  TempFile f("bytes.bin", bytes);
  CHECK(sha256_file_hex(f.str()) ==
        "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363");
  CHECK(sha256_file_hex(f.str()) == sha256_hex(bytes));

  const std::string missing = f.str() + ".missing";
  auto e = error_of([&] { (void)sha256_file_hex(missing); });
  REQUIRE(e);
  CHECK(e->position().file == missing);
  CHECK(e->message() == "cannot open the file");
  CHECK_THROWS_AS((void)sha256_file_hex(std::filesystem::temp_directory_path().string()),
                  input_error);
}

// ---- GraphML violation witnesses ------------------------------------------------------

namespace {

WitnessTask sample_task() {
  WitnessTask task;
  task.program_file = "count_up_down-2.c";
  task.program_hash = sha256_hex("int main() {}");
  task.architecture = "64bit";
  task.creation_time = "2024-05-01T12:00:00Z";
  return task;
}

std::vector<ViolationStep> sample_steps() {
  std::vector<ViolationStep> steps(5);
  steps[0].enter_function = "main";
  steps[0].startline = 9;
  steps[1].startline = 10;
  steps[1].assumption = "\\result == 4294967295U;";
  steps[1].assumption_scope = "main";
  steps[1].result_function = "__VERIFIER_nondet_uint";
  steps[2].startline = 13;
  steps[2].control = true;
  steps[3].startline = 18;
  steps[3].control = false;
  steps[3].assumption = "x < 5 && y > 3 && s == \"a&b\";";  // XML-special characters
  steps[4].startline = 19;
  steps[4].return_from_function = "main";
  return steps;
}

}  // namespace

TEST_CASE("GraphML: the writer's output reads back to the same task and steps") {
  const WitnessTask task = sample_task();
  const std::vector<ViolationStep> steps = sample_steps();
  std::ostringstream os;
  write_violation_graphml(os, task, steps);
  const std::string xml = os.str();
  CHECK(contains(xml, "<data key=\"witness-type\">violation_witness</data>"));
  CHECK(contains(xml, "<data key=\"creationtime\">2024-05-01T12:00:00Z</data>"));
  CHECK(contains(xml, "x &lt; 5 &amp;&amp; y &gt; 3"));
  CHECK(contains(xml, "<data key=\"violation\">true</data>"));
  CHECK(contains(xml, "<default>false</default>"));

  TempFile f("w.graphml", xml);
  const ParsedViolationWitness w = read_violation_graphml(f.str());
  CHECK(w.path == steps);
  CHECK(w.task.program_file == task.program_file);
  CHECK(w.task.program_hash == task.program_hash);
  CHECK(w.task.architecture == "64bit");
  CHECK(w.task.specification == task.specification);
  CHECK(w.task.producer == "precis " + task.producer_version);
  CHECK(w.task.creation_time == task.creation_time);
}

TEST_CASE("GraphML: an empty path makes the entry node the violation node") {
  std::ostringstream os;
  WitnessTask task = sample_task();
  task.creation_time.clear();  // filled by iso8601_now()
  write_violation_graphml(os, task, {});
  TempFile f("empty.graphml", os.str());
  const ParsedViolationWitness w = read_violation_graphml(f.str());
  CHECK(w.path.empty());
  CHECK(w.task.creation_time.size() == 20);
  CHECK(w.task.creation_time.back() == 'Z');
}

namespace {

const char* const graphml_head =
    "<?xml version=\"1.0\"?>\n"
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
    " <key id=\"entry\" for=\"node\" attr.name=\"isEntryNode\" attr.type=\"boolean\">"
    "<default>false</default></key>\n"
    " <key id=\"violation\" for=\"node\" attr.name=\"isViolationNode\" attr.type=\"boolean\"/>\n"
    " <key id=\"startline\" for=\"edge\" attr.name=\"startline\" attr.type=\"int\"/>\n"
    " <key id=\"returnFrom\" for=\"edge\" attr.name=\"returnFromFunction\" "
    "attr.type=\"string\"/>\n"
    " <graph edgedefault=\"directed\">\n"
    "  <data key=\"witness-type\">violation_witness</data>\n";

std::string graphml(const std::string& body) {
  return std::string(graphml_head) + body + " </graph>\n</graphml>\n";
}

}  // namespace

TEST_CASE("GraphML: the reader follows the branch that leads to a violation node") {
  // A -> S (sink), A -> B -> V; B -> C leads nowhere; the edge to V comes last.
  TempFile f("branch.graphml",
             graphml("  <node id=\"A\"><data key=\"entry\">true</data></node>\n"
                     "  <node id=\"S\"/><node id=\"B\"/><node id=\"C\"/>\n"
                     "  <node id=\"V\"><data key=\"violation\">true</data></node>\n"
                     "  <edge source=\"A\" target=\"S\"><data key=\"startline\">1</data></edge>\n"
                     "  <edge source=\"A\" target=\"B\"><data key=\"startline\">2</data></edge>\n"
                     "  <edge source=\"B\" target=\"C\"><data key=\"startline\">3</data></edge>\n"
                     "  <edge source=\"B\" target=\"V\"><data key=\"startline\"> 4 </data>"
                     "<data key=\"returnFrom\">f</data></edge>\n"
                     "  <edge source=\"V\" target=\"A\"/>\n"));
  const ParsedViolationWitness w = read_violation_graphml(f.str());
  REQUIRE(w.path.size() == 2);
  CHECK(w.path[0].startline == 2);
  CHECK(w.path[1].startline == 4);
  CHECK(w.path[1].return_from_function == "f");
  CHECK(w.task.architecture == "32bit");
}

TEST_CASE("GraphML: malformed witnesses are input errors with the file name") {
  auto error_for = [](const std::string& contents) {
    TempFile f("bad.graphml", contents);
    auto e = error_of([&] { (void)read_violation_graphml(f.str()); });
    REQUIRE(e);
    CHECK(e->position().file == f.str());
    return *e;
  };
  {
    const input_error e = error_for("<graphml>\n<graph>\n<node id=\"x\" !/>\n</graph></graphml>\n");
    CHECK(contains(e.message(), "malformed XML"));
    CHECK(e.position().line == 3);
  }
  CHECK(contains(error_for("<svg></svg>").message(), "not a GraphML file"));
  CHECK(contains(error_for("<graphml><key id=\"a\"/></graphml>").message(), "no <graph>"));
  CHECK(contains(error_for(graphml("  <node id=\"A\"/>\n"
                                   "  <node id=\"V\"><data key=\"violation\">true</data></node>\n"
                                   "  <edge source=\"A\" target=\"V\"/>\n"))
                     .message(),
                 "no entry node"));
  CHECK(contains(error_for(graphml("  <node id=\"A\"><data key=\"entry\">true</data></node>\n"
                                   "  <node id=\"B\"/>\n"
                                   "  <edge source=\"A\" target=\"B\"/>\n"))
                     .message(),
                 "no violation node"));
  CHECK(contains(error_for(graphml("  <node id=\"A\"><data key=\"entry\">true</data></node>\n"
                                   "  <node id=\"B\"/>\n"
                                   "  <node id=\"V\"><data key=\"violation\">true</data></node>\n"
                                   "  <edge source=\"B\" target=\"V\"/>\n"))
                     .message(),
                 "no path from the entry node"));
  CHECK(contains(error_for(graphml("  <node id=\"A\"><data key=\"entry\">true</data></node>\n"
                                   "  <node id=\"B\"/>\n"
                                   "  <node id=\"V\"><data key=\"violation\">true</data></node>\n"
                                   "  <edge source=\"A\" target=\"B\"/>\n"
                                   "  <edge source=\"B\" target=\"A\"/>\n"
                                   "  <edge source=\"B\" target=\"V\"/>\n"))
                     .message(),
                 "cycle"));
  CHECK(contains(error_for(graphml("  <node id=\"A\"><data key=\"entry\">true</data></node>\n"
                                   "  <node id=\"V\"><data key=\"violation\">true</data></node>\n"
                                   "  <edge source=\"A\" target=\"V\">"
                                   "<data key=\"control\">maybe</data></edge>\n"))
                     .message(),
                 "invalid control value 'maybe'"));
  CHECK(contains(error_for(graphml("  <node id=\"A\"><data key=\"entry\">true</data></node>\n"
                                   "  <node id=\"V\"><data key=\"violation\">true</data></node>\n"
                                   "  <edge source=\"A\" target=\"V\">"
                                   "<data key=\"startline\">-3</data></edge>\n"))
                     .message(),
                 "invalid startline"));
  CHECK(contains(error_for("<graphml><graph>"
                           "<data key=\"witness-type\">correctness_witness</data>"
                           "</graph></graphml>")
                     .message(),
                 "not a violation witness"));
  auto e = error_of([] { (void)read_violation_graphml("/nonexistent/witness.graphml"); });
  REQUIRE(e);
  CHECK(e->message() == "cannot open the file");
}

// ---- YAML correctness witnesses -------------------------------------------------------

TEST_CASE("YAML 2.0: the invariant_set entry with metadata and loop invariants") {
  WitnessTask task = sample_task();
  task.program_file = "dir/my \"odd\" file.c";
  std::vector<LoopInvariant> invs = {
      {"dir/my \"odd\" file.c", 12, 3, "main", "x <= 10 && y == \"s\\n\""},
      {"dir/my \"odd\" file.c", 20, 0, "", "1"}};
  std::ostringstream os;
  write_correctness_yaml(os, task, invs, "LP64");
  const std::string y = os.str();
  CHECK(y.starts_with("- entry_type: \"invariant_set\"\n"));
  CHECK(contains(y, "    format_version: \"2.0\"\n"));
  CHECK(contains(y, "    creation_time: \"2024-05-01T12:00:00Z\"\n"));
  CHECK(contains(y, "      name: \"precis\"\n"));
  CHECK(contains(y, "      version: \"" + task.producer_version + "\"\n"));
  CHECK(contains(y, "        - \"dir/my \\\"odd\\\" file.c\"\n"));
  CHECK(contains(y, "        \"dir/my \\\"odd\\\" file.c\": \"" + task.program_hash + "\"\n"));
  CHECK(
      contains(y, "      specification: \"CHECK( init(main()), LTL(G ! call(reach_error())) )\""));
  CHECK(contains(y, "      data_model: \"LP64\"\n"));
  CHECK(contains(y, "      language: \"C\"\n"));
  CHECK(contains(y, "        type: \"loop_invariant\"\n"));
  CHECK(contains(y, "          line: 12\n          column: 3\n          function: \"main\"\n"));
  CHECK(contains(y, "        value: \"x <= 10 && y == \\\"s\\\\n\\\"\"\n"));
  CHECK(contains(y, "        format: \"c_expression\"\n"));
  // The second invariant has neither column nor function.
  CHECK(contains(y, "          line: 20\n        value: \"1\"\n"));

  // A version 4 UUID: 8-4-4-4-12 hex digits, version nibble 4, variant 8..b.
  const auto at = y.find("uuid: \"");
  REQUIRE(at != std::string::npos);
  const std::string uuid = y.substr(at + 7, 36);
  CHECK(y[at + 7 + 36] == '"');
  for (std::size_t i = 0; i < uuid.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23)
      CHECK(uuid[i] == '-');
    else
      CHECK(std::string("0123456789abcdef").find(uuid[i]) != std::string::npos);
  }
  CHECK(uuid[14] == '4');
  CHECK(std::string("89ab").find(uuid[19]) != std::string::npos);

  std::ostringstream empty;
  write_correctness_yaml(empty, task, {}, "ILP32");
  CHECK(contains(empty.str(), "  content: []\n"));
  CHECK(empty.str().find("uuid") != std::string::npos);
  CHECK(empty.str() != y);
}

TEST_CASE("YAML quoting escapes quotes, backslashes and control characters") {
  CHECK(detail::witness::yaml_quote("a\"b\\c\n\t\x01") == "\"a\\\"b\\\\c\\n\\t\\x01\"");
  CHECK(detail::witness::yaml_quote("") == "\"\"");
  CHECK(detail::witness::yaml_quote("- x: #y") == "\"- x: #y\"");
}

// ---- JSON witnesses for .cfa models ---------------------------------------------------

TEST_CASE("CFA JSON witnesses: path with decimal values, invariants per location") {
  WitnessTask task = sample_task();
  task.program_file = "m.cfa";
  task.specification = "error location unreachable";
  std::vector<CfaWitnessStep> path = {{"l0", "l1", "havoc x", {{"x", "9223372036854775813"}}},
                                      {"l1", "err", "assume x > 9223372036854775807", {}}};
  std::ostringstream os;
  write_cfa_witness_json(os, task, path);
  const std::string j = os.str();
  CHECK(contains(j, "\"format\":\"precis-cfa-witness\""));
  CHECK(contains(j, "\"witness_type\":\"violation_witness\""));
  CHECK(contains(j, "\"model_file\":\"m.cfa\""));
  CHECK(contains(j,
                 "{\"from\":\"l0\",\"to\":\"l1\",\"operation\":\"havoc x\","
                 "\"values\":{\"x\":\"9223372036854775813\"}}"));
  CHECK(contains(j, "\"values\":{}}"));

  path[0].values[0].second = "12a";
  std::ostringstream bad;
  CHECK_THROWS_AS(write_cfa_witness_json(bad, task, path), std::invalid_argument);

  std::ostringstream inv;
  write_cfa_witness_json(inv, task, std::vector<CfaLocationInvariant>{{"l1", "x >= 0"}});
  CHECK(contains(inv.str(), "\"witness_type\":\"correctness_witness\""));
  CHECK(contains(inv.str(), "\"invariants\":[{\"location\":\"l1\",\"invariant\":\"x >= 0\"}]"));
}

// ---- C expressions --------------------------------------------------------------------

namespace {

struct CFixture {
  ExprManager em;
  VarId x = em.declare("x", Type::Int);
  VarId y = em.declare("y", Type::Int);
  VarId z = em.declare("z", Type::Int);
  VarId b = em.declare("b", Type::Bool);
  VarId tmp = em.declare("__tmp", Type::Int);  // no C name

  CVariableNamer namer() const {
    return [this](VarId v) -> std::optional<std::string> {
      if (v == tmp) return std::nullopt;
      return em.variable(v).name;
    };
  }
  CIdentifierResolver resolver() const {
    return [this](std::string_view s) -> std::optional<VarId> {
      if (s == "__tmp") return std::nullopt;
      if (s == "\\result") return z;
      if (const Variable* v = em.find(s)) return v->id;
      return std::nullopt;
    };
  }
  std::optional<std::string> print(Term t) const { return to_c_expression(t, em, namer()); }
  Term parse(std::string_view s) { return parse_c_expression(s, em, resolver(), "inv"); }
  Term X() { return em.var(x); }
  Term Y() { return em.var(y); }
  Term Z() { return em.var(z); }
  Term B() { return em.var(b); }
  Term n(std::int64_t v) { return em.int_val(v); }
  // C's `/` and `%` as the front end encodes them.
  Term cdiv(Term a, Term d, Op op) {
    return em.ite(em.ge(a, n(0)), em.mk(op, {a, d}), em.neg(em.mk(op, {em.neg(a), d})));
  }

  // Evaluates t under x, y, z, b (b as 0/1).
  static OptValue eval(Term t, std::int64_t xv, std::int64_t yv, std::int64_t zv, bool bv,
                       const CFixture& f) {
    auto val = [&](VarId v) -> OptValue {
      if (v == f.x) return xv;
      if (v == f.y) return yv;
      if (v == f.z) return zv;
      if (v == f.b) return bv ? 1 : 0;
      return std::nullopt;
    };
    return evaluate(t, val);
  }

  // Whether s and t agree wherever both evaluate, on a grid that includes negative
  // operands of division; counts the points where both evaluate.
  int agree(Term s, Term t, bool& ok) const {
    int compared = 0;
    ok = true;
    for (std::int64_t xv = -7; xv <= 7; ++xv)
      for (std::int64_t yv : {-5, -3, -2, -1, 0, 1, 2, 3, 4, 7})
        for (std::int64_t zv : {-4, 0, 5})
          for (bool bv : {false, true}) {
            auto a = eval(s, xv, yv, zv, bv, *this);
            auto c = eval(t, xv, yv, zv, bv, *this);
            if (!a || !c) continue;
            ++compared;
            if (*a != *c) {
              ok = false;
              return compared;
            }
          }
    return compared;
  }
};

}  // namespace

TEST_CASE("C expressions: printing with precedences, literals and Booleans") {
  CFixture f;
  ExprManager& em = f.em;
  CHECK(f.print(em.and_(em.le(em.add(f.X(), f.n(1)), f.n(5)), em.eq(f.Y(), f.n(0)))) ==
        "x + 1 <= 5 && y == 0");
  CHECK(f.print(em.and_(em.or_(em.lt(f.X(), f.n(0)), f.B()), em.not_(f.B()))) ==
        "(x < 0 || b) && !b");
  CHECK(f.print(em.or_(em.and_(f.B(), f.B()), em.gt(f.X(), f.n(1)))) == "(b && b) || x > 1");
  CHECK(f.print(em.sub(f.X(), em.sub(f.Y(), f.Z()))) == "x - (y - z)");
  CHECK(f.print(em.sub(em.sub(f.X(), f.Y()), f.Z())) == "x - y - z");
  CHECK(f.print(em.mul(em.add(f.X(), f.Y()), f.Z())) == "(x + y) * z");
  CHECK(f.print(em.neg(em.neg(f.X()))) == "-(-x)");
  CHECK(f.print(em.neg(f.n(-5))) == "-(-5)");
  CHECK(f.print(em.sub(f.X(), f.n(-5))) == "x - -5");
  CHECK(f.print(f.n(3000000000LL)) == "3000000000LL");
  CHECK(f.print(f.n(-2147483648LL)) == "-2147483648LL");
  CHECK(f.print(f.n(2147483647)) == "2147483647");
  CHECK(f.print(f.n(std::numeric_limits<std::int64_t>::min())) == "(-9223372036854775807LL - 1)");
  CHECK(f.print(em.true_()) == "1");
  CHECK(f.print(em.iff(f.B(), em.lt(f.X(), f.n(1)))) == "!b == !(x < 1)");
  CHECK(f.print(em.eq(em.lt(f.X(), f.n(1)), f.B())) == "!(x < 1) == !b");
  CHECK(f.print(em.imply(f.B(), em.ge(f.X(), f.n(0)))) == "!b || x >= 0");
  CHECK(f.print(em.ite(f.B(), f.X(), f.n(0))) == "(b ? x : 0)");
  CHECK(f.print(em.eq(em.ite(f.B(), f.X(), f.n(0)), f.n(2))) == "(b ? x : 0) == 2");
  // C's division as the front end encodes it prints back as `/` and `%`.
  CHECK(f.print(em.eq(f.cdiv(f.X(), f.Y(), Op::Div), f.n(2))) == "x / y == 2");
  CHECK(f.print(em.eq(f.cdiv(em.add(f.X(), f.n(1)), f.n(3), Op::Mod), f.n(0))) ==
        "(x + 1) % 3 == 0");
  CHECK(f.print(em.div(f.n(7), f.Y())) == "7 / y");
}

TEST_CASE("C expressions: what C cannot express exactly is refused") {
  CFixture f;
  ExprManager& em = f.em;
  CHECK_FALSE(f.print(em.div(f.X(), f.Y())));  // Euclidean, variable divisor
  CHECK_FALSE(f.print(em.mod(f.X(), f.Y())));
  CHECK_FALSE(f.print(em.rem(f.X(), f.Y())));
  CHECK_FALSE(f.print(em.div(f.X(), f.n(0))));
  CHECK_FALSE(f.print(em.lt(em.var(f.tmp), f.n(3))));  // no C name
  CHECK_FALSE(f.print(em.and_(f.B(), em.eq(em.var(f.tmp), f.n(0)))));
  // Euclidean operators with a constant divisor have an exact (longer) printing.
  CHECK(f.print(em.mod(f.X(), f.n(-3))) == "(x % 3 < 0 ? x % 3 + 3 : x % 3)");
  CHECK(f.print(em.div(f.X(), f.n(4))) == "x / 4 - (x % 4 < 0)");
  CHECK(f.print(em.div(f.X(), f.n(-4))) == "x / -4 + (x % -4 < 0)");
}

TEST_CASE("C expressions: parsing C's operators, including / and % on negative operands") {
  CFixture f;
  struct Case {
    const char* text;
    std::int64_t xv, yv;
    bool expected;
  };
  const Case cases[] = {
      {"x / 2 == -3", -7, 0, true},
      {"x / 2 == -3", -6, 0, true},
      {"x / 2 == -3", -5, 0, false},
      {"x % 3 == -1", -7, 0, true},
      {"x % 3 == 2", -7, 0, false},
      {"x / -2 == -3", 7, 0, true},
      {"x / -2 == 3", -7, 0, true},
      {"x % -3 == -1", -7, 0, true},
      {"x % -3 == 1", 7, 0, true},
      {"x / y == -2", 7, -3, true},
      {"x % y == 1", 7, -3, true},
      {"-7 / 2 == -3", 0, 0, true},
      {"-7 % 2 == -1", 0, 0, true},
      {"x", 0, 0, false},
      {"x", -2, 0, true},
      {"!x", 0, 0, true},
      {"(x > 1) + (y > 1) == 2", 2, 2, true},
      {"(x > 1) + (y > 1) == 2", 2, 1, false},
      {"x ? y : 0", 1, 0, false},
      {"x ? y : 0", 1, 5, true},
      {"x < 0 ? -x : x", -4, 0, true},
      {"(long long)x + 1LL > 0", 0, 0, true},
      {"(_Bool)x == 1", 5, 0, true},
      {"(_Bool)x + (_Bool)y", 0, 0, false},
      {"0x1F == 31 && 017 == 15 && 0 == 0u", 0, 0, true},
      {"10UL == 10 && 3ll == 3 && 4LLU == 4", 0, 0, true},
      {"x == -9223372036854775807 - 1", std::numeric_limits<std::int64_t>::min(), 0, true},
      {"!(x < 3) == (y >= 3)", 5, 5, true},
      {"+x == x && - -x == x", 3, 0, true},
      {"x <= 1 || y > 2 && x > 5", 3, 3, false},  // && binds tighter
      {"b || x == 1", 1, 0, true},
      {"b + 1 == 1", 0, 0, true},
      {"\\result == 4", 0, 0, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const Term t = f.parse(c.text);
    CHECK(t.is_bool());
    const auto v = CFixture::eval(t, c.xv, c.yv, 0, false, f);
    REQUIRE(v);
    CHECK((*v != 0) == c.expected);
  }
  // \result resolves like any identifier (here to z).
  CHECK(*CFixture::eval(f.parse("\\result == 4"), 0, 0, 4, false, f) == 1);
  // A list of assumptions.
  const Term list = parse_c_assumptions("x == 5; y == -1;", f.em, f.resolver(), "w");
  CHECK(*CFixture::eval(list, 5, -1, 0, false, f) == 1);
  CHECK(*CFixture::eval(list, 5, 1, 0, false, f) == 0);
  CHECK(parse_c_assumptions("  ", f.em, f.resolver(), "w") == f.em.true_());
  // Literals beyond 2^63 - 1 (a 64-bit unsigned input of a violation witness) are exact.
  const Term big = f.parse("\\result == 18446744073709551615ULL");
  const auto at = [&](const BigInt& z) {
    return evaluate_big(big, [&](VarId v) -> OptBigInt {
      if (v == f.z) return z;
      return std::nullopt;
    });
  };
  CHECK(at((BigInt(1) << 64) - 1) == BigInt(1));
  CHECK(at((BigInt(1) << 64) - 2) == BigInt(0));
  CHECK(at(BigInt(-1)) == BigInt(0));
}

TEST_CASE("C expressions: errors carry the column of the offending token") {
  CFixture f;
  auto column_of = [&](const char* text) -> std::size_t {
    auto e = error_of([&] { (void)f.parse(text); });
    REQUIRE(e);
    CHECK(e->position().file == "inv");
    CHECK(e->position().line == 1);
    return e->position().column;
  };
  CHECK(column_of("x + ") == 5);
  CHECK(column_of("x + foo") == 5);
  CHECK(column_of("x << 2") == 3);
  CHECK(column_of("x = 3") == 3);
  CHECK(column_of("x & y") == 3);
  CHECK(column_of("(unsigned int)x > 0") == 1);
  CHECK(column_of("  (unsigned)x") == 3);
  CHECK(column_of("08") == 2);
  CHECK(column_of("1 2") == 3);
  CHECK(column_of("(x > 0") == 7);
  CHECK(column_of("x > 0)") == 6);
  CHECK(column_of("__tmp == 1") == 1);
  CHECK(column_of("y + 1 == x(2)") == 10);
  CHECK(column_of("x == 99999999999999999999") == 6);
  CHECK(column_of("x == 18446744073709551616") == 6);  // 2^64
  CHECK(column_of("x == 12abc") == 8);
  CHECK(column_of("x ? 1") == 6);
  CHECK(column_of("x # 1") == 3);
  CHECK(column_of("") == 1);
  CHECK(column_of("(int long short)x") == 1);

  auto message_of = [&](const char* text) {
    auto e = error_of([&] { (void)f.parse(text); });
    REQUIRE(e);
    return e->message();
  };
  CHECK(contains(message_of("x + foo"), "unknown identifier 'foo'"));
  CHECK(contains(message_of("x << 2"), "unsupported operator '<<'"));
  CHECK(contains(message_of("(unsigned int)x > 0"), "unsigned"));

  // Deep nesting is an error, not a stack overflow.
  std::string deep(5000, '(');
  deep += "x";
  deep += std::string(5000, ')');
  CHECK_THROWS_AS((void)f.parse(deep), input_error);
  CHECK_THROWS_AS((void)f.parse(std::string(5000, '-') + "x"), input_error);
  CHECK_THROWS_AS((void)f.parse(std::string(5000, '!') + "x"), input_error);
  // Nesting as deep as any written invariant is parsed.
  CHECK(*CFixture::eval(f.parse(std::string(100, '(') + "x == 1" + std::string(100, ')')), 1, 0, 0,
                        false, f) == 1);
}

namespace {

// Random terms over x, y, z, b whose operators all have a C printing.
struct TermGen {
  CFixture& f;
  std::mt19937_64 rng;
  explicit TermGen(CFixture& fx, std::uint64_t seed) : f(fx), rng(seed) {}
  int pick(int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); }
  Term constant() {
    static const std::int64_t cs[] = {
        0, 1, 2, 3, -1, -2, -7, 5, 2147483647, -2147483648LL, 3000000000LL};
    return f.n(cs[pick(11)]);
  }
  Term nonzero(Term t) { return t.op() == Op::IntConst && t.value() == 0 ? f.n(1) : t; }
  Term divisor() {
    static const std::int64_t cs[] = {1, 2, 3, -2, -3, 7, -5};
    return f.n(cs[pick(7)]);
  }
  Term integer(int depth) {
    ExprManager& em = f.em;
    if (depth == 0) {
      switch (pick(4)) {
        case 0: return f.X();
        case 1: return f.Y();
        case 2: return f.Z();
        default: return constant();
      }
    }
    switch (pick(13)) {
      case 0: return em.add(integer(depth - 1), integer(depth - 1));
      case 1: return em.mk(Op::Add, {integer(depth - 1), integer(depth - 1), constant()});
      case 2: return em.sub(integer(depth - 1), integer(depth - 1));
      case 3: return em.mul(integer(depth - 1), constant());
      case 4: return em.neg(integer(depth - 1));
      case 5: return em.div(integer(depth - 1), divisor());
      case 6: return em.mod(integer(depth - 1), divisor());
      case 7: return em.rem(integer(depth - 1), divisor());
      case 8: return f.cdiv(integer(depth - 1), nonzero(integer(depth - 1)), Op::Div);
      case 9: return f.cdiv(integer(depth - 1), nonzero(integer(depth - 1)), Op::Mod);
      case 10: return em.ite(boolean(depth - 1), integer(depth - 1), integer(depth - 1));
      case 11: return em.div(f.n(pick(20)), nonzero(integer(depth - 1)));
      default: return integer(0);
    }
  }
  Term boolean(int depth) {
    ExprManager& em = f.em;
    if (depth == 0) return pick(3) == 0 ? f.B() : em.lt(integer(0), integer(0));
    switch (pick(14)) {
      case 0: return em.lt(integer(depth - 1), integer(depth - 1));
      case 1: return em.le(integer(depth - 1), integer(depth - 1));
      case 2: return em.gt(integer(depth - 1), integer(depth - 1));
      case 3: return em.ge(integer(depth - 1), integer(depth - 1));
      case 4: return em.eq(integer(depth - 1), integer(depth - 1));
      case 5: return em.neq(integer(depth - 1), integer(depth - 1));
      case 6: return em.and_(boolean(depth - 1), boolean(depth - 1));
      case 7: return em.mk(Op::Or, {boolean(depth - 1), boolean(depth - 1), boolean(depth - 1)});
      case 8: return em.not_(boolean(depth - 1));
      case 9: return em.imply(boolean(depth - 1), boolean(depth - 1));
      case 10: return em.iff(boolean(depth - 1), boolean(depth - 1));
      case 11: return em.xor_(boolean(depth - 1), boolean(depth - 1));
      case 12: return em.eq(boolean(depth - 1), boolean(depth - 1));
      default: return em.ite(boolean(depth - 1), boolean(depth - 1), boolean(depth - 1));
    }
  }
};

}  // namespace

TEST_CASE("C expressions: cells and members by their designators, whole arrays by select") {
  CFixture f;
  const VarId cell = f.em.declare("g[1].y[0]", Type::Int);
  const VarId member = f.em.declare("p.x", Type::Int);
  const VarId whole = f.em.declare("big", Type::Array);
  // The printed name of a cell or member reads back to its variable, in any spacing and
  // with any constant subscript expression.
  CHECK(f.parse("g[1].y[0] == 3") == f.em.eq(f.em.var(cell), f.n(3)));
  CHECK(f.parse("g [ 0x1 ] . y[2 - 2] == 3") == f.em.eq(f.em.var(cell), f.n(3)));
  CHECK(f.parse("p.x < x") == f.em.lt(f.em.var(member), f.X()));
  // A variable subscript reads a whole array.
  CHECK(f.parse("big[x + 1] == 0") ==
        f.em.eq(f.em.select(f.em.var(whole), f.em.add(f.X(), f.n(1))), f.n(0)));
  CHECK(f.parse("big[2] == 0") == f.em.eq(f.em.select(f.em.var(whole), f.n(2)), f.n(0)));

  auto error = [&](const char* text) {
    auto e = error_of([&] { (void)f.parse(text); });
    REQUIRE(e);
    return std::pair{e->position().column, e->message()};
  };
  auto [c1, m1] = error("g[2].y[0] == 3");
  CHECK(c1 == 1);
  CHECK(contains(m1, "unknown identifier 'g[2].y[0]'"));
  auto [c2, m2] = error("g[x].y[0] == 3");
  CHECK(c2 == 2);
  CHECK(contains(m2, "must be a constant"));
  auto [c3, m3] = error("big == x");
  CHECK(c3 == 1);
  CHECK(contains(m3, "is an array"));
  auto [c4, m4] = error("g[-1] == 0");
  CHECK(c4 == 2);
  CHECK(contains(m4, "negative subscript"));
  CHECK(error("p. == 1").first == 4);
  CHECK(error("p->x == 1").second.find("'->'") != std::string::npos);
  CHECK(error("big[x][1] == 0").first == 7);
}

TEST_CASE("C expressions: parse(print(t)) is equivalent to t on many valuations") {
  CFixture f;
  TermGen gen(f, 20240501);
  int checked = 0, reprinted = 0, compared_total = 0;
  for (int i = 0; i < 400; ++i) {
    const Term t = gen.boolean(1 + i % 4);
    const auto text = f.print(t);
    REQUIRE(text);
    CAPTURE(*text);
    const Term back = f.parse(*text);
    bool ok = true;
    compared_total += f.agree(t, back, ok);
    CHECK(ok);
    // The parsed term prints again to a C expression with the same meaning (unless
    // constant folding made a divisor 0: `5 / (2 - 2)` reads as 5 div 0, which has no C
    // printing).
    if (const auto again = f.print(back)) {
      bool ok2 = true;
      f.agree(t, f.parse(*again), ok2);
      CHECK(ok2);
      ++reprinted;
    }
    ++checked;
  }
  CHECK(checked == 400);
  CHECK(reprinted > 390);
  CHECK(compared_total > 400 * 100);  // most points evaluate (no overflow, no x / 0)
}

TEST_CASE("C expressions: weakening keeps a printable formula the input implies") {
  CFixture f;
  ExprManager& em = f.em;
  const auto name = f.namer();
  const Term gt0 = em.gt(f.X(), f.n(0));
  const Term ylt3 = em.lt(f.Y(), f.n(3));
  const Term bad = em.gt(em.div(f.X(), f.Y()), f.n(1));  // Euclidean division
  const Term unnamed = em.eq(em.var(f.tmp), f.Y());      // variable without a C name
  CHECK(weaken_to_c(gt0, em, name) == gt0);
  CHECK(weaken_to_c(em.mk(Op::And, {gt0, bad, ylt3}), em, name) == em.and_(gt0, ylt3));
  CHECK(weaken_to_c(em.and_(bad, unnamed), em, name) == em.true_());
  CHECK(weaken_to_c(em.or_(gt0, bad), em, name) == em.true_());
  CHECK(weaken_to_c(em.or_(em.and_(gt0, bad), ylt3), em, name) == em.or_(gt0, ylt3));
  CHECK(weaken_to_c(em.imply(f.B(), em.and_(gt0, unnamed)), em, name) ==
        em.or_(em.not_(f.B()), gt0));
  CHECK(weaken_to_c(em.not_(bad), em, name) == em.true_());
  CHECK_THROWS_AS((void)weaken_to_c(f.X(), em, name), type_error);

  // On random formulas with unprintable parts: the result prints, and t implies it.
  TermGen gen(f, 7);
  for (int i = 0; i < 200; ++i) {
    Term t = gen.boolean(2);
    if (i % 3 == 0) t = em.and_(t, bad);
    if (i % 3 == 1) t = em.or_(em.and_(t, unnamed), em.and_(gen.boolean(1), bad));
    const Term w = weaken_to_c(t, em, name);
    REQUIRE(f.print(w));
    for (std::int64_t xv = -3; xv <= 3; ++xv)
      for (std::int64_t yv = -3; yv <= 3; ++yv)
        for (bool bv : {false, true}) {
          auto val = [&](VarId v) -> OptValue {
            if (v == f.x) return xv;
            if (v == f.y) return yv;
            if (v == f.z) return 1;
            if (v == f.b) return bv ? 1 : 0;
            return 2;  // __tmp
          };
          auto tv = evaluate(t, val);
          auto wv = evaluate(w, val);
          if (tv && *tv != 0 && wv) CHECK(*wv != 0);
        }
  }
}

}  // namespace witness_test
