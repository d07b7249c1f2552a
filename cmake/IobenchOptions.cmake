# Warnings and sanitizers, applied per target (PRIVATE) so dependencies stay untouched.
function(iobench_target_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast)
  # GCC 12 reports std::string concatenation at -O2 as overlapping memcpy (GCC bug 105329).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(IOBENCH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(IOBENCH_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${IOBENCH_SANITIZE} -fno-omit-frame-pointer
                                             -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${IOBENCH_SANITIZE})
    # GCC 12 gives UBSan's data for each check (its source location and types) an ASan redzone
    # and descriptor, as if it were the program's: at -O0 the driver had 100 MB of .data and 88 MB
    # of relocations, and each process spent 0.6 s starting (the sanitizer pass's e2e tests start
    # thousands). The fuzz build (Clang) keeps global overflow checks on what it fuzzes.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND IOBENCH_SANITIZE MATCHES "address"
       AND IOBENCH_SANITIZE MATCHES "undefined")
      target_compile_options(${target} PRIVATE --param=asan-globals=0)
    endif()
    # A position-dependent executable: UBSan's records point at their source file names, and in a
    # PIE each pointer is a relocation done at every start (31 MB of them in the driver): 0.24 s
    # to start and exit, 0.14 s without. Static libraries ignore link options.
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      target_link_options(${target} PRIVATE -no-pie)
    endif()
  endif()
endfunction()

# Records how the binaries were built, for the run metadata and the debug-build warning.
set(IOBENCH_BUILD_INFO "${CMAKE_BUILD_TYPE} ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
if(IOBENCH_SANITIZE)
  string(APPEND IOBENCH_BUILD_INFO " sanitize=${IOBENCH_SANITIZE}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/build_info.hpp.in
               ${PROJECT_BINARY_DIR}/generated/iobench/build_info.hpp @ONLY)
