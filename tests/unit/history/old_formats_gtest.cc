// A figure an old run file lacks is stored as NULL (runfile/rows.hpp reads it as empty) and the
// why beside a change leaves it out: a counter absent before is no counter that moved from 0.
#include <gtest/gtest.h>

#include <vector>

#include "driver/history/why.hpp"

namespace iobench::history {
namespace {

std::vector<StoredSample> samples(double elapsed_s, std::optional<std::uint64_t> syscalls) {
  std::vector<StoredSample> out(6);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].elapsed_s = elapsed_s + 0.001 * static_cast<double>(i);
    out[i].user_s = 0.01;
    out[i].counters[index(runfile::Counter::kSyscalls)] = syscalls;
  }
  return out;
}

std::vector<const StoredSample*> pointers(const std::vector<StoredSample>& rows) {
  std::vector<const StoredSample*> out;
  out.reserve(rows.size());
  for (const StoredSample& row : rows) out.push_back(&row);
  return out;
}

TEST(HistoryOldFormats, ACounterAnOldFileLacksIsNoFigureThatMoved) {
  const auto old_rows = samples(0.100, std::nullopt);  // a file before the counter columns
  const auto new_rows = samples(0.150, 90000);
  const Explanation why = explain_change(pointers(old_rows), pointers(new_rows));
  for (const Movement& m : why.moved) EXPECT_NE(m.figure, "syscalls") << format_explanation(why);
  // The same counter, counted on both sides, does move.
  const Explanation both = explain_change(pointers(samples(0.100, 300)), pointers(new_rows));
  ASSERT_EQ(both.moved.size(), 1U) << format_explanation(both);
  EXPECT_EQ(both.moved[0].figure, "syscalls");
}

}  // namespace
}  // namespace iobench::history
