// Fault injection on the sinks (docs/reliability.md, "Faults"): a process that escaped the worker's
// process group keeps writing into the pipe sink without end; finish() must give up after the grace
// period instead of draining forever. A file sink is a 0600 file in the given private folder,
// removed by finish(). The null sink is one /dev/null for every run. Both pipe drains read through
// the system-call seam.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "common/hash.hpp"
#include "common/sysio.hpp"
#include "driver/run/sink.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::run {
namespace {

class FaultSinkDrains : public ::testing::TestWithParam<config::DrainMode> {};

// The spinning drain gives up after its grace period; the default sink, when no spawner drained it
// (strays are the spawner's to kill), reads one pipe's worth and says the output was cut.
TEST_P(FaultSinkDrains, EndlessWriterDoesNotKeepThePipeDrainAlive) {
  ::signal(SIGPIPE, SIG_IGN);  // the stray's writes fail with EPIPE once the sink is gone
  SinkSettings settings;
  settings.drain = GetParam();
  settings.drain_grace_s = 0.2;
  auto sink = open_sink(config::SinkKind::kPipe, settings);
  // The "stray": its own copy of the write end, writing as fast as it can until told to stop.
  const int stray_fd = ::dup(sink->worker_fd());
  ASSERT_GE(stray_fd, 0);
  std::atomic<bool> stop{false};
  const std::vector<char> block(1 << 16, 'y');
  // One pipe's worth before finish() is called: the pipe is not empty when the sink reads it.
  ASSERT_EQ(::write(stray_fd, block.data(), block.size()), static_cast<ssize_t>(block.size()));
  std::thread stray([&] {
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

INSTANTIATE_TEST_SUITE_P(Modes, FaultSinkDrains,
                         ::testing::Values(config::DrainMode::kSpin, config::DrainMode::kBlock),
                         [](const auto& param_info) {
                           return std::string(to_string(param_info.param));
                         });

TEST(FaultSink, FileSinkIsPrivateAndRemoved) {
  const iobench::test::TempDir folder("fault-sink");
  SinkSettings settings;
  settings.temp_dir = folder.path();
  auto sink = open_sink(config::SinkKind::kFile, settings);
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
  const auto first = open_sink(config::SinkKind::kNull, SinkSettings{});
  const auto second = open_sink(config::SinkKind::kNull, SinkSettings{});
  EXPECT_EQ(first->worker_fd(), second->worker_fd());
  const int fd = first->worker_fd();
  first->finish();
  second->finish();
  struct stat st {};
  ASSERT_EQ(::fstat(fd, &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(::write(fd, "x", 1), 1);
}

// Both drains read through the system-call seam (common/sysio.hpp): an interrupted and a short
// read lose nothing, and a test can see each read.
std::atomic<int> g_seam_reads{0};
ssize_t interrupted_or_short_read(int fd, void* buf, std::size_t count) {
  if (g_seam_reads++ % 3 == 0) {
    errno = EINTR;
    return -1;
  }
  return ::read(fd, buf, count < 4096 ? count : 4096);
}

// The spinning drain, and the pipe sink's own read of what nobody drained (a launcher that is not
// the spawner): the spawner's drain is libc-only, outside the seam (spawn/pipe_drain.hpp).
TEST(FaultSink, TheDriversPipeReadsGoThroughTheSeam) {
  for (const config::DrainMode mode : {config::DrainMode::kSpin, config::DrainMode::kBlock}) {
    // Without a reader (block), what is written must fit in the pipe.
    std::string data;
    for (int i = 0; i < (mode == config::DrainMode::kSpin ? 20000 : 5000); ++i)
      data += std::to_string(i) + '\n';
    StreamHash expected;
    expected.update(data.data(), data.size());
    g_seam_reads = 0;
    const sys::ScopedOps seam({&interrupted_or_short_read, sys::ops().write, sys::ops().writev});
    SinkSettings settings;
    settings.drain = mode;
    auto sink = open_sink(config::SinkKind::kPipe, settings);
    sys::write_all(sink->worker_fd(), data.data(), data.size());
    const SinkResult result = sink->finish();
    EXPECT_EQ(result.bytes, data.size()) << to_string(mode);
    EXPECT_EQ(result.hash, expected.hex()) << to_string(mode);
    EXPECT_GT(g_seam_reads.load(), static_cast<int>(data.size() / 4096)) << to_string(mode);
  }
}

}  // namespace
}  // namespace iobench::run
