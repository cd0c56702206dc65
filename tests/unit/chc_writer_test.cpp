// write_chc (io/chc_writer.hpp): the clauses of the repository's models are solved by
// z3's Horn engine (Spacer) with precis' verdicts (sat = SAFE, unsat = UNSAFE), the
// operators print with precis' semantics, there is one predicate per cutpoint, and the
// output grows linearly with the program. The z3 parts need a `z3` binary on PATH
// (Debian package z3, which scripts/setup.sh installs): without it they are skipped with
// a message, except under CI (the environment variable CI set), where a missing z3 fails
// them, so that a CI machine without it cannot pass by checking nothing.

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../support/model_suite.hpp"
#include "../support/temp_dir.hpp"
#include "precis/cfa/block_encoding.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/chc_writer.hpp"

using namespace precis;

namespace chc_writer_test {

namespace {

namespace fs = std::filesystem;

bool z3_available() { return std::system("z3 -version > /dev/null 2>&1") == 0; }

// CI services set CI (to "true"); "", "0" and "false" count as unset.
bool under_ci() {
  const char* ci = std::getenv("CI");
  if (ci == nullptr) return false;
  const std::string v = ci;
  return !v.empty() && v != "0" && v != "false";
}

// Whether the z3 part of a test can run. Without z3: a failure under CI, else a message
// that the part is skipped (doctest has no run-time skip; the message is the record).
bool z3_or_skip(const std::string& part) {
  if (z3_available()) return true;
  if (under_ci()) {
    FAIL_CHECK("no `z3` binary on PATH under CI (scripts/setup.sh installs it): "
               << part << " not checked");
  } else {
    MESSAGE("SKIPPED " << part << ": no `z3` binary on PATH (apt-get install z3)");
  }
  return false;
}

using TempDir = precis_test::TempDir;

std::string chc_of(const Cfa& cfa) {
  std::ostringstream out;
  write_chc(out, cfa);
  return out.str();
}

// z3's first output line on the clauses of `cfa` ("sat", "unsat", "unknown", "timeout").
std::string solve(const Cfa& cfa, const fs::path& file) {
  {
    std::ofstream out(file);
    write_chc(out, cfa);
  }
  const std::string cmd = "z3 -T:5 -smt2 '" + file.string() + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string first;
  char buf[256];
  if (fgets(buf, sizeof buf, p) != nullptr) first = buf;
  while (fgets(buf, sizeof buf, p) != nullptr) {
  }
  pclose(p);
  while (!first.empty() && (first.back() == '\n' || first.back() == '\r')) first.pop_back();
  return first;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

// A loop whose head H is entered after k straight-line statements and whose body has k
// statements: straight-line, or (branching) each one of two assignments under a
// condition, a chain of k diamonds with 2^k paths through one block.
std::string generated_model(int k, bool branching) {
  std::ostringstream m;
  m << "main process gen {\n  var x : int\n  var y : int\n  var n : int\n"
    << "  init loc L0\n  loc H\n  error loc ERR\n  final loc END\n";
  for (int i = 0; i < k; ++i) m << "  loc A" << i << "\n  loc B" << i << '\n';
  m << "  L0 -> A0 { x := 0  y := 0 }\n";
  for (int i = 0; i + 1 < k; ++i) m << "  A" << i << " -> A" << i + 1 << " { x := x + 1 }\n";
  m << "  A" << k - 1 << " -> H { y := x }\n  H -> B0 { assume y < n }\n";
  for (int i = 0; i + 1 < k; ++i) {
    if (branching) {
      m << "  B" << i << " -> B" << i + 1 << " { assume x > " << i << "  y := y + 1 }\n";
      m << "  B" << i << " -> B" << i + 1 << " { assume not (x > " << i << ")  y := y + 2 }\n";
    } else {
      m << "  B" << i << " -> B" << i + 1 << " { y := y + 1 }\n";
    }
  }
  m << "  B" << k - 1 << " -> H { x := x + 1 }\n"
    << "  H -> ERR { assume y < x }\n  H -> END { assume y >= n }\n}\n";
  return m.str();
}

}  // namespace

TEST_CASE("write_chc: z3 solves the clauses of the repository's models with their verdicts") {
  if (!z3_or_skip("z3 on the models' clauses")) return;
  TempDir tmp;
  const std::string models = PRECIS_TEST_MODELS;
  const std::string tasks = PRECIS_TASKS;
  const std::vector<std::string> dirs{models, models + "/box", models + "/product",
                                      tasks + "/theta"};
  // Decided by z3 4.8.12 (Debian 12) in well under a second each; must stay decided.
  const std::set<std::string> required{"count_to_ten_safe",
                                       "count_to_ten_unsafe",
                                       "nested_loops_safe",
                                       "nested_loops_unsafe",
                                       "uninit_unsafe",
                                       "havoc_abs_safe",
                                       "bool_flags_safe",
                                       "bool_flags_unsafe",
                                       "euclid_mod_unsafe",
                                       "mod_range_safe",
                                       "big_int_no_wrap_safe",
                                       "big_input_unsafe",
                                       "pred_relational_unsafe",
                                       "toggle_safe",
                                       "count_to_7_unsafe",
                                       "locking",
                                       "ifelse",
                                       "arithmetic-int",
                                       "arithmetic-mod",
                                       "arithmetic-bool00"};
  int decided = 0, sat = 0, unsat = 0, eligible = 0;
  std::set<std::string> decided_names;
  for (const auto& dir : dirs) {
    for (const auto& m : testing::read_verdicts(dir + "/verdicts.tsv")) {
      if (m.verdict != "SAFE" && m.verdict != "UNSAFE") continue;
      CAPTURE(m.name);
      std::optional<Cfa> cfa;
      try {
        cfa.emplace(read_cfa_file(dir + "/" + m.name + ".cfa"));
      } catch (const input_error& e) {  // Theta's bit-vector models
        MESSAGE("not read by precis: " << std::string(e.what()));
        continue;
      }
      ++eligible;
      const std::string answer = solve(*cfa, tmp.path / (m.name + ".smt2"));
      if (answer != "sat" && answer != "unsat") {
        MESSAGE("z3 did not decide " << m.name << ": " << answer);
        continue;
      }
      CHECK(answer == (m.verdict == "SAFE" ? "sat" : "unsat"));
      ++decided;
      (answer == "sat" ? sat : unsat)++;
      decided_names.insert(m.name);
    }
  }
  MESSAGE("z3 decided " << decided << " of " << eligible << " models (" << sat << " sat, " << unsat
                        << " unsat)");
  for (const auto& name : required) {
    CAPTURE(name);
    CHECK(decided_names.count(name) == 1);
  }
  CHECK(decided >= 35);
  CHECK(sat >= 20);
  CHECK(unsat >= 12);
}

TEST_CASE("write_chc: every operator prints with precis' semantics (Euclidean / mod, rem)") {
  // The inputs are fixed by assumptions that constant propagation does not turn into
  // constants (two inequalities), so z3 evaluates the printed operators itself.
  auto model = [](bool facts_reach_error) {
    auto em = std::make_shared<ExprManager>();
    Cfa cfa(em);
    ExprManager& e = *em;
    const Term a = e.var(e.declare("a", Type::Int));
    const Term c = e.var(e.declare("c", Type::Int));
    const Term p = e.var(e.declare("p", Type::Bool));
    const Term q = e.var(e.declare("q", Type::Bool));
    auto k = [&](std::int64_t v) { return e.int_val(v); };
    const Loc l0 = cfa.add_location("L0");
    const Loc l1 = cfa.add_location("L1");
    const Loc err = cfa.add_location("ERR");
    cfa.set_initial(l0);
    cfa.set_error(err);
    // a = -7, c = 0, p = true, q = false
    const std::vector<Term> pin{e.ge(a, k(-7)), e.le(a, k(-7)),          e.ge(c, k(0)),
                                e.le(c, k(0)),  e.iff(p, e.lt(a, k(0))), e.iff(q, e.gt(a, k(0)))};
    cfa.add_edge(l0, l1, Assume{e.conj(pin)});
    const std::int64_t min = std::numeric_limits<std::int64_t>::min();
    const std::vector<Term> facts{e.eq(e.div(a, k(3)), k(-3)),
                                  e.eq(e.mod(a, k(3)), k(2)),
                                  e.eq(e.rem(a, k(3)), k(2)),
                                  e.eq(e.div(a, k(-3)), k(3)),
                                  e.eq(e.mod(a, k(-3)), k(2)),
                                  e.eq(e.rem(a, k(-3)), k(-2)),
                                  e.eq(e.div(e.neg(a), k(2)), k(3)),
                                  e.eq(e.mod(e.neg(a), k(-2)), k(1)),
                                  e.eq(e.mul(a, k(-2)), k(14)),
                                  e.eq(e.sub(a, k(1)), k(-8)),
                                  e.neq(a, k(7)),
                                  e.eq(e.ite(p, a, c), k(-7)),
                                  e.xor_(p, q),
                                  e.iff(p, e.not_(q)),
                                  e.imply(q, e.false_()),
                                  e.eq(e.add(c, k(min)), k(min)),
                                  e.lt(e.add(a, k(min)), k(min)),
                                  e.eq(p, e.not_(q))};
    const Term all = e.conj(facts);
    cfa.add_edge(l1, err, Assume{facts_reach_error ? all : e.not_(all)});
    return cfa;
  };
  const std::string unsafe = chc_of(model(true));
  CHECK(unsafe.find("(div ") != std::string::npos);
  CHECK(unsafe.find("(ite (>= ") != std::string::npos);  // rem as cvc5_solver.hpp writes it
  CHECK(unsafe.find("(- 9223372036854775808)") != std::string::npos);
  if (!z3_or_skip("z3 on the operators' clauses")) return;
  TempDir tmp;
  CHECK(solve(model(true), tmp.path / "facts.smt2") == "unsat");   // the facts hold: UNSAFE
  CHECK(solve(model(false), tmp.path / "negated.smt2") == "sat");  // never violated: SAFE
}

TEST_CASE("write_chc: degenerate programs") {
  auto em = std::make_shared<ExprManager>();
  Cfa none(em);  // no error location
  const Loc a = none.add_location("A");
  const Loc b = none.add_location("B");
  none.set_initial(a);
  none.add_edge(a, b, Skip{});
  Cfa at_init(em);  // the initial location is the error location
  at_init.set_initial(at_init.add_location("E"));
  at_init.set_error(Loc{0});
  Cfa unreachable(em);  // the error location has no path from the initial one
  unreachable.set_initial(unreachable.add_location("I"));
  unreachable.set_error(unreachable.add_location("E"));
  for (const Cfa* c : {&none, &at_init, &unreachable}) {
    const std::string s = chc_of(*c);
    CHECK(s.find("(set-logic HORN)") != std::string::npos);
    CHECK(count(s, "(declare-fun ") >= 1);  // the format wants one
    CHECK(count(s, "false)))") == 1);       // and exactly one query
    CHECK(s.find("(check-sat)") != std::string::npos);
  }
  if (!z3_or_skip("z3 on the degenerate programs' clauses")) return;
  TempDir tmp;
  CHECK(solve(none, tmp.path / "none.smt2") == "sat");
  CHECK(solve(at_init, tmp.path / "init.smt2") == "unsat");
  CHECK(solve(unreachable, tmp.path / "unreachable.smt2") == "sat");
}

TEST_CASE("write_chc: one predicate per cutpoint, one clause per block, not per location") {
  for (bool branching : {false, true}) {
    CAPTURE(branching);
    const Cfa cfa = parse_cfa(generated_model(200, branching), "gen.cfa");
    const BlockOperator op(cfa, BlockPolicy::LoopHeads);
    const BlockGraph graph(cfa, op);
    const std::size_t cutpoints = op.reachable_points().size();  // L0, H, ERR
    CHECK(cutpoints == 3);
    CHECK(cfa.num_locations() > 100 * cutpoints);
    const std::string s = chc_of(cfa);
    // A predicate for every cutpoint but the error location (the query's head is false).
    CHECK(count(s, "(declare-fun ") + 1 == cutpoints);
    // The initial fact and one clause per block: L0 -> H, H -> H, H -> ERR.
    CHECK(graph.blocks().size() == 3);
    CHECK(count(s, "(assert ") == graph.blocks().size() + 1);
    // H's predicate has the three live variables, L0's none.
    CHECK(s.find("(declare-fun P_H (Int Int Int) Bool)") != std::string::npos);
    CHECK(s.find("(declare-fun P_L0 () Bool)") != std::string::npos);
  }
}

TEST_CASE("write_chc: the output grows linearly with the program") {
  for (bool branching : {false, true}) {
    CAPTURE(branching);
    std::vector<double> size;
    for (int k : {50, 500, 5000})
      size.push_back(double(chc_of(parse_cfa(generated_model(k, branching), "gen.cfa")).size()));
    MESSAGE(std::string(branching ? "branching" : "straight-line")
            << ": " << size[0] << ", " << size[1] << ", " << size[2] << " bytes");
    // 10x and 100x the statements: about 10x and 100x the bytes (the SSA indices'
    // digits add a logarithmic factor); 2^5000 paths would not fit anywhere.
    CHECK(size[1] / size[0] >= 5);
    CHECK(size[1] / size[0] <= 15);
    CHECK(size[2] / size[0] >= 50);
    CHECK(size[2] / size[0] <= 150);
  }
}

}  // namespace chc_writer_test
