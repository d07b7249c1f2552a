// The processes a worker leaves behind (docs/driver.md, "Strays"): killed and reaped before the
// next run, counted, and whether one still held the sink; a zombie or a member of a group the
// timeout ended is no stray.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "common/fd.hpp"
#include "driver/spawn/spawner.hpp"
#include "tests/unit/spawn/test_support.hpp"

namespace iobench::spawn {
namespace {

using test::command;
using test::kSpawner;
using test::read_all;

// What a worker leaves behind is killed and reaped before the next run (the spawner is a child
// subreaper), and the result says so.
TEST(Spawner, KillsAndReportsAStrayThatLeftTheProcessGroup) {
  Spawner spawner(kSpawner);
  const UniqueFd out(::memfd_create("out", MFD_CLOEXEC));
  SpawnRequest request = command(
      {"sh", "-c", "setsid sleep 30 >/dev/null 2>&1 </dev/null & echo $!; sleep 0.3; exit 0"});
  request.stdout_fd = out.get();
  const SpawnResult result = spawner.run(request);
  ASSERT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
  EXPECT_EQ(result.strays_killed, 1);
  EXPECT_FALSE(result.stray_held_sink);  // its stdout went to /dev/null
  const pid_t stray = std::stoi(read_all(out.get()));
  EXPECT_NE(::kill(stray, 0), 0) << "the setsid sleep outlived its run";
}

TEST(Spawner, SaysWhenADoubleForkedStrayStillHeldTheSink) {
  Spawner spawner(kSpawner);
  const UniqueFd out(::memfd_create("out", MFD_CLOEXEC));
  SpawnRequest request = command({"sh", "-c", "(sleep 30 &); exit 0"});
  request.stdout_fd = out.get();
  const auto start = std::chrono::steady_clock::now();
  const SpawnResult result = spawner.run(request);
  ASSERT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
  EXPECT_EQ(result.strays_killed, 1);
  EXPECT_TRUE(result.stray_held_sink);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

TEST(Spawner, AFinishedChildLeftUnreapedIsNoStray) {
  Spawner spawner(kSpawner);
  // true ends at once; sh then becomes sleep, which never reaps it: a zombie, not a stray.
  const SpawnResult result =
      spawner.run(command({"sh", "-c", "/bin/true & sleep 0.2; exec sleep 0"}));
  ASSERT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
  EXPECT_EQ(result.strays_killed, 0);
  const SpawnResult clean = spawner.run(command({"sh", "-c", "exit 0"}));
  EXPECT_EQ(clean.strays_killed, 0);
}

TEST(Spawner, ProcessesOfAGroupEndedByTheTimeoutAreNoStrays) {
  Spawner spawner(kSpawner);
  const UniqueFd out(::memfd_create("out", MFD_CLOEXEC));
  SpawnRequest request = command({"sh", "-c", "sleep 30 & sleep 30"});
  request.stdout_fd = out.get();
  request.timeout_s = 0.3;
  for (int i = 0; i < 5; ++i) {  // the race (a group member still dying) does not always show
    const SpawnResult result = spawner.run(request);
    EXPECT_EQ(result.outcome, SpawnOutcome::kTimedOut);
    EXPECT_EQ(result.strays_killed, 0);
    EXPECT_FALSE(result.stray_held_sink);
  }
}

}  // namespace
}  // namespace iobench::spawn
