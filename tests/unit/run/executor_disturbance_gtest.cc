// Disturbed runs through the fake launcher (docs/driver.md, "Disturbance"): the fake launcher's
// result says how long the worker waited for a CPU (as the spawner reads it), and the fake
// /proc/stat of a FakeMachine how much others ran during each run, through the same ProcSource
// seam the real /proc is read through: the first judges, the second is context.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/unit/run/executor_fixture.hpp"

namespace iobench::run::executor_test {
namespace {

// Two CPUs. Each run reads /proc/stat before and after; the "after" read adds the fake worker's
// own 0.1 s (FakeLauncher's rusage) and whatever others_ticks the script set for this run.
struct FakeMachine {
  std::uint64_t busy = 100000;
  std::uint64_t idle = 100000;
  std::uint64_t others_ticks = 0;  // set during a run by the launcher's script
  int reads = 0;

  ProcSource source() {
    ProcSource source;
    source.read = [this](const char* path) -> std::string {
      if (std::string(path) != "/proc/stat") return {};
      if (reads++ % 2 == 1) {
        busy += 10 + others_ticks;
        idle += 50 - std::min<std::uint64_t>(50, 10 + others_ticks);
        others_ticks = 0;
      }
      return "cpu  " + std::to_string(busy) + " 0 0 " + std::to_string(idle) +
             " 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\n";
    };
    source.harness_cpu_s = []() -> std::optional<double> { return 0.0; };
    source.ticks_per_s = 100;
    return source;
  }
};

constexpr const char* kTwoUnverifiedTests =
    R"("strategies": [{"name": "a", "command": ["a"], "verify": false},
                      {"name": "b", "command": ["b"], "verify": false}],
       "repeats": 2, "warmup": 0, "order": "grouped")";

std::vector<std::string> statuses(const std::vector<Row>& rows) {
  std::vector<std::string> result;
  result.reserve(rows.size());
  for (const Row& row : rows)
    result.push_back(row.test + std::to_string(row.repeat) + ":" + row.status);
  return result;
}

TEST_F(ExecutorTest, ADisturbedRunIsReRunOnceAtTheEndOfItsRound) {
  FakeMachine machine;
  disturbance_source_ = machine.source();
  // a's first run waited 0.1 s of its 0.25 s for a CPU (threshold 0.1 CPUs: 25 ms), while
  // others kept a whole CPU busy.
  FakeLauncher launcher([&machine](const std::string& name, int nth) {
    Script script = ok_copy();
    if (name == "a" && nth == 0) {
      machine.others_ticks = 25;
      script.wait_cpu_s = 0.1;
    }
    return script;
  });
  const MatrixTotals totals =
      run(R"("strategies": [{"name": "a", "command": ["a"], "verify": false},
                            {"name": "b", "command": ["b"], "verify": false}],
             "repeats": 2, "warmup": 0)",
          launcher);
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 5U);
  // Round 1 is a then b; a's re-run comes before round 2 starts.
  EXPECT_EQ(statuses(all)[0], "a1:disturbed");
  EXPECT_EQ(statuses(all)[1], "b1:ok");
  EXPECT_EQ(statuses(all)[2], "a1:ok");
  EXPECT_EQ(all[0].others_cpu_s, "0.250");
  EXPECT_EQ(all[0].steal_s, "0.000");
  EXPECT_EQ(all[0].wait_cpu_s, "0.100000");
  EXPECT_EQ(all[1].others_cpu_s, "0.000");
  EXPECT_EQ(std::count(launcher.calls.begin(), launcher.calls.end(), "a"), 3);
  EXPECT_EQ(totals.bad_rows, 0U);  // a disturbed run is left out, not a failure
}

TEST_F(ExecutorTest, WhenTheBudgetRunsOutTheCellSaysSoOnce) {
  FakeMachine machine;
  disturbance_source_ = machine.source();
  // a is always disturbed: its 2 runs, then 4 re-runs (twice the repeats), then no more.
  FakeLauncher launcher([&machine](const std::string& name, int) {
    Script script = ok_copy();
    if (name == "a") {
      machine.others_ticks = 25;
      script.wait_cpu_s = 0.1;
    }
    return script;
  });
  ::testing::internal::CaptureStderr();
  run(kTwoUnverifiedTests, launcher);
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  const std::vector<Row> all = rows();
  EXPECT_EQ(std::count(launcher.calls.begin(), launcher.calls.end(), "a"), 6);
  EXPECT_EQ(std::count_if(all.begin(), all.end(),
                          [](const Row& r) { return r.test == "a" && r.status == "disturbed"; }),
            6);
  EXPECT_EQ(std::count_if(all.begin(), all.end(),
                          [](const Row& r) { return r.test == "b" && r.status == "ok"; }),
            2);
  const std::string figure =
      "a on in.txt (pipe sink): its re-run budget of 4 is spent, so 0 ok runs count; at worst "
      "the worker waited 100 ms of its 250 ms for a CPU";
  EXPECT_NE(warnings.find(figure), std::string::npos) << warnings;
  EXPECT_EQ(warnings.find(figure), warnings.rfind(figure)) << warnings;
  const std::string first =
      "a on in.txt (pipe sink): run 1 was disturbed: the worker waited 100 ms";
  EXPECT_NE(warnings.find(first), std::string::npos) << warnings;
  EXPECT_EQ(warnings.find(first), warnings.rfind(first)) << "said once a cell: " << warnings;
}

TEST_F(ExecutorTest, FlagMarksADisturbedRunWithoutReRunningIt) {
  FakeMachine machine;
  disturbance_source_ = machine.source();
  FakeLauncher launcher([&machine](const std::string& name, int nth) {
    Script script = ok_copy();
    if (name == "a" && nth == 0) {
      machine.others_ticks = 25;
      script.wait_cpu_s = 0.1;
    }
    return script;
  });
  run(std::string(kTwoUnverifiedTests) + R"(, "disturbance": "flag")", launcher);
  EXPECT_EQ(statuses(rows()),
            (std::vector<std::string>{"a1:disturbed", "a2:ok", "b1:ok", "b2:ok"}));
}

TEST_F(ExecutorTest, OffKeepsTheFiguresAndTheRunOk) {
  FakeMachine machine;
  disturbance_source_ = machine.source();
  FakeLauncher launcher([&machine](const std::string& name, int nth) {
    Script script = ok_copy();
    if (name == "a" && nth == 0) {
      machine.others_ticks = 25;
      script.wait_cpu_s = 0.1;
    }
    return script;
  });
  run(std::string(kTwoUnverifiedTests) + R"(, "disturbance": "off")", launcher);
  const std::vector<Row> all = rows();
  EXPECT_EQ(statuses(all), (std::vector<std::string>{"a1:ok", "a2:ok", "b1:ok", "b2:ok"}));
  EXPECT_EQ(all[0].others_cpu_s, "0.250");
}

TEST_F(ExecutorTest, AHigherThresholdLetsTheSameRunPass) {
  FakeMachine machine;
  disturbance_source_ = machine.source();
  FakeLauncher launcher([&machine](const std::string& name, int nth) {
    Script script = ok_copy();
    if (name == "a" && nth == 0) {
      machine.others_ticks = 25;
      script.wait_cpu_s = 0.1;
    }
    return script;
  });
  run(std::string(kTwoUnverifiedTests) + R"(, "disturbance_threshold_cpus": 0.5)", launcher);
  EXPECT_EQ(statuses(rows()), (std::vector<std::string>{"a1:ok", "a2:ok", "b1:ok", "b2:ok"}));
}

TEST_F(ExecutorTest, ABusyMachineDoesNotCondemnARunThatHadItsCpu) {
  FakeMachine machine;
  disturbance_source_ = machine.source();
  // Others kept 1.6 CPUs of two busy during every run of a, which never waited for a CPU.
  FakeLauncher launcher([&machine](const std::string& name, int) {
    Script script = ok_copy();
    script.wait_cpu_s = 0.0;
    if (name == "a") machine.others_ticks = 40;
    return script;
  });
  run(kTwoUnverifiedTests, launcher);
  const std::vector<Row> all = rows();
  EXPECT_EQ(statuses(all), (std::vector<std::string>{"a1:ok", "a2:ok", "b1:ok", "b2:ok"}));
  EXPECT_EQ(all[0].others_cpu_s, "0.400");
  EXPECT_EQ(all[0].wait_cpu_s, "0.000000");
}

TEST_F(ExecutorTest, WithoutASourceTheColumnsStayEmptyAndNoRunIsJudged) {
  FakeLauncher launcher([](const std::string&, int) { return ok_copy(); });
  run(kTwoUnverifiedTests, launcher);
  for (const Row& row : rows()) {
    EXPECT_EQ(row.status, "ok");
    EXPECT_EQ(row.others_cpu_s, "");
    EXPECT_EQ(row.steal_s, "");
    EXPECT_EQ(row.wait_cpu_s, "");
  }
}

}  // namespace
}  // namespace iobench::run::executor_test
