#pragma once
// The header line of a run file: its column names, checked (none empty, none twice, the six
// required ones present), and where the rows start.
#include <string_view>
#include <vector>

namespace iobench::results {

// Splits one line (without its newline) at tabs.
std::vector<std::string_view> split_tabs(std::string_view line);
// The line without a trailing carriage return.
std::string_view strip_cr(std::string_view line);

struct FileHeader {
  std::vector<std::string_view> columns;  // views into the text
  std::size_t body_start = 0;             // offset of the first row
};
// Throws iobench::Error naming `name`, line 1 and the problem.
FileHeader read_header(std::string_view name, std::string_view text);

}  // namespace iobench::results
