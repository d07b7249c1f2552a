# The driver's libraries and the walls between them (docs/architecture.md).
#
# iobench_driver_library(NAME [DEPENDS lib...] [LINK target...]) declares driver/NAME/ as the
# static library iobench_NAME: its sources are the folder's .cpp files, it links iobench_common,
# the driver libraries it DEPENDS on and any other LINK targets. DEPENDS is also written to the
# layer table that cmake/CheckLayers.cmake reads on every build, so the one list here is both the
# link line and the rule: a file that includes a header of a library its own does not depend on
# fails the build.

# One precompiled header for every driver library (the heavy header-only libraries are parsed
# once, not in each of the driver's files; CI builds twice).
add_library(iobench_pch STATIC ${PROJECT_SOURCE_DIR}/cmake/pch.cpp)
target_link_libraries(iobench_pch PUBLIC nlohmann_json::nlohmann_json fmt::fmt CLI11::CLI11)
iobench_target_options(iobench_pch)
target_precompile_headers(iobench_pch PRIVATE <nlohmann/json.hpp> <fmt/format.h> <filesystem>
                          <string> <vector>)

set_property(GLOBAL PROPERTY IOBENCH_LAYER_TABLE "")

function(iobench_driver_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DEPENDS;LINK")
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  add_library(iobench_${name} STATIC ${sources})
  target_include_directories(iobench_${name} PUBLIC ${PROJECT_SOURCE_DIR}
                                                    ${PROJECT_BINARY_DIR}/generated)
  set(deps)
  foreach(dep IN LISTS arg_DEPENDS)
    list(APPEND deps iobench_${dep})
  endforeach()
  target_link_libraries(iobench_${name} PUBLIC iobench_common nlohmann_json::nlohmann_json
                                               fmt::fmt Threads::Threads ${deps}
                                               ${arg_LINK})
  iobench_target_options(iobench_${name})
  target_precompile_headers(iobench_${name} REUSE_FROM iobench_pch)
  string(JOIN " " row ${name} ${arg_DEPENDS})
  set_property(GLOBAL APPEND PROPERTY IOBENCH_LAYER_TABLE "${row}")
endfunction()

# Writes the layer table (one line per library: NAME DEP...) and the build step that checks
# every include of driver/, workers/ and common/ against it.
function(iobench_write_layer_table)
  get_property(rows GLOBAL PROPERTY IOBENCH_LAYER_TABLE)
  string(JOIN "\n" text ${rows})
  file(WRITE ${PROJECT_BINARY_DIR}/layers.txt "${text}\n")
  add_custom_target(iobench_check_layers ALL
    COMMAND ${CMAKE_COMMAND} -DSOURCE_ROOT=${PROJECT_SOURCE_DIR}
            -DLAYER_TABLE=${PROJECT_BINARY_DIR}/layers.txt -P ${PROJECT_SOURCE_DIR}/cmake/CheckLayers.cmake
    COMMENT "Checking that each driver library includes only what it depends on"
    VERBATIM)
endfunction()
