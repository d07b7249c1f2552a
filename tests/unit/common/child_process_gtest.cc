// common/child_process: the one way the driver and the worker start an unmeasured helper
// (compressors, decompressors, git, `iobench-worker --list`): its stdio, its exit status, its
// signal state, and capturing its stdout.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
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

TEST(ChildProcess, ExitStatusAndSignal) {
  EXPECT_EQ(wait(start({"true"}, {})), 0);
  EXPECT_EQ(wait(start({"sh", "-c", "exit 3"}, {})), 3);
  EXPECT_EQ(wait(start({"sh", "-c", "kill -9 $$"}, {})), 137);
  EXPECT_EQ(describe_exit(3), "exited with status 3");
  EXPECT_EQ(describe_exit(137), "was killed by signal 9 (Killed)");
}

TEST(ChildProcess, AProgramThatCannotStartIsAnErrorNamingIt) {
  try {
    start({"/nonexistent/iobench-helper", "x"}, {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot start '/nonexistent/iobench-helper': No such file or directory");
  }
  EXPECT_THROW(start({}, {}), Error);
  EXPECT_THROW(wait(::getpid()), Error);  // not our child
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
  const pid_t pid = start({"tr", "a-z", "A-Z"}, {read_end.get(), out_write.get(), kDevNull});
  read_end.reset();
  out_write.reset();
  sys::write_all(write_end.get(), "hello\n", 6);
  write_end.reset();  // tr sees end of file: no copy of the write end leaked into the child
  char buffer[64];
  const std::size_t n = sys::read_full(out_read.get(), buffer, sizeof buffer);
  EXPECT_EQ(std::string(buffer, n), "HELLO\n");
  EXPECT_EQ(wait(pid), 0);
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
  const Captured failing = run_capturing_stdout({"sh", "-c", "echo partial; exit 4"}, kDevNull);
  EXPECT_EQ(failing.exit_status, 4);
  EXPECT_EQ(failing.out, "partial\n");
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
