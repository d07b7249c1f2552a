#include "driver/cli/exit_status.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.hpp"

namespace iobench::cli {
namespace {

struct Entry {
  int code;
  std::vector<std::string_view> commands;  // empty: every command
  std::string_view meaning;
};

// Each status with the commands that give it ("" is iobench itself); a status that means
// something else in another command is a second entry.
const std::vector<Entry>& table() {
  static const std::vector<Entry> entries{
      {kExitOk, {}, "success: every run ended ok, or the command did what it was asked"},
      {kExitRunFailed,
       {"run", "bench"},
       "some run did not end ok (failed, signal, timeout, mismatch or error: the status column "
       "says which), or a cell has no ok run; every row is kept"},
      {kExitRunFailed, {"compare"}, "--fail-on-regression: a test is slower than it allows"},
      {kExitRunFailed,
       {"bench"},
       "--fail-if-slower: a command is decided slower than the reference by more than it "
       "allows"},
      {kExitRunFailed,
       {"merge"},
       "the shards do not fit together (each problem named); nothing written"},
      {kExitRunFailed, {"history check"}, "history check: a regression that no ack accepts"},
      {kExitRunFailed,
       {""},
       "the command found what it exists to find: a run that did not end ok, a regression, "
       "shards that do not fit (each subcommand's --help says which)"},
      {kExitUsage,
       {},
       "usage, config or input error, found before anything runs; one line says which, and "
       "nothing is written"},
      {kExitCouldNotContinue,
       {"", "run", "bench", "report"},
       "iobench could not go on after runs started (the results disk full, a file unwritable); "
       "every finished row is kept"},
      {kExitNotJudged,
       {"history check", ""},
       "history check: some series could not be judged (no baseline, missing from the newest "
       "run, conditions changed, nothing ok and verified, too few runs, too weak to rule out the "
       "allowed slowdown, or no series at all) "
       "and no --allow-... option accepts it; a regression beside it exits 1"},
      {kExitNotJudged,
       {"bench"},
       "--fail-if-slower: a command's runs can neither show nor rule out a slowdown beyond it, "
       "and none is shown slower"},
      {kExitInterrupted,
       {"", "run", "bench"},
       "interrupted (SIGINT or SIGTERM); every finished row is kept, medians written for them"},
      {kExitInterrupted,
       {"gen"},
       "interrupted (SIGINT or SIGTERM); nothing written, no temporary file left"},
  };
  return entries;
}

// "history" for "history add"; a command that is no subcommand is its own group.
std::string_view group_of(std::string_view command) {
  return command.substr(0, command.find(' '));
}

// Whether a status listed for `listed` is one `command` gives: its own, its group's ("history"
// for "history add"), or, for a group, one of its subcommands' ("history check" for "history").
bool gives(std::string_view listed, std::string_view command) {
  return listed == command || listed == group_of(command) || group_of(listed) == command;
}

}  // namespace

std::vector<ExitStatus> exit_statuses(std::string_view command) {
  std::vector<ExitStatus> out;
  for (const Entry& e : table()) {
    if (e.commands.empty() ||
        std::any_of(e.commands.begin(), e.commands.end(),
                    [command](auto listed) { return gives(listed, command); })) {
      out.push_back({e.code, e.meaning});
    }
  }
  return out;
}

std::string exit_status_footer(std::string_view command) {
  std::string out = "Exit status:\n";
  for (const ExitStatus& s : exit_statuses(command)) {
    out += fmt::format("  {:<5}{}\n", s.code, s.meaning);
  }
  return out;
}

}  // namespace iobench::cli
