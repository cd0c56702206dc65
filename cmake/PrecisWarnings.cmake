# Warning and sanitizer flags for the project's own programs (tests, examples, bench).
# The INTERFACE library itself imposes no flags on its users.
function(precis_target_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(PRECIS_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(PRECIS_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
