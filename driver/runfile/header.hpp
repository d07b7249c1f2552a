#pragma once
// The header line of a run file: its column names, checked (none empty, none twice, the six
// required ones present), and where the rows start.
#include <cstddef>
#include <string_view>
#include <vector>

namespace iobench::runfile {

// Splits one line (without its newline) at tabs.
std::vector<std::string_view> split_tabs(std::string_view line);
// Splits the row at offset pos of data into fields[0..last_needed] (the tabs of the rest are only
// counted: the reader's hot loop, docs/reports.md) and moves pos past its newline. Returns the
// number of fields; 0 for a blank line. A trailing carriage return is not part of the last field.
std::size_t split_row(std::string_view data, std::size_t& pos, std::size_t last_needed,
                      std::vector<std::string_view>& fields);
// The line without a trailing carriage return.
std::string_view strip_cr(std::string_view line);

struct FileHeader {
  std::vector<std::string_view> columns;  // views into the text
  std::size_t body_start = 0;             // offset of the first row
};
// Throws iobench::Error naming `name`, line 1 and the problem.
FileHeader read_header(std::string_view name, std::string_view text);

}  // namespace iobench::runfile
