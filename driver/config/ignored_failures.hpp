#pragma once
// Which non-zero exits are no failure (docs/bench.md): bench's `-i/--ignore-failure` every one,
// `--ignore-failure=1,2` (hyperfine 1.20) only those codes; a strategy's "ignore_failure": true,
// or a list of codes. A run that exits so is `ok`, its exit code kept; a signal is never ignored.
#include <string>
#include <vector>

namespace iobench::config {

struct IgnoredFailures {
  bool all = false;
  std::vector<int> codes;  // sorted, each 1 to 255, without repeats
  [[nodiscard]] bool any() const { return all || !codes.empty(); }
  [[nodiscard]] bool covers(int exit_code) const;
  bool operator==(const IgnoredFailures&) const = default;
};

// These codes, sorted and once each.
IgnoredFailures ignoring_codes(std::vector<int> codes);
// "true" (the flag alone) or "1,2": the codes of --ignore-failure=CODES. Throws iobench::Error
// (exit 2) naming `option` for anything else: "--ignore-failure=x: give exit codes 1 to 255,
// separated by commas (--ignore-failure=1,2), or none for every one".
IgnoredFailures parse_ignored_failures(const std::string& text, const std::string& option);
// "1,2" for codes; "" for every one or none.
std::string codes_text(const IgnoredFailures& ignored);

}  // namespace iobench::config
