# Writes a C++ header that holds a script file's text and its SHA-256 in base64, the form a
# Content-Security-Policy's 'sha256-...' source takes (docs/reports.md, "The HTML report"). The
# page and its policy both come from this one file, so the hash is the script's by construction
# and no SHA-256 is written by hand in C++.
# Usage: cmake -DINPUT=FILE.js -DOUTPUT=FILE.hpp -DNAME=kReportScript -P EmbedScript.cmake
# The header declares, in namespace iobench::report::generated, NAME (the text, byte for byte)
# and NAMESha256 (the base64 of its SHA-256).
cmake_minimum_required(VERSION 3.25)
if(NOT INPUT OR NOT OUTPUT OR NOT NAME)
  message(FATAL_ERROR "usage: cmake -DINPUT=FILE -DOUTPUT=FILE.hpp -DNAME=kName -P EmbedScript.cmake")
endif()

# Standard base64 with padding (RFC 4648) of the bytes a hex string spells.
function(hex_to_base64 hex out_var)
  set(alphabet "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
  string(LENGTH "${hex}" length)
  set(out "")
  set(at 0)
  while(at LESS length)
    # Three bytes (six hex digits) make four characters; a shorter last group is padded with '='.
    math(EXPR left "${length} - ${at}")
    if(left GREATER 6)
      set(left 6)
    endif()
    string(SUBSTRING "${hex}" ${at} ${left} group)
    string(APPEND group "000000")
    string(SUBSTRING "${group}" 0 6 group)
    math(EXPR value "0x${group}")
    math(EXPR characters "${left} / 2 + 1")
    set(index 0)
    foreach(shift 18 12 6 0)
      if(index LESS characters)
        math(EXPR digit "(${value} >> ${shift}) & 63")
        string(SUBSTRING "${alphabet}" ${digit} 1 character)
        string(APPEND out "${character}")
      else()
        string(APPEND out "=")
      endif()
      math(EXPR index "${index} + 1")
    endforeach()
    math(EXPR at "${at} + 6")
  endwhile()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

file(READ "${INPUT}" text)
file(SHA256 "${INPUT}" hex)
hex_to_base64("${hex}" digest)
# The text goes into a raw string literal whole; its closing delimiter must not occur in it.
set(delimiter "iobench_embedded")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains )${delimiter}\", which would end its C++ literal")
endif()
file(WRITE "${OUTPUT}.tmp"
     "// Generated from ${INPUT} by cmake/EmbedScript.cmake: edit the script, not this file.\n"
     "#pragma once\n#include <string_view>\n\nnamespace iobench::report::generated {\n\n"
     "inline constexpr std::string_view ${NAME} = R\"${delimiter}(${text})${delimiter}\";\n"
     "// base64 of the SHA-256 of ${NAME} (hex ${hex}).\n"
     "inline constexpr std::string_view ${NAME}Sha256 = \"${digest}\";\n\n"
     "}  // namespace iobench::report::generated\n")
# Only a changed header is replaced, so that its users are not rebuilt for nothing.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
