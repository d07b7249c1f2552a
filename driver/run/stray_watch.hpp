#pragma once
// What the spawner left behind in a run (docs/driver.md, "Strays"): the warning that names each
// test whose worker left processes running, and whether one still held the sink.
#include <set>
#include <string>

#include "driver/spawn/spawner.hpp"

namespace iobench::run {

// Processes a worker left running are killed by the spawner; the test is named once.
class StrayWatch {
 public:
  // The warning for this run's strays, or an empty string (nothing left, or the test was already
  // named). sink_held is set when a stray still held the worker's stdout: its output was not
  // final when it was read, so the run cannot be `ok`.
  std::string check(const std::string& test, const spawn::SpawnResult& result, bool& sink_held);

 private:
  std::set<std::string> named_;
};

}  // namespace iobench::run
