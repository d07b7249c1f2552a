#pragma once
// What the executor starts runs through (hyperfine's Executor trait): the real one is the
// spawner; tests give a fake that returns scripted results without starting any process.
#include "driver/spawn/spawner.hpp"

namespace iobench::run {

class Launcher {
 public:
  virtual ~Launcher() = default;
  // Runs one worker to completion: its stdout goes to request.stdout_fd.
  virtual spawn::SpawnResult run(const spawn::SpawnRequest& request) = 0;
  // Ends the running worker; the pending run() returns kCancelled. Async-signal-safe.
  virtual void cancel() const noexcept = 0;
};

// The real launcher: the process-wide spawner (see driver/spawn/spawner.hpp).
class SpawnerLauncher final : public Launcher {
 public:
  explicit SpawnerLauncher(spawn::Spawner& spawner) : spawner_(spawner) {}
  spawn::SpawnResult run(const spawn::SpawnRequest& request) override {
    return spawner_.run(request);
  }
  void cancel() const noexcept override { spawner_.cancel(); }

 private:
  spawn::Spawner& spawner_;
};

}  // namespace iobench::run
