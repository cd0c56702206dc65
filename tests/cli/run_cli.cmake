# Runs precis-verify on a model and checks the exit code and a pattern in its output.
#   cmake -DCLI=... -DMODEL=... -DRC=3 -DPATTERN=regex [-DARGS=...] -P run_cli.cmake
separate_arguments(extra UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${CLI} -q ${extra} ${MODEL}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
set(all "${out}${err}")
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "expected exit code ${RC}, got '${rc}'. Output:\n${all}")
endif()
if(NOT all MATCHES "${PATTERN}")
  message(FATAL_ERROR "output does not match '${PATTERN}':\n${all}")
endif()
if(all MATCHES "AddressSanitizer|runtime error:|Segmentation|terminate called")
  message(FATAL_ERROR "crash or sanitizer report:\n${all}")
endif()
# Every phase ends by its own limit: a run the watchdog ends is a defect of the phase
# that overran it (not checked for the sanitized build, whose instrumentation slows
# every phase).
if(err MATCHES "stopped by the watchdog" AND NOT CLI MATCHES "-san$")
  message(FATAL_ERROR "the watchdog ended the run:\n${err}")
endif()
string(REGEX MATCHALL "[^\n]*: error:[^\n]*" errors "${err}")
list(LENGTH errors n)
if(n GREATER 1)
  message(FATAL_ERROR "more than one error message:\n${err}")
endif()
message(STATUS "ok: exit ${rc}")
