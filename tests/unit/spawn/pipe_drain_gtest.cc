// The default pipe drain (config `drain: block`): the spawner reads the pipe sink while it waits
// for the worker (driver/spawn/pipe_drain.hpp). Every byte is counted and hashed, a worker that
// writes more than a pipe holds is not left blocked, a timed-out writer is still drained until
// it is gone, and what a stray keeps writing cannot hold the run open.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "common/fd.hpp"
#include "common/hash.hpp"
#include "driver/run/sink.hpp"
#include "driver/spawn/spawner.hpp"
#include "tests/unit/spawn/test_support.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::spawn {
namespace {

using test::command;
using test::kSpawner;

// A file of `lines` numbered lines, and its XXH3 hash as the sink writes it.
std::string write_lines(const std::filesystem::path& path, int lines, std::string& hash_hex) {
  std::string text;
  for (int i = 0; i < lines; ++i) text += "line " + std::to_string(i) + "\tword\n";
  std::ofstream(path) << text;
  StreamHash hash;
  hash.update(text.data(), text.size());
  hash_hex = hash.hex();
  return text;
}

// `cat FILE` into a default pipe sink through the real spawner: many times a pipe's 64 KiB, so
// the worker blocks on the full pipe unless the spawner reads while it waits.
TEST(SpawnerDrain, CountsAndHashesEveryByteOfAWorkerThatFillsThePipe) {
  const iobench::test::TempDir dir;
  std::string expected_hash;
  const std::string text = write_lines(dir.path() / "in.txt", 200000, expected_hash);
  ASSERT_GT(text.size(), 16U * 65536U);
  Spawner spawner(kSpawner);
  for (const bool through_spawner : {true, false}) {
    const auto sink = run::open_sink(config::SinkKind::kPipe, run::SinkSettings{});
    SpawnRequest request = command({"cat", (dir.path() / "in.txt").string()});
    run::connect_sink(*sink, request);
    ASSERT_GE(request.drain_fd, 0) << "the default pipe sink is drained by the spawner";
    const SpawnResult result = through_spawner ? spawner.run(request) : spawn_and_measure(request);
    ASSERT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
    ASSERT_TRUE(result.drained.has_value());
    const run::SinkResult output = run::finish_sink(*sink, result);
    EXPECT_EQ(output.bytes, text.size()) << through_spawner;
    EXPECT_EQ(output.hash, expected_hash) << through_spawner;
    EXPECT_FALSE(output.drain_cut_short);
  }
}

// `yes` never ends: the spawner drains it until the deadline's SIGTERM ends it. Without the drain
// it would block after one pipe's worth.
TEST(SpawnerDrain, ATimedOutWriterIsDrainedUntilItIsGone) {
  Spawner spawner(kSpawner);
  const auto sink = run::open_sink(config::SinkKind::kPipe, run::SinkSettings{});
  SpawnRequest request = command({"yes"});
  request.timeout_s = 0.2;
  run::connect_sink(*sink, request);
  const SpawnResult result = spawner.run(request);
  EXPECT_EQ(result.outcome, SpawnOutcome::kTimedOut);
  ASSERT_TRUE(result.drained.has_value());
  EXPECT_GT(result.drained->bytes, 4U * 65536U);
  EXPECT_EQ(result.drained->bytes % 2, 0U) << "whole lines of 'y\\n'";
  EXPECT_EQ(result.drained->read_errno, 0);
}

// A stray (a background child the shell leaves behind) writes without end after the worker
// exited: the spawner kills it, and the run ends with what came before.
TEST(SpawnerDrain, AStrayThatKeepsWritingDoesNotHoldTheRunOpen) {
  Spawner spawner(kSpawner);
  const auto sink = run::open_sink(config::SinkKind::kPipe, run::SinkSettings{});
  SpawnRequest request = command({"sh", "-c", "echo first; (while :; do echo stray; done) &"});
  run::connect_sink(*sink, request);
  const SpawnResult result = spawner.run(request);
  ASSERT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
  EXPECT_GE(result.strays_killed, 1);
  const run::SinkResult output = run::finish_sink(*sink, result);
  ASSERT_TRUE(output.bytes.has_value());
  EXPECT_GE(*output.bytes, 6U) << "'first' came through";
}

// With `cpus` pinning the worker, the spawner reads the pipe from the other CPUs, as the spinning
// drain's thread does, and is back on every CPU after the run. The worker (a shell whose parent
// is the spawner) looks at the spawner's CPUs once it has had time to move.
TEST(SpawnerDrain, ThePipesReaderKeepsOffAPinnedWorkersCpus) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
  if (CPU_COUNT(&allowed) < 2) GTEST_SKIP() << "one CPU: the reader has nowhere else to go";
  int first = 0;
  while (!CPU_ISSET(static_cast<std::size_t>(first), &allowed)) ++first;
  Spawner spawner(kSpawner);
  const auto sink = run::open_sink(config::SinkKind::kPipe, run::SinkSettings{});
  const UniqueFd seen(::memfd_create("seen", MFD_CLOEXEC));
  SpawnRequest request =
      command({"sh", "-c", "sleep 0.2; grep Cpus_allowed_list /proc/$PPID/status >&2"});
  request.cpus = {first};
  request.stderr_fd = seen.get();
  run::connect_sink(*sink, request);
  const SpawnResult result = spawner.run(request);
  ASSERT_EQ(result.outcome, SpawnOutcome::kExited) << result.error;
  const std::string during = test::read_all(seen.get());
  ASSERT_NE(during.find("Cpus_allowed_list"), std::string::npos) << during;
  // Neither every CPU (where it was) nor the worker's one.
  const std::string every_cpu = test::proc_status_field(::getpid(), "Cpus_allowed_list");
  EXPECT_NE(during, "Cpus_allowed_list:\t" + every_cpu + "\n") << "the reader stayed on every CPU";
  EXPECT_EQ(during.find("\t" + std::to_string(first) + "\n"), std::string::npos) << during;
  // Back where it was: the CPUs it inherited from this process.
  EXPECT_EQ(test::proc_status_field(spawner.pid(), "Cpus_allowed_list"), every_cpu);
}

// The spawner's drain buffer is its own memory, and its resident size is the floor of every
// worker's max RSS (spawner.hpp): draining must leave it below a megabyte.
TEST(SpawnerDrain, DrainingKeepsTheSpawnerSmall) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "not meaningful under AddressSanitizer (the spawner is not small)";
#endif
  Spawner spawner(kSpawner);
  const auto sink = run::open_sink(config::SinkKind::kPipe, run::SinkSettings{});
  SpawnRequest request = command({"head", "-c", "4000000", "/dev/zero"});
  run::connect_sink(*sink, request);
  const SpawnResult result = spawner.run(request);
  ASSERT_TRUE(result.drained.has_value());
  EXPECT_EQ(result.drained->bytes, 4000000U);
  const long hwm_kib = test::vm_hwm_kib(spawner.pid());
  ASSERT_GT(hwm_kib, 0);
  EXPECT_LT(hwm_kib, 1024);
}

}  // namespace
}  // namespace iobench::spawn
