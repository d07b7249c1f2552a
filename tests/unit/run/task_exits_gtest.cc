// The run's own tree among the kernel's exit reports (driver/run/task_exits.hpp): found by parent
// links and thread groups whatever order the reports came in, strangers left out; the reports
// read from netlink bytes made here; and, where the kernel lets this process listen, a real
// shell pipeline's tree found in real reports.
#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "driver/run/task_exits.hpp"

namespace iobench::run {
namespace {

// A task that lived 10 ms, 1 ms of it on a CPU: any wait up to 9 ms is possible.
TaskExit task(pid_t pid, pid_t tgid, pid_t ppid, std::uint64_t delay_ns,
              std::uint64_t blkio_ns = 0) {
  return {pid, tgid, ppid, delay_ns, blkio_ns, 1'000'000, 10'000'000};
}

TEST(TreeWait, ChildrenGrandchildrenAndThreadsCountStrangersDoNot) {
  // The worker 10 (a shell) ran 11 and 12; 12 ran 13; 10 had a thread 14. 20 is another
  // process whose parent is the spawner (1), as the worker's is; 21 is 20's child.
  const std::vector<TaskExit> exits{task(13, 13, 12, 1000),   task(14, 10, 1, 2000),
                                    task(11, 11, 10, 4000),   task(12, 12, 10, 8000),
                                    task(20, 20, 1, 16000),   task(21, 21, 20, 32000),
                                    task(10, 10, 1, 64000, 5)};
  const auto wait = tree_wait(exits, 10, false);
  ASSERT_TRUE(wait.has_value());
  EXPECT_DOUBLE_EQ(wait->cpu_s, (1000 + 2000 + 4000 + 8000 + 64000) * 1e-9);
  EXPECT_EQ(wait->tasks, 5);
  EXPECT_FALSE(wait->block_io_s.has_value()) << "delay accounting off: no block-I/O figure";
  const auto with_block_io = tree_wait(exits, 10, true);
  ASSERT_TRUE(with_block_io.has_value());
  EXPECT_DOUBLE_EQ(with_block_io->block_io_s.value_or(-1), 5e-9);
}

TEST(TreeWait, AWaitLongerThanTheTaskCouldHaveWaitedIsTheClocksSkew) {
  // 10 ms of life, 9.5 ms on a CPU: at most 0.5 ms of waiting; the 4 ms a remote wake-up's
  // clock skew charged it are cut to that. Within the bound a wait is kept whole.
  EXPECT_EQ(possible_wait_ns(4'000'000, 10'000'000, 9'500'000), 500'000U);
  EXPECT_EQ(possible_wait_ns(300'000, 10'000'000, 9'500'000), 300'000U);
  EXPECT_EQ(possible_wait_ns(4'000'000, 9'000'000, 9'500'000), 0U);  // rounding of the two
  const std::vector<TaskExit> exits{{10, 10, 1, 4'000'000, 0, 9'500'000, 10'000'000}};
  EXPECT_DOUBLE_EQ(tree_wait(exits, 10, false).value().cpu_s, 0.0005);
}

TEST(TreeWait, WithoutTheRootsOwnReportThereIsNoTree) {
  const std::vector<TaskExit> exits{task(11, 11, 10, 4000)};
  EXPECT_FALSE(tree_wait(exits, 10, false).has_value());
  EXPECT_FALSE(tree_wait({}, 10, false).has_value());
}

// Netlink's alignment and header sizes, without its macros (their int arithmetic trips
// -Wsign-conversion).
constexpr std::size_t align4(std::size_t n) {
  return (n + 3) & ~std::size_t{3};
}
constexpr std::size_t kMessageHeader = align4(sizeof(nlmsghdr));
constexpr std::size_t kGenericHeader = align4(sizeof(genlmsghdr));
constexpr std::size_t kAttributeHeader = align4(sizeof(nlattr));

void append_attribute(std::vector<std::uint8_t>& out, std::uint16_t type, const void* data,
                      std::size_t size) {
  const nlattr header{static_cast<std::uint16_t>(kAttributeHeader + size), type};
  const std::size_t at = out.size();
  out.resize(at + align4(kAttributeHeader + size), 0);
  std::memcpy(out.data() + at, &header, sizeof header);
  std::memcpy(out.data() + at + kAttributeHeader, data, size);
}

// One generic netlink message as the kernel sends an exit: AGGR_PID { PID, STATS }, and with a
// thread group, AGGR_TGID { TGID, STATS } after it.
void append_exit(std::vector<std::uint8_t>& bytes, const taskstats& stats, bool with_tgid) {
  std::vector<std::uint8_t> payload;
  for (const std::uint16_t aggregate : {TASKSTATS_TYPE_AGGR_PID, TASKSTATS_TYPE_AGGR_TGID}) {
    if (aggregate == TASKSTATS_TYPE_AGGR_TGID && !with_tgid) break;
    std::vector<std::uint8_t> inner;
    const std::uint32_t id = stats.ac_pid;
    append_attribute(
        inner, aggregate == TASKSTATS_TYPE_AGGR_PID ? TASKSTATS_TYPE_PID : TASKSTATS_TYPE_TGID, &id,
        sizeof id);
    append_attribute(inner, TASKSTATS_TYPE_STATS, &stats, sizeof stats);
    append_attribute(payload, aggregate, inner.data(), inner.size());
  }
  nlmsghdr header{};
  header.nlmsg_len = static_cast<std::uint32_t>(kMessageHeader + kGenericHeader + payload.size());
  header.nlmsg_type = 31;
  const std::size_t at = bytes.size();
  bytes.resize(at + align4(header.nlmsg_len), 0);
  std::memcpy(bytes.data() + at, &header, sizeof header);
  genlmsghdr generic{};
  generic.cmd = TASKSTATS_CMD_NEW;
  std::memcpy(bytes.data() + at + kMessageHeader, &generic, sizeof generic);
  std::memcpy(bytes.data() + at + kMessageHeader + kGenericHeader, payload.data(), payload.size());
}

taskstats stats_of(std::uint32_t pid, std::uint32_t tgid, std::uint32_t ppid,
                   std::uint64_t cpu_ns) {
  taskstats stats{};
  stats.version = TASKSTATS_VERSION;
  stats.ac_pid = pid;
  stats.ac_tgid = tgid;
  stats.ac_ppid = ppid;
  stats.cpu_delay_total = cpu_ns;
  stats.blkio_delay_total = 7;
  stats.cpu_run_virtual_total = 2000;
  stats.ac_etime = 9;  // microseconds
  return stats;
}

TEST(TaskExitMessages, EachThreadsReportOnceTheGroupsAggregateLeftOut) {
  std::vector<std::uint8_t> bytes;
  append_exit(bytes, stats_of(41, 40, 1, 500), false);
  append_exit(bytes, stats_of(40, 40, 1, 300), true);  // the last thread: and the group's sum
  const std::vector<TaskExit> exits = parse_task_exit_messages(bytes);
  ASSERT_EQ(exits.size(), 2U);
  EXPECT_EQ(exits[0].pid, 41);
  EXPECT_EQ(exits[0].tgid, 40);
  EXPECT_EQ(exits[0].ppid, 1);
  EXPECT_EQ(exits[0].cpu_delay_ns, 500U);
  EXPECT_EQ(exits[0].blkio_delay_ns, 7U);
  EXPECT_EQ(exits[0].on_cpu_ns, 2000U);
  EXPECT_EQ(exits[0].lifetime_ns, 9000U);
  EXPECT_EQ(exits[1].pid, 40);
  EXPECT_EQ(exits[1].cpu_delay_ns, 300U);
}

TEST(TaskExitMessages, AnOlderRecordWithoutTheThreadGroupIsItsOwnAndATruncatedOneEndsTheWalk) {
  std::vector<std::uint8_t> bytes;
  taskstats old = stats_of(50, 0, 1, 100);
  old.version = 8;
  append_exit(bytes, old, false);
  const std::size_t whole = bytes.size();
  append_exit(bytes, stats_of(51, 51, 1, 100), false);
  bytes.resize(whole + 20);  // the second message cut short
  const std::vector<TaskExit> exits = parse_task_exit_messages(bytes);
  ASSERT_EQ(exits.size(), 1U);
  EXPECT_EQ(exits[0].tgid, 50) << "no ac_tgid before version 13: the task is its own process";
}

TEST(TaskExitListener, ARealPipelinesTreeIsFoundInTheKernelsReports) {
  std::string why;
  const auto listener = TaskExitListener::open(why);
  if (!listener) GTEST_SKIP() << "the kernel does not report exits to this process: " << why;
  listener->take();
  const pid_t shell = ::fork();
  if (shell == 0) {
    ::execl("/bin/sh", "sh", "-c", "seq 1 20000 | wc -l > /dev/null", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ASSERT_GT(shell, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(shell, &status, 0), shell);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const auto exits = listener->take();
  ASSERT_TRUE(exits.has_value()) << "reports were lost on a quiet test";
  const auto wait = tree_wait(*exits, shell, listener->block_io_accounted());
  ASSERT_TRUE(wait.has_value());
  EXPECT_GE(wait->tasks, 3) << "sh, and the seq and wc it forked";
  EXPECT_GE(wait->cpu_s, 0.0);
}

}  // namespace
}  // namespace iobench::run
