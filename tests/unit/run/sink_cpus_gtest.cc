// With `cpus` set, the pipe drain runs on the other CPUs (docs/driver.md, "Sinks"), so the measured
// worker does not share its CPU with the driver's drain; and the `auto` drain gives way when
// another task wants its CPU (docs/driver.md, "What the pipe sink costs").
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "common/hash.hpp"
#include "common/sysio.hpp"
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
  settings.worker_cpus = {worker_cpu};
  auto sink = open_sink(config::SinkKind::kPipe, settings);
  const SinkResult result = sink->finish();
  ASSERT_FALSE(result.drain_cpus.empty());
  EXPECT_EQ(std::count(result.drain_cpus.begin(), result.drain_cpus.end(), worker_cpu), 0);
  EXPECT_EQ(static_cast<int>(result.drain_cpus.size()), CPU_COUNT(&allowed) - 1);

  auto anywhere = open_sink(config::SinkKind::kPipe, SinkSettings{});
  EXPECT_EQ(static_cast<int>(anywhere->finish().drain_cpus.size()), CPU_COUNT(&allowed));
}

// The drain kept to one CPU (every other one is "the worker's") with a busy thread of the test's
// own pinned there: the spinning drain is switched out for it, sees so, and sleeps when the pipe
// is empty from then on. Whatever it did, every byte arrives. `spin` never gives way.
TEST(SinkCpus, TheAutoDrainGivesWayToAnotherTaskOnItsCpu) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
  if (CPU_COUNT(&allowed) < 2) GTEST_SKIP() << "one CPU: the drain and the writer would share it";
  int drain_cpu = CPU_SETSIZE - 1;
  while (!CPU_ISSET(static_cast<std::size_t>(drain_cpu), &allowed)) --drain_cpu;
  std::atomic<bool> stop{false};
  std::thread busy([&stop, drain_cpu] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(static_cast<std::size_t>(drain_cpu), &one);
    ::sched_setaffinity(0, sizeof one, &one);
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  std::string chunk(16384, 'x');
  for (const config::DrainMode mode : {config::DrainMode::kAuto, config::DrainMode::kSpin}) {
    SinkSettings settings;
    settings.drain = mode;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (cpu != drain_cpu && CPU_ISSET(static_cast<std::size_t>(cpu), &allowed))
        settings.worker_cpus.push_back(cpu);
    }
    auto sink = open_sink(config::SinkKind::kPipe, settings);
    StreamHash expected;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    std::uint64_t written = 0;
    while (std::chrono::steady_clock::now() < until) {
      sys::write_all(sink->worker_fd(), chunk.data(), chunk.size());
      expected.update(chunk.data(), chunk.size());
      written += chunk.size();
    }
    const SinkResult result = sink->finish();
    EXPECT_EQ(result.bytes, written) << to_string(mode);
    EXPECT_EQ(result.hash, expected.hex()) << to_string(mode);
    EXPECT_EQ(result.drain_gave_way, mode == config::DrainMode::kAuto) << to_string(mode);
  }
  stop = true;
  busy.join();
}

// Writes `bytes` through a pipe sink with `mode`; the seconds it took, every byte checked.
double seconds_to_write_through(config::DrainMode mode, std::size_t bytes, bool& gave_way) {
  SinkSettings settings;
  settings.drain = mode;
  auto sink = open_sink(config::SinkKind::kPipe, settings);
  const std::string chunk(65536, 'y');
  StreamHash expected;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t written = 0; written < bytes; written += chunk.size()) {
    sys::write_all(sink->worker_fd(), chunk.data(), chunk.size());
    expected.update(chunk.data(), chunk.size());
  }
  const SinkResult result = sink->finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(result.bytes, bytes) << to_string(mode);
  EXPECT_EQ(result.hash, expected.hex()) << to_string(mode);
  gave_way = result.drain_gave_way;
  return seconds;
}

// Every CPU busy with a thread of the test's own (a loaded CI runner): the `auto` drain gives way,
// and still gets its share of a CPU. At SCHED_IDLE it got almost none, and the writer slept on its
// full pipe: 8 MiB took 1.8 s against 35 ms for the `block` drain (SCHED_BATCH: about the same as
// `block`). Side by side, `auto` within 10 times `block`.
TEST(SinkCpus, TheAutoDrainIsNotStarvedWhenEveryCpuIsBusy) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(static_cast<std::size_t>(cpu), &allowed)) continue;
    busy.emplace_back([&stop, cpu] {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(static_cast<std::size_t>(cpu), &one);
      ::sched_setaffinity(0, sizeof one, &one);
      while (!stop.load(std::memory_order_relaxed)) {
      }
    });
  }
  constexpr std::size_t kBytes = 64 << 20;
  bool gave_way = false;
  const double block_s = seconds_to_write_through(config::DrainMode::kBlock, kBytes, gave_way);
  // Whether the drain is switched out during a write is the scheduler's choice: a woken drain
  // may preempt the busy threads instead. On Linux 6.18 (EEVDF), 8 MiB writes (about 15 ms) gave
  // way in only 2 of 6 tries; 64 MiB ones, with up to five writes, in 40 of 40. A drain that
  // never gives way fails all five.
  double auto_s = 0;
  for (int write = 0; write < 5 && !gave_way; ++write)
    auto_s = seconds_to_write_through(config::DrainMode::kAuto, kBytes, gave_way);
  stop = true;
  for (std::thread& thread : busy) thread.join();
  EXPECT_TRUE(gave_way) << "the auto drain kept spinning beside a busy thread on every CPU";
  EXPECT_LT(auto_s, 10 * block_s) << "auto " << auto_s << " s, block " << block_s << " s";
}

}  // namespace
}  // namespace iobench::run
