// driver/run/prepare_step: before a run its input is checked and brought into its cache state,
// the residency into the row; an input gone is not ready and said once; one whose size changed
// since the start is ready and said once; a matrix without an input has no cache step.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "driver/run/prepare_step.hpp"
#include "tests/unit/run/step_fixture.hpp"

namespace iobench::run::step_test {
namespace {

TEST(PrepareStep, AnInputThereIsReadyWithItsResidencyMeasured) {
  const Matrix m(kTwoCommands);
  Progress progress(0, false);
  PrepareStep step(m.config, false, progress);
  runfile::RunRow row;
  const PrepareStep::Check check = step.prepare(0, row);
  EXPECT_TRUE(check.ready);
  EXPECT_EQ(check.read_error, "");
  EXPECT_TRUE(row.cache_pct.has_value());
  EXPECT_EQ(step.input_path(0), m.dir / "in.txt");
  EXPECT_TRUE(progress.warnings().empty());
}

TEST(PrepareStep, AnInputGoneIsNotReadyAndSaidOnce) {
  const Matrix m(kTwoCommands);
  Progress progress(0, false);
  PrepareStep step(m.config, false, progress);
  std::filesystem::remove(m.dir / "in.txt");
  runfile::RunRow row;
  EXPECT_FALSE(step.prepare(0, row).ready);
  EXPECT_FALSE(step.prepare(0, row).ready);
  EXPECT_FALSE(row.cache_pct.has_value());
  EXPECT_EQ(progress.warnings(),
            std::vector<std::string>{"input " + (m.dir / "in.txt").string() +
                                     " is gone or unreadable: No such file or directory"});
}

TEST(PrepareStep, AnInputWhoseSizeChangedIsReadyAndSaidOnce) {
  const Matrix m(kTwoCommands);
  Progress progress(0, false);
  PrepareStep step(m.config, false, progress);
  std::ofstream(m.dir / "in.txt", std::ios::app) << "delta\n";
  runfile::RunRow row;
  EXPECT_TRUE(step.prepare(0, row).ready);
  EXPECT_TRUE(step.prepare(0, row).ready);
  EXPECT_EQ(progress.warnings(),
            std::vector<std::string>{"input " + (m.dir / "in.txt").string() +
                                     " changed size during the run: 17 -> 23 bytes; later runs "
                                     "read different data"});
}

TEST(PrepareStep, WithoutAnInputThereIsNoCacheStep) {
  const Matrix m(kTwoCommands, "");
  Progress progress(0, false);
  PrepareStep step(m.config, false, progress);
  runfile::RunRow row;
  EXPECT_TRUE(step.prepare(0, row).ready);
  step.measure_cache_again(0, row);
  EXPECT_FALSE(row.cache_pct.has_value());
}

}  // namespace
}  // namespace iobench::run::step_test
