// Every sv-comp task of tests/tasks/sv-comp translates, and its error location is
// reachable in the graph (every task calls reach_error somewhere).

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace tasks_test {

namespace fs = std::filesystem;

namespace {
std::vector<fs::path> task_files() {
  std::vector<fs::path> r;
  if (!fs::exists(PRECIS_SV_COMP_DIR)) return r;
  for (const auto& d : fs::recursive_directory_iterator(PRECIS_SV_COMP_DIR))
    if (d.path().extension() == ".yml") r.push_back(d.path());
  std::sort(r.begin(), r.end());
  return r;
}
}  // namespace

TEST_CASE("all sv-comp tasks translate") {
  auto tasks = task_files();
  REQUIRE(tasks.size() == 42);
  for (const auto& yml : tasks) {
    CAPTURE(yml.string());
    precis::c::Task task = precis::c::read_task(yml.string());
    CHECK(fs::exists(task.c_file));
    CHECK(task.expected_verdict.has_value());
    CHECK(task.data_model == precis::c::DataModel::ILP32);
    precis::c::TranslateOptions opt;
    opt.data_model = task.data_model;
    auto t0 = std::chrono::steady_clock::now();
    precis::Cfa cfa = precis::c::translate_file(task.c_file, opt);
    auto ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // Generous bound for a Debug build; the benchmark measures the Release time.
    CHECK(ms < 2000);
    CHECK(precis::test::error_reachable(cfa));
    CHECK(cfa.final_location().has_value());
  }
}

// The floating-point set (tests/tasks/sv-comp-floats): every task translates, or is
// refused at a position with what precis does not model (unions over floats, arrays of
// floats, long double, fesetround, the address of a float); none fails otherwise.
TEST_CASE("sv-comp-floats tasks translate or are refused with a position") {
  const fs::path dir = fs::path(PRECIS_SV_COMP_DIR) / ".." / "sv-comp-floats";
  REQUIRE(fs::exists(dir));
  std::size_t translated = 0, refused = 0;
  for (const auto& d : fs::recursive_directory_iterator(dir)) {
    if (d.path().extension() != ".yml") continue;
    CAPTURE(d.path().string());
    const precis::c::Task task = precis::c::read_task(d.path().string());
    precis::c::TranslateOptions opt;
    opt.data_model = task.data_model;
    try {
      const precis::Cfa cfa = precis::c::translate_file(task.c_file, opt);
      CHECK(precis::test::error_reachable(cfa));
      ++translated;
    } catch (const precis::input_error& e) {
      const std::string msg = e.what();
      CAPTURE(msg);
      CHECK(msg.find(": error: unsupported: ") != std::string::npos);
      CHECK(msg.find(fs::path(task.c_file).filename().string() + ":") != std::string::npos);
      ++refused;
    }
  }
  CHECK(translated + refused == 53);
  CHECK(translated >= 35);
}

}  // namespace tasks_test
