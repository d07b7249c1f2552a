// Config order `duet` through the run loop (docs/bench.md, "Duet"): two launchers, each a fake
// that sleeps a little and logs when each run began and ended and on which CPUs, so a pair's
// overlap, its CPUs, and a pair left out together are seen as the executor made them.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "driver/run/duet.hpp"
#include "tests/unit/run/executor_fixture.hpp"

namespace iobench::run::executor_test {
namespace {

using Clock = std::chrono::steady_clock;

struct Launched {
  std::string name;
  std::vector<int> cpus;
  Clock::time_point began, ended;
  std::vector<std::string> env;
};

// Both launchers' runs, in one log (they run on two threads).
struct DuetLog {
  std::mutex mutex;
  std::condition_variable begun_changed;
  std::vector<Launched> runs;
  std::map<std::string, int> calls;  // per command
  // Each run waits (5 s at most) for its pair's other run to begin, so a pair that really goes
  // at once overlaps however slowly a loaded machine starts the second thread, and one that goes
  // one at a time does not.
  bool rendezvous = true;
  int begun = 0;
};

// Sleeps 20 ms a run; `waited` says how long a command's nth run waited for a CPU.
class SleepingLauncher final : public Launcher {
 public:
  using Waited = std::function<std::optional<double>(const std::string& name, int nth)>;
  SleepingLauncher(DuetLog& log, Waited waited) : log_(log), waited_(std::move(waited)) {}

  spawn::SpawnResult run(const spawn::SpawnRequest& request) override {
    const std::string& name = request.argv.front();
    int nth = 0;
    const Clock::time_point began = Clock::now();
    {
      std::unique_lock lock(log_.mutex);
      nth = log_.calls[name]++;
      const int ticket = log_.begun++;
      log_.begun_changed.notify_all();
      if (log_.rendezvous) {
        log_.begun_changed.wait_for(lock, std::chrono::seconds(5),
                                    [&] { return log_.begun >= ticket / 2 * 2 + 2; });
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    spawn::SpawnResult result;
    result.outcome = spawn::SpawnOutcome::kExited;
    result.elapsed_s = 0.25;
    result.pid = name == "a" ? 100 : 200;
    result.own_wait_cpu_s = waited_ ? waited_(name, nth) : std::nullopt;
    const std::lock_guard lock(log_.mutex);
    log_.runs.push_back({name, request.cpus, began, Clock::now(), request.env});
    return result;
  }
  void cancel() const noexcept override {}

 private:
  DuetLog& log_;
  Waited waited_;
};

constexpr const char* kPair =
    R"("strategies": [{"name": "a", "command": ["a"], "verify": false},
                      {"name": "b", "command": ["b"], "verify": false}],
       "repeats": 4, "warmup": 0, "order": "duet")";

class DuetTest : public ExecutorTest {
 protected:
  // Runs `fields` with `first` as the executor's launcher and, when given, `partner` beside it,
  // on CPUs 3 and 5.
  MatrixTotals run_duet(const std::string& fields, Launcher& first, Launcher* partner) {
    duet_partner_ = partner;
    return run(fields, first);
  }
  // a and b in a duet of two rounds, a's runs waiting as `waited` says, the disturbance measured.
  MatrixTotals run_waiting(DuetLog& log, const SleepingLauncher::Waited& waited) {
    disturbance_source_ = ProcSource{};
    disturbance_source_->read = [](const char*) { return std::string(); };
    SleepingLauncher first(log, waited);
    SleepingLauncher partner(log, waited);
    return run_duet(R"("strategies": [{"name": "a", "command": ["a"], "verify": false},
                                      {"name": "b", "command": ["b"], "verify": false}],
                       "repeats": 2, "warmup": 0, "order": "duet")",
                    first, &partner);
  }
};

bool overlap(const Launched& x, const Launched& y) {
  return x.began < y.ended && y.began < x.ended;
}

TEST_F(DuetTest, EachPairRunsAtTheSameMomentEachOnACpuOfItsOwn) {
  DuetLog log;
  SleepingLauncher first(log, {});
  SleepingLauncher partner(log, {});
  run_duet(kPair, first, &partner);
  ASSERT_EQ(log.runs.size(), 8U);
  int a_on_first_cpu = 0;
  for (std::size_t i = 0; i + 1 < log.runs.size(); i += 2) {
    const Launched& x = log.runs[i];
    const Launched& y = log.runs[i + 1];
    EXPECT_NE(x.name, y.name);
    EXPECT_TRUE(overlap(x, y)) << "pair " << i / 2;
    ASSERT_EQ(x.cpus.size(), 1U);
    ASSERT_EQ(y.cpus.size(), 1U);
    EXPECT_NE(x.cpus[0], y.cpus[0]);
    const Launched& a = x.name == "a" ? x : y;
    if (a.cpus[0] == 3) ++a_on_first_cpu;
    // Both runs of round i are its run i (HYPERFINE_ITERATION), whichever launcher started it.
    const std::vector<std::string> number{"HYPERFINE_ITERATION=" + std::to_string(i / 2)};
    EXPECT_EQ(x.env, number);
    EXPECT_EQ(y.env, number);
  }
  // The rounds' order alternates who goes first, and so who has which CPU.
  EXPECT_EQ(a_on_first_cpu, 2);
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 8U);
  for (const Row& row : all) EXPECT_EQ(row.status, "ok");
}

TEST(DuetCpus, AreTheFirstTwoThisProcessMayRunOnOrNone) {
  EXPECT_EQ(duet_cpus_among(std::vector<int>{2, 5, 7}), (std::array<int, 2>{2, 5}));
  EXPECT_EQ(duet_cpus_among(std::vector<int>{0, 1}), (std::array<int, 2>{0, 1}));
  EXPECT_EQ(duet_cpus_among(std::vector<int>{3}), std::nullopt);
  EXPECT_EQ(duet_cpus_among(std::vector<int>{}), std::nullopt);
}

TEST_F(DuetTest, WithoutAPartnerTheRunsGoOneAtATimeWhereverTheyMay) {
  DuetLog log;
  log.rendezvous = false;
  SleepingLauncher first(log, {});
  run_duet(kPair, first, nullptr);
  ASSERT_EQ(log.runs.size(), 8U);
  for (std::size_t i = 0; i + 1 < log.runs.size(); ++i)
    EXPECT_FALSE(overlap(log.runs[i], log.runs[i + 1]));
  for (const Launched& run : log.runs) EXPECT_TRUE(run.cpus.empty());
}

// Both sides of a pair are measured together or not at all, so the paired rule's round i is
// always one moment: a's disturbed first run leaves b's out too, and the pair runs again.
TEST_F(DuetTest, APairWithADisturbedRunIsLeftOutTogetherAndRunAgain) {
  DuetLog log;
  const MatrixTotals totals =
      run_waiting(log, [](const std::string& name, int nth) -> std::optional<double> {
        return name == "a" && nth == 0 ? 0.1 : 0.0;  // 0.1 s of its 0.25 s: disturbed
      });
  // One line says why (a's wait); b's ok run left out with it is no failure.
  ASSERT_EQ(totals.warnings.size(), 1U);
  EXPECT_NE(totals.warnings[0].find("a on in.txt (pipe sink): run 1 was disturbed: the worker "
                                    "waited 100 ms of its 250 ms for a CPU, more than the 29.00 ms "
                                    "the rule allows (0.1 of a CPU); it and its duet partner are "
                                    "left out and run again"),
            std::string::npos)
      << totals.warnings[0];
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 6U);
  EXPECT_EQ(all[0].status, "disturbed");
  EXPECT_EQ(all[1].status, "disturbed");
  EXPECT_EQ(all[0].repeat, 1);
  EXPECT_EQ(all[2].status, "ok");
  EXPECT_EQ(all[3].status, "ok");
  EXPECT_EQ(all[2].repeat, 1);
  EXPECT_EQ(all[3].repeat, 1);
  EXPECT_TRUE(overlap(log.runs[2], log.runs[3]));
}

TEST_F(DuetTest, APairAlwaysDisturbedRunsAgainWithinItsCellsBudget) {
  DuetLog log;
  const MatrixTotals totals =
      run_waiting(log, [](const std::string& name, int) -> std::optional<double> {
        return name == "a" ? 0.1 : 0.0;
      });
  // Twice the repeats: 4 re-runs of the pair, all in the first round; the second runs once
  // (6 pairs in a row left out: the duet is not given up).
  EXPECT_EQ(log.calls["a"], 6);
  EXPECT_EQ(log.calls["b"], 6);
  for (const Row& row : rows()) EXPECT_EQ(row.status, "disturbed");
  const bool budget_said =
      std::any_of(totals.warnings.begin(), totals.warnings.end(), [](const std::string& w) {
        return w.find(
                   "b on in.txt (pipe sink): its re-run budget of 4 is spent, so 0 ok runs "
                   "count; at worst it was left out with its duet partner") != std::string::npos;
      });
  EXPECT_TRUE(budget_said);
}

// A machine whose load keeps a CPU busy disturbs every pair: the re-runs end where the runs'
// budget does, as they do interleaved, not after twice a fill's thousand repeats.
TEST_F(DuetTest, APairAlwaysDisturbedStopsWhereTheRunsBudgetEnds) {
  disturbance_source_ = ProcSource{};
  disturbance_source_->read = [](const char*) { return std::string(); };
  const SleepingLauncher::Waited waited = [](const std::string&, int) -> std::optional<double> {
    return 0.1;
  };
  const auto calls_of_a = [&](const std::string& order, bool duet) {
    DuetLog log;
    log.rendezvous = duet;
    SleepingLauncher first(log, waited);
    SleepingLauncher partner(log, waited);
    run_duet(R"("strategies": [{"name": "a", "command": ["a"], "verify": false},
                               {"name": "b", "command": ["b"], "verify": false}],
                "repeats": {"min": 1, "max": 1000, "fill_s": 1}, "warmup": 0, "order": ")" +
                 order + R"(")",
             first, duet ? &partner : nullptr);
    EXPECT_EQ(log.calls["a"], log.calls["b"]) << order;
    return log.calls["a"];
  };
  const int interleaved = calls_of_a("interleave", false);
  EXPECT_EQ(calls_of_a("duet", true), interleaved);
  EXPECT_LE(interleaved, 20);
}

constexpr const char* kSixRounds =
    R"("strategies": [{"name": "a", "command": ["a"], "verify": false},
                      {"name": "b", "command": ["b"], "verify": false}],
       "repeats": 6, "warmup": 0, "order": "duet")";

// Beside a steady load every pair is left out: after kDuetLeftOutPairsToGiveUp in a row the duet
// is given up, said in one line, and the rest (the pair just left out first) run one at a time,
// on any CPU, so the budget measures runs instead of pairs that cannot be.
TEST_F(DuetTest, AfterTenPairsInARowLeftOutTheRestRunOneAtATime) {
  ASSERT_EQ(kDuetLeftOutPairsToGiveUp, 10U);
  disturbance_source_ = ProcSource{};
  disturbance_source_->read = [](const char*) { return std::string(); };
  DuetLog log;
  const SleepingLauncher::Waited waited = [](const std::string& name,
                                             int nth) -> std::optional<double> {
    return name == "a" && nth < 10 ? 0.1 : 0.0;  // its first 10 runs wait 0.1 s of 0.25 s
  };
  SleepingLauncher first(log, waited);
  SleepingLauncher partner(log, waited);
  const MatrixTotals totals = run_duet(kSixRounds, first, &partner);
  const auto said = [&](const std::string& text) {
    return std::ranges::any_of(
        totals.warnings, [&](const std::string& w) { return w.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(
      said("order duet: 10 pairs in a row were left out as disturbed, so two CPUs are "
           "not free for a duet: the rest run one at a time, interleaved"));
  // 10 pairs left out, then the 6 rounds' 12 runs one at a time.
  ASSERT_EQ(log.runs.size(), 32U);
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(log.runs[i].cpus.size(), 1U) << i;
  for (std::size_t i = 20; i < 32; ++i) {
    EXPECT_TRUE(log.runs[i].cpus.empty()) << i;
    if (i + 1 < 32) {
      EXPECT_FALSE(overlap(log.runs[i], log.runs[i + 1])) << i;
    }
  }
  const std::vector<Row> all = rows();
  ASSERT_EQ(all.size(), 32U);
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(all[i].status, "disturbed") << i;
  for (std::size_t i = 20; i < 32; ++i) EXPECT_EQ(all[i].status, "ok") << i;
  EXPECT_EQ(totals.order_taken, "duet, then interleave");
}

// A pair kept resets the count: nine left out, one kept, nine more left out is still a duet.
TEST_F(DuetTest, APairKeptBetweenLeftOutOnesKeepsTheDuet) {
  disturbance_source_ = ProcSource{};
  disturbance_source_->read = [](const char*) { return std::string(); };
  DuetLog log;
  const SleepingLauncher::Waited waited = [](const std::string& name,
                                             int nth) -> std::optional<double> {
    return name == "a" && nth != 9 && nth < 19 ? 0.1 : 0.0;
  };
  SleepingLauncher first(log, waited);
  SleepingLauncher partner(log, waited);
  const MatrixTotals totals = run_duet(kSixRounds, first, &partner);
  for (const std::string& warning : totals.warnings)
    EXPECT_EQ(warning.find("pairs in a row were left out"), std::string::npos) << warning;
  for (const Launched& run : log.runs) EXPECT_EQ(run.cpus.size(), 1U);
  EXPECT_EQ(totals.order_taken, "");
}

}  // namespace
}  // namespace iobench::run::executor_test
