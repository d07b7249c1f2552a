// The driver waits for a run's result awake only for a command whose last run was shorter than
// the spin window (or that has not run yet): a longer run's wait must not burn the CPU a
// pipeline's other process needs.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <string>
#include <vector>

#include "driver/spawn/response_wait.hpp"
#include "driver/spawn/spawner.hpp"
#include "tests/unit/spawn/test_support.hpp"

namespace iobench::spawn {
namespace {

TEST(ResponseWait, AwakeForACommandNotYetRunAndForOneShorterThanTheWindow) {
  ResponseWait wait(0.002);
  const auto a = ResponseWait::key_of({"sh", "-c", "true"});
  EXPECT_TRUE(wait.awake(a));
  wait.ran(a, 0.0019);
  EXPECT_TRUE(wait.awake(a));
  wait.ran(a, 0.002);
  EXPECT_FALSE(wait.awake(a));
  wait.ran(a, 0.0005);  // the last run decides, not the longest
  EXPECT_TRUE(wait.awake(a));
}

TEST(ResponseWait, EachCommandByItsOwnLastRun) {
  ResponseWait wait(0.002);
  const auto a = ResponseWait::key_of({"ab", "c"});
  const auto b = ResponseWait::key_of({"a", "bc"});  // the same letters, other words
  EXPECT_NE(a, b);
  EXPECT_EQ(a, ResponseWait::key_of({"ab", "c"}));
  wait.ran(a, 0.05);
  EXPECT_FALSE(wait.awake(a));
  EXPECT_TRUE(wait.awake(b));
}

double thread_cpu_s() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

TEST(Spawner, SleepsThroughTheRunOfACommandWhoseLastRunWasLong) {
  Spawner spawner(test::kSpawner);
  SpawnRequest request;
  request.argv = {"/bin/sleep", "0.05"};
  ASSERT_EQ(spawner.run(request).outcome, SpawnOutcome::kExited);  // its first run: awake
  // Awake, every wait would cost about Spawner::kResponseSpinS of this thread's CPU; asleep, the
  // send and the receive, tens of microseconds. The least of five runs, because on a busy machine
  // (the parallel suite) one send can take a page fault or a cold cache worth half a millisecond.
  double least_cpu_s = 1.0;
  for (int run = 0; run < 5; ++run) {
    const double before_s = thread_cpu_s();
    ASSERT_EQ(spawner.run(request).outcome, SpawnOutcome::kExited);
    least_cpu_s = std::min(least_cpu_s, thread_cpu_s() - before_s);
  }
  EXPECT_LT(least_cpu_s, Spawner::kResponseSpinS / 4);
}

}  // namespace
}  // namespace iobench::spawn
