# Warning and sanitizer flags for the project's own programs (tests, examples, bench).
# The INTERFACE library imposes on its users only -ffp-contract=off (CMakeLists.txt).
function(precis_target_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(PRECIS_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # GCC 12's flow-based warnings misfire inside Boost's small_vector and optional
      # at -O1/-O2, and inside std::string's memcpy when a string is concatenated with
      # a path literal (-Warray-bounds, -Wrestrict: whether they fire depends on the
      # optimisation level and on the length of the clone's path); they stay warnings,
      # not errors.
      target_compile_options(${target} PRIVATE -Wno-error=maybe-uninitialized
                             -Wno-error=stringop-overread -Wno-error=stringop-overflow
                             -Wno-error=array-bounds -Wno-error=restrict)
    endif()
  endif()
  if(PRECIS_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
