# The end-to-end suite runner precis-suite (suite_runner.cpp: POSIX fork/exec/wait4 and
# CLI11), built into <build>/bench. bench/CMakeLists.txt includes this; so does
# tests/CMakeLists.txt for the suite check when the benchmarks are not built.
include(PrecisCLI11)
add_executable(precis-suite ${CMAKE_CURRENT_LIST_DIR}/suite_runner.cpp)
target_link_libraries(precis-suite PRIVATE CLI11::CLI11)
target_compile_features(precis-suite PRIVATE cxx_std_20)
precis_target_options(precis-suite)
set_target_properties(precis-suite PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench)
# The CLI it drives by default: the one this build makes (overridable with --verify).
if(TARGET precis-verify)
  target_compile_definitions(precis-suite PRIVATE
                             PRECIS_VERIFY_DEFAULT="$<TARGET_FILE:precis-verify>")
  add_dependencies(precis-suite precis-verify)
endif()
