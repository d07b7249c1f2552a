// The driver's spinning pipe drain (config `drain: spin`) keeps reading while output flows and
// sleeps in poll after drain_spin_s without data. It must count and hash exactly what was written,
// through pauses longer than the spin, and stop on a writer that never ends (the default drain,
// the spawner's, is tested in tests/unit/spawn/pipe_drain_gtest.cc).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <memory>
#include <string>
#include <thread>

#include "common/hash.hpp"
#include "driver/run/sink.hpp"

namespace iobench::run {
namespace {

std::string fmt_line(int i) {
  return "line " + std::to_string(i) + "\tword\n";
}

// finish(), and how long it took: a drain that cannot stop hangs here.
SinkResult finish_timed(Sink& sink, double& took_s) {
  const auto start = std::chrono::steady_clock::now();
  SinkResult result = sink.finish();
  took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

class Drain : public ::testing::Test {
 protected:
  // A pipe sink with a 0.2 s grace whose worker end a stray also holds: stray_fd_, a dup the test
  // closes.
  void open_with_stray() {
    SinkSettings settings;
    settings.drain = config::DrainMode::kSpin;
    settings.drain_grace_s = 0.2;
    sink_ = open_sink(config::SinkKind::kPipe, settings);
    stray_fd_ = ::dup(sink_->worker_fd());
    ASSERT_GE(stray_fd_, 0);
  }

  std::unique_ptr<Sink> sink_;
  int stray_fd_ = -1;
};

TEST_F(Drain, CountsAndHashesEveryByteThroughPauses) {
  SinkSettings settings;
  settings.drain = config::DrainMode::kSpin;
  settings.drain_spin_s = 0.001;
  auto sink = open_sink(config::SinkKind::kPipe, settings);
  StreamHash expected;
  std::uint64_t written = 0;
  for (int i = 0; i < 2000; ++i) {
    // One small write a line (the per-line writers), a 64 KiB one now and then (fills the pipe),
    // and pauses of 3 ms, three times the spin, so the drain goes to sleep and wakes again.
    const std::string chunk = i % 500 == 7 ? std::string(1 << 16, 'x') : fmt_line(i);
    ASSERT_EQ(::write(sink->worker_fd(), chunk.data(), chunk.size()),
              static_cast<ssize_t>(chunk.size()));
    expected.update(chunk.data(), chunk.size());
    written += chunk.size();
    if (i % 400 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
  const SinkResult result = sink->finish();
  EXPECT_FALSE(result.drain_cut_short);
  EXPECT_EQ(result.bytes, written);
  EXPECT_EQ(result.hash, expected.hex());
}

TEST_F(Drain, StopsAnEndlessWriter) {
  ::signal(SIGPIPE, SIG_IGN);
  ASSERT_NO_FATAL_FAILURE(open_with_stray());
  std::thread stray([stray_fd = stray_fd_] {
    const std::string block(4096, 'y');
    while (::write(stray_fd, block.data(), block.size()) > 0) {
    }
  });
  double took_s = 0;
  const SinkResult result = finish_timed(*sink_, took_s);
  sink_.reset();  // closes the read end: the stray's next write fails (EPIPE, SIGPIPE ignored)
  stray.join();
  ::close(stray_fd_);
  EXPECT_TRUE(result.drain_cut_short);
  EXPECT_LT(took_s, 5.0);
}

// A stray that holds the pipe open and writes nothing: the drain is waiting for output (spinning
// or asleep in poll) when it is told to stop, and must stop.
TEST_F(Drain, StopsWhileAStrayHoldsThePipeSilently) {
  ASSERT_NO_FATAL_FAILURE(open_with_stray());
  ASSERT_EQ(::write(sink_->worker_fd(), "x\n", 2), 2);
  double took_s = 0;
  const SinkResult result = finish_timed(*sink_, took_s);
  ::close(stray_fd_);
  EXPECT_TRUE(result.drain_cut_short);
  EXPECT_EQ(result.bytes, 2U);
  EXPECT_LT(took_s, 5.0);
}

}  // namespace
}  // namespace iobench::run
