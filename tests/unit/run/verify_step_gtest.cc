// driver/run/verify_step: a verification run that did not end ok leaves its pair unverified (its
// measured rows errors); one whose output differs from its class's reference mismatches its pair
// (its measured rows mismatch), which with bench's stop at the first failure stops the pair.
#include <gtest/gtest.h>

#include <string>

#include "driver/run/reference_output.hpp"
#include "driver/run/verify_step.hpp"
#include "tests/unit/run/step_fixture.hpp"

namespace iobench::run::step_test {
namespace {

// Two verified commands of the class `copy`, whose reference is the input itself; cell 0 is a's,
// cell 1 b's.
const std::string kTwoVerified =
    R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}],
       "repeats": 1, "warmup": 0, "order": "grouped")";

runfile::RunRow row_of(const std::string& test, runfile::RunStatus status) {
  runfile::RunRow row;
  row.test = test;
  row.input = "in.txt";
  row.status = status;
  return row;
}

LaunchOutcome wrote(const std::string& hash) {
  LaunchOutcome outcome;
  outcome.output.hash = hash;
  outcome.output.bytes = 17;
  return outcome;
}

struct Verify {
  explicit Verify(bool stop) : step(m.config, progress, stop) {}
  // a's verification run writes the input; b's writes `b_hash`. True when b's pair is to stop.
  bool verify_both(const std::string& b_hash) {
    EXPECT_FALSE(step.check_verification_run(cell(0), test(0), row_of("a", runfile::RunStatus::kOk),
                                             wrote(input_hash())));
    return step.check_verification_run(cell(1), test(1), row_of("b", runfile::RunStatus::kOk),
                                       wrote(b_hash));
  }
  std::string input_hash() const { return reference_output("copy", m.dir / "in.txt")->hash; }
  const config::Cell& cell(std::size_t c) const { return m.plan.cells[c]; }
  const config::Test& test(std::size_t c) const { return m.plan.tests[m.plan.cells[c].test]; }
  Matrix m{kTwoVerified};
  Progress progress{0, false};
  VerifyStep step;
};

TEST(VerifyStep, AFailedVerificationRunLeavesItsRowsErrors) {
  Verify v(false);
  EXPECT_FALSE(v.step.check_verification_run(v.cell(0), v.test(0),
                                             row_of("a", runfile::RunStatus::kFailed), wrote("")));
  runfile::RunRow measured = row_of("a", runfile::RunStatus::kOk);
  EXPECT_FALSE(
      v.step.check_measured_run(v.cell(0), v.test(0), measured, wrote(v.input_hash()).output));
  EXPECT_EQ(measured.status, runfile::RunStatus::kError);
}

TEST(VerifyStep, TheSameOutputKeepsItsRowsOk) {
  Verify v(true);
  EXPECT_FALSE(v.verify_both(v.input_hash()));
  runfile::RunRow measured = row_of("b", runfile::RunStatus::kOk);
  EXPECT_FALSE(
      v.step.check_measured_run(v.cell(1), v.test(1), measured, wrote(v.input_hash()).output));
  EXPECT_EQ(measured.status, runfile::RunStatus::kOk);
  EXPECT_TRUE(v.progress.warnings().empty());
}

TEST(VerifyStep, AMismatchMarksItsRowsWithoutStoppingByDefault) {
  Verify v(false);
  EXPECT_FALSE(v.verify_both("h2"));
  runfile::RunRow measured = row_of("b", runfile::RunStatus::kOk);
  EXPECT_FALSE(v.step.check_measured_run(v.cell(1), v.test(1), measured, wrote("h2").output));
  EXPECT_EQ(measured.status, runfile::RunStatus::kMismatch);
  ASSERT_EQ(v.progress.warnings().size(), 1U);
  EXPECT_TRUE(v.progress.warnings()[0].ends_with(Verifier::kRowsMarkedMismatch))
      << v.progress.warnings()[0];
}

TEST(VerifyStep, AMismatchStopsThePairWithStopAtFirstFailure) {
  Verify v(true);
  EXPECT_TRUE(v.verify_both("h2"));
  runfile::RunRow measured = row_of("b", runfile::RunStatus::kOk);
  EXPECT_TRUE(v.step.check_measured_run(v.cell(1), v.test(1), measured, wrote("h2").output));
  ASSERT_EQ(v.progress.warnings().size(), 1U);
  EXPECT_TRUE(v.progress.warnings()[0].ends_with(VerifyStep::kNotRunAgainVerifyOff))
      << v.progress.warnings()[0];
}

}  // namespace
}  // namespace iobench::run::step_test
