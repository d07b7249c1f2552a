# `cmake --install` in the GNU layout and `cpack -G DEB` (docs/distributed.md "Installing"):
#   bin/iobench, bin/iobench-worker,    (the driver finds its worker and its spawner next to
#   bin/iobench-spawner                   itself)
#   share/iobench/configs/*.json        (inputs rewritten from ../data/X to data/X: an installed
#                                         config's inputs resolve against --data-dir,
#                                         $IOBENCH_DATA_DIR or the current folder, never /usr)
#   share/iobench/slurm/iobench-array.sh, share/doc/iobench/ (README, docs)
include(GNUInstallDirs)

install(TARGETS iobench iobench-worker iobench-spawner RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The repository's configs name their inputs relative to configs/ (../data/X); installed, the
# data folder is the user's, so the same input is data/X under it.
file(GLOB iobench_configs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/configs/*.json)
foreach(config IN LISTS iobench_configs)
  get_filename_component(name ${config} NAME)
  file(READ ${config} text)
  string(REPLACE "\"../data/" "\"data/" text "${text}")
  file(WRITE ${PROJECT_BINARY_DIR}/share/iobench/configs/${name} "${text}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${config})
  install(FILES ${PROJECT_BINARY_DIR}/share/iobench/configs/${name}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/iobench/configs)
endforeach()
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/slurm/iobench-array.sh
        DESTINATION ${CMAKE_INSTALL_DATADIR}/iobench/slurm)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME iobench)
set(CPACK_PACKAGE_VENDOR "iobench")
set(CPACK_PACKAGE_CONTACT "iobench maintainers <iobench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Benchmark harness: which way of reading and writing lines is fastest, and by how much")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # iobench_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
# Depends from the binaries' shared libraries, as Debian names them (dpkg-shlibdeps: libc6,
# libstdc++6, libfmt9, liburing2, libxxhash0, ...); the rest is what runs beside them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gzip")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "slurm-client")
include(CPack)
