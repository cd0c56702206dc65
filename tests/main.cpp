#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#if defined(__SANITIZE_ADDRESS__)
// cvc5's arithmetic library (CLN) keeps a few bytes from static initialisation alive
// until exit; that is not our leak.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libcln.so\nleak:libcvc5.so\nleak:libcvc5parser.so\n";
}
#endif
