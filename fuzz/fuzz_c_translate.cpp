// libFuzzer harness: the C front end (clang parse + translation to a CFA) on arbitrary
// bytes, precis::c::translate_source(code, "fuzz.c", options).
//
// Expected outcomes: a CFA, precis::input_error (a parse error or "unsupported: ...")
// or precis::limit_reached. Anything else is a finding: a crash, an ASan/UBSan report
// in the front end, another exception escaping, a timeout or running out of memory.
// The options come from the input's length, so every combination of data model and
// block encoding is exercised without changing the program text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/frontends/c/c_frontend.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string code(reinterpret_cast<const char*>(data), size);
  precis::c::TranslateOptions options;
  options.data_model = (size & 1) != 0 ? precis::c::DataModel::LP64 : precis::c::DataModel::ILP32;
  options.large_block = (size & 2) != 0;
  try {
    const precis::Cfa cfa = precis::c::translate_source(code, "fuzz.c", options);
    if (cfa.num_locations() == 0) {
      std::fprintf(stderr, "fuzz_c_translate: FINDING: a CFA without locations\n");
      std::abort();
    }
  } catch (const precis::input_error&) {
  } catch (const precis::limit_reached&) {
  }
  return 0;
}
