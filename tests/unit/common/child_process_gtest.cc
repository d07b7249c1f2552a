// common/child_process: the one way the driver and the worker start an unmeasured helper
// (compressors, decompressors, git, `iobench-worker --list`) through Boost.Process: its stdio,
// its exit status, its signal state, the descriptors it gets, and capturing its stdout.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/child_process.hpp"
#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/sysio.hpp"

namespace iobench::child {
namespace {

// The value of a "Name:\tvalue" line of /proc/PID/status text.
std::string status_field(const std::string& status, const std::string& name) {
  const auto at = status.find("\n" + name + ":\t");
  if (at == std::string::npos) return "missing";
  const auto start = at + name.size() + 3;
  return status.substr(start, status.find('\n', start) - start);
}

// The message of the Error that starting argv throws, or "" when it starts.
std::string start_error(const std::vector<std::string>& argv) {
  try {
    Helper(argv, {}).wait();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Whether a child of this process ended and was left unreaped (a zombie), within 2 s. A child
// still running is none: another test of this binary may have started the long-lived spawner
// (Spawner::start_global), which stays until the process ends.
bool has_an_unreaped_child() {
  for (int tries = 0; tries < 200; ++tries) {
    const pid_t pid = ::waitpid(-1, nullptr, WNOHANG);
    if (pid < 0) return false;  // none at all
    if (pid > 0) return true;   // a zombie nobody had reaped
    ::usleep(10000);
  }
  return false;
}

TEST(ChildProcess, ExitStatusAndSignal) {
  EXPECT_EQ(Helper({"true"}, {}).wait(), 0);
  EXPECT_EQ(Helper({"sh", "-c", "exit 3"}, {}).wait(), 3);
  EXPECT_EQ(Helper({"sh", "-c", "kill -9 $$"}, {}).wait(), 137);
  EXPECT_EQ(describe_exit(3), "exited with status 3");
  EXPECT_EQ(describe_exit(137), "was killed by signal 9 (Killed)");
  Helper twice({"sh", "-c", "exit 5"}, {});
  EXPECT_EQ(twice.wait(), 5);
  EXPECT_EQ(twice.wait(), 5);  // reaped once, its status kept
}

TEST(ChildProcess, AProgramThatCannotStartIsAnErrorNamingIt) {
  // Named with a folder (exec fails in the child) and by a name PATH does not have.
  EXPECT_EQ(start_error({"/nonexistent/iobench-helper", "x"}),
            "cannot start '/nonexistent/iobench-helper': No such file or directory");
  EXPECT_EQ(start_error({"no-such-iobench-helper"}),
            "cannot start 'no-such-iobench-helper': No such file or directory");
  EXPECT_EQ(start_error({}), "cannot start an empty command");
  EXPECT_EQ(start_error({""}), "cannot start an empty command");
  // The child whose exec failed is reaped, not left a zombie.
  EXPECT_FALSE(has_an_unreaped_child());
}

TEST(ChildProcess, AWaitForAChildReapedElsewhereIsAnError) {
  Helper reaped({"true"}, {});
  ASSERT_EQ(::waitpid(reaped.pid(), nullptr, 0), reaped.pid());
  try {
    reaped.wait();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot wait for process " + std::to_string(reaped.pid()) + ": No child processes");
  }
}

// Boost.Process's rule, which the worker's error paths rely on: no helper outlives its Helper.
TEST(ChildProcess, AHelperNotWaitedForIsKilledAndReapedWhenDestroyed) {
  pid_t pid = 0;
  {
    Helper sleeper({"sleep", "100"}, {});
    pid = sleeper.pid();
  }
  errno = 0;
  EXPECT_EQ(::kill(pid, 0), -1);
  EXPECT_EQ(errno, ESRCH);  // gone, zombie included
}

// A failed exec must not run our exit handlers in the child: Boost.Process calls exit(), which
// would flush this process's pending stdio output a second time.
TEST(ChildProcess, AFailedExecDoesNotFlushOurBufferedOutput) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  std::fputs("once\n", file);  // buffered, not yet written
  EXPECT_NE(start_error({"/nonexistent/iobench-helper"}), "");
  std::rewind(file);
  char buffer[64] = {};
  const std::size_t n = std::fread(buffer, 1, sizeof buffer, file);
  std::fclose(file);
  EXPECT_EQ(std::string(buffer, n), "once\n");
}

TEST(ChildProcess, StdinAndStdoutAreTheGivenDescriptors) {
  int ends[2];
  ASSERT_EQ(::pipe2(ends, O_CLOEXEC), 0);
  UniqueFd read_end(ends[0]);
  UniqueFd write_end(ends[1]);
  int out_ends[2];
  ASSERT_EQ(::pipe2(out_ends, O_CLOEXEC), 0);
  UniqueFd out_read(out_ends[0]);
  UniqueFd out_write(out_ends[1]);
  Helper tr({"tr", "a-z", "A-Z"}, {read_end.get(), out_write.get(), nullptr});
  read_end.reset();
  out_write.reset();
  sys::write_all(write_end.get(), "hello\n", 6);
  write_end.reset();  // tr sees end of file: no copy of the write end leaked into the child
  char buffer[64];
  const std::size_t n = sys::read_full(out_read.get(), buffer, sizeof buffer);
  EXPECT_EQ(std::string(buffer, n), "HELLO\n");
  EXPECT_EQ(tr.wait(), 0);
}

// Not close-on-exec, so only the starting code keeps them from the child: one below the
// descriptor Boost.Process keeps open for its exec report (which Boost 1.81 alone would pass on)
// and one far above it.
TEST(ChildProcess, GetsNoDescriptorButItsStandardThree) {
  UniqueFd low(::dup(STDERR_FILENO));
  UniqueFd high(::fcntl(STDERR_FILENO, F_DUPFD, 60));
  ASSERT_TRUE(low && high);
  const Captured listing = run_capturing_stdout({"ls", "/proc/self/fd"});
  EXPECT_EQ(listing.out, "0\n1\n2\n3\n")
      << "3 is ls's own, the folder it lists; low is " << low.get() << ", high " << high.get();
}

TEST(ChildProcess, PassesArgv0AsGiven) {
  const Captured cmdline = run_capturing_stdout({"cat", "/proc/self/cmdline"});
  EXPECT_EQ(cmdline.out, std::string("cat\0/proc/self/cmdline\0", 23));
}

TEST(ChildProcess, CapturesAllOfStdoutWithStdinFromDevNull) {
  const Captured echo = run_capturing_stdout({"echo", "hello"});
  EXPECT_EQ(echo.exit_status, 0);
  EXPECT_EQ(echo.out, "hello\n");
  const Captured cat = run_capturing_stdout({"cat"});  // stdin is /dev/null: ends at once
  EXPECT_EQ(cat.out, "");
  // Far more than a pipe holds: read while it runs, no deadlock.
  const Captured big = run_capturing_stdout({"head", "-c", "3000000", "/dev/zero"});
  EXPECT_EQ(big.out.size(), 3000000U);
  const Captured failing =
      run_capturing_stdout({"sh", "-c", "echo partial; exit 4"}, Stderr::kDevNull);
  EXPECT_EQ(failing.exit_status, 4);
  EXPECT_EQ(failing.out, "partial\n");
  // Its stderr is /dev/null when asked, ours otherwise.
  const Captured quiet =
      run_capturing_stdout({"sh", "-c", "readlink /proc/self/fd/2"}, Stderr::kDevNull);
  EXPECT_EQ(quiet.out, "/dev/null\n");
}

// gen blocks SIGPIPE while it writes into a compressor, and the worker ignores it: a helper
// started then must still have an empty mask and SIGPIPE at its default.
TEST(ChildProcess, StartsWithAnEmptySignalMaskAndSigpipeAtItsDefault) {
  sigset_t pipe_only;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  sigset_t saved_mask;
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &pipe_only, &saved_mask), 0);
  const auto saved_handler = ::signal(SIGPIPE, SIG_IGN);
  const Captured status = run_capturing_stdout({"cat", "/proc/self/status"});
  ::signal(SIGPIPE, saved_handler);
  ::pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
  EXPECT_EQ(status_field(status.out, "SigBlk"), "0000000000000000");
  const unsigned long long ignored =
      std::strtoull(status_field(status.out, "SigIgn").c_str(), nullptr, 16);
  EXPECT_EQ(ignored & (1ULL << (SIGPIPE - 1)), 0U) << status_field(status.out, "SigIgn");
}

}  // namespace
}  // namespace iobench::child
