# Man pages and shell completions (docs/distributed.md, "Installing"): made at build time by
# cmake/man_and_completions.sh (help2man on `iobench --help` and each `iobench SUBCOMMAND --help`;
# `iobench completion bash|zsh|fish`), installed by `cmake --install` and the .deb where man,
# bash-completion, zsh and fish look: share/man/man1, share/bash-completion/completions,
# share/zsh/vendor-completions, share/fish/vendor_completions.d.
include(GNUInstallDirs)
find_program(IOBENCH_HELP2MAN help2man)
if(NOT IOBENCH_HELP2MAN)
  message(STATUS "help2man not found: no man pages (apt-get install help2man)")
  set(IOBENCH_HELP2MAN "")
endif()

set(iobench_share ${PROJECT_BINARY_DIR}/share)
set(iobench_man_stamp ${PROJECT_BINARY_DIR}/man-and-completions.stamp)
add_custom_command(
  OUTPUT ${iobench_man_stamp}
  COMMAND sh ${PROJECT_SOURCE_DIR}/cmake/man_and_completions.sh ${PROJECT_BINARY_DIR}/bin
          ${iobench_share} ${PROJECT_VERSION} "${IOBENCH_HELP2MAN}"
  COMMAND ${CMAKE_COMMAND} -E touch ${iobench_man_stamp}
  DEPENDS iobench iobench-spawner ${PROJECT_SOURCE_DIR}/cmake/man_and_completions.sh
  COMMENT "Writing the man pages (help2man) and the bash, zsh and fish completions"
  VERBATIM)
add_custom_target(iobench_man_and_completions ALL DEPENDS ${iobench_man_stamp})

install(DIRECTORY ${iobench_share}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR})
install(FILES ${iobench_share}/bash-completion/completions/iobench
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${iobench_share}/zsh/vendor-completions/_iobench
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${iobench_share}/fish/vendor_completions.d/iobench.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
