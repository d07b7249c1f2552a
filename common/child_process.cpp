#include "common/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <system_error>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"

extern char** environ;

namespace iobench::child {
namespace {

// Adds the action that makes `target` (0, 1 or 2) what `source` says.
void set_stdio(posix_spawn_file_actions_t* actions, int source, int target) {
  if (source == kInherit || source == target) return;  // dup2 onto itself would keep CLOEXEC
  if (source == kDevNull) {
    posix_spawn_file_actions_addopen(actions, target, "/dev/null",
                                     target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0);
  } else {
    posix_spawn_file_actions_adddup2(actions, source, target);
  }
}

}  // namespace

pid_t start(const std::vector<std::string>& argv, const Stdio& stdio) {
  if (argv.empty() || argv[0].empty()) throw Error("cannot start an empty command");
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& word : argv) args.push_back(const_cast<char*>(word.c_str()));
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  set_stdio(&actions, stdio.in, STDIN_FILENO);
  set_stdio(&actions, stdio.out, STDOUT_FILENO);
  set_stdio(&actions, stdio.err, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t signals;
  sigemptyset(&signals);
  posix_spawnattr_setsigmask(&attr, &signals);
  sigaddset(&signals, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &signals);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw Error("cannot start '" + argv[0] + "': " + std::strerror(rc));
  return pid;
}

int wait(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw Error("cannot wait for process " + std::to_string(pid) + ": " + std::strerror(errno));
    }
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 255;
}

std::string describe_exit(int exit_status) {
  if (exit_status > 128 && exit_status < 128 + NSIG) {
    const int sig = exit_status - 128;
    return "was killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  return "exited with status " + std::to_string(exit_status);
}

Captured run_capturing_stdout(const std::vector<std::string>& argv, int err) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  UniqueFd read_end(ends[0]);
  UniqueFd write_end(ends[1]);
  const pid_t pid = start(argv, {kDevNull, write_end.get(), err});
  write_end.reset();  // our copy: the child's end alone keeps the pipe open
  Captured captured;
  char buffer[4096];
  try {
    while (const std::size_t n = sys::read_some(read_end.get(), buffer, sizeof buffer)) {
      captured.out.append(buffer, n);
    }
  } catch (const std::system_error&) {
    read_end.reset();
    child::wait(pid);
    throw;
  }
  captured.exit_status = child::wait(pid);
  return captured;
}

}  // namespace iobench::child
