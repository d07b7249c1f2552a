#include "workers/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <string>

extern char** environ;

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

pid_t spawn_child(const std::vector<std::string>& argv, int stdin_fd, int stdout_fd) {
  if (argv.empty()) throw UsageError("empty command");
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 onto itself would keep close-on-exec set, so those descriptors are left alone.
  if (stdin_fd != STDIN_FILENO) posix_spawn_file_actions_adddup2(&actions, stdin_fd, STDIN_FILENO);
  if (stdout_fd != STDOUT_FILENO) {
    posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
  }
  pid_t pid = 0;
  const int error = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw RunError("cannot start '" + argv[0] + "': " + std::strerror(error));
  }
  return pid;
}

void wait_child(pid_t pid, std::string_view what) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw RunError(std::string(what) + ": waitpid: " + std::strerror(errno));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFEXITED(status)) {
    throw RunError(std::string(what) + " exited with status " +
                   std::to_string(WEXITSTATUS(status)));
  }
  if (WIFSIGNALED(status)) {
    throw RunError(std::string(what) + " was killed by signal " + std::to_string(WTERMSIG(status)) +
                   " (" + strsignal(WTERMSIG(status)) + ")");
  }
  throw RunError(std::string(what) + " ended abnormally");
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
    if (::fcntl(fd, F_SETPIPE_SZ, static_cast<int>(wanted)) < 0) {
      const int error = errno;
      const int current = ::fcntl(fd, F_GETPIPE_SZ);
      note("warning: cannot set " + std::string(name) + " pipe size to " + std::to_string(wanted) +
           " bytes (" + std::strerror(error) + "); keeping " + std::to_string(current));
    }
  }
  if (options.verbose) {
    note(std::string(name) + " pipe size: " + std::to_string(::fcntl(fd, F_GETPIPE_SZ)) + " bytes");
  }
}

}  // namespace iobench::worker
