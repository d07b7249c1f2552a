// driver/run/burst: a run judged against the calm of its session (docs/driver.md, "Bursts"):
// the calm level's exact value, the rule at its edge, the phrase, and a simulation of the loads
// the rule was chosen on (a steady busy loop, a light load, bench-noise's bursts) that measures
// how many runs it condemns under each.
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(SessionCalm, TheLevelIsTheLowerQuartileOfOthersCpusPerRun) {
  SessionCalm calm;
  EXPECT_FALSE(calm.level_cpus().has_value());
  for (double cpus : {1.0, 0.0, 0.9, 0.1, 0.95}) calm.add(others(cpus * 0.05), 0.05);
  // Sorted 0, 0.1, 0.9, 0.95, 1.0: the lower order statistic at a quarter, index (5 - 1) / 4.
  EXPECT_NEAR(calm.level_cpus().value_or(-1), 0.1, 1e-12);
  RunDisturbance unmeasured = others(0.0);
  unmeasured.others_measured = false;
  calm.add(unmeasured, 0.05);  // no figure of others: not counted
  calm.add(others(0.0), 0.0);  // no elapsed time: not counted
  EXPECT_NEAR(calm.level_cpus().value_or(-1), 0.1, 1e-12);
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

// Runs of `run_ms` back to back under a load that `others_at` gives per millisecond (CPUs of
// others busy then), each figure off by up to the resolution; the share of runs the rule
// condemns, and of those that others overlapped by half a CPU or more.
struct Outcome {
  double condemned = 0;
  double condemned_of_overlapped = 0;
};

template <typename Load>
Outcome simulate(int runs, int run_ms, Load others_at, std::mt19937& rng) {
  std::uniform_real_distribution<double> off(-kExactResolution_s, 0.0);
  SessionCalm calm;
  int condemned = 0, overlapped = 0, caught = 0, t_ms = 0;
  for (int i = 0; i < runs; ++i, t_ms += run_ms + 1) {
    double busy_ms = 0;
    for (int ms = 0; ms < run_ms; ++ms) busy_ms += others_at(t_ms + ms);
    const double elapsed_s = run_ms / 1e3;
    const RunDisturbance d = others(std::max(0.0, busy_ms / 1e3 + off(rng)));
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
