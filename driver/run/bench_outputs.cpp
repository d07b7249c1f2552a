#include "driver/run/bench_outputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "driver/report/run_rows.hpp"

namespace iobench {
namespace {

namespace rows = report::run_rows;

struct Output {
  std::string test;
  std::string bytes;
  std::string hash;
};

// Per input, in order of first appearance: each test's first output that has a hash.
using OutputsByInput = std::vector<std::pair<std::string, std::vector<Output>>>;

OutputsByInput first_outputs(const std::filesystem::path& runs_file) {
  std::ifstream in(runs_file);
  std::stringstream text;
  text << in.rdbuf();
  OutputsByInput by_input;
  std::size_t bytes_column = rows::kMissing;
  std::size_t hash_column = rows::kMissing;
  std::optional<rows::CellColumns> cells;
  rows::for_each_row(
      runs_file.string(), text.str(),
      [&](const std::vector<std::string_view>& columns) {
        cells.emplace(columns);
        bytes_column = rows::column_index(columns, "bytes_out");
        hash_column = rows::column_index(columns, "output_hash");
        return hash_column != rows::kMissing;
      },
      [&](const std::vector<std::string_view>& fields) {
        const std::string hash(rows::field(fields, hash_column));
        if (hash.empty()) return;
        const std::string input(cells->input_of(fields));
        auto it = std::find_if(by_input.begin(), by_input.end(),
                               [&](const auto& entry) { return entry.first == input; });
        if (it == by_input.end()) it = by_input.insert(by_input.end(), {input, {}});
        const std::string test(cells->test_of(fields));
        if (std::none_of(it->second.begin(), it->second.end(),
                         [&](const Output& o) { return o.test == test; }))
          it->second.push_back({test, std::string(rows::field(fields, bytes_column)), hash});
      });
  return by_input;
}

}  // namespace

std::vector<std::string> outputs_differ_lines(const std::filesystem::path& runs_file,
                                              const std::string& reference) {
  std::vector<std::string> lines;
  for (auto& [input, outputs] : first_outputs(runs_file)) {
    const std::string& first_hash = outputs.front().hash;
    const bool differ = std::any_of(outputs.begin(), outputs.end(), [&first_hash](const Output& o) {
      return o.hash != first_hash;
    });
    if (!differ) continue;
    std::stable_partition(outputs.begin(), outputs.end(),
                          [&](const Output& o) { return o.test == reference; });
    std::vector<std::string> parts;
    for (const Output& o : outputs)
      parts.push_back(fmt::format("'{}' {} bytes (hash {})", o.test, o.bytes, o.hash));
    lines.push_back(fmt::format(
        "outputs differ{} (all timed; --verify on fails a command that differs from the "
        "reference): {}",
        input.empty() ? "" : " on " + std::filesystem::path(input).filename().string(),
        fmt::join(parts, ", ")));
  }
  return lines;
}

}  // namespace iobench
