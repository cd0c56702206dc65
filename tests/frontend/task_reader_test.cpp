// precis::c::read_task on the forms of SV-COMP task files.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "precis/frontends/c/c_frontend.hpp"

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

TEST_CASE("read_task: no unreach-call property means no expected verdict") {
  auto p = write("b.yml",
                 "input_files: 'x.c'\nproperties:\n"
                 "  - property_file: ../properties/no-overflow.prp\n"
                 "    expected_verdict: true\n");
  auto t = precis::c::read_task(p);
  CHECK_FALSE(t.expected_verdict.has_value());
  CHECK(t.data_model == precis::c::DataModel::ILP32);
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
  CHECK_THROWS_AS(precis::c::read_task("/nonexistent/task.yml"), precis::input_error);
}
