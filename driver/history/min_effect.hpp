#pragma once
// `history check --min-effect` (docs/history.md, "Check"): how much slower a significant change
// must be to fail the gate, for every series or for those a regex names, measure by measure.
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "driver/history/series.hpp"

namespace iobench::history {

// A regression must be significant and slower by more than this (percent), unless a
// --min-effect REGEX=PCT matching the series says otherwise.
inline constexpr double kDefaultMinEffectPct = 5;

struct MinEffect {
  std::optional<std::regex> test;  // empty: every series
  std::string spelling;            // as given
  double pct = kDefaultMinEffectPct;
};
// "5" or "REGEX=PCT". Throws iobench::Error (exit 2) for anything else.
MinEffect parse_min_effect(const std::string& text);

// The threshold of the last effect whose regex matches the whole test name, or the test and its
// measure ("BM_Copy cpu_time", "latency-test latency"; an iobench series' sink: "read-raw pipe"),
// or has no regex; else the default.
double min_effect_for(const SeriesKey& key, const std::vector<MinEffect>& effects);

}  // namespace iobench::history
