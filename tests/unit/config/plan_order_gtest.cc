// The interleave order at scale: rounds of a Williams design computed one at a time, and what a
// sample of its rounds guarantees (docs/driver.md, "Order, failures, interrupts").
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "driver/config/plan.hpp"

namespace iobench::config {
namespace {

// Row i of the square is the first row shifted by i, so each adjacent position holds the same
// difference (next - previous, mod n) in every row. For an even n the first row's differences are
// 1, -2, 3, -4, ...: every non-zero difference exactly once. Hence, for any sample of rounds of an
// even design: each round holds every difference once, and no ordered pair is adjacent twice
// (the whole design has each exactly once; equal counts hold only over all n rounds).
struct SampleBalance {
  std::size_t rounds_not_permutations = 0;
  std::size_t rounds_missing_a_difference = 0;
  std::size_t pairs_adjacent_twice = 0;
};

SampleBalance check_sample(std::size_t n, const std::vector<std::vector<std::size_t>>& rounds) {
  SampleBalance balance;
  std::unordered_set<std::uint64_t> pairs;
  for (const auto& round : rounds) {
    std::vector<bool> seen(n, false);
    std::vector<bool> difference_seen(n, false);
    for (const std::size_t c : round) seen[c] = true;
    if (round.size() != n || std::find(seen.begin(), seen.end(), false) != seen.end())
      ++balance.rounds_not_permutations;
    for (std::size_t j = 1; j < round.size(); ++j) {
      difference_seen[(round[j] + n - round[j - 1]) % n] = true;
      if (!pairs.insert(static_cast<std::uint64_t>(round[j - 1]) * n + round[j]).second)
        ++balance.pairs_adjacent_twice;
    }
    if (std::find(difference_seen.begin() + 1, difference_seen.end(), false) !=
        difference_seen.end())
      ++balance.rounds_missing_a_difference;
  }
  return balance;
}

Config true_cells(std::size_t n, int repeats) {
  std::string values;
  for (std::size_t i = 0; i < n; ++i) values += fmt::format("{}\"{}\"", i == 0 ? "" : ",", i);
  return parse_config(fmt::format(R"({{"name": "scale", "inputs": ["x"],
      "strategies": [{{"name": "t{{i}}", "command": ["true"], "verify": false}}],
      "params": {{"i": [{}]}}, "sinks": ["null"], "repeats": {}, "warmup": 0}})",
                                  values, repeats),
                      "scale.json");
}

// 100,000 cells, as `iobench run` plans them: the measured rounds are the design's first rounds,
// and that sample is balanced as far as a sample can be.
TEST(PlanOrder, AHundredThousandCellsInterleaveAsABalancedSample) {
  constexpr std::size_t kCells = 100'000;
  constexpr int kRounds = 6;
  PlanOptions options;
  const Plan plan = build_plan(true_cells(kCells, kRounds), options);
  ASSERT_EQ(plan.cells.size(), kCells);
  ASSERT_EQ(plan.runs.size(), kCells * kRounds);
  std::vector<std::vector<std::size_t>> rounds(kRounds);
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    ASSERT_EQ(plan.runs[r].repeat, static_cast<int>(r / kCells) + 1);
    rounds[r / kCells].push_back(plan.runs[r].cell);
  }
  for (std::size_t r = 0; r < rounds.size(); ++r) EXPECT_EQ(rounds[r], williams_round(kCells, r));
  const SampleBalance balance = check_sample(kCells, rounds);
  EXPECT_EQ(balance.rounds_not_permutations, 0U);
  EXPECT_EQ(balance.rounds_missing_a_difference, 0U);
  EXPECT_EQ(balance.pairs_adjacent_twice, 0U);
}

// Rounds from anywhere in the design, not only its start, keep the same guarantees.
TEST(PlanOrder, ASampleOfRoundsFromAcrossALargeEvenDesignIsBalanced) {
  constexpr std::size_t kCells = 100'000;
  std::vector<std::vector<std::size_t>> rounds;
  for (const std::size_t r : {1UL, 2UL, 777UL, 49'999UL, 50'000UL, 99'999UL, 100'003UL}) {
    rounds.push_back(williams_round(kCells, r));
  }
  const SampleBalance balance = check_sample(kCells, rounds);
  EXPECT_EQ(balance.rounds_not_permutations, 0U);
  EXPECT_EQ(balance.rounds_missing_a_difference, 0U);
  EXPECT_EQ(balance.pairs_adjacent_twice, 0U);
  EXPECT_EQ(williams_round(kCells, 100'003), williams_round(kCells, 3)) << "the design cycles";
}

// An odd design is the square plus its mirror: round i + n is round i reversed, so over a sample
// of such round pairs every ordered pair (a, b) is adjacent as often as (b, a), and no pair more
// than twice (the whole design: each exactly twice).
TEST(PlanOrder, AnOddDesignPairsEachSampledRoundWithItsMirror) {
  constexpr std::size_t kCells = 99'999;
  ASSERT_EQ(williams_round_count(kCells), 2 * kCells);
  std::unordered_map<std::uint64_t, int> follows;
  for (const std::size_t r : {0UL, 5UL, 33'333UL, 99'998UL}) {
    const std::vector<std::size_t> forward = williams_round(kCells, r);
    const std::vector<std::size_t> mirrored = williams_round(kCells, r + kCells);
    EXPECT_EQ(mirrored, std::vector<std::size_t>(forward.rbegin(), forward.rend())) << r;
    for (const auto* round : {&forward, &mirrored}) {
      for (std::size_t j = 1; j < round->size(); ++j)
        ++follows[static_cast<std::uint64_t>((*round)[j - 1]) * kCells + (*round)[j]];
    }
  }
  std::size_t asymmetric = 0;
  std::size_t more_than_twice = 0;
  for (const auto& [pair, count] : follows) {
    const std::uint64_t reversed = (pair % kCells) * kCells + pair / kCells;
    const auto other = follows.find(reversed);
    if (other == follows.end() || other->second != count) ++asymmetric;
    if (count > 2) ++more_than_twice;
  }
  EXPECT_EQ(asymmetric, 0U);
  EXPECT_EQ(more_than_twice, 0U);
}

}  // namespace
}  // namespace iobench::config
