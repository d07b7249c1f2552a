#pragma once
// Child processes (compressors, decompressors) and pipe sizes.
#include <string>
#include <string_view>
#include <vector>

#include "common/child_process.hpp"
#include "workers/worker.hpp"

namespace iobench::worker {

// Splits a command on blanks (no shell, no quoting): "gzip -1" -> {"gzip", "-1"}.
std::vector<std::string> split_command(std::string_view command);

// Starts argv (looked up in PATH) with stdin and stdout on the given descriptors and no other
// descriptor of ours. Throws RunError when it cannot start.
child::Helper spawn_child(const std::vector<std::string>& argv, int stdin_fd, int stdout_fd);

// Waits for a child; throws RunError when it did not exit with status 0. `what` names it.
void wait_child(child::Helper& child, std::string_view what);

// Applies --pipe-size to fd when it is a pipe (`name` is used in messages): sets the size with
// F_SETPIPE_SZ, warns and keeps the old size when refused, reports the size with --verbose.
void apply_pipe_size(int fd, std::string_view name, const Options& options);

// /proc/sys/fs/pipe-max-size.
std::size_t pipe_max_size();

}  // namespace iobench::worker
