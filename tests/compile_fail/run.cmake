# One compile-fail check (CTest `compile_fail:NAME`): compiling SOURCE must fail, and the
# compiler's output must name each of EXPECT (the concept the program breaks, the
# expression it lacks; a ;-list) within its first
# FIRST_LINES lines, so that a user's mistake is reported by the concept's name.
#
#   cmake -DCXX=... -DINCLUDE=<repo>/include -DSOURCE=... -DEXPECT=... -P run.cmake
cmake_policy(VERSION 3.25)
execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -I${INCLUDE}
                        ${SOURCE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled; it must not")
endif()
string(REPLACE "\n" ";" lines "${err}")
list(LENGTH lines n)
if(NOT DEFINED FIRST_LINES)
  set(FIRST_LINES 20)
endif()
if(n GREATER FIRST_LINES)
  list(SUBLIST lines 0 ${FIRST_LINES} lines)
endif()
string(JOIN "\n" head ${lines})
foreach(e IN LISTS EXPECT)
  string(FIND "${head}" "${e}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the first ${FIRST_LINES} lines of the error do not name ${e}:\n${head}")
  endif()
endforeach()
message(STATUS "fails as it should, naming ${EXPECT}:\n${head}")
