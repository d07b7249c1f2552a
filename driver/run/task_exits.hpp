#pragma once
// What a run's own process tree waited for (docs/driver.md, "Disturbance"): the kernel's taskstats
// report of every task that exits, over generic netlink. Each report carries the task's run-queue
// delay (the time it was runnable but waited for a CPU, from its scheduler figures) and, when
// delay accounting is on, its block-I/O delay. The tree is found by parent links from the worker,
// so a shell's children in a pipeline are counted with it, and its threads by their thread group.
// Listening needs CAP_NET_ADMIN (root); elsewhere there are no reports, and the run is judged by
// the worker process's own figure (spawn::SpawnResult::own_wait_cpu_s).
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace iobench::run {

// One task's exit report.
struct TaskExit {
  pid_t pid = 0;   // the task (a thread's own id)
  pid_t tgid = 0;  // its process; reports before taskstats version 13 have none: its pid
  pid_t ppid = 0;  // its parent process when it exited
  std::uint64_t cpu_delay_ns = 0;
  std::uint64_t blkio_delay_ns = 0;
  std::uint64_t on_cpu_ns = 0;    // its time on a CPU (sum_exec_runtime)
  std::uint64_t lifetime_ns = 0;  // from its start to its exit (ac_etime, in microseconds)
};

// A task's wait for a CPU, as far as it can be true: at most its lifetime less its time on a CPU.
// The scheduler's clocks are per CPU; where sched_clock is not stable (a VM with tsc=unstable,
// as here), a task woken onto another CPU can be charged up to a scheduler tick (4 ms) of
// run_delay that it never waited, and that bound takes it out (docs/driver.md, "Disturbance").
// The exit report's time on a CPU can miss its last tick, so the bound is loose by as much; the
// meter also bounds the whole tree by wait4's exact time (DisturbanceMeter::after_run).
std::uint64_t possible_wait_ns(std::uint64_t run_delay_ns, std::uint64_t lifetime_ns,
                               std::uint64_t on_cpu_ns);

struct TreeWait {
  double cpu_s = 0;  // run-queue delay, summed over the tree's tasks, each possible_wait_ns
  std::optional<double> block_io_s;  // block-I/O delay; empty when delay accounting is off
  int tasks = 0;                     // the reports that made the sums
};

// The tree under `root` (root's threads, its children, theirs, ...) among `exits`; empty when
// root's own report is not among them (lost, or never sent).
std::optional<TreeWait> tree_wait(std::span<const TaskExit> exits, pid_t root,
                                  bool block_io_accounted);

// The task exits in a buffer of netlink messages from the taskstats family (TASKSTATS_TYPE_AGGR_PID
// reports; the per-process aggregates are left out, each thread being counted once already).
// Malformed or truncated messages end the walk: what came before them is kept.
std::vector<TaskExit> parse_task_exit_messages(std::span<const std::uint8_t> bytes);

class TaskExitListener;

// Where each run's wait for a CPU is read: the listener where the kernel lets iobench listen, and
// what the meta file says of the scope ("tree", or "worker: " and why not the tree).
struct WaitSource {
  std::shared_ptr<TaskExitListener> listener;  // null: the worker process' own figure only
  std::string scope;
};
WaitSource open_wait_source();

// A listener for every CPU's exit reports.
class TaskExitListener {
 public:
  // Empty, with `why` set, when the kernel refuses (no CAP_NET_ADMIN, no taskstats).
  static std::unique_ptr<TaskExitListener> open(std::string& why);
  ~TaskExitListener();
  TaskExitListener(const TaskExitListener&) = delete;
  TaskExitListener& operator=(const TaskExitListener&) = delete;

  // Every report received since the last call; empty when some were lost (the socket's buffer
  // overflowed on a machine where many tasks exit), so no tree can be trusted to be whole.
  std::optional<std::vector<TaskExit>> take() const;
  // Whether the kernel accounts block-I/O delay (kernel.task_delayacct).
  [[nodiscard]] bool block_io_accounted() const { return block_io_accounted_; }

 private:
  TaskExitListener(int fd, std::uint16_t family, std::string cpus, bool block_io_accounted);
  int fd_;
  std::uint16_t family_;
  std::string cpus_;
  bool block_io_accounted_;
};

}  // namespace iobench::run
