// Waiting for the worker without a pidfd (driver/spawn/worker_wait.hpp): by SIGCHLD, forced
// through the spawner's seam, an exit, a timeout and a cancel each still end the wait.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <thread>

#include "common/fd.hpp"
#include "driver/spawn/spawn_ops.hpp"
#include "driver/spawn/spawner.hpp"
#include "tests/unit/spawn/test_support.hpp"

namespace iobench::spawn {
namespace {

using test::command;

// Without a pidfd (old kernel, seccomp, EMFILE) timeouts and cancels still work.
int no_pidfd(pid_t) {
  errno = ENOSYS;
  return -1;
}

class WithoutPidfd : public ::testing::Test {
 protected:
  static SpawnOps without_pidfd() {
    SpawnOps ops = spawn_ops();
    ops.pidfd_open = no_pidfd;
    return ops;
  }
  ScopedSpawnOps scoped_{without_pidfd()};
};

TEST_F(WithoutPidfd, AnExitIsSeenAtOnce) {
  const SpawnResult result = spawn_and_measure(command({"sh", "-c", "sleep 0.1; exit 4"}));
  ASSERT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
  EXPECT_EQ(result.exit_code, 4);
  EXPECT_LT(result.elapsed_s, 1.0);
}

TEST_F(WithoutPidfd, ATimeoutStillEndsTheRun) {
  SpawnRequest request = command({"sleep", "30"});
  request.timeout_s = 0.3;
  const SpawnResult result = spawn_and_measure(request);
  EXPECT_EQ(result.outcome, SpawnOutcome::kTimedOut);
  EXPECT_EQ(result.term_signal, SIGTERM);
  EXPECT_LT(result.elapsed_s, 5.0);
}

TEST_F(WithoutPidfd, ACancelStillEndsTheRun) {
  std::array<int, 2> ends{};
  ASSERT_EQ(::pipe2(ends.data(), O_CLOEXEC), 0);
  const UniqueFd cancel_read(ends[0]);
  const UniqueFd cancel_write(ends[1]);
  std::thread canceller([&cancel_write] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    [[maybe_unused]] const ssize_t sent = ::write(cancel_write.get(), "C", 1);
  });
  const SpawnResult result = spawn_and_measure(command({"sleep", "30"}), cancel_read.get());
  canceller.join();
  EXPECT_EQ(result.outcome, SpawnOutcome::kCancelled);
  EXPECT_LT(result.elapsed_s, 5.0);
}

}  // namespace
}  // namespace iobench::spawn
