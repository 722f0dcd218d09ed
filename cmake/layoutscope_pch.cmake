# Precompiled headers (issue 25 item 13: CI compiles the engine three times and the views twice, and most of a
# small source's compile time is parsing the same standard and Qt headers). Measured on this project's build
# machine (GCC 12, -O2 -g): an engine source 3.2 s -> 2.4 s with the standard headers precompiled, a views
# source 5.5 s -> 2.8 s with the Qt ones. LAYOUTSCOPE_PCH=OFF builds without them (every source still names
# what it includes).
option(LAYOUTSCOPE_PCH "precompile the standard headers of the engine and the Qt headers of the views" ON)

# The standard headers most engine sources include (counted over engine/src and engine/include).
set(LAYOUTSCOPE_STD_PCH_HEADERS
  <algorithm> <array> <bit> <cmath> <cstdint> <cstdio> <cstring> <functional> <map> <memory> <optional>
  <set> <span> <sstream> <string> <string_view> <unordered_map> <variant> <vector>)
# The Qt headers most views and GUI-test sources include.
set(LAYOUTSCOPE_QT_PCH_HEADERS
  <QApplication> <QComboBox> <QDir> <QDockWidget> <QFile> <QFileInfo> <QHBoxLayout> <QImage> <QLabel>
  <QMainWindow> <QMenu> <QPainter> <QPushButton> <QStatusBar> <QString> <QTimer> <QVBoxLayout> <QWidget>)

# GCC 12 with a precompiled <string> reports -Warray-bounds, -Wstringop-overflow and -Wstringop-overread in libstdc++'s
# char_traits::copy for `s.substr(...) + "..."`-style concatenations (engine/src/async/report.cpp:118,
# exec/decode_async.cpp:165, ...); the same sources compiled without the PCH report nothing. Known GCC 12
# false positives in libstdc++'s string code: off for GCC 12 only, with the PCH only.
function(layoutscope_pch_gcc12_quirk target)
  set(gcc12 "$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>")
  target_compile_options(${target} PRIVATE "$<${gcc12}:-Wno-array-bounds>" "$<${gcc12}:-Wno-stringop-overflow>"
                                           "$<${gcc12}:-Wno-stringop-overread>")
endfunction()

function(layoutscope_std_pch target)
  if(LAYOUTSCOPE_PCH)
    target_precompile_headers(${target} PRIVATE ${LAYOUTSCOPE_STD_PCH_HEADERS})
    layoutscope_pch_gcc12_quirk(${target})
  endif()
endfunction()

function(layoutscope_qt_pch target)
  if(LAYOUTSCOPE_PCH)
    target_precompile_headers(${target} PRIVATE ${LAYOUTSCOPE_STD_PCH_HEADERS} ${LAYOUTSCOPE_QT_PCH_HEADERS})
    layoutscope_pch_gcc12_quirk(${target})
  endif()
endfunction()

# Unity builds of the libraries (issue 25 item 13): CI compiles the engine three times (release, the fuzzers'
# clang build, ASan), and most of a small engine source's compile time goes to the headers and templates every
# source shares: a batch of 8 engine sources took 7.9 CPU-s as one translation unit against 16.4 s apart.
# The groups are cmake/unity_groups.cmake, written by scripts/unity-groups: no two sources of a group declare a
# file-scope name in common, and a source no group names compiles on its own (UNITY_BUILD_MODE GROUP). After
# adding or renaming a source, run scripts/unity-groups (a test checks that the file is current).
# -DLAYOUTSCOPE_UNITY=OFF builds every source on its own (what an incremental developer build may prefer).
option(LAYOUTSCOPE_UNITY "compile the libraries' sources in unity-build groups (cmake/unity_groups.cmake)" ON)
get_filename_component(LAYOUTSCOPE_UNITY_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
# layoutscope_unity(target [AS groups-target]): the groups written for groups-target (default: target itself).
function(layoutscope_unity target)
  cmake_parse_arguments(U "" "AS" "" ${ARGN})
  if(NOT LAYOUTSCOPE_UNITY)
    return()
  endif()
  if(NOT U_AS)
    set(U_AS ${target})
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  set(_unity_target ${U_AS})
  set(_unity_prefix ${target})
  include(${LAYOUTSCOPE_UNITY_ROOT}/cmake/unity_groups.cmake)
endfunction()
# Called by cmake/unity_groups.cmake inside layoutscope_unity: sources relative to the repository's root.
macro(layoutscope_unity_group group_target index)
  if("${group_target}" STREQUAL "${_unity_target}")
    set(_unity_sources)
    foreach(_src ${ARGN})
      list(APPEND _unity_sources ${LAYOUTSCOPE_UNITY_ROOT}/${_src})
    endforeach()
    set_source_files_properties(${_unity_sources} PROPERTIES UNITY_GROUP ${_unity_prefix}_${index})
  endif()
endmacro()
