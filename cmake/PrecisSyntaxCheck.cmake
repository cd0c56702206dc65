# Syntax checks of single files (tests/CMakeLists.txt: every header compiles on its own,
# precis-verify compiles without cvc5): each file is compiled with -fsyntax-only, and a
# stamp file records success.
#
# Most of a check's time is spent in two third-party headers, Boost.Multiprecision's
# cpp_int.hpp (through core/big_int.hpp) and cvc5's cvc5.h. With GCC, a file whose own
# include closure reaches them is checked with a precompiled header of exactly those
# (a `.gch` built once). That hides nothing the check exists to find: the file includes
# them anyway, so every declaration the precompiled header makes visible is visible to the
# file without it; only the order differs, and each header included before them is checked
# on its own. A file whose closure does not reach them is checked without it.
#
#   precis_syntax_check_setup(FLAGS...)   the compiler flags of every check
#   precis_syntax_check(SRC NAME COMMENT [EXTRA FLAGS...])
#   ${PRECIS_SYNTAX_CHECK_STAMPS}        the stamps, for a custom target

include_guard(GLOBAL)

# The files a file includes outside #if blocks: "precis/..." and local "x.hpp" resolved
# to paths, the rest kept as <name>. A conditional include is left out, so that the
# closure never claims a header the check may not see (precis-verify's sources include
# the SMT layer under #ifdef PRECIS_HAVE_CVC5, and one check compiles them without it).
function(_precis_direct_includes file out)
  get_property(known GLOBAL PROPERTY "_precis_inc:${file}" SET)
  if(known)
    get_property(result GLOBAL PROPERTY "_precis_inc:${file}")
    set(${out} "${result}" PARENT_SCOPE)
    return()
  endif()
  file(STRINGS ${file} lines REGEX "^[ \t]*#[ \t]*(if|endif|include)")
  get_filename_component(dir ${file} DIRECTORY)
  set(result)
  set(depth 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*#[ \t]*if")
      math(EXPR depth "${depth} + 1")
    elseif(line MATCHES "^[ \t]*#[ \t]*endif")
      math(EXPR depth "${depth} - 1")
    elseif(depth EQUAL 0 AND line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]")
      set(inc ${CMAKE_MATCH_1})
      if(EXISTS ${dir}/${inc} AND NOT IS_DIRECTORY ${dir}/${inc})
        list(APPEND result ${dir}/${inc})
      elseif(EXISTS ${PROJECT_SOURCE_DIR}/include/${inc})
        list(APPEND result ${PROJECT_SOURCE_DIR}/include/${inc})
      else()
        list(APPEND result "<${inc}>")
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "_precis_inc:${file}" "${result}")
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# Sets `out` to the third-party headers among `wanted` that `file` reaches.
function(_precis_reached_externals file wanted out)
  set(seen)
  set(todo ${file})
  set(found)
  while(todo)
    list(POP_FRONT todo f)
    if(f IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${f})
    _precis_direct_includes(${f} incs)
    foreach(inc IN LISTS incs)
      if(inc MATCHES "^<(.*)>$")
        if(CMAKE_MATCH_1 IN_LIST wanted AND NOT CMAKE_MATCH_1 IN_LIST found)
          list(APPEND found ${CMAKE_MATCH_1})
        endif()
      elseif(NOT inc IN_LIST seen)
        list(APPEND todo ${inc})
      endif()
    endforeach()
  endwhile()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

set(PRECIS_SYNTAX_CHECK_STAMPS)
set(_precis_pch_dir ${CMAKE_CURRENT_BINARY_DIR}/syntax_check_pch)

function(precis_syntax_check_setup)
  set(_precis_check_flags ${ARGN} PARENT_SCOPE)
  set(_precis_pch_headers)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(_precis_pch_headers boost/multiprecision/cpp_int.hpp)
    if(PRECIS_HAVE_CVC5)
      list(APPEND _precis_pch_headers cvc5/cvc5.h)
    endif()
  endif()
  set(_precis_pch_headers ${_precis_pch_headers} PARENT_SCOPE)
endfunction()

# The precompiled header of `headers` (a list of <names>), built once; sets `out` to the
# header to pass with -include (GCC finds `NAME.gch` beside it).
function(_precis_pch headers out)
  string(JOIN "_" id ${headers})
  string(MAKE_C_IDENTIFIER "${id}" id)
  set(hdr ${_precis_pch_dir}/${id}.hpp)
  get_property(made GLOBAL PROPERTY "_precis_pch:${id}" SET)
  if(NOT made)
    set_property(GLOBAL PROPERTY "_precis_pch:${id}" ON)
    set(text "// The third-party headers of precis's syntax checks (cmake/PrecisSyntaxCheck.cmake).\n")
    foreach(h IN LISTS headers)
      string(APPEND text "#include <${h}>\n")
    endforeach()
    file(CONFIGURE OUTPUT ${hdr} CONTENT "${text}")
    set(flags ${_precis_check_flags})
    list(REMOVE_ITEM flags -fsyntax-only)
    add_custom_command(OUTPUT ${hdr}.gch
      COMMAND ${CMAKE_CXX_COMPILER} ${flags} -x c++-header ${hdr} -o ${hdr}.gch
      DEPENDS ${hdr}
      IMPLICIT_DEPENDS CXX ${hdr}
      COMMENT "precompiled header of the syntax checks: ${id}"
      VERBATIM)
  endif()
  set(${out} ${hdr} PARENT_SCOPE)
endfunction()

# Checks that `src` compiles with the setup's flags and the extra ones; `name` names the
# stamp, `comment` is what the build prints.
function(precis_syntax_check src name comment)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/header_alone/${name}.ok)
  set(pch_flags)
  set(pch_depends)
  if(_precis_pch_headers)
    _precis_reached_externals(${src} "${_precis_pch_headers}" reached)
    # The precompiled header must come first: only where the file reaches cpp_int.hpp.
    if("boost/multiprecision/cpp_int.hpp" IN_LIST reached)
      set(use)
      foreach(h IN LISTS _precis_pch_headers)
        if(h IN_LIST reached)
          list(APPEND use ${h})
        endif()
      endforeach()
      _precis_pch("${use}" hdr)
      set(pch_flags -include ${hdr})
      set(pch_depends ${hdr}.gch)
    endif()
  endif()
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_CXX_COMPILER} ${_precis_check_flags} ${ARGN} ${pch_flags} ${src}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${src} ${pch_depends}
    IMPLICIT_DEPENDS CXX ${src}
    COMMENT "${comment}"
    VERBATIM)
  set(PRECIS_SYNTAX_CHECK_STAMPS ${PRECIS_SYNTAX_CHECK_STAMPS} ${stamp} PARENT_SCOPE)
endfunction()
