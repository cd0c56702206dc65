# Finds the Parma Polyhedra Library (Debian: libppl-dev; C++ header ppl.hh) with GMP and
# its C++ binding, which PPL's coefficients are made of, and defines the imported target
# precis::libppl (include directories and the three libraries). Note: PPL is GPLv3; a
# program that links it is bound by the GPLv3. Only the polyhedra domain
# (precis/domains/relational/polyhedra.hpp) needs it.
find_path(PPL_INCLUDE_DIR NAMES ppl.hh)
find_path(GMPXX_INCLUDE_DIR NAMES gmpxx.h)
find_library(PPL_LIBRARY NAMES ppl)
find_library(GMPXX_LIBRARY NAMES gmpxx)
find_library(GMP_LIBRARY NAMES gmp)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PPL REQUIRED_VARS PPL_LIBRARY PPL_INCLUDE_DIR GMPXX_LIBRARY
                                                    GMPXX_INCLUDE_DIR GMP_LIBRARY)
if(PPL_FOUND AND NOT TARGET precis::libppl)
  add_library(precis::libppl UNKNOWN IMPORTED)
  set_target_properties(precis::libppl PROPERTIES
    IMPORTED_LOCATION "${PPL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PPL_INCLUDE_DIR};${GMPXX_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${GMPXX_LIBRARY};${GMP_LIBRARY}")
endif()
mark_as_advanced(PPL_INCLUDE_DIR GMPXX_INCLUDE_DIR PPL_LIBRARY GMPXX_LIBRARY GMP_LIBRARY)
