# layoutscope_set_warnings(target): the project's warning set, per target.
function(layoutscope_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror=switch -Wno-missing-field-initializers)
  if(LAYOUTSCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
