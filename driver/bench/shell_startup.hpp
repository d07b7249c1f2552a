#pragma once
// bench's shell start-up (docs/bench.md, "Shell start-up"): an empty `SHELL -c ''` run as the
// commands run, its medians recorded in the meta file (shell_startup) and subtracted from the
// commands' elapsed, user and system time in bench's summary, as hyperfine subtracts its shell's
// spawning time. The runs file keeps the raw figures.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/run/launcher.hpp"
#include "driver/runfile/shell_startup.hpp"

namespace iobench::bench {

inline constexpr std::size_t kShellStartupRuns = 30;

// The shell the config's commands run in (its first shell strategy's words), or empty when none
// runs in a shell.
std::vector<std::string> config_shell(const config::Config& config);

// Runs the config's shell with `-c ''` a few unrecorded times, then `runs` times, through the
// launcher, as the commands run: the config's stdin, into its first sink (a pipe for `file`,
// whose private folder only a run has), pinned to its cpus, with `counters` (the counted ones:
// they change how the spawner starts a process). Returns the medians; nullopt when the commands
// run in no shell, or a run of the shell did not exit 0.
std::optional<runfile::ShellStartup> measure_shell_startup(run::Launcher& launcher,
                                                           const config::Config& config,
                                                           const std::vector<std::string>& counters,
                                                           std::size_t runs = kShellStartupRuns);

}  // namespace iobench::bench
