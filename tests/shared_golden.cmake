# Extra conformance tests over a golden/ folder outside the repository (../shared/golden beside the
# checkout, when present). The repository keeps the public sets in tests/data/golden and always
# replays those; this adds one test per further file found under <shared>/{tma,ptxas,cute,banks}:
#   conform.shared.<kind>.<file name>   layoutscope-cli conform <kind> <file>, must end "N passed, 0 failed".
# Files byte-identical to the repository's copy are skipped (they already run as conform.<kind>...).
# Globbed with CONFIGURE_DEPENDS, so a set added to ../shared later is picked up by the next build.
function(layoutscope_add_shared_golden_tests shared_golden repo_golden)
  if(NOT IS_DIRECTORY "${shared_golden}")
    message(STATUS "Golden sets: ${repo_golden} only (no ${shared_golden})")
    return()
  endif()
  set(added 0)
  set(same 0)
  foreach(kind tma ptxas cute banks)
    if(kind STREQUAL "cute")
      file(GLOB files CONFIGURE_DEPENDS "${shared_golden}/${kind}/*.json")
    else()
      file(GLOB files CONFIGURE_DEPENDS "${shared_golden}/${kind}/*.jsonl" "${shared_golden}/${kind}/*.jsonl.gz")
    endif()
    foreach(f ${files})
      get_filename_component(name "${f}" NAME)
      set(mine "${repo_golden}/${kind}/${name}")
      if(EXISTS "${mine}")
        file(SHA256 "${f}" h_shared)
        file(SHA256 "${mine}" h_mine)
        if(h_shared STREQUAL h_mine)
          math(EXPR same "${same} + 1")
          continue()
        endif()
      endif()
      string(REGEX REPLACE "\\.(jsonl\\.gz|jsonl|json)$" "" stem "${name}")
      add_test(NAME conform.shared.${kind}.${stem} COMMAND layoutscope-cli conform ${kind} "${f}")
      set_tests_properties(conform.shared.${kind}.${stem} PROPERTIES
        PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed" TIMEOUT 600)
      math(EXPR added "${added} + 1")
    endforeach()
  endforeach()
  message(STATUS "Golden sets: ${repo_golden}, plus ${added} further file(s) of ${shared_golden} "
                 "(${same} identical to the repository's copy, not run twice)")
endfunction()
