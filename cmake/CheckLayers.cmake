# Fails (and names each offence) when a source file includes a header across a wall
# (docs/architecture.md):
#   driver/NAME/...  may include driver/NAME/, the driver libraries NAME depends on (LAYER_TABLE),
#                    common/ and nothing of workers/;
#   driver/main.cpp  may include anything of the driver;
#   workers/         may include workers/ and common/;
#   common/          may include common/ only.
# Usage: cmake -DSOURCE_ROOT=DIR -DLAYER_TABLE=FILE -P CheckLayers.cmake
# LAYER_TABLE has one line per library: NAME DEP... (written by iobench_write_layer_table).
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_ROOT OR NOT LAYER_TABLE)
  message(FATAL_ERROR "usage: cmake -DSOURCE_ROOT=DIR -DLAYER_TABLE=FILE -P CheckLayers.cmake")
endif()

file(STRINGS ${LAYER_TABLE} rows)
set(libraries)
foreach(row IN LISTS rows)
  string(REPLACE " " ";" words "${row}")
  list(POP_FRONT words library)
  list(APPEND libraries ${library})
  set(allowed_${library} ${library} ${words})
  string(JOIN ", " deps_${library} ${words})
  if(deps_${library} STREQUAL "")
    set(deps_${library} "nothing else")
  endif()
endforeach()

file(GLOB_RECURSE files RELATIVE ${SOURCE_ROOT} ${SOURCE_ROOT}/driver/*.cpp ${SOURCE_ROOT}/driver/*.hpp
     ${SOURCE_ROOT}/workers/*.cpp ${SOURCE_ROOT}/workers/*.hpp ${SOURCE_ROOT}/common/*.cpp
     ${SOURCE_ROOT}/common/*.hpp)
set(offences 0)
foreach(file IN LISTS files)
  if(file MATCHES "^driver/([a-z_]+)/")
    set(layer ${CMAKE_MATCH_1})
    if(NOT layer IN_LIST libraries)
      message(NOTICE "layer wall: ${file}: driver/${layer}/ is no library; declare it with "
                         "iobench_driver_library in driver/${layer}/CMakeLists.txt")
      math(EXPR offences "${offences} + 1")
      continue()
    endif()
  elseif(file MATCHES "^driver/")
    set(layer main)
  elseif(file MATCHES "^workers/")
    set(layer workers)
  else()
    set(layer common)
  endif()
  file(STRINGS ${SOURCE_ROOT}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX MATCH "\"([^\"]+)\"" unused "${line}")
    set(header ${CMAKE_MATCH_1})
    set(why "")
    if(header MATCHES "^driver/([a-z_]+)/")
      set(target ${CMAKE_MATCH_1})
      if(layer STREQUAL "workers" OR layer STREQUAL "common")
        set(why "${layer}/ may not include the driver")
      elseif(NOT layer STREQUAL "main" AND NOT target IN_LIST allowed_${layer})
        set(why "driver/${layer} depends on ${deps_${layer}} (driver/${layer}/CMakeLists.txt)")
      endif()
    elseif(header MATCHES "^workers/" AND NOT layer STREQUAL "workers")
      set(why "only workers/ includes workers/")
    elseif(header MATCHES "^driver/" AND NOT layer STREQUAL "main")
      set(why "driver/ headers live in a library folder")
    endif()
    if(NOT why STREQUAL "")
      message(NOTICE "layer wall: ${file} includes ${header}: ${why}")
      math(EXPR offences "${offences} + 1")
    endif()
  endforeach()
endforeach()
if(offences GREATER 0)
  message(FATAL_ERROR "${offences} include(s) cross a wall between libraries (docs/architecture.md)")
endif()
