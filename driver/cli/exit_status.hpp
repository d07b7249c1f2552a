#pragma once
// What each exit status of a subcommand means (docs/formats.md, "Exit codes"): one table, which
// every --help ends with and the man pages carry as their EXIT STATUS section
// (cmake/man_and_completions.sh), so a script's author reads the same meanings everywhere.
#include <string>
#include <string_view>
#include <vector>

namespace iobench::cli {

struct ExitStatus {
  int code = 0;
  std::string_view meaning;
};

// The statuses `command` ("bench", "history", "history check", ...; "" for iobench itself) can
// end with, by code: a group's ("history") are its subcommands' together.
std::vector<ExitStatus> exit_statuses(std::string_view command);

// "Exit status:" and one line per status, for CLI11's footer.
std::string exit_status_footer(std::string_view command);

}  // namespace iobench::cli
