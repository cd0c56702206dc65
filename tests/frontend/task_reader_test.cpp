// precis::c::read_task on the forms of SV-COMP task files.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "precis/frontends/c/c_frontend.hpp"

namespace task_reader_test {

namespace fs = std::filesystem;

namespace {
std::string write(const std::string& name, const std::string& text) {
  fs::path dir = fs::path(PRECIS_CFRONT_TEST_TMP) / "tasks";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}
}  // namespace

TEST_CASE("read_task: list of input files + several properties + LP64") {
  auto p = write("a.yml", R"(format_version: '2.0'
# a comment
input_files:
  - 'sub/prog.c'   # trailing comment
properties:
  - property_file: ../properties/termination.prp
    expected_verdict: false
  - property_file: ../properties/unreach-call.prp
    expected_verdict: true
options:
  language: C
  data_model: LP64
)");
  auto t = precis::c::read_task(p);
  CHECK(fs::path(t.c_file) == (fs::path(p).parent_path() / "sub" / "prog.c"));
  CHECK(t.property_file == "../properties/unreach-call.prp");
  REQUIRE(t.expected_verdict.has_value());
  CHECK(*t.expected_verdict == true);
  CHECK(t.data_model == precis::c::DataModel::LP64);
}

// precis checks unreach-call: a task with only other properties (or none) is
// unsupported, never verified for reachability.
TEST_CASE("read_task: a task without unreach-call is unsupported") {
  auto check_unsupported = [](const std::string& path, const std::string& names, std::size_t line) {
    try {
      precis::c::read_task(path);
      FAIL("no error for " << path);
    } catch (const precis::input_error& e) {
      const std::string what = e.what();
      CHECK(what.find("unsupported property") != std::string::npos);
      CHECK(what.find(names) != std::string::npos);
      CHECK(e.position().line == line);
    }
  };
  check_unsupported(write("b.yml",
                          "input_files: 'x.c'\nproperties:\n"
                          "  - property_file: ../properties/no-overflow.prp\n"
                          "    expected_verdict: true\n"),
                    "no-overflow", 3);
  check_unsupported(write("term.yml",
                          "input_files: 'x.c'\nproperties:\n"
                          "  - property_file: ../properties/termination.prp\n"
                          "    expected_verdict: true\n"
                          "  - property_file: ../properties/valid-memsafety.prp\n"
                          "    expected_verdict: false\n"),
                    "termination, valid-memsafety", 3);
  check_unsupported(write("none.yml", "format_version: '2.0'\ninput_files: 'x.c'\n"), "no property",
                    1);
}

TEST_CASE("read_task: YAML errors are positioned, valid YAML is accepted") {
  auto expect_error_at = [](const std::string& path, std::size_t line) {
    try {
      precis::c::read_task(path);
      FAIL("no error for " << path);
    } catch (const precis::input_error& e) {
      CHECK(e.position().line == line);
      CHECK(e.position().column > 0);
    }
  };
  const std::string prop =
      "properties:\n  - property_file: ../properties/unreach-call.prp\n"
      "    expected_verdict: true\n";
  expect_error_at(write("tab.yml", "input_files:\n\t- 'x.c'\n" + prop), 2);
  expect_error_at(write("quote.yml", "input_files: 'x.c\n" + prop), 1);  // where it opens
  expect_error_at(write("bracket.yml", "input_files: [ 'x.c'\n" + prop), 2);
  expect_error_at(write("type.yml", "input_files: {a: b}\n" + prop), 1);
  // Anchors and aliases: one property file named once and reused.
  auto t = precis::c::read_task(write("alias.yml",
                                      "format_version: '2.0'\ninput_files: &src 'prog.c'\n"
                                      "x-copy: *src\nproperties:\n"
                                      "  - property_file: &p ../properties/unreach-call.prp\n"
                                      "    expected_verdict: false\n  - property_file: *p\n"
                                      "    expected_verdict: false\n"));
  CHECK(fs::path(t.c_file).filename() == "prog.c");
  REQUIRE(t.expected_verdict.has_value());
  CHECK(*t.expected_verdict == false);
}

TEST_CASE("read_task: errors carry the position") {
  auto p = write("c.yml",
                 "input_files: 'x.c'\nproperties:\n"
                 "  - property_file: ../properties/unreach-call.prp\n"
                 "    expected_verdict: maybe\n");
  try {
    precis::c::read_task(p);
    FAIL("no error");
  } catch (const precis::input_error& e) {
    CHECK(e.position().line == 4);
    CHECK(std::string(e.what()).find("expected_verdict must be true or false") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(precis::c::read_task(write("d.yml", "format_version: '2.0'\n")),
                  precis::input_error);
  CHECK_THROWS_AS(precis::c::read_task(write("v.yml", "format_version: '1.0'\ninput_files: x.c\n")),
                  precis::input_error);
  CHECK_THROWS_AS(precis::c::read_task("/nonexistent/task.yml"), precis::input_error);
}

}  // namespace task_reader_test
