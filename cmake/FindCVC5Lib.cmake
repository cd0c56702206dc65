# Finds cvc5 (Debian: libcvc5-dev 1.0.x ships no CMake config) and defines the imported
# target precis::cvc5. Note: Debian's cvc5 is a GPLv3 build (it links CLN); a program
# that links it is bound by the GPLv3. The rest of precis does not need it.
find_path(CVC5_INCLUDE_DIR NAMES cvc5/cvc5.h)
find_library(CVC5_LIBRARY NAMES cvc5)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CVC5Lib REQUIRED_VARS CVC5_LIBRARY CVC5_INCLUDE_DIR)
if(CVC5Lib_FOUND AND NOT TARGET precis::cvc5)
  add_library(precis::cvc5 UNKNOWN IMPORTED)
  set_target_properties(precis::cvc5 PROPERTIES
    IMPORTED_LOCATION "${CVC5_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CVC5_INCLUDE_DIR}")
endif()
mark_as_advanced(CVC5_INCLUDE_DIR CVC5_LIBRARY)
