# Writes a C++ header that holds a script file's text and its SHA-256 in base64, the form a
# Content-Security-Policy's 'sha256-...' source takes (docs/reports.md, "The HTML report"). The
# page and its policy both come from this one file, so the hash is the script's by construction
# and no SHA-256 is written by hand in C++.
# Usage: cmake -DINPUT=FILE.js -DOUTPUT=FILE.hpp -DNAME=kReportScript -P EmbedScript.cmake
# The header declares, in namespace iobench::report::generated, NAME (a std::string_view of the
# file's bytes, exactly) and NAMESha256 (the base64 of their SHA-256).
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

# The bytes as character literals, not a raw string: the compiler would turn a CRLF inside a raw
# string into LF (and the page's script would no longer be the one hashed), and no delimiter can
# clash with a byte list.
file(READ "${INPUT}" hex HEX)
file(SHA256 "${INPUT}" sha256_hex)
hex_to_base64("${sha256_hex}" digest)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
if(size EQUAL 0)
  set(definition "inline constexpr std::string_view ${NAME}{};\n")
else()
  # Sixteen bytes (32 hex digits) a line.
  set(lines "")
  set(at 0)
  while(at LESS hex_length)
    string(SUBSTRING "${hex}" ${at} 32 chunk)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1', " chunk "${chunk}")
    string(STRIP "${chunk}" chunk)
    string(APPEND lines "    ${chunk}\n")
    math(EXPR at "${at} + 32")
  endwhile()
  set(definition "inline constexpr char ${NAME}Bytes[] = {\n${lines}};\n")
  string(APPEND definition "inline constexpr std::string_view ${NAME}{${NAME}Bytes, ${size}};\n")
endif()
file(WRITE "${OUTPUT}.tmp"
     "// Generated from ${INPUT} by cmake/EmbedScript.cmake: edit the script, not this file.\n"
     "#pragma once\n#include <string_view>\n\nnamespace iobench::report::generated {\n\n"
     "// ${size} bytes, byte for byte.\n${definition}"
     "// base64 of the SHA-256 of ${NAME} (hex ${sha256_hex}).\n"
     "inline constexpr std::string_view ${NAME}Sha256 = \"${digest}\";\n\n"
     "}  // namespace iobench::report::generated\n")
# Only a changed header is replaced, so that its users are not rebuilt for nothing.
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
