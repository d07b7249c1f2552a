#include "common/child_process.hpp"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process/v2/environment.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <system_error>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"

namespace iobench::child {
namespace {

// Runs in the child between Boost.Process's fork and exec (system calls only): the state a shell
// would give the helper.
struct LikeFromAShell {
  template <typename Launcher>
  bp::error_code on_exec_setup(Launcher&, const bp::filesystem::path&, const char* const*) const {
    sigset_t none;
    sigemptyset(&none);
    if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) return {errno, bp::system_category()};
    struct sigaction by_default {};
    by_default.sa_handler = SIG_DFL;
    if (::sigaction(SIGPIPE, &by_default, nullptr) != 0) return {errno, bp::system_category()};
    // Boost 1.81 closes only the descriptors above the highest it keeps (its exec report's):
    // none of ours at 3 or above may cross exec either. (Before Linux 5.11 this fails, and only
    // Boost's closing and our own close-on-exec flags remain.)
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    return {};
  }

  // A failed exec: Boost would call exit(), flushing the stdio buffers the child copied from us
  // (our pending output, written twice). It has already sent the error to the parent.
  // (Variadic: Boost 1.81 detects this hook with five arguments and calls it with four.)
  template <typename... Ignored>
  void on_exec_error(Ignored&&...) const {
    ::_exit(127);
  }
};

// argv[0] as PATH finds it (as execvp would), or as given when it names a folder.
bp::filesystem::path program_of(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  return bp::environment::find_executable(name);
}

bp::process launch(boost::asio::io_context& context, const std::vector<std::string>& argv,
                   bp::process_stdio& stdio) {
  if (argv.empty() || argv[0].empty()) throw Error("cannot start an empty command");
  const bp::filesystem::path program = program_of(argv[0]);
  if (program.empty()) throw Error("cannot start '" + argv[0] + "': " + std::strerror(ENOENT));
  std::vector<const char*> args;  // argv[0] too: the helper sees the name it was given
  args.reserve(argv.size() + 1);
  for (const std::string& word : argv) args.push_back(word.c_str());
  args.push_back(nullptr);
  const char** args_begin = args.data();

  bp::posix::default_launcher launcher;
  bp::error_code error;
  auto process =
      launcher(context.get_executor(), error, program, args_begin, stdio, LikeFromAShell{});
  if (error) {
    if (launcher.pid > 0) ::waitpid(launcher.pid, nullptr, 0);  // a failed exec's child
    throw Error("cannot start '" + argv[0] + "': " + error.message());
  }
  return process;
}

}  // namespace

Helper::Helper(const std::vector<std::string>& argv, bp::process_stdio stdio)
    : context_(std::make_unique<boost::asio::io_context>()),
      process_(launch(*context_, argv, stdio)),
      pid_(process_.id()) {}

Helper::Helper(Helper&&) noexcept = default;
Helper::~Helper() = default;

int Helper::wait() {
  if (exit_status_) return *exit_status_;
  bp::error_code error;
  process_.wait(error);
  const int status = process_.native_exit_code();
  process_.detach();  // reaped (or not ours): its pid may be reused, so never kill it later
  if (error) {
    throw Error("cannot wait for process " + std::to_string(pid_) + ": " + error.message());
  }
  if (WIFEXITED(status)) {
    exit_status_ = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    exit_status_ = 128 + WTERMSIG(status);
  } else {
    exit_status_ = 255;
  }
  return *exit_status_;
}

std::string describe_exit(int exit_status) {
  if (exit_status > 128 && exit_status < 128 + NSIG) {
    const int sig = exit_status - 128;
    return "was killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  return "exited with status " + std::to_string(exit_status);
}

Captured run_capturing_stdout(const std::vector<std::string>& argv, Stderr err) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  UniqueFd read_end(ends[0]);
  UniqueFd write_end(ends[1]);
  Helper helper = err == Stderr::kDevNull ? Helper(argv, {nullptr, write_end.get(), nullptr})
                                          : Helper(argv, {nullptr, write_end.get(), {}});
  write_end.reset();  // our copy: the child's end alone keeps the pipe open
  Captured captured;
  char buffer[4096];
  try {
    while (const std::size_t n = sys::read_some(read_end.get(), buffer, sizeof buffer)) {
      captured.out.append(buffer, n);
    }
  } catch (const std::system_error&) {
    read_end.reset();
    helper.wait();
    throw;
  }
  captured.exit_status = helper.wait();
  return captured;
}

}  // namespace iobench::child
