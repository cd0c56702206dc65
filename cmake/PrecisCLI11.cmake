# CLI11 (Debian: libcli11-dev) as the target CLI11::CLI11: its CMake package where it
# ships one, else its header folder. For precis-verify and precis-suite.
if(NOT TARGET CLI11::CLI11)
  find_package(CLI11 QUIET CONFIG)
endif()
if(NOT TARGET CLI11::CLI11)
  find_path(CLI11_INCLUDE_DIR NAMES CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE_DIR})
endif()
