#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#if defined(__SANITIZE_ADDRESS__)
// cvc5's arithmetic library (CLN) keeps a few bytes from static initialisation alive
// until exit; that is not our leak.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\nleak:libcvc5.so\nleak:libcvc5parser.so\n";
}
#endif

int main(int argc, char** argv) {
  doctest::Context context;
#if defined(__SANITIZE_ADDRESS__)
  // Sweeps (test suite "sweep": the same analyses over every bundled model, a bug at depth
  // 1,000) run in the plain build only: under the sanitizers they took a third of CI's
  // test time and run no code that the suite's other tests do not run too.
  context.addFilter("test-suite-exclude", "sweep");
#endif
  context.applyCommandLine(argc, argv);
  return context.run();
}
