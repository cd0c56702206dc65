// libFuzzer harness: the SV-COMP task reader precis::c::read_task on arbitrary bytes.
//
// read_task takes a path, so each input is written to a file in a private temporary
// folder first (one per fuzzer process, removed at exit). Expected outcomes: a Task or
// precis::input_error (precis::limit_reached is accepted too). Anything else is a
// finding: a crash, an ASan/UBSan report, another exception escaping (a YAML library's
// own exception, std::out_of_range, ...), a timeout or running out of memory. A Task
// that is returned must name the file that was read and a C file beside it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/frontends/c/c_frontend.hpp"

namespace {

std::filesystem::path g_dir;
std::string g_path;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz_task_reader: FINDING: %s\n", what.c_str());
  std::abort();
}

void remove_dir() {
  std::error_code ec;
  if (!g_dir.empty()) std::filesystem::remove_all(g_dir, ec);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string templ = (base / "precis-fuzz-task-XXXXXX").string();
  if (mkdtemp(templ.data()) == nullptr) {
    std::perror("fuzz_task_reader: mkdtemp");
    std::exit(2);
  }
  g_dir = templ;
  g_path = (g_dir / "task.yml").string();
  std::atexit(remove_dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(g_path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) finding("cannot write the temporary task file " + g_path);
  }
  try {
    const precis::c::Task task = precis::c::read_task(g_path);
    if (task.yml_file != g_path) finding("the task names another file: " + task.yml_file);
    if (task.c_file.empty()) finding("a task without a C file");
  } catch (const precis::input_error& e) {
    if (e.position().file.empty()) finding("input_error without a file: " + std::string(e.what()));
  } catch (const precis::limit_reached&) {
  }
  return 0;
}
