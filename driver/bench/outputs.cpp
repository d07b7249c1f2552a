#include "driver/bench/outputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "driver/runfile/rows.hpp"

namespace iobench::bench {
namespace {

struct Output {
  std::string test;
  std::string bytes;
  std::string hash;
};

// Per input, in order of first appearance: each test's first output that has a hash.
using OutputsByInput = std::vector<std::pair<std::string, std::vector<Output>>>;

OutputsByInput first_outputs(const runfile::WrittenRun& run) {
  OutputsByInput by_input;
  for (const runfile::RunRow& row :
       runfile::parse_run_file(run.text, run.runs_file.string()).rows) {
    if (row.output_hash.empty()) continue;
    auto it = std::find_if(by_input.begin(), by_input.end(),
                           [&](const auto& entry) { return entry.first == row.input; });
    if (it == by_input.end()) it = by_input.insert(by_input.end(), {row.input, {}});
    if (std::none_of(it->second.begin(), it->second.end(),
                     [&](const Output& o) { return o.test == row.test; })) {
      const std::string bytes = row.bytes_out ? std::to_string(*row.bytes_out) : std::string();
      it->second.push_back({row.test, bytes, row.output_hash});
    }
  }
  return by_input;
}

}  // namespace

std::vector<std::string> outputs_differ_lines(const runfile::WrittenRun& run,
                                              const std::string& reference) {
  std::vector<std::string> lines;
  for (auto& [input, outputs] : first_outputs(run)) {
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

}  // namespace iobench::bench
