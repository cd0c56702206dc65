// precis::c::read_task on the task-definition formats SV-COMP has used:
// 1.0 (no options: C, ILP32), 1.1 (options language and data_model) and 2.0 are read;
// any other version is an input error at the version's position.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "precis/frontends/c/c_frontend.hpp"

namespace task_formats_test {

namespace fs = std::filesystem;

namespace {

const fs::path kMore = fs::path(PRECIS_SV_COMP_DIR "/../sv-comp-more").lexically_normal();

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string write(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(PRECIS_CFRONT_TEST_TMP) / "task_formats";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

const char* kProperties =
    "properties:\n"
    "  - property_file: ../properties/termination.prp\n"
    "    expected_verdict: true\n"
    "  - property_file: ../properties/unreach-call.prp\n"
    "    expected_verdict: false\n";

}  // namespace

// Every task definition of tests/tasks/sv-comp-more (formats 1.0, 1.1 and 2.0) gives the
// verdict verdicts.tsv records, its program, and the data model it declares (ILP32 when
// it declares none).
TEST_CASE("read_task: every sv-comp-more task of format 1.0, 1.1 and 2.0") {
  REQUIRE(fs::is_directory(kMore));
  std::map<std::string, bool> expected;
  {
    std::ifstream tsv(kMore / "verdicts.tsv");
    REQUIRE(tsv);
    std::string line;
    std::getline(tsv, line);  // header: task, unreach_call
    while (std::getline(tsv, line)) {
      if (line.empty()) continue;
      const auto tab = line.find('\t');
      REQUIRE(tab != std::string::npos);
      const std::string v = line.substr(tab + 1);
      REQUIRE((v == "true" || v == "false"));
      expected[line.substr(0, tab)] = v == "true";
    }
  }
  std::vector<fs::path> ymls;
  for (const auto& d : fs::recursive_directory_iterator(kMore))
    if (d.path().extension() == ".yml") ymls.push_back(d.path());
  std::sort(ymls.begin(), ymls.end());
  CHECK(ymls.size() == expected.size());

  std::map<std::string, int> versions;
  for (const fs::path& yml : ymls) {
    const std::string rel = fs::relative(yml, kMore).generic_string();
    CAPTURE(rel);
    const std::string text = slurp(yml);
    for (const char* v : {"1.0", "1.1", "2.0"})
      if (text.find(std::string("format_version: '") + v + "'") != std::string::npos) ++versions[v];
    const precis::c::Task task = precis::c::read_task(yml.string());
    REQUIRE(expected.count(rel) == 1);
    REQUIRE(task.expected_verdict.has_value());
    CHECK(*task.expected_verdict == expected[rel]);
    CHECK(fs::is_regular_file(task.c_file));
    const bool lp64 = text.find("data_model: LP64") != std::string::npos;
    CHECK(task.data_model == (lp64 ? precis::c::DataModel::LP64 : precis::c::DataModel::ILP32));
  }
  // The folder has tasks of every format (the README lists the six of 1.0).
  CHECK(versions["1.0"] == 6);
  CHECK(versions["1.1"] > 0);
  CHECK(versions["2.0"] > 0);
}

TEST_CASE("read_task: format 1.0 without options is C with ILP32") {
  const auto t = precis::c::read_task(write(
      "v10.yml", std::string("format_version: '1.0'\ninput_files: 'prog.c'\n") + kProperties));
  CHECK(fs::path(t.c_file).filename() == "prog.c");
  REQUIRE(t.expected_verdict.has_value());
  CHECK(*t.expected_verdict == false);
  CHECK(t.property_file == "../properties/unreach-call.prp");
  CHECK(t.data_model == precis::c::DataModel::ILP32);
}

TEST_CASE("read_task: format 1.1 and 2.0 with options") {
  for (const char* v : {"1.1", "2.0"}) {
    CAPTURE(v);
    for (const char* dm : {"ILP32", "LP64"}) {
      CAPTURE(dm);
      const auto t = precis::c::read_task(
          write(std::string("v") + v + dm + ".yml",
                std::string("format_version: '") + v + "'\ninput_files: 'prog.c'\n" + kProperties +
                    "options:\n  language: C\n  data_model: " + dm + "\n"));
      REQUIRE(t.expected_verdict.has_value());
      CHECK(*t.expected_verdict == false);
      CHECK(t.data_model ==
            (std::string(dm) == "LP64" ? precis::c::DataModel::LP64 : precis::c::DataModel::ILP32));
    }
  }
}

TEST_CASE("read_task: an unknown format version or language is an error with its position") {
  const auto expect_error = [](const std::string& path, std::size_t line, std::size_t column,
                               const std::string& words) {
    try {
      precis::c::read_task(path);
      FAIL("no error for " << path);
    } catch (const precis::input_error& e) {
      CHECK(e.position().file == path);
      CHECK(e.position().line == line);
      CHECK(e.position().column == column);
      CHECK(std::string(e.what()).find(words) != std::string::npos);
    }
  };
  expect_error(
      write("v30.yml", std::string("format_version: '3.0'\ninput_files: 'prog.c'\n") + kProperties),
      1, 17, "unsupported format_version '3.0'");
  expect_error(write("v09.yml", std::string("# old\nformat_version: 0.9\ninput_files: 'prog.c'\n") +
                                    kProperties),
               2, 17, "unsupported format_version '0.9'");
  expect_error(write("java.yml", std::string("format_version: '2.0'\ninput_files: 'prog.c'\n") +
                                     kProperties + "options:\n  language: Java\n"),
               9, 13, "unsupported language 'Java'");
}

}  // namespace task_formats_test
