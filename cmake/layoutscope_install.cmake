# Install layout and the Debian package (issue 15 item 6). `cmake --install BUILD --prefix P` gives:
#   P/bin/layoutscope, P/bin/layoutscope-cli
#   P/share/layoutscope/scenarios/   the Examples menu (the GUI looks in <bin>/../share/layoutscope/scenarios)
#   P/share/layoutscope/reviews/     review packs for `layoutscope-cli compare`
#   P/share/layoutscope/lessons/     the Lessons menu (their `scenario: ../scenarios/...` paths resolve there)
#   P/share/doc/layoutscope/         README.md and docs/
#   P/share/applications/layoutscope.desktop, P/share/icons/hicolor/{scalable,256x256}/apps/layoutscope.*
# `scripts/package` runs CPack's DEB generator on top of it.
include(GNUInstallDirs)
# Installing (and CPack) needs only the installed targets, not the test suite: scripts/package builds
# layoutscope and layoutscope-cli, then packs; `ninja install` no longer builds every test first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

install(TARGETS layoutscope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET layoutscope)
  install(TARGETS layoutscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_SOURCE_DIR}/assets/layoutscope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${CMAKE_SOURCE_DIR}/assets/icons/layoutscope.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(FILES ${CMAKE_SOURCE_DIR}/assets/icons/layoutscope.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/256x256/apps)
endif()
# dumps/: the files the `observe` examples read (tma_observed_dump.scn).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/assets/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/layoutscope/scenarios
        FILES_MATCHING PATTERN "*.scn" PATTERN "*.md" PATTERN "*.bin" PATTERN "*.npy")
# The H100 bank-conflict records, for `layoutscope-cli conform banks` with no FILE.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/tests/data/golden/banks/ DESTINATION ${CMAKE_INSTALL_DATADIR}/layoutscope/golden/banks)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/assets/reviews/ DESTINATION ${CMAKE_INSTALL_DATADIR}/layoutscope/reviews
        FILES_MATCHING PATTERN "*.scn" PATTERN "*.md")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/assets/lessons/ DESTINATION ${CMAKE_INSTALL_DATADIR}/layoutscope/lessons
        FILES_MATCHING PATTERN "*.lesson" PATTERN "*.md")
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

# ---- CPack: layoutscope_<version>_<arch>.deb ----
set(LAYOUTSCOPE_PACKAGE_MAINTAINER "Layoutscope maintainers <maintainers@users.noreply.a-seed-ceb46cd5.example>"
    CACHE STRING "Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME layoutscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Layoutscope")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "visualizer of NVIDIA TMA and tcgen05 data movement")
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Layoutscope shows, byte by byte, what NVIDIA's data-movement instructions do. A CPU engine runs\n"
    "the semantics of TMA (cp.async.bulk.tensor with its tensor maps) and of the tcgen05 Tensor Memory\n"
    "instructions. The Qt GUI animates the global tensor, shared memory (rows, banks, swizzle), Tensor\n"
    "Memory and the timeline of every byte move. layoutscope-cli runs, checks and compares scenarios\n"
    "and validates single PTX instructions. Example scenarios are in /usr/share/layoutscope.")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LAYOUTSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # layoutscope_0.1.0_amd64.deb
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
# Debian 12 runtime packages. Linked (readelf -d NEEDED, then dpkg -S; scripts/package checks that every
# NEEDED library comes from a package named here): the CLI libc6, libstdc++6, libgcc-s1, zlib1g; the GUI
# adds Qt 6 Core/Gui/Widgets/OpenGL and libstb0 (Debian's imgui is a static library that links stb).
# Loaded at run time, so no linker sees them: Mesa's GL drivers (llvmpipe when there is no GPU driver)
# and a font for labels and legends. The xcb and offscreen platform plugins come with libqt6gui6.
set(_deps "libc6" "libstdc++6" "libgcc-s1" "zlib1g")
if(TARGET layoutscope)
  list(APPEND _deps "libqt6core6 (>= 6.4)" "libqt6gui6 (>= 6.4)" "libqt6widgets6 (>= 6.4)" "libqt6opengl6 (>= 6.4)"
       "libstb0" "libgl1-mesa-dri" "fonts-dejavu-core")
endif()
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${_deps}")
include(CPack)
