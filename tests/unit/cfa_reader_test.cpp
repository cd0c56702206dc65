#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "../support/temp_dir.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/expr/eval.hpp"
#include "precis/io/cfa_dot.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/cfa_writer.hpp"

namespace cfa_reader_test {

namespace {

namespace fs = std::filesystem;

// (source name, target name, printed operation) for every edge, in graph order.
std::vector<std::tuple<std::string, std::string, std::string>> edge_list(const precis::Cfa& c) {
  std::vector<std::tuple<std::string, std::string, std::string>> out;
  for (auto e : c.edges())
    out.emplace_back(c.name(c.source(e)), c.name(c.target(e)),
                     precis::to_string(c.operation(e), c.exprs()));
  return out;
}

std::string written(const precis::Cfa& c) {
  std::ostringstream os;
  precis::write_cfa(os, c);
  return os.str();
}

void check_round_trip(const precis::Cfa& a, const std::string& what) {
  INFO(what);
  std::string text = written(a);
  INFO(text);
  precis::Cfa b = precis::parse_cfa(text, "written.cfa");
  CHECK(b.num_locations() == a.num_locations());
  CHECK(b.num_edges() == a.num_edges());
  CHECK(b.variables().size() == a.variables().size());
  CHECK(edge_list(b) == edge_list(a));
  CHECK(b.name(b.initial_location()) == a.name(a.initial_location()));
  CHECK(b.error_location().has_value() == a.error_location().has_value());
  CHECK(b.final_location().has_value() == a.final_location().has_value());
  CHECK(written(b) == text);  // writing is a fixpoint after one round
}

precis::Cfa parse(const std::string& text) { return precis::parse_cfa(text, "t.cfa"); }

// The only edge out of location `from` (for checking how one statement was parsed).
const precis::Operation& op_from(const precis::Cfa& c, const std::string& from) {
  for (auto l : c.locations())
    if (c.name(l) == from) {
      auto range = c.out_edges(l);
      REQUIRE(std::distance(range.begin(), range.end()) == 1);
      return c.operation(*range.begin());
    }
  FAIL("no location " << from);
  throw 0;
}

std::string printed(const std::string& stmt, const std::string& decls = "") {
  precis::Cfa c = parse(
      "main process p {\n var x : int\n var y : int\n var a : bool\n"
      " var b : bool\n var c : bool\n" +
      decls + " init loc L0\n loc L1\n L0 -> L1 { " + stmt + " }\n}\n");
  return precis::to_string(op_from(c, "L0"), c.exprs());
}

}  // namespace

TEST_CASE("cfa reader: every Theta model parses and survives a round trip") {
  const fs::path dir = fs::path(PRECIS_TASKS) / "theta";
  REQUIRE(fs::is_directory(dir));
  int parsed = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".cfa") continue;
    const std::string name = entry.path().stem().string();
    INFO(name);
    precis::Cfa c = precis::read_cfa_file(entry.path().string());
    check_round_trip(c, name);
    ++parsed;
  }
  CHECK(parsed == 10);  // the two bit-vector models included (bit_vector_test.cpp)
}

TEST_CASE("cfa reader: counts and structure of known Theta models") {
  const std::string dir = std::string(PRECIS_TASKS) + "/theta/";
  {
    precis::Cfa c = precis::read_cfa_file(dir + "counter5_true.cfa");
    CHECK(c.num_locations() == 6);
    CHECK(c.num_edges() == 6);
    REQUIRE(c.variables().size() == 1);
    CHECK(c.variables()[0].name == "x");
    CHECK(c.variables()[0].type == precis::Type::Int);
    CHECK(c.name(c.initial_location()) == "L0");
    REQUIRE(c.error_location());
    CHECK(c.name(*c.error_location()) == "ERR");
    REQUIRE(c.final_location());
    CHECK(c.name(*c.final_location()) == "END");
    auto edges = edge_list(c);
    CHECK(std::get<2>(edges.front()) == "x := 0");
    CHECK(std::count(edges.begin(), edges.end(),
                     std::make_tuple(std::string("L1"), std::string("L3"),
                                     std::string("assume not x < 5"))) == 1);
    for (auto l : c.locations()) CHECK(c.function_of(l) == 0);
    for (const auto& v : c.variables()) CHECK(v.scope == precis::global_scope);
  }
  {
    // 6 declared locations + 2 chain locations (3 statements) + 1 (2 statements).
    precis::Cfa c = precis::read_cfa_file(dir + "locking.cfa");
    CHECK(c.num_locations() == 9);
    CHECK(c.num_edges() == 10);
    CHECK(c.variables().size() == 3);
    CHECK_FALSE(c.final_location() == std::nullopt);
    // Each edge of a chain keeps the line of its own statement.
    for (auto e : c.edges()) {
      if (precis::to_string(c.operation(e), c.exprs()) == "old := new") CHECK(c.line(e) == 24);
      if (precis::to_string(c.operation(e), c.exprs()) == "lock := true") CHECK(c.line(e) == 23);
    }
  }
  {
    precis::Cfa c = precis::read_cfa_file(dir + "block-encoding.cfa");
    CHECK(c.num_locations() == 8);
    CHECK(c.num_edges() == 9);
    CHECK(c.variables().empty());
    CHECK_FALSE(c.error_location());
  }
}

TEST_CASE("cfa reader: precedence and associativity follow the grammar") {
  CHECK(printed("assume not x = 16") == "assume not x = 16");
  {
    precis::Cfa c =
        parse("main process p { var z : int init loc A loc B A -> B { assume not z = 16 } }");
    const auto& a = std::get<precis::Assume>(op_from(c, "A"));
    CHECK(a.cond.op() == precis::Op::Not);
    CHECK(a.cond.arg(0).op() == precis::Op::Eq);
  }
  CHECK(printed("assume a or b and c") == "assume a or b and c");
  CHECK(printed("assume (a or b) and c") == "assume (a or b) and c");
  CHECK(printed("assume a and b and c") == "assume a and b and c");
  CHECK(printed("assume a imply b imply c") == "assume a imply b imply c");
  CHECK(printed("assume (a imply b) imply c") == "assume (a imply b) imply c");
  CHECK(printed("assume a iff b xor c") == "assume a iff b xor c");
  CHECK(printed("assume not a and b") == "assume not a and b");
  CHECK(printed("assume not (a and b)") == "assume not (a and b)");
  CHECK(printed("assume (not a) = b") == "assume (not a) = b");
  CHECK(printed("x := x - 1 - 2") == "x := x - 1 - 2");
  CHECK(printed("x := x - (1 - 2)") == "x := x - (1 - 2)");
  CHECK(printed("x := -x * y") == "x := -x * y");
  CHECK(printed("x := -(x * y)") == "x := -(x * y)");
  CHECK(printed("x := - - x") == "x := -(-x)");
  CHECK(printed("x := +x") == "x := x");
  CHECK(printed("x := x + y * 2 mod 3") == "x := x + y * 2 mod 3");
  CHECK(printed("x := (x + y) * 2") == "x := (x + y) * 2");
  CHECK(printed("x := x / y rem 2") == "x := x / y rem 2");
  CHECK(printed("x := if a then 1 else 2 + 3") == "x := if a then 1 else 2 + 3");
  CHECK(printed("x := if a then 1 else if b then 2 else 3") ==
        "x := if a then 1 else if b then 2 else 3");
  CHECK(printed("assume x /= y") == "assume x /= y");
  CHECK(printed("assume x < y = a") == "assume x < y = a");
  CHECK(printed("x := -9223372036854775808") == "x := -9223372036854775808");
  // A negated literal keeps its negation through a round trip (found by fuzzing).
  CHECK(printed("x := -(5)") == "x := -(5)");
  CHECK(printed("x := - -0") == "x := -(0)");
  CHECK(printed("x := 9223372036854775807") == "x := 9223372036854775807");
  CHECK(printed("x := -5") == "x := -5");
  {
    precis::Cfa c = parse("main process p { var x : int init loc A loc B A -> B { x := -5 } }");
    const auto& a = std::get<precis::Assign>(op_from(c, "A"));
    CHECK(a.value.op() == precis::Op::IntConst);
    CHECK(a.value.value() == -5);
  }
  CHECK(printed("havoc x") == "havoc x");
}

TEST_CASE("cfa reader: declarations, processes, comments and edges") {
  const std::string text = R"(// leading comment
var g : int   /* a global,
                 declared before the process */
process helper (p : int) {
  var h : bv[8]
  init loc Q0
  loc Q1
  Q0 -> Q1 { h := h bvadd 8'd1 }
}
main process cfa (n : int, m : bool) {
  L0 -> L1 { x := g  g := x + 1 }   // uses come before declarations: allowed
  L1 -> L2
  L2 -> L3 { }
  init loc L0
  loc L1 loc L2
  error loc L3
  var x : int
}
var late : bool
)";
  precis::Cfa c = parse(text);
  CHECK(c.num_locations() == 5);  // L0 L1 L2 L3 + one chain location
  CHECK(c.num_edges() == 4);
  REQUIRE(c.variables().size() == 3);
  CHECK(c.variables()[0].name == "g");
  CHECK(c.variables()[1].name == "late");
  CHECK(c.variables()[2].name == "x");
  auto edges = edge_list(c);
  CHECK(std::get<2>(edges[0]) == "x := g");
  CHECK(std::get<2>(edges[1]) == "g := x + 1");
  CHECK(std::get<1>(edges[0]) == "__0");
  CHECK(std::get<2>(edges[2]) == "skip");
  CHECK(std::get<2>(edges[3]) == "skip");
  check_round_trip(c, "declarations");
}

namespace {
struct Bad {
  const char* what;
  std::string text;
  std::size_t line, col;
  const char* message;
};

// A process with x : int, b : bool and locations L0 (init), L1, E (error) on lines 1-6;
// `body` goes on line 7.
std::string with_body(const std::string& body) {
  return "main process p {\n  var x : int\n  var b : bool\n  init loc L0\n  loc L1\n"
         "  error loc E\n" +
         body + "\n}\n";
}
// `stmt` starts at line 7, column 14.
std::string with_stmt(const std::string& stmt) { return with_body("  L0 -> L1 { " + stmt + " }"); }
}  // namespace

TEST_CASE("cfa reader: bad inputs give one error with the exact position") {
  const std::string deep_parens =
      "main process p {\n  var x : int\n  init loc A\n  loc B\n  A -> B { assume " +
      std::string(5000, '(') + "x = 1" + std::string(5000, ')') + " }\n}\n";
  constexpr std::size_t N = precis::max_cfa_nesting;
  std::string minus_chain = "x";
  for (int i = 0; i < 3000; ++i) minus_chain += " - 1";
  std::string neg_chain;
  for (int i = 0; i < 3000; ++i) neg_chain += "- ";
  std::string deep_ite;
  for (int i = 0; i < 3000; ++i) deep_ite += "if b then 1 else ";
  deep_ite += "2";

  const std::vector<Bad> bad = {
      {"missing arrow", with_body("  L0 L1"), 7, 6, "expected '->', found identifier 'L1'"},
      {"missing expression", with_stmt("x := }"), 7, 19, "expected an expression, found '}'"},
      {"missing close paren", with_stmt("x := (x + 1 }"), 7, 26, "expected ')', found '}'"},
      {"unknown variable (assigned)", with_stmt("y := 1"), 7, 14, "unknown variable 'y'"},
      {"unknown variable (used)", with_stmt("x := x + y"), 7, 23, "unknown variable 'y'"},
      {"unknown variable (havoc)", with_stmt("havoc y"), 7, 20, "unknown variable 'y'"},
      {"unknown location", with_body("  L0 -> L9"), 7, 9, "unknown location 'L9'"},
      {"bool to int", with_stmt("x := b"), 7, 19,
       "cannot assign a bool expression to int variable 'x'"},
      {"int plus bool", with_stmt("x := x + true"), 7, 19,
       "operator '+' expects int operands, got bool"},
      {"non-bool assume", with_stmt("assume x + 1"), 7, 21,
       "'assume' needs a bool expression, got int"},
      {"mixed equality", with_stmt("assume b = 1"), 7, 21, "have different types"},
      {"and of int", with_stmt("assume b and (x)"), 7, 21, "expects bool operands, got int"},
      {"ite branches", with_stmt("x := if b then 1 else true"), 7, 19,
       "branches of 'if' have different types"},
      {"ite condition", with_stmt("x := (if x then 1 else 2)"), 7, 19,
       "condition of 'if' must be bool"},
      {"not not", with_stmt("assume not not b"), 7, 25, "'not' needs parentheses"},
      {"= not", with_stmt("assume b = not b"), 7, 25, "'not' needs parentheses"},
      {"chained =", with_stmt("assume x = 1 = 2"), 7, 27, "cannot be chained"},
      {"chained <", with_stmt("assume x < 1 < 2"), 7, 27, "cannot be chained"},
      {"if as operand", with_stmt("x := 1 + if b then 1 else 2"), 7, 23,
       "'if' expression needs parentheses"},
      {"return", with_stmt("return x"), 7, 14, "unsupported statement 'return'"},
      {"havoc literal", with_stmt("havoc 5"), 7, 20,
       "expected a variable name, found integer literal '5'"},
      {"fp type", with_body("  var y : fp[8,24]"), 7, 11, "unsupported type 'fp[8,24]'"},
      {"rat type", with_body("  var y : rat"), 7, 11, "unsupported type 'rat'"},
      {"array type", with_body("  var y : [int] -> bool"), 7, 11,
       "unsupported type '[int] -> bool'"},
      {"function type", with_body("  var y : (int, int) -> int"), 7, 11,
       "unsupported type '(int, int) -> int'"},
      {"bad type", with_body("  var y : integer"), 7, 11,
       "expected a type ('int', 'bool' or 'bv[N]'), found identifier 'integer'"},
      {"bv operator on int", with_stmt("assume x bvult x"), 7, 21,
       "'bvult' expects bit-vector operands, got int"},
      {"fp type, what precis reads", with_body("  var y : fp[8,24]"), 7, 11,
       "(precis reads int, bool and bv[N])"},
      {"fp operator", with_stmt("x := x fpadd x"), 7, 21, "unsupported operator 'fpadd'"},
      {"rational literal", with_stmt("x := 1%2"), 7, 19, "unsupported rational literal '1%2'"},
      {"array access", with_stmt("x := x[1]"), 7, 20, "unsupported array access"},
      {"prime", with_stmt("x := x'"), 7, 20, "unsupported primed variable"},
      {"function call", with_stmt("x := x(1)"), 7, 20, "unsupported function application"},
      {"quantifier", with_stmt("assume forall (i : int) i = i"), 7, 21,
       "unsupported quantifier 'forall'"},
      {"huge literal", with_stmt("x := 9223372036854775808"), 7, 19,
       "integer literal '9223372036854775808' does not fit in 64 bits"},
      {"huge negative literal", with_stmt("x := -9223372036854775809"), 7, 20,
       "does not fit in 64 bits"},
      {"missing init", "main process p {\n  loc L0\n}\n", 1, 14,
       "process 'p' has no init location"},
      {"two init locations", "main process p {\n  init loc A\n  init loc B\n}\n", 3, 3,
       "second init location 'B' (the first is 'A' at line 2)"},
      {"two error locations", with_body("  error loc E2"), 7, 3, "second error location 'E2'"},
      {"final with out-edge",
       "main process p {\n  init loc A\n  final loc F\n  A -> F\n  F -> A\n}\n", 5, 3,
       "edge leaves the final location 'F'"},
      {"error with out-edge", with_body("  E -> L1"), 7, 3, "edge leaves the error location 'E'"},
      {"duplicate variable", with_body("  var x : bool"), 7, 7,
       "duplicate declaration of variable 'x' (first declared at line 2)"},
      {"duplicate global and local", "var x : int\n" + with_body(""), 3, 7,
       "duplicate declaration of variable 'x' (first declared at line 1)"},
      {"duplicate location", with_body("  loc L0"), 7, 7, "duplicate declaration of location 'L0'"},
      {"keyword as name", with_body("  loc if"), 7, 7,
       "expected a location name, found keyword 'if'"},
      {"unterminated comment", "main process p {\n  init loc A /* no end\n}\n", 2, 14,
       "unterminated comment"},
      {"unexpected character", with_body("  L0 -> L1 # x"), 7, 12, "unexpected character '#'"},
      {"control character", with_body("\x01"), 7, 1, "unexpected character '\\x01'"},
      {"deep parentheses", deep_parens, 5, 19 + N, "nesting too deep"},
      {"long subtraction chain", with_stmt("x := " + minus_chain), 7, 19 + 4 * (N - 1) + 2,
       "expression nested too deeply"},
      {"long negation chain", with_stmt("x := " + neg_chain + "x"), 7, 19 + 2 * (3000 - N),
       "expression nested too deeply"},
      // The (N+1)st level is the condition of the Nth 'if'.
      {"deep if-then-else", with_stmt("x := " + deep_ite), 7, 19 + 17 * (N - 1) + 3,
       "nesting too deep"},
      {"unclosed process", "main process p {\n  init loc A\n", 3, 1,
       "expected '}' to close process 'p', found end of file"},
      {"unclosed edge", with_body("  L0 -> L1 { havoc x"), 9, 1, "expected '}'"},
      {"garbage at top level", "loc A\n", 1, 1,
       "expected 'var', 'process' or 'main process', found keyword 'loc'"},
      {"two main processes", with_body("") + "main process q {\n  init loc A\n}\n", 9, 1,
       "second main process 'q'"},
      {"no main process", "process q {\n  init loc A\n}\n", 4, 1, "no main process"},
      {"empty file", "", 1, 1, "no main process"},
      {"only a comment", "// nothing\n", 2, 1, "no main process"},
  };
  for (const Bad& b : bad) {
    INFO(b.what);
    try {
      (void)precis::parse_cfa(b.text, "bad.cfa");
      FAIL("accepted: " << b.what);
    } catch (const precis::input_error& e) {
      INFO(e.what());
      CHECK(e.position().file == "bad.cfa");
      CHECK(e.position().line == b.line);
      CHECK(e.position().column == b.col);
      CHECK(e.message().find(b.message) != std::string::npos);
      CHECK(std::string(e.what()).starts_with("bad.cfa:" + std::to_string(b.line) + ":" +
                                              std::to_string(b.col) + ": error: "));
    }
  }
}

TEST_CASE("cfa reader: missing files are input errors naming the file") {
  const std::string path = "/nonexistent/dir/model.cfa";
  try {
    (void)precis::read_cfa_file(path);
    FAIL("no error");
  } catch (const precis::input_error& e) {
    CHECK(e.position().file == path);
    CHECK(std::string(e.what()).find(path) != std::string::npos);
  }
  CHECK_THROWS_AS((void)precis::read_cfa_file(PRECIS_TEST_MODELS), precis::input_error);
}

TEST_CASE("cfa reader: garbage never crashes or hangs") {
  // Every prefix of a valid model either parses or gives an input_error.
  const std::string text =
      "var g : int\nmain process p (a : int) {\n var x : int\n init loc A\n loc B\n"
      " final loc C\n error loc D\n A -> B { x := -(x + 1) * 2 mod 3  havoc g }\n"
      " B -> C { assume not x = 1 and (g < 2 or (if true then false else x >= 0)) }\n"
      " B -> D { assume x /= g imply g > x iff true }\n B -> A\n}\n";
  (void)parse(text);
  for (std::size_t n = 0; n < text.size(); ++n) {
    for (const std::string& t : {text.substr(0, n), text.substr(0, n) + "}" + text.substr(n),
                                 text.substr(0, n) + text.substr(n + 1)}) {
      try {
        (void)precis::parse_cfa(t, "p.cfa");
      } catch (const precis::input_error& e) {
        CHECK(e.position().line >= 1);
        CHECK(e.position().column >= 1);
      }
    }
  }
}

TEST_CASE("cfa writer: renames what the format cannot hold, consistently") {
  precis::CfaBuilder b;
  auto x1 = b.int_var("main::x");
  auto x2 = b.int_var("main::x");  // a second variable with the same name
  auto k = b.bool_var("if");
  auto& em = b.exprs();
  b.edge("start.0", "1st", precis::Assign{x1, em.add(em.var(x2), em.int_val(1))});
  b.edge("1st", "err", precis::Assume{em.and_(em.var(k), em.lt(em.var(x1), em.var(x2)))});
  b.edge("1st", "start.0", precis::Havoc{x2});
  b.initial("start.0");
  b.error("err");
  precis::Cfa c = std::move(b).build();
  std::string text = written(c);
  INFO(text);
  precis::Cfa r = parse(text);
  CHECK(r.num_locations() == 3);
  CHECK(r.num_edges() == 3);
  REQUIRE(r.variables().size() == 3);
  CHECK(r.variables()[0].name != r.variables()[1].name);
  auto edges = edge_list(r);
  CHECK(std::get<2>(edges[0]) == "main__x := main__x_1 + 1");
  CHECK(std::get<2>(edges[1]) == "assume if_ and main__x < main__x_1");
  CHECK(text.find("main process main_ {") != std::string::npos);
}

TEST_CASE("cfa dot: edges labelled with operations, error location highlighted") {
  precis::Cfa c = precis::read_cfa_file(std::string(PRECIS_TASKS) + "/theta/counter5_true.cfa");
  std::ostringstream os;
  precis::write_cfa_dot(os, c);
  const std::string dot = os.str();
  CHECK(dot.starts_with("digraph cfa {"));
  CHECK(dot.find("label=\"x := 0\"") != std::string::npos);
  CHECK(dot.find("label=\"assume not x < 5\"") != std::string::npos);
  CHECK(dot.find("[label=\"ERR\", style=filled") != std::string::npos);
  CHECK(dot.find("[label=\"END\", shape=doublecircle]") != std::string::npos);
  CHECK(std::count(dot.begin(), dot.end(), '\n') == 4 + 6 + 1 + 6 + 1);
}

TEST_CASE("cfa reader: own models parse, round-trip and have a verdict") {
  const fs::path dir = PRECIS_TEST_MODELS;
  std::ifstream tsv(dir / "verdicts.tsv");
  REQUIRE(tsv);
  std::string line;
  std::getline(tsv, line);
  CHECK(line == "model\tverdict\tnote");
  std::vector<std::string> listed;
  while (std::getline(tsv, line)) {
    if (line.empty()) continue;
    std::istringstream ls(line);
    std::string model, verdict;
    std::getline(ls, model, '\t');
    std::getline(ls, verdict, '\t');
    INFO(line);
    CHECK((verdict == "SAFE" || verdict == "UNSAFE"));
    listed.push_back(model);
    precis::Cfa c = precis::read_cfa_file((dir / (model + ".cfa")).string());
    CHECK(c.error_location().has_value());
    check_round_trip(c, model);
  }
  CHECK(listed.size() >= 14);
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".cfa") {
      INFO(entry.path().string());
      CHECK(std::find(listed.begin(), listed.end(), entry.path().stem().string()) != listed.end());
    }
}

namespace {

using TempDir = precis_test::TempDir;

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

std::string read_error(const std::string& path) {
  try {
    (void)precis::read_cfa_file(path);
  } catch (const precis::input_error& e) {
    CHECK(e.position().file == path);
    return e.what();
  }
  FAIL("no error for " << path);
  return "";
}

// The condition of the only assume edge out of `from`.
precis::Term assume_from(const precis::Cfa& c, const std::string& from) {
  const auto* a = std::get_if<precis::Assume>(&op_from(c, from));
  REQUIRE(a != nullptr);
  return a->cond;
}

// x := `init`, then an error edge guarded by `cond`.
std::string guarded_model(std::int64_t init, const std::string& cond) {
  return "main process p {\n  var x : int\n  init loc L0\n  loc L1\n  error loc E\n"
         "  L0 -> L1 { x := " +
         std::to_string(init) + " }\n  L1 -> E { assume " + cond + " }\n}\n";
}

}  // namespace

TEST_CASE("cfa reader: a leading UTF-8 byte-order mark is skipped") {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string model = "main process p {\n  init loc A\n  error loc E\n  A -> E\n}\n";
  precis::Cfa c = parse(bom + model);
  CHECK(c.num_locations() == 2);
  CHECK(c.num_edges() == 1);

  // Positions on the first line do not count the mark.
  try {
    (void)parse(bom + "loc A\n");
    FAIL("accepted");
  } catch (const precis::input_error& e) {
    CHECK(e.position().line == 1);
    CHECK(e.position().column == 1);
    CHECK(e.message().find("found keyword 'loc'") != std::string::npos);
  }
  // Only at the very start: a second mark, or one later in the file, is an error.
  for (const auto& [text, line, col] :
       {std::tuple{bom + bom + model, 1u, 1u},
        std::tuple{"main process p {\n  init loc A\n" + bom + "}\n", 3u, 1u},
        std::tuple{" " + bom + model, 1u, 2u}}) {
    try {
      (void)parse(text);
      FAIL("accepted");
    } catch (const precis::input_error& e) {
      CHECK(e.position().line == line);
      CHECK(e.position().column == col);
      CHECK(e.message() == "unexpected character '\\xef'");
    }
  }
  // A lone mark is an empty file.
  CHECK_THROWS_WITH_AS((void)parse(bom), doctest::Contains("t.cfa:1:1: error: no main process"),
                       precis::input_error);

  TempDir dir;
  write_file(dir.path / "bom.cfa", bom + model);
  CHECK(precis::read_cfa_file((dir.path / "bom.cfa").string()).num_edges() == 1);
}

TEST_CASE("cfa reader: only regular files are read (FIFOs, directories, devices are refused)") {
  TempDir dir;
  const std::string fifo = (dir.path / "model.cfa").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // No writer: opening for reading must not block.
  const auto start = std::chrono::steady_clock::now();
  std::string msg = read_error(fifo);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(msg == precis::to_string(precis::SourcePosition{fifo, 0, 0}) + ": error: cannot read '" +
                   fifo + "': not a regular file (it is a FIFO)");

  msg = read_error(dir.path.string());
  CHECK(msg.find("not a regular file (it is a directory)") != std::string::npos);
  if (fs::exists("/dev/null")) {
    msg = read_error("/dev/null");
    CHECK(msg.find("not a regular file (it is a character device)") != std::string::npos);
  }
  // A symbolic link to a regular file is read; one to a FIFO is refused.
  write_file(dir.path / "real.cfa", "main process p {\n  init loc A\n}\n");
  std::error_code ec;
  fs::create_symlink(dir.path / "real.cfa", dir.path / "link.cfa", ec);
  if (!ec) {
    CHECK(precis::read_cfa_file((dir.path / "link.cfa").string()).num_locations() == 1);
    fs::create_symlink(fifo, dir.path / "fifo-link.cfa");
    CHECK(read_error((dir.path / "fifo-link.cfa").string()).find("(it is a FIFO)") !=
          std::string::npos);
  }
  CHECK(read_error((dir.path / "missing.cfa").string()).find("cannot open file") !=
        std::string::npos);
}

TEST_CASE("cfa reader: long chains of one operator are flat n-ary terms, read in linear time") {
  // 10^5 operands (about 1.3 MB of text): fast enough for the sanitizer build too.
  constexpr int n = 100000;
  std::string disj;
  disj.reserve(std::size_t{14} * n);
  for (int i = 0; i < n; ++i) disj += (i == 0 ? "x = " : " or x = ") + std::to_string(i);

  SUBCASE("or: one Or node with every disjunct as an operand, evaluated as written") {
    const precis::Cfa c = parse(guarded_model(0, disj));  // owns the terms
    const precis::Term t = assume_from(c, "L1");
    REQUIRE(t.op() == precis::Op::Or);
    REQUIRE(t.num_args() == std::size_t{n});
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{n - 1}}) {
      const precis::Term d = t.arg(i);
      REQUIRE(d.op() == precis::Op::Eq);
      CHECK(d.arg(0).is_var());
      CHECK(d.arg(1).value() == static_cast<std::int64_t>(i));
    }
    auto with_x = [](std::int64_t v) {
      return [v](precis::VarId) -> precis::OptValue { return v; };
    };
    CHECK(precis::evaluate(t, with_x(n - 1)) == 1);
    CHECK(precis::evaluate(t, with_x(0)) == 1);
    CHECK(precis::evaluate(t, with_x(n)) == 0);
    CHECK(precis::evaluate(t, with_x(-1)) == 0);
    CHECK_FALSE(precis::evaluate(t, precis::EmptyValuation{}).has_value());
  }

  SUBCASE("and, + and * chains are flat too") {
    std::string conj, sum, prod;
    for (int i = 0; i < n; ++i) {
      conj += (i == 0 ? "x /= -" : " and x /= -") + std::to_string(i + 1);
      sum += (i == 0 ? "" : " + ") + std::to_string(i % 7);
      prod += (i == 0 ? "x" : " * x");
    }
    precis::Cfa c = parse(
        "main process p {\n  var x : int\n  var y : int\n  init loc L0\n  loc L1\n  loc L2\n"
        "  loc L3\n  L0 -> L1 { assume " +
        conj + " }\n  L1 -> L2 { y := " + sum + " }\n  L2 -> L3 { y := " + prod + " }\n}\n");
    const precis::Term a = assume_from(c, "L0");
    CHECK(a.op() == precis::Op::And);
    CHECK(a.num_args() == std::size_t{n});
    for (const std::string from : {"L1", "L2"}) {
      const auto* s = std::get_if<precis::Assign>(&op_from(c, from));
      REQUIRE(s != nullptr);
      CHECK(s->value.op() == (from == "L1" ? precis::Op::Add : precis::Op::Mul));
      CHECK(s->value.num_args() == std::size_t{n});
    }
  }
}

}  // namespace cfa_reader_test
