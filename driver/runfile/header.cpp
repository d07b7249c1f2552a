#include "driver/runfile/header.hpp"

#include <fmt/format.h>
#include <string.h>  // memrchr

#include <algorithm>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/error.hpp"
#include "driver/runfile/numbers.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::runfile {

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    if (tab == std::string_view::npos) {
      out.push_back(line.substr(start));
      return out;
    }
    out.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
}

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

FileHeader read_header(std::string_view name, std::string_view text) {
  FileHeader header;
  const std::string_view data(text);
  const std::size_t nl = data.find('\n');
  const std::string_view header_line =
      strip_cr(data.substr(0, nl == std::string_view::npos ? data.size() : nl));
  header.body_start = nl == std::string_view::npos ? data.size() : nl + 1;
  if (header_line.empty()) {
    throw Error(
        fmt::format("{}:1: no header line (a run file starts with the column names: "
                    "test elapsed user system cpu_pct mem ...)",
                    name));
  }
  header.columns = split_tabs(header_line);
  for (std::size_t i = 0; i < header.columns.size(); ++i) {
    if (header.columns[i].empty()) {
      throw Error(fmt::format("{}:1: column {} has no name", name, i + 1));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (header.columns[j] == header.columns[i]) {
        throw Error(fmt::format("{}:1: column '{}' appears twice", name, header.columns[i]));
      }
    }
  }
  for (std::string_view required : kColumnsNeeded<RunColumnNeed::kRequired>) {
    if (std::find(header.columns.begin(), header.columns.end(), required) == header.columns.end()) {
      double probe = 0;
      const bool looks_like_data =
          header.columns.size() > 1 && parse_seconds(header.columns[1], probe);
      throw Error(fmt::format(
          "{}:1: column '{}': missing from the header{} (a run file needs the columns {})", name,
          required, looks_like_data ? "; the first line looks like data, not names" : "",
          fmt::join(kColumnsNeeded<RunColumnNeed::kRequired>, " ")));
    }
  }
  return header;
}

namespace {

// Where the tabs and the newline of one row are: 16 bytes a step with SSE2 (every x86-64 has
// it), a bit per byte, so a 150-byte row of 21 fields takes ten steps rather than 150
// (docs/reports.md, "Speed"); byte by byte elsewhere and for the last bytes of the data.
struct RowSplitter {
  const char* field_begin;
  std::size_t count = 0;
  std::size_t last_needed;
  std::vector<std::string_view>& fields;

  void tab_at(const char* tab) {
    if (count <= last_needed) {
      fields[count] = std::string_view(field_begin, static_cast<std::size_t>(tab - field_begin));
    }
    ++count;
    field_begin = tab + 1;
  }
  // The newline's position, or `end` when the data ends first.
  const char* split(const char* p, const char* end) {
#ifdef __SSE2__
    const __m128i tab = _mm_set1_epi8('\t');
    const __m128i newline = _mm_set1_epi8('\n');
    for (; end - p >= 16; p += 16) {
      const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const auto newlines =
          static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, newline)));
      auto tabs = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, tab)));
      if (newlines != 0) tabs &= (newlines & (0U - newlines)) - 1;  // those before the newline
      for (; tabs != 0; tabs &= tabs - 1) tab_at(p + __builtin_ctz(tabs));
      if (newlines != 0) return p + __builtin_ctz(newlines);
    }
#endif
    for (; p != end && *p != '\n'; ++p) {
      if (*p == '\t') tab_at(p);
    }
    return p;
  }
};

}  // namespace

std::size_t split_row(std::string_view data, std::size_t& pos, std::size_t last_needed,
                      std::vector<std::string_view>& fields) {
  const char* const end = data.data() + data.size();
  const char* const line_begin = data.data() + pos;
  RowSplitter row{line_begin, 0, last_needed, fields};
  const char* line_end = row.split(line_begin, end);
  pos = static_cast<std::size_t>(line_end - data.data()) + 1;
  if (line_end != line_begin && line_end[-1] == '\r') --line_end;  // CRLF
  if (line_end == line_begin && row.count == 0) return 0;          // blank line
  if (line_end < row.field_begin) line_end = row.field_begin;  // a '\r' right after the last tab
  if (row.count <= last_needed) {
    fields[row.count] =
        std::string_view(row.field_begin, static_cast<std::size_t>(line_end - row.field_begin));
  }
  return row.count + 1;
}

}  // namespace iobench::runfile
