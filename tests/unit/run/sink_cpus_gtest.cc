// With `cpus` set, the spinning pipe drain runs on the other CPUs (docs/driver.md, "Sinks"), so the
// measured worker does not share its CPU with the driver's drain.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>

#include "driver/run/sink.hpp"

namespace iobench::run {
namespace {

TEST(SinkCpus, ThePipeDrainKeepsOffTheWorkersCpus) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
  if (CPU_COUNT(&allowed) < 2) GTEST_SKIP() << "one CPU: the drain has nowhere else to go";
  std::size_t first = 0;
  while (!CPU_ISSET(first, &allowed)) ++first;
  const int worker_cpu = static_cast<int>(first);
  SinkSettings settings;
  settings.drain = config::DrainMode::kSpin;
  settings.worker_cpus = {worker_cpu};
  auto sink = open_sink(config::SinkKind::kPipe, settings);
  const SinkResult result = sink->finish();
  ASSERT_FALSE(result.drain_cpus.empty());
  EXPECT_EQ(std::count(result.drain_cpus.begin(), result.drain_cpus.end(), worker_cpu), 0);
  EXPECT_EQ(static_cast<int>(result.drain_cpus.size()), CPU_COUNT(&allowed) - 1);

  SinkSettings unpinned;
  unpinned.drain = config::DrainMode::kSpin;
  auto anywhere = open_sink(config::SinkKind::kPipe, unpinned);
  EXPECT_EQ(static_cast<int>(anywhere->finish().drain_cpus.size()), CPU_COUNT(&allowed));
}

}  // namespace
}  // namespace iobench::run
