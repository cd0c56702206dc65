# The out-of-tree consumer check (CTest `consumer`): install the build tree into a
# temporary prefix, build tests/consumer against it with find_package(precis), run its
# programs on bundled models and check their verdicts, and check that README.md shows
# headline.cpp's snippet as it is.
#
#   cmake -DSRC=<repo> -DBUILD=<build tree> -DWORK=<scratch folder> -P run.cmake
cmake_policy(VERSION 3.25)
foreach(v SRC BUILD WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run.cmake needs -D${v}=...")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

# The README's library snippet is headline.cpp's, line for line.
file(READ ${SRC}/tests/consumer/headline.cpp code)
string(REGEX MATCH "// README: begin\n(.*)  // README: end" _ "${code}")
set(snippet "${CMAKE_MATCH_1}")
string(REGEX REPLACE "(^|\n)  " "\\1" snippet "${snippet}")
file(READ ${SRC}/README.md readme)
string(FIND "${readme}" "${snippet}" at)
if(snippet STREQUAL "" OR at EQUAL -1)
  message(FATAL_ERROR "README.md does not show tests/consumer/headline.cpp's snippet "
                      "(between '// README: begin' and '// README: end', unindented):\n${snippet}")
endif()

file(REMOVE_RECURSE ${WORK})
run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
run(${CMAKE_COMMAND} -S ${SRC}/tests/consumer -B ${WORK}/build -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_FLAGS_RELEASE=-O0 -DCMAKE_PREFIX_PATH=${WORK}/prefix
    -DPRECIS_TUTORIAL_DOMAIN_DIR=${SRC}/examples/domains)
run(${CMAKE_COMMAND} --build ${WORK}/build)

# Each program on a model: the first lines of its output must be `expected`.
function(expect program model expected)
  execute_process(COMMAND ${WORK}/build/${program} ${model} OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  string(FIND "${out}" "${expected}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "${program} ${model}: expected\n${expected}\ngot (exit ${rc}):\n${out}${err}")
  endif()
  message(STATUS "${program} ${model}: ok")
endfunction()
set(m ${SRC}/tests/models)
expect(headline ${m}/paper_fig1_safe.cfa "SAFE\n")
expect(headline ${m}/pred_fig2_4_safe.cfa "SAFE\n")
expect(headline ${m}/count_to_ten_unsafe.cfa "UNSAFE\nCounterexample")
expect(new_domain ${m}/congruence/count_by_4_safe.cfa "ai SAFE\nvinta SAFE\ncegar SAFE\n")
expect(new_domain ${m}/congruence/two_counters_safe.cfa "ai SAFE\nvinta SAFE\ncegar SAFE\n")
expect(new_domain ${m}/congruence/count_by_2_unsafe.cfa "ai UNKNOWN\nvinta UNSAFE\ncegar UNSAFE\n")
if(EXISTS ${WORK}/build/read_c)
  expect(read_c ${SRC}/tests/cli/main_argc_safe.c "SAFE\n")
  expect(read_c ${SRC}/tests/cli/main_argc_zero_unsafe.c "UNSAFE\n")
else()
  message(FATAL_ERROR "the installed package has no precis::cfront (the C front end)")
endif()
