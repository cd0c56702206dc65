// precis-verify --version: the release, the git revision the binary was built from, and
// what the build has. The revision comes from precis_verify_version.hpp, which the build
// writes from `git describe` (version.cmake); without it (a syntax check, a build
// outside a clone) the revision is "unknown".

#include <string>

#include "config.hpp"

#if __has_include("precis_verify_version.hpp")
#include "precis_verify_version.hpp"
#endif
#ifndef PRECIS_VERIFY_VERSION
#define PRECIS_VERIFY_VERSION "unknown"
#endif
#ifndef PRECIS_VERIFY_GIT
#define PRECIS_VERIFY_GIT "unknown"
#endif

#ifdef PRECIS_HAVE_CVC5
#include <cvc5/cvc5.h>
#endif

namespace precis_cli {

std::string version_text() {
  std::string text = "precis-verify " PRECIS_VERIFY_VERSION " (git " PRECIS_VERIFY_GIT ")\n";
#ifdef PRECIS_HAVE_CVC5
  text += "cvc5: " + cvc5::Solver().getVersion() + "\n";
#else
  text += "cvc5: without cvc5 (explicit values only)\n";
#endif
#ifdef PRECIS_HAVE_CFRONT
  text += "C front end: yes\n";
#else
  text += "C front end: no\n";
#endif
#if defined(__clang__)
  text += "compiler: clang " __clang_version__;
#elif defined(__GNUC__)
  text += "compiler: GCC " __VERSION__;
#else
  text += "compiler: unknown";
#endif
  return text;
}

}  // namespace precis_cli
