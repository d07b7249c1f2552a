// The counters the driver holds while a matrix runs (docs/driver.md, "Counters"): one disabled
// event per counted counter, so that a run's counters close without the kernel unregistering their
// type each time; and such an event counts nothing, not even what a child it starts does.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "driver/run/counter_plan.hpp"
#include "driver/spawn/counter_events.hpp"

namespace iobench::run {
namespace {

TEST(CounterHold, EveryCountedCounterIsHeldAndCountsNothingOfChildren) {
  const CountingPlan plan =
      plan_counting({runfile::Counter::kSyscalls, runfile::Counter::kContextSwitches});
  if (plan.counted.empty()) GTEST_SKIP() << "neither counter can be counted here (not root?)";
  ASSERT_EQ(plan.held_events.size(), plan.counted.size());
  // A child that execs: an inherited event enabled at exec would fold its counts in here.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::execl("/bin/sh", "sh", "-c", "for i in 1 2 3; do :; done; exit 0", nullptr);
    ::_exit(127);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  for (std::size_t i = 0; i < plan.held_events.size(); ++i) {
    const spawn::wire::CounterValue reading = spawn::read_counter(plan.held_events[i].get());
    EXPECT_EQ(reading.counted, 0) << plan.counted[i] << " counted " << reading.value;
  }
}

TEST(CounterHold, AnUnknownCounterIsNotHeld) {
  int error = 0;
  EXPECT_EQ(spawn::hold_counter("syscall", &error), -1);
  EXPECT_EQ(error, EINVAL);
}

}  // namespace
}  // namespace iobench::run
