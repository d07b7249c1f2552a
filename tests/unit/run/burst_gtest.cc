// driver/run/burst: a run judged against the calm of its session (docs/driver.md, "Bursts"):
// the calm level's exact value, the rule at its edge, the phrase, and a simulation of the loads
// the rule was chosen on (a steady busy loop, a light load, bench-noise's bursts) that measures
// how many runs it condemns under each.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "driver/run/burst.hpp"

namespace iobench::run {
namespace {

RunDisturbance others(double others_cpu_s) {
  RunDisturbance d;
  d.others_cpu_s = others_cpu_s;
  d.resolution_s = kExactResolution_s;
  d.cpus = 2;
  d.others_measured = true;
  return d;
}

TEST(SessionCalm, TheLevelIsTheLowerQuartileOfTheMostOthersCanHaveRunPerRun) {
  SessionCalm calm;
  EXPECT_FALSE(calm.level_cpus().has_value());
  for (double cpus : {1.0, 0.0, 0.9, 0.1, 0.95}) calm.add(others(cpus * 0.05), 0.05);
  // Each plus the 4 ms resolution over 50 ms (0.08 CPUs): sorted 0.08, 0.18, 0.98, 1.03, 1.08;
  // the lower order statistic at a quarter, index (5 - 1) / 4.
  EXPECT_NEAR(calm.level_cpus().value_or(-1), 0.18, 1e-12);
  RunDisturbance unmeasured = others(0.0);
  unmeasured.others_measured = false;
  calm.add(unmeasured, 0.05);  // no figure of others: not counted
  calm.add(others(0.0), 0.0);  // no elapsed time: not counted
  EXPECT_NEAR(calm.level_cpus().value_or(-1), 0.18, 1e-12);
}

TEST(Burst, OthersBeyondTheCalmByTwiceTheThresholdOfTheRunPlusTheResolution) {
  // A 50 ms run, calm 0.1 CPUs, threshold 0.1 (the burst rule allows 0.2): allowed are
  // 5 ms of calm + 10 ms + the 4 ms resolution = 19 ms of others.
  EXPECT_NEAR(burst_excess_s(others(0.019), 0.05, 0.1), 0.010, 1e-12);
  EXPECT_FALSE(is_burst(others(0.019), 0.05, 0.1, 0.1));
  EXPECT_TRUE(is_burst(others(0.0191), 0.05, 0.1, 0.1));
  EXPECT_FALSE(is_burst(others(0.05), 0.05, std::nullopt, 0.1)) << "no calm level: not judged";
  RunDisturbance unmeasured = others(0.05);
  unmeasured.others_measured = false;
  EXPECT_FALSE(is_burst(unmeasured, 0.05, 0.0, 0.1));
  EXPECT_EQ(burst_phrase(others(0.0553), 0.057, 0.02),
            "others ran 55.3 ms of its 57.0 ms (0.97 of a CPU), where this session's calm runs "
            "saw 0.02");
}

// Runs back to back, of `run_ms(i)` each, under a load that `others_at` gives per millisecond
// (CPUs of others busy then), each figure counted in whole 4 ms ticks as the kernel charges them
// (at a random phase: off by up to a tick either way); the share of runs the rule condemns, and
// of those that others overlapped by half a CPU or more.
struct Outcome {
  double condemned = 0;
  double condemned_of_overlapped = 0;
};

template <typename Length, typename Load>
Outcome simulate_runs(int runs, Length run_ms_of, Load others_at, std::mt19937& rng) {
  std::uniform_real_distribution<double> phase(0.0, kExactResolution_s);
  SessionCalm calm;
  int condemned = 0, overlapped = 0, caught = 0, t_ms = 0;
  for (int i = 0; i < runs; ++i) {
    const int run_ms = run_ms_of(i);
    double busy_ms = 0;
    for (int ms = 0; ms < run_ms; ++ms) busy_ms += others_at(t_ms + ms);
    t_ms += run_ms + 1;
    const double elapsed_s = run_ms / 1e3;
    const double ticks = std::floor((busy_ms / 1e3 + phase(rng)) / kExactResolution_s);
    const RunDisturbance d = others(ticks * kExactResolution_s);
    const bool burst = is_burst(d, elapsed_s, calm.level_cpus(), 0.1);
    calm.add(d, elapsed_s);
    condemned += burst;
    if (busy_ms >= 0.5 * run_ms) {
      ++overlapped;
      caught += burst;
    }
  }
  return {static_cast<double>(condemned) / runs,
          overlapped == 0 ? 0.0 : static_cast<double>(caught) / overlapped};
}

template <typename Load>
Outcome simulate(int runs, int run_ms, Load others_at, std::mt19937& rng) {
  return simulate_runs(
      runs, [run_ms](int) { return run_ms; }, others_at, rng);
}

TEST(BurstSimulation, ASteadyLoadCondemnsAlmostNoneAndBurstsOnHalfTheRunsAreCaught) {
  std::mt19937 rng(45);
  std::uniform_real_distribution<double> jitter(0.85, 1.0);
  // One steady busy loop on the other CPU: a CPU's worth of others, less what the scheduler
  // gives elsewhere now and then. 57 ms runs, as bench-noise's copies.
  const Outcome busy = simulate(
      2000, 57, [&](int) { return jitter(rng); }, rng);
  EXPECT_LT(busy.condemned, 0.01) << busy.condemned;
  // A light load: busy 3 ms in every 10 ms. 12 ms runs, as bench-load's copies.
  const Outcome light = simulate(
      2000, 12, [](int ms) { return ms % 10 < 3 ? 1.0 : 0.0; }, rng);
  EXPECT_LT(light.condemned, 0.01) << light.condemned;
  // One busy loop beside a session of short runs, 5 ms into a pipe and 2 ms into the null sink
  // by turns (e2e.run_disturbance's copies): a steady load reads as 0 ticks in many of them. A
  // calm level taken from the figures themselves was then 0, and every run that read two ticks
  // was a "burst" (7 % of the runs here; 1 to 3 of 18 in that test).
  const Outcome short_runs = simulate_runs(
      2000, [](int i) { return i % 2 == 0 ? 5 : 2; }, [&](int) { return jitter(rng); }, rng);
  EXPECT_LT(short_runs.condemned, 0.01) << short_runs.condemned;
  // bench-noise's bursts: a CPU busy for 100 to 300 ms, then idle for as long.
  std::vector<int> edges{0};
  std::uniform_int_distribution<int> span(100, 300);
  while (edges.back() < 2000 * 58) edges.push_back(edges.back() + span(rng));
  const auto in_burst = [&](int ms) {
    const auto next = std::upper_bound(edges.begin(), edges.end(), ms);
    return (next - edges.begin()) % 2 == 1 ? 1.0 : 0.0;
  };
  const Outcome bursts = simulate(2000, 57, in_burst, rng);
  EXPECT_GT(bursts.condemned, 0.3) << bursts.condemned;
  EXPECT_GT(bursts.condemned_of_overlapped, 0.95) << bursts.condemned_of_overlapped;
}

}  // namespace
}  // namespace iobench::run
