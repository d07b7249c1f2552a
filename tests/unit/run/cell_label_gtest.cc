// driver/run/cell_label: how the run's warnings and closing lines name a cell, "'TEST' on INPUT
// (SINK sink)", the input by its file name, the test's name bare for the re-run budget's warning.
#include <gtest/gtest.h>

#include "driver/run/cell_label.hpp"
#include "tests/unit/run/step_fixture.hpp"

namespace iobench::run::step_test {
namespace {

TEST(CellLabel, NamesTheTestQuotedTheInputsFileNameAndTheSink) {
  const Matrix m(kTwoCommands + R"(, "sinks": ["pipe", "null"])");
  ASSERT_EQ(m.plan.cells.size(), 4U);
  EXPECT_EQ(cell_label(m.plan, m.config, 0), "'a' on in.txt (pipe sink)");
  EXPECT_EQ(cell_label(m.plan, m.config, 3), "'b' on in.txt (null sink)");
}

TEST(CellLabel, BareLeavesOutTheQuotes) {
  const Matrix m(kTwoCommands);
  EXPECT_EQ(cell_label(m.plan, m.config, 1, TestNameQuotes::kBare), "b on in.txt (pipe sink)");
}

TEST(CellLabel, ACellWithoutAnInputHasNoOnPart) {
  const Matrix m(kTwoCommands, "");
  EXPECT_EQ(cell_label(m.plan, m.config, 0), "'a' (pipe sink)");
}

}  // namespace
}  // namespace iobench::run::step_test
