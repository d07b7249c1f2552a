// The change-point detector (driver/stats/change_points.hpp): its divergence by hand, series
// with known change points, and a simulation of its error rates (docs/history.md, "Change
// points", quotes them). Welch's test that judges each split: welch_gtest.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "driver/stats/change_points.hpp"

namespace iobench::stats {
namespace {

// Deterministic normal noise: splitmix64, then Box-Muller.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : state_(seed) {}
  double uniform() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
  }
  double normal() {
    return std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
  }

 private:
  std::uint64_t state_;
};

// Points at `level` times (1 + relative noise of `sigma`).
void append(std::vector<double>& series, Noise& noise, std::size_t count, double level,
            double sigma) {
  for (std::size_t i = 0; i < count; ++i) series.push_back(level * (1 + sigma * noise.normal()));
}

std::vector<std::size_t> indices(const std::vector<ChangePoint>& points) {
  std::vector<std::size_t> out;
  out.reserve(points.size());
  for (const auto& p : points) out.push_back(p.index);
  return out;
}

TEST(ChangePoints, EnergyDivergenceByHandAndCarriedSumsAgree) {
  const std::vector<double> x{1, 2, 10, 11};
  // Between: (9 + 10 + 8 + 9) / 4 = 9; within: 1 and 1; Q = 2 * 2 / 4 * (18 - 1 - 1) = 16.
  EXPECT_DOUBLE_EQ(energy_divergence(x, 2), 16);
  // tau = 1: between (1 + 9 + 10) / 3; within left none, right (8 + 9 + 1) / 3 = 6.
  EXPECT_DOUBLE_EQ(energy_divergence(x, 1), 3.0 / 4 * (2 * 20.0 / 3 - 6));
  Noise noise(7);
  std::vector<double> series;
  append(series, noise, 30, 1, 0.05);
  const std::vector<double> all = energy_divergences(series);
  ASSERT_EQ(all.size(), series.size() - 1);
  for (std::size_t tau = 1; tau < series.size(); ++tau) {
    EXPECT_NEAR(all[tau - 1], energy_divergence(series, tau), 1e-12) << tau;
  }
}

TEST(ChangePoints, ATenPercentStepAfterTwentyPointsInNoiseIsFoundThere) {
  Noise noise(1);
  std::vector<double> series;
  append(series, noise, 20, 1.0, 0.02);
  append(series, noise, 20, 1.1, 0.02);
  const auto points = find_change_points(series);
  ASSERT_EQ(indices(points), std::vector<std::size_t>{20});
  EXPECT_NEAR(points[0].relative_change(), 0.10, 0.02);
  EXPECT_LT(points[0].p_value, 1e-6);
}

TEST(ChangePoints, TwoNearbyStepsAreBothFound) {
  Noise noise(2);
  std::vector<double> series;
  append(series, noise, 20, 1.0, 0.02);
  append(series, noise, 6, 1.1, 0.02);
  append(series, noise, 20, 1.2, 0.02);
  EXPECT_EQ(indices(find_change_points(series)), (std::vector<std::size_t>{20, 26}));
}

TEST(ChangePoints, AnOutlierThatRevertsIsNoChange) {
  Noise noise(3);
  std::vector<double> series;
  append(series, noise, 20, 1.0, 0.02);
  series.push_back(1.5);
  append(series, noise, 20, 1.0, 0.02);
  EXPECT_TRUE(find_change_points(series).empty());
}

TEST(ChangePoints, AFlatNoisySeriesHasNone) {
  Noise noise(4);
  std::vector<double> series;
  append(series, noise, 60, 1.0, 0.05);
  EXPECT_TRUE(find_change_points(series).empty());
}

TEST(ChangePoints, ASmallChangeBelowTheMinimumIsNotReported) {
  Noise noise(5);
  std::vector<double> series;
  append(series, noise, 30, 1.0, 0.002);
  append(series, noise, 30, 1.02, 0.002);  // significant, but 2 % < 5 %
  EXPECT_TRUE(find_change_points(series).empty());
  DetectorOptions options;
  options.min_relative_change = 0.01;
  EXPECT_EQ(indices(find_change_points(series, options)), std::vector<std::size_t>{30});
}

// The error rates docs/history.md quotes: 1000 series of 40 runs each, normal noise of 2 % and
// 5 % of the level; a detection is a change point within 2 runs of the step.
struct ChangePointRates {
  double false_positive = 0;  // flat series with any change point
  double detected = 0;        // 10 % step at run 20 found near it
};

ChangePointRates simulate(double sigma, std::uint64_t seed) {
  constexpr int kTrials = 1000;
  int false_positives = 0;
  int detected = 0;
  Noise noise(seed);
  for (int trial = 0; trial < kTrials; ++trial) {
    std::vector<double> flat;
    append(flat, noise, 40, 1.0, sigma);
    if (!find_change_points(flat).empty()) ++false_positives;
    std::vector<double> step;
    append(step, noise, 20, 1.0, sigma);
    append(step, noise, 20, 1.1, sigma);
    for (const auto& point : find_change_points(step)) {
      if (point.index + 2 >= 20 && point.index <= 22) {
        ++detected;
        break;
      }
    }
  }
  return {static_cast<double>(false_positives) / kTrials, static_cast<double>(detected) / kTrials};
}

TEST(ChangePointSimulation, FalsePositivesAreRareAndATenPercentStepIsFound) {
  const ChangePointRates quiet = simulate(0.02, 11);
  const ChangePointRates noisy = simulate(0.05, 12);
  std::printf("noise 2 %%: false positives %.1f %%, detected %.1f %%\n", 100 * quiet.false_positive,
              100 * quiet.detected);
  std::printf("noise 5 %%: false positives %.1f %%, detected %.1f %%\n", 100 * noisy.false_positive,
              100 * noisy.detected);
  EXPECT_LE(quiet.false_positive, 0.01);
  EXPECT_GE(quiet.detected, 0.99);
  EXPECT_LE(noisy.false_positive, 0.02);
  EXPECT_GE(noisy.detected, 0.88);
}

}  // namespace
}  // namespace iobench::stats
