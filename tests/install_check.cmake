# ctest install.prefix_layout (issue 15 item 6): `cmake --install BUILD --prefix PREFIX` into a scratch prefix,
# then the installed programs run from there: the CLI's --version and `run` on an installed example; with
# the GUI, `layoutscope --list-examples` must name PREFIX/share/layoutscope/scenarios (found relative to
# the executable, not the checkout) and a headless --export must write a PNG.
# -DBUILD=<build dir> -DPREFIX=<scratch prefix> -DGUI=ON|OFF -DVERSION=<project version>
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${PREFIX}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}${err}")
endif()

set(share "${PREFIX}/share/layoutscope")
set(example "${share}/scenarios/tma_tile_64x64_f16_sw128.scn")
set(expected bin/layoutscope-cli share/layoutscope/scenarios/tma_tile_64x64_f16_sw128.scn
    share/layoutscope/reviews/README.md share/layoutscope/lessons/01_tma_tile_sw128.lesson
    share/doc/layoutscope/README.md share/doc/layoutscope/docs/scenario-format.md
    share/doc/layoutscope/docs/ref/tma.md share/doc/layoutscope/docs/ref/open-questions.md)
if(GUI)
  list(APPEND expected bin/layoutscope share/applications/layoutscope.desktop
       share/icons/hicolor/scalable/apps/layoutscope.svg share/icons/hicolor/256x256/apps/layoutscope.png)
endif()
file(GLOB broken "${share}/scenarios/broken/*.scn")
if(NOT broken)
  message(FATAL_ERROR "no broken-kernel examples under ${share}/scenarios/broken")
endif()
foreach(f ${expected})
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "not installed: ${PREFIX}/${f}")
  endif()
endforeach()

function(expect_run name regex)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LAYOUTSCOPE_SCENARIOS_DIR QT_QPA_PLATFORM=offscreen ${ARGN}
                  WORKING_DIRECTORY "${PREFIX}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${regex}")
    message(FATAL_ERROR "${name}: status ${rc}, stdout does not match '${regex}':\n${out}\nstderr:\n${err}")
  endif()
  message(STATUS "${name}: ok")
endfunction()

string(REPLACE "." "\\." version_re "${VERSION}")
expect_run("layoutscope-cli --version" "^layoutscope-cli ${version_re}\n$" "${PREFIX}/bin/layoutscope-cli" --version)
expect_run("layoutscope-cli run <installed example>" "." "${PREFIX}/bin/layoutscope-cli" run "${example}")
# An installed lesson finds its scenario at ../scenarios (the Lessons menu reads share/layoutscope/lessons).
expect_run("layoutscope-cli lesson --check <installed lesson>" "ok \\(5 steps\\)"
           "${PREFIX}/bin/layoutscope-cli" lesson --check "${share}/lessons/01_tma_tile_sw128.lesson")
# Its citations name the reference pack installed with the docs (issue 24 item 9: no ../shared needed).
expect_run("layoutscope-cli lesson --check --ref <installed docs/ref>" "ok \\(5 steps\\)"
           "${PREFIX}/bin/layoutscope-cli" lesson --check --ref "${PREFIX}/share/doc/layoutscope/docs/ref"
           "${share}/lessons/01_tma_tile_sw128.lesson")
# The observe example's dump is installed beside it; `conform banks` finds the installed H100 records.
if(NOT EXISTS "${share}/scenarios/dumps/sA_64x8_from_kernel.bin")
  message(FATAL_ERROR "not installed: the dump tma_observed_dump.scn reads")
endif()
expect_run("layoutscope-cli conform banks (installed records)" "1004 passed, 0 failed" "${PREFIX}/bin/layoutscope-cli"
           conform banks)
if(GUI)
  file(REAL_PATH "${share}/scenarios" scenarios)
  string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" scenarios_re "${scenarios}")
  expect_run("layoutscope --list-examples" "^${scenarios_re}\n.*tma_tile_64x64_f16_sw128\\.scn.*broken/"
             "${PREFIX}/bin/layoutscope" --list-examples)
  file(REMOVE "${PREFIX}/x.png")
  expect_run("layoutscope --export" "" "${PREFIX}/bin/layoutscope" --scenario "${example}" --export "${PREFIX}/x.png")
  file(SIZE "${PREFIX}/x.png" png_size)
  if(png_size LESS 1000)
    message(FATAL_ERROR "the installed GUI's --export wrote ${png_size} bytes")
  endif()
endif()
