#pragma once
// The spawner's result for a run that exited 0 after half a second, the start of the tests that
// fill a row from a SpawnResult.
#include "driver/spawn/spawner.hpp"

namespace iobench::test {

inline spawn::SpawnResult exited_ok() {
  spawn::SpawnResult result;
  result.outcome = spawn::SpawnOutcome::kExited;
  result.exit_code = 0;
  result.elapsed_s = 0.5;
  return result;
}

}  // namespace iobench::test
