#include "workers/process.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <string>

#include "common/error.hpp"

namespace iobench::worker {

std::vector<std::string> split_command(std::string_view command) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < command.size()) {
    while (i < command.size() && (command[i] == ' ' || command[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < command.size() && command[i] != ' ' && command[i] != '\t') ++i;
    if (i > start) words.emplace_back(command.substr(start, i - start));
  }
  return words;
}

child::Helper spawn_child(const std::vector<std::string>& argv, int stdin_fd, int stdout_fd) {
  if (argv.empty()) throw UsageError("empty command");
  try {
    return child::Helper(argv, boost::process::v2::process_stdio{stdin_fd, stdout_fd, {}});
  } catch (const Error& e) {
    throw RunError(e.what());
  }
}

void wait_child(child::Helper& child, std::string_view what) {
  int exit_status = 0;
  try {
    exit_status = child.wait();
  } catch (const Error& e) {
    throw RunError(std::string(what) + ": " + e.what());
  }
  if (exit_status != 0) throw RunError(std::string(what) + " " + child::describe_exit(exit_status));
}

std::size_t pipe_max_size() {
  std::ifstream in("/proc/sys/fs/pipe-max-size");
  std::size_t bytes = 0;
  if (!(in >> bytes) || bytes == 0) return 1024 * 1024;  // the kernel's default
  return bytes;
}

void apply_pipe_size(int fd, std::string_view name, const Options& options) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) {
    if (options.pipe_size.kind != PipeSize::Kind::kDefault) {
      verbose_note(options, std::string(name) + " is not a pipe; --pipe-size does not apply");
    }
    return;
  }
  if (options.pipe_size.kind != PipeSize::Kind::kDefault) {
    const std::size_t wanted =
        options.pipe_size.kind == PipeSize::Kind::kMax ? pipe_max_size() : options.pipe_size.bytes;
    // Refused (above pipe-max-size without CAP_SYS_RESOURCE, or past the user's pipe quota):
    // fail and say why. Going on with the old size would measure another pipe under this name.
    if (::fcntl(fd, F_SETPIPE_SZ, static_cast<int>(wanted)) < 0) {
      const int error = errno;
      throw RunError("cannot set the " + std::string(name) + " pipe size to " +
                     std::to_string(wanted) + " bytes: " + std::strerror(error) + " (it is " +
                     std::to_string(::fcntl(fd, F_GETPIPE_SZ)) + "; pipe-max-size is " +
                     std::to_string(pipe_max_size()) + ")");
    }
  }
  if (options.verbose) {
    note(std::string(name) + " pipe size: " + std::to_string(::fcntl(fd, F_GETPIPE_SZ)) + " bytes");
  }
}

}  // namespace iobench::worker
