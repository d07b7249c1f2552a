// A worker that cannot do what it was asked fails with its reason; it never falls back to another
// strategy that would then be measured under the requested name (docs/driver.md, "What `ok`
// guarantees"): io_uring refused, mmap of a pipe, a pipe size the kernel refuses.
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "common/fd.hpp"
#include "tests/unit/workers/test_support.hpp"
#include "workers/readers.hpp"
#include "workers/worker.hpp"

namespace iobench::worker::testing {
namespace {

// The seam set to refuse as seccomp or kernel.io_uring_disabled=2 would, for one test.
class UringRefused {
 public:
  UringRefused() : saved_(uring_queue_init()) {
    uring_queue_init() = [](unsigned, io_uring*, unsigned) { return -EPERM; };
  }
  UringRefused(const UringRefused&) = delete;
  UringRefused& operator=(const UringRefused&) = delete;
  ~UringRefused() { uring_queue_init() = saved_; }

 private:
  UringQueueInit saved_;
};

TEST(WorkerRefusals, UringRefusedIsAnErrorWithTheReasonNotARead) {
  TempDir dir;
  const std::string path = (dir / "in").string();
  write_file(path, "a\nb\n");
  const UringRefused refused;
  Options options;
  options.reader = "uring";
  const UniqueFd in(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  const UniqueFd out(::open((dir / "out").string().c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
  Input input{in.get(), path, true};
  const std::unique_ptr<Op> op = find_op("copy")->make(options, *find_writer("raw"), out.get());
  try {
    find_reader("uring")->make(options)->run(input, *op);
    ADD_FAILURE() << "the uring reader ran without io_uring";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("uring: io_uring refused (Operation not permitted)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_file((dir / "out").string()), "") << "nothing was copied another way";
}

TEST(WorkerRefusals, MmapOfAPipeFailsWithItsReason) {
  TempDir dir;
  const std::string path = (dir / "in").string();
  write_file(path, "a\nb\n");
  // The worker may exit before run_worker writes the input into its pipe: run_worker takes the
  // SIGPIPE (test_support.hpp).
  for (const char* reader : {"mmap", "mmap-ahead", "parallel"}) {
    const RunResult r =
        run_worker(dir, {"--read", reader, "--write", "raw", "--op", "count"}, path, Feed::kPipe);
    EXPECT_EQ(r.exit_code, 1) << reader;
    EXPECT_EQ(r.out, "") << reader;
    EXPECT_NE(r.err.find(std::string(reader) +
                         ": the input is not a regular file (a pipe or terminal) and cannot be "
                         "mapped"),
              std::string::npos)
        << reader << ": " << r.err;
  }
}

// Runs the worker without privileges (as nobody when we are root: root may exceed pipe-max-size),
// stdin from `input`; returns its exit status and stderr. Exit 127 when it could not exec.
std::pair<int, std::string> run_unprivileged(const std::vector<std::string>& args,
                                             const std::string& input) {
  int err_pipe[2];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return {-1, "pipe failed"};
  const int in = ::open(input.c_str(), O_RDONLY | O_CLOEXEC);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in, STDIN_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    if (::geteuid() == 0 &&
        (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)) {
      ::_exit(126);
    }
    std::vector<char*> argv;
    const std::string path = worker_path();
    argv.push_back(const_cast<char*>(path.c_str()));
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execv(path.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(in);
  ::close(err_pipe[1]);
  std::string err;
  char buffer[4096];
  for (ssize_t n; (n = ::read(err_pipe[0], buffer, sizeof buffer)) > 0;)
    err.append(buffer, static_cast<std::size_t>(n));
  ::close(err_pipe[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, err};
}

TEST(WorkerRefusals, APipeSizeTheKernelRefusesFailsInsteadOfKeepingTheOldSize) {
  const std::size_t max = std::stoul(read_file("/proc/sys/fs/pipe-max-size"));
  TempDir dir;
  const std::string path = (dir / "in").string();
  write_file(path, "a\nb\n");
  const auto [status, err] = run_unprivileged({"--read", "read", "--write", "raw", "--decompress",
                                               "cat", "--pipe-size", std::to_string(2 * max), "-"},
                                              path);
  if (status == 126 || status == 127) GTEST_SKIP() << "cannot run the worker as nobody here";
  EXPECT_EQ(status, 1) << err;
  EXPECT_NE(err.find("cannot set the decompressor pipe size to " + std::to_string(2 * max) +
                     " bytes: Operation not permitted"),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace iobench::worker::testing
