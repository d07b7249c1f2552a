// Kernel counters per run (docs/driver.md, "Counters"): what the worker and every descendant did,
// from its exec on, nothing of the spawner; and the unavailable paths, which never fail a run.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "common/fd.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/spawn/kernel_counters.hpp"
#include "driver/spawn/spawn_ops.hpp"
#include "driver/spawn/spawner.hpp"
#include "tests/unit/missing_package.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::spawn {
namespace {

const std::string kWorker = IOBENCH_BIN_DIR "/iobench-worker";

// A file of `lines` short lines, removed with the object.
class LinesFile {
 public:
  explicit LinesFile(std::size_t lines, std::size_t bytes_per_line = 10)
      : path_((dir_ / "lines.txt").string()) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    const std::string line(bytes_per_line - 1, 'x');
    for (std::size_t i = 0; i < lines; ++i) out << line << '\n';
  }
  LinesFile(const LinesFile&) = delete;
  LinesFile& operator=(const LinesFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  const iobench::test::TempDir dir_{"counters"};
  std::string path_;
};

// Runs argv with the named counters and returns the one reading asked for (the test fails when
// the run does not exit 0).
std::optional<double> count(const std::vector<std::string>& argv, const std::string& counter,
                            SpawnResult* whole = nullptr) {
  SpawnRequest request;
  request.argv = argv;
  request.counters = {counter};
  const SpawnResult result = spawn_and_measure(request);
  EXPECT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
  EXPECT_EQ(result.exit_code, 0);
  if (whole != nullptr) *whole = result;
  if (result.counters.size() != 1) {
    ADD_FAILURE() << "expected one reading, got " << result.counters.size();
    return std::nullopt;
  }
  EXPECT_EQ(result.counters[0].name, counter);
  return result.counters[0].value;
}

// The syscalls counter needs the raw_syscalls tracepoint (root, tracefs): skip where it is not.
#define REQUIRE_COUNTER(name)                                                    \
  do {                                                                           \
    const auto problems = probe_counters({name});                                \
    if (!problems.empty()) GTEST_SKIP() << (name) << ": " << problems[0].reason; \
  } while (false)

TEST(Counters, RawWriterMakesAtLeastOneSyscallPerLine) {
  REQUIRE_COUNTER("syscalls");
  constexpr std::size_t kLines = 5000;
  const LinesFile input(kLines);
  const auto syscalls =
      count({kWorker, "--read", "read", "--write", "raw", input.path()}, "syscalls");
  ASSERT_TRUE(syscalls.has_value());
  EXPECT_GE(*syscalls, static_cast<double>(kLines));
}

// LeakSanitizer's check at exit stops the world and, while its tracer attaches, yields in a loop:
// a sanitizer build's worker then makes from a few hundred to over ten thousand sched_yield calls,
// however it writes. The bound below is on the writer's calls, so that check is off for this one
// child (the sanitizer pass still checks the worker for leaks in every other test).
class LeakCheckOffForChildren {
 public:
  LeakCheckOffForChildren() {
    const char* options = std::getenv("ASAN_OPTIONS");
    if (options != nullptr) saved_ = options;
    const std::string off = saved_.value_or("") + ":detect_leaks=0";
    ::setenv("ASAN_OPTIONS", off.c_str(), 1);
  }
  ~LeakCheckOffForChildren() {
    if (saved_) {
      ::setenv("ASAN_OPTIONS", saved_->c_str(), 1);
    } else {
      ::unsetenv("ASAN_OPTIONS");
    }
  }
  LeakCheckOffForChildren(const LeakCheckOffForChildren&) = delete;
  LeakCheckOffForChildren& operator=(const LeakCheckOffForChildren&) = delete;

 private:
  std::optional<std::string> saved_;
};

TEST(Counters, BufferedWriterOf64KiBMakesFewerThanOneSyscallPer50Lines) {
  REQUIRE_COUNTER("syscalls");
  constexpr std::size_t kLines = 50000;
  const LinesFile input(kLines);
  const LeakCheckOffForChildren leak_check_off;
  const auto syscalls =
      count({kWorker, "--read", "read", "--write", "buffered", "--buffer", "64KiB", input.path()},
            "syscalls");
  ASSERT_TRUE(syscalls.has_value());
  EXPECT_LT(*syscalls, static_cast<double>(kLines) / 50);
  EXPECT_GT(*syscalls, 0.0);
}

TEST(Counters, CountTheSyscallsOfEveryDescendant) {
  REQUIRE_COUNTER("syscalls");
  // 16 MiB: each cat makes a few hundred reads and writes, far more than sh's own start-up.
  const LinesFile input(1u << 20, 16);
  const auto one_cat = count({"cat", input.path()}, "syscalls");
  const auto pipeline = count({"sh", "-c", "cat \"$0\" | cat", input.path()}, "syscalls");
  ASSERT_TRUE(one_cat.has_value() && pipeline.has_value());
  // Without inherit only sh's own (tens) would show; with it, both cats' I/O.
  EXPECT_GE(*pipeline, 2 * *one_cat) << "cat alone: " << *one_cat;
}

TEST(Counters, CountThePageFaultsOfEveryChild) {
  // dd's 4000 KiB buffer is 1,000 new pages, touched once by the read from /dev/zero.
  const std::string dd = "dd if=/dev/zero of=/dev/null bs=4000k count=1 2>/dev/null";
  const auto faults = count({"sh", "-c", dd + "; " + dd + "; " + dd}, "page-faults");
  ASSERT_TRUE(faults.has_value());
  EXPECT_GE(*faults, 3000.0);
}

TEST(Counters, NothingOfTheSpawnerBetweenForkAndExecIsCounted) {
  REQUIRE_COUNTER("syscalls");
  // perf stat counts the same way (enable_on_exec): its figure for /bin/true is the program's
  // own. The spawner's child does about fifteen calls before its exec (setpgid, dup2, signal
  // dispositions, the release read); counting them would show.
  const std::string perf = find_in_path("perf");
  if (perf.empty())
    IOBENCH_SKIP_FOR_MISSING_PACKAGE("perf (Debian package linux-perf) is not installed");
  const UniqueFd perf_out(::memfd_create("perf", MFD_CLOEXEC));
  SpawnRequest perf_stat;
  perf_stat.argv = {perf, "stat", "-x", ",", "-e", "raw_syscalls:sys_enter", "/bin/true"};
  perf_stat.stderr_fd = perf_out.get();
  ASSERT_EQ(spawn_and_measure(perf_stat).exit_code, 0);
  ::lseek(perf_out.get(), 0, SEEK_SET);
  char text[512] = {};
  ASSERT_GT(::read(perf_out.get(), text, sizeof text - 1), 0);
  const double perf_count = std::strtod(text, nullptr);
  ASSERT_GT(perf_count, 0.0) << text;

  SpawnRequest pinned;  // more work before the exec: the count must not move
  pinned.argv = {"/bin/true"};
  pinned.counters = {"syscalls"};
  pinned.cpus = {0};
  const SpawnResult result = spawn_and_measure(pinned);
  ASSERT_EQ(result.counters.size(), 1u);
  ASSERT_TRUE(result.counters[0].value.has_value());
  EXPECT_NEAR(*result.counters[0].value, perf_count, 3.0) << "perf stat: " << text;
}

TEST(Counters, SoftwareCountersAreCountedAllTheTime) {
  SpawnResult result;
  const auto switches = count({"sh", "-c", "sleep 0.05"}, "context-switches", &result);
  ASSERT_TRUE(switches.has_value());
  EXPECT_GE(*switches, 1.0);  // sleeping is a voluntary switch
  EXPECT_DOUBLE_EQ(result.counters[0].counted_fraction, 1.0);
}

TEST(Counters, AHardwareCounterWithoutAPmuIsEmptyAndTheRunStillCounts) {
  const auto problems = probe_counters({"cycles"});
  if (problems.empty()) GTEST_SKIP() << "this machine has a PMU: cycles can be counted";
  EXPECT_NE(problems[0].reason.find("no PMU"), std::string::npos) << problems[0].reason;
  SpawnRequest request;
  request.argv = {"sh", "-c", "exit 0"};
  request.counters = {"cycles", "page-faults"};
  const SpawnResult result = spawn_and_measure(request);
  ASSERT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
  EXPECT_EQ(result.exit_code, 0);
  ASSERT_EQ(result.counters.size(), 2u);
  EXPECT_FALSE(result.counters[0].value.has_value()) << "empty, never 0";
  EXPECT_TRUE(result.counters[1].value.has_value());
}

int refuse_with_eacces(perf_event_attr*, pid_t, int, int, unsigned long) {
  errno = EACCES;
  return -1;
}

TEST(Counters, ARefusalNamesThePerfEventParanoidLevel) {
  SpawnOps refusing = spawn_ops();
  refusing.perf_event_open = refuse_with_eacces;
  const ScopedSpawnOps scoped(refusing);
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  int level = 0;
  in >> level;
  const auto problems = probe_counters({"context-switches", "page-faults"});
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].reason.find("perf_event_paranoid is " + std::to_string(level)),
            std::string::npos)
      << problems[0].reason;
  // One line names both, once.
  EXPECT_EQ(describe_counter_problems(problems),
            "context-switches, page-faults (" + problems[0].reason + ")");

  SpawnRequest request;
  request.argv = {"sh", "-c", "exit 0"};
  request.counters = {"page-faults"};
  const SpawnResult result = spawn_and_measure(request);
  EXPECT_EQ(result.outcome, SpawnOutcome::kExited) << "a refused counter never fails the run";
  ASSERT_EQ(result.counters.size(), 1u);
  EXPECT_FALSE(result.counters[0].value.has_value());
}

TEST(Counters, TravelBackFromTheSpawnerProcess) {
  Spawner spawner(IOBENCH_BIN_DIR "/iobench-spawner");
  SpawnRequest request;
  request.argv = {"sh", "-c", "exit 0"};
  request.counters = {"page-faults", "cycles"};
  const SpawnResult result = spawner.run(request);
  ASSERT_EQ(result.counters.size(), 2u);
  EXPECT_EQ(result.counters[0].name, "page-faults");
  ASSERT_TRUE(result.counters[0].value.has_value());
  EXPECT_GT(*result.counters[0].value, 0.0);
  EXPECT_EQ(result.counters[1].value.has_value(), probe_counters({"cycles"}).empty());
}

TEST(Counters, TheSpawnerKnowsEveryNameTheConfigAccepts) {
  // Each may be unavailable here, but never unknown to the spawner (EINVAL).
  for (const auto name : runfile::kCounterConfigNames) {
    for (const auto& problem : probe_counters({std::string(name)})) {
      EXPECT_NE(problem.error, EINVAL) << name << ": " << problem.reason;
    }
  }
  const auto unknown = probe_counters({"syscall"});
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].error, EINVAL);
}

}  // namespace
}  // namespace iobench::spawn
