#pragma once
// Where a worker's stdout goes (docs/formats.md "Config", docs/driver.md "Sinks"): /dev/null, a
// pipe drained (counted and hashed) by the spawner while it waits for the worker, or by a spinning
// thread of the driver's (`drain: spin`), or a file (sized and hashed after the run; a temporary
// one is then removed, one the strategy names is kept). Results always name the sink: /dev/null
// flatters writers.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/spawn/spawner.hpp"

namespace iobench::run {

struct SinkResult {
  std::optional<std::uint64_t> bytes;  // empty for the null sink
  std::string hash;                    // XXH3-64 hex; empty for the null sink
  bool drain_cut_short = false;        // the pipe was still held open after the run (a stray)
  // A pipe sink's capacity as the kernel gave it (F_GETPIPE_SZ): it rounds a requested pipe_size
  // up to a power of two pages. Empty for other sinks.
  std::optional<std::uint64_t> pipe_size_bytes;
  // The CPUs a spinning pipe drain's thread was allowed to run on (sched_getaffinity).
  std::vector<int> drain_cpus;
};

class Sink {
 public:
  virtual ~Sink() = default;
  // The descriptor the worker's stdout becomes.
  [[nodiscard]] virtual int worker_fd() const = 0;
  // The descriptor the spawner should drain while it waits for the worker (SpawnRequest::
  // drain_fd), and what it read; -1 and ignored for sinks it does not read.
  [[nodiscard]] virtual int drain_fd() const { return -1; }
  virtual void drained_by_spawner(const spawn::DrainedOutput& /*drained*/) {}
  // Called after the worker was reaped. The driver's copy of a pipe's write end is closed only
  // now, so the drain sees end of file once the worker and its children are gone.
  virtual SinkResult finish() = 0;
};

struct SinkSettings {
  std::optional<std::uint64_t> pipe_size_bytes;  // F_SETPIPE_SZ for pipe sinks
  std::filesystem::path temp_dir;                // private folder for file sinks
  // A file sink's own file (bench --output FILE, a strategy's "output_file"): created or
  // truncated for each run, as hyperfine does, sized and hashed, and kept. Empty: a temporary
  // file in temp_dir, removed.
  std::filesystem::path output_file;
  double drain_grace_s = 2;  // how long a pipe may stay open after the worker ended
  // The worker's CPUs (config `cpus`): the spinning drain runs on the other CPUs, so it does not
  // take the measured worker's CPU. Empty: anywhere.
  std::vector<int> worker_cpus;
  config::DrainMode drain = config::DrainMode::kBlock;  // config `drain`
  // In `spin` mode, how long the drain keeps reading an empty pipe before it sleeps in poll: a
  // writer that pauses longer (computing, or done but for its exit) costs no CPU beyond this.
  double drain_spin_s = 0.001;
};

// Throws iobench::Error when the sink cannot be made.
std::unique_ptr<Sink> open_sink(config::SinkKind kind, const SinkSettings& settings);

// Points a request's stdout, and the spawner's drain, at the sink.
void connect_sink(const Sink& sink, spawn::SpawnRequest& request);
// The sink's figures once the worker was reaped, with what the spawner drained when it did.
SinkResult finish_sink(Sink& sink, const spawn::SpawnResult& run);

// Hashes a file's bytes (XXH3-64 hex), for expected outputs and file sinks.
std::string hash_file(const std::filesystem::path& path, std::uint64_t* bytes = nullptr);

}  // namespace iobench::run
