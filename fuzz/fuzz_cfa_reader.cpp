// libFuzzer harness: the .cfa reader on arbitrary bytes.
//
// Expected outcomes: a CFA, precis::input_error or precis::limit_reached. Anything else
// is a finding: a crash, an ASan/UBSan report, another exception escaping, a timeout or
// running out of memory. Two more oracles:
//  - an input_error names the file and a position inside the text (line 1..lines,
//    column 1..length of that line + 1);
//  - a CFA that was read is written back (precis/io/cfa_writer.hpp) and the text read
//    again: it must parse, have the same shape, and writing it again gives the same
//    text (set PRECIS_FUZZ_NO_ROUND_TRIP=1 to fuzz the reader alone).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/cfa_writer.hpp"

namespace {

bool g_round_trip = true;

[[noreturn]] void finding(const std::string& what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz_cfa_reader: FINDING: %s\n", what.c_str());
  if (!detail.empty())
    std::fprintf(stderr, "----\n%.*s\n----\n", static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// Line and column (1-based, bytes; a leading byte-order mark does not count) must lie
// inside the text or just after its last character.
void check_position(std::string_view text, const precis::input_error& e) {
  const auto& pos = e.position();
  if (pos.file != "fuzz.cfa") finding("input_error names another file: " + std::string(e.what()));
  if (pos.line == 0 || pos.column == 0)
    finding("input_error without a position: " + std::string(e.what()));
  std::size_t line = 1, start = 0;
  if (text.starts_with("\xEF\xBB\xBF")) start = 3;
  for (std::size_t i = start; i < text.size() && line < pos.line; ++i)
    if (text[i] == '\n') {
      ++line;
      start = i + 1;
    }
  if (line != pos.line) finding("input_error line beyond the text: " + std::string(e.what()));
  std::size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  if (pos.column > end - start + 1)
    finding("input_error column beyond its line: " + std::string(e.what()));
  const std::string prefix =
      "fuzz.cfa:" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": error: ";
  if (std::string_view(e.what()).substr(0, prefix.size()) != prefix)
    finding("input_error message is not 'file:line:col: error: ...': " + std::string(e.what()));
}

std::string written(const precis::Cfa& c) {
  std::ostringstream os;
  precis::write_cfa(os, c);
  return os.str();
}

void check_round_trip(const precis::Cfa& a) {
  const std::string text = written(a);
  std::optional<precis::Cfa> b;
  try {
    b.emplace(precis::parse_cfa(text, "written.cfa"));
  } catch (const std::exception& e) {
    finding(std::string("the written CFA does not read back: ") + e.what(), text);
  }
  if (b->num_locations() != a.num_locations() || b->num_edges() != a.num_edges() ||
      b->variables().size() != a.variables().size())
    finding("the written CFA reads back with another shape", text);
  if (written(*b) != text) finding("writing is not a fixpoint after one round", text);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* v = std::getenv("PRECIS_FUZZ_NO_ROUND_TRIP");
  g_round_trip = v == nullptr || *v == '\0' || *v == '0';
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<precis::Cfa> cfa;
  try {
    cfa.emplace(precis::parse_cfa(text, "fuzz.cfa"));
  } catch (const precis::input_error& e) {
    check_position(text, e);
    return 0;
  } catch (const precis::limit_reached&) {
    return 0;
  }
  if (g_round_trip) check_round_trip(*cfa);
  return 0;
}
