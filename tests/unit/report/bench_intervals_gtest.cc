// bench's verdicts as intervals (docs/bench.md): "1.52× slower [1.31, 1.77], p = 0.003", and "no
// significant difference" said plainly when the interval holds 1.
#include <gtest/gtest.h>

#include "driver/report/versus_reference.hpp"

namespace iobench::report {
namespace {

report::Row row(double ratio, double low, double high, double p, report::Verdict verdict) {
  report::Row r;
  r.ratio = ratio;
  r.ci = stats::Interval{low, high};
  r.p_value = p;
  r.verdict = verdict;
  return r;
}

TEST(BenchIntervals, ASignificantDifferenceIsItsFactorAndInterval) {
  EXPECT_EQ(interval_phrase(row(1.52, 1.31, 1.77, 0.003, report::Verdict::kSlower)),
            "1.52× slower [1.31, 1.77], p = 0.003");
  // Faster: the factor is 1 / ratio, its interval [1 / high, 1 / low].
  EXPECT_EQ(interval_phrase(row(0.5, 0.4, 0.625, 0.0001, report::Verdict::kFaster)),
            "2.00× faster [1.60, 2.50], p < 0.001");
  EXPECT_EQ(interval_phrase(row(15.2, 13.1, 17.7, 0.0002, report::Verdict::kSlower)),
            "15.2× slower [13.1, 17.7], p < 0.001");
}

TEST(BenchIntervals, AnIntervalHoldingOneIsNoSignificantDifference) {
  EXPECT_EQ(interval_phrase(row(1.01, 0.97, 1.05, 0.41, report::Verdict::kNoChange)),
            "no significant difference (1.01× slower [0.97, 1.05], p = 0.410)");
  // Said so even where the U test alone would call it: the interval is what the reader sees.
  EXPECT_EQ(interval_phrase(row(1.04, 1.00, 1.08, 0.049, report::Verdict::kSlower)),
            "no significant difference (1.04× slower [1.00, 1.08], p = 0.049)");
}

TEST(BenchIntervals, TooFewRunsOrNoTimeAreSaidSo) {
  report::Row few = row(1.3, 0, 0, 0.1, report::Verdict::kTooFewRuns);
  few.ci.reset();
  EXPECT_EQ(interval_phrase(few), "too few runs to judge (1.30× slower, p = 0.100)");
  report::Row none = row(0, 0, 0, 1, report::Verdict::kTooFewRuns);
  EXPECT_EQ(interval_phrase(none), "no comparison (no time to divide by)");
}

}  // namespace
}  // namespace iobench::report
