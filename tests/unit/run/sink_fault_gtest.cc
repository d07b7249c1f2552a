// Fault injection on the sinks (docs/reliability.md, "Faults"): a process that escaped the worker's
// process group keeps writing into the pipe sink without end; finish() must give up after the grace
// period instead of draining forever. A file sink is a 0600 file in the given private folder,
// removed by finish(). The null sink is one /dev/null for every run.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "driver/run/sink.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench {
namespace {

TEST(FaultSink, EndlessWriterDoesNotKeepThePipeDrainAlive) {
  ::signal(SIGPIPE, SIG_IGN);  // the stray's writes fail with EPIPE once the sink is gone
  SinkSettings settings;
  settings.drain_grace_s = 0.2;
  auto sink = open_sink(SinkKind::kPipe, settings);
  // The "stray": its own copy of the write end, writing as fast as it can until told to stop.
  const int stray_fd = ::dup(sink->worker_fd());
  ASSERT_GE(stray_fd, 0);
  std::atomic<bool> stop{false};
  std::thread stray([&] {
    const std::vector<char> block(1 << 16, 'y');
    while (!stop.load()) {
      if (::write(stray_fd, block.data(), block.size()) < 0) break;
    }
  });
  const auto start = std::chrono::steady_clock::now();
  const SinkResult result = sink->finish();
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stop = true;
  sink.reset();  // closes the read end: the stray's next write fails with EPIPE
  stray.join();
  ::close(stray_fd);
  EXPECT_TRUE(result.drain_cut_short);
  EXPECT_GT(result.bytes.value_or(0), 0U);
  EXPECT_LT(took, 5.0) << "finish() drained an endless writer for " << took << " s";
}

TEST(FaultSink, FileSinkIsPrivateAndRemoved) {
  const test::TempDir folder("fault-sink");
  SinkSettings settings;
  settings.temp_dir = folder.path();
  auto sink = open_sink(SinkKind::kFile, settings);
  const std::string link = "/proc/self/fd/" + std::to_string(sink->worker_fd());
  const std::filesystem::path file = std::filesystem::read_symlink(link);
  EXPECT_EQ(file.parent_path(), folder.path());
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600U);
  ASSERT_EQ(::write(sink->worker_fd(), "abc\n", 4), 4);
  const SinkResult result = sink->finish();
  EXPECT_EQ(result.bytes.value_or(0), 4U);
  EXPECT_FALSE(std::filesystem::exists(file));
  sink.reset();
}

// The null sink costs a run no open and close of its own (docs/driver.md, "The spawner": 1000
// runs of `true`): every null sink of the process hands the worker the same /dev/null, which stays
// usable after a sink is gone.
TEST(NullSink, EveryRunSharesOneDevNull) {
  const auto first = open_sink(SinkKind::kNull, SinkSettings{});
  const auto second = open_sink(SinkKind::kNull, SinkSettings{});
  EXPECT_EQ(first->worker_fd(), second->worker_fd());
  const int fd = first->worker_fd();
  first->finish();
  second->finish();
  struct stat st {};
  ASSERT_EQ(::fstat(fd, &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(::write(fd, "x", 1), 1);
}

}  // namespace
}  // namespace iobench
