#include "driver/runfile/header.hpp"

#include <fmt/format.h>
#include <string.h>  // memrchr

#include <algorithm>
#include <cstring>
#include <span>

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
  for (std::string_view required : std::span(kStandardColumns).first<kRequiredColumnCount>()) {
    if (std::find(header.columns.begin(), header.columns.end(), required) == header.columns.end()) {
      double probe = 0;
      const bool looks_like_data =
          header.columns.size() > 1 && parse_seconds(header.columns[1], probe);
      throw Error(fmt::format(
          "{}:1: column '{}': missing from the header{} (a run file needs the columns test "
          "elapsed user system cpu_pct mem)",
          name, required, looks_like_data ? "; the first line looks like data, not names" : ""));
    }
  }
  return header;
}

std::size_t split_row(std::string_view data, std::size_t& pos, std::size_t last_needed,
                      std::vector<std::string_view>& fields) {
  const char* const end = data.data() + data.size();
  const char* const line_begin = data.data() + pos;
  const char* p = line_begin;
  const char* field_begin = p;
  std::size_t count = 0;
  while (p != end && *p != '\n') {
    if (*p == '\t') {
      fields[count] = std::string_view(field_begin, static_cast<std::size_t>(p - field_begin));
      ++count;
      field_begin = p + 1;
      if (count > last_needed) {
        // The rest of the line is only counted: memchr and a vectorised count are faster.
        const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
        const char* stop = nl ? static_cast<const char*>(nl) : end;
        const auto tabs = std::count(field_begin, stop, '\t');
        count += static_cast<std::size_t>(tabs);
        if (tabs > 0) {
          const void* last_tab =
              ::memrchr(field_begin, '\t', static_cast<std::size_t>(stop - field_begin));
          field_begin = static_cast<const char*>(last_tab) + 1;
        }
        p = stop;
        break;
      }
    }
    ++p;
  }
  const char* line_end = p;
  pos = static_cast<std::size_t>(p - data.data()) + 1;
  if (line_end != line_begin && line_end[-1] == '\r') --line_end;  // CRLF
  if (line_end == line_begin && count == 0) return 0;              // blank line
  if (line_end < field_begin) line_end = field_begin;  // a '\r' right after the last tab
  if (count <= last_needed) {
    fields[count] = std::string_view(field_begin, static_cast<std::size_t>(line_end - field_begin));
  }
  return count + 1;
}

}  // namespace iobench::runfile
