// iobench: the driver's entry point. Everything else lives in the driver's libraries
// (docs/architecture.md); the commands start at run_cli in driver/cli/cli.cpp.
#include <string_view>

#include "driver/cli/cli.hpp"
#include "driver/spawn/spawner.hpp"

int main(int argc, char** argv) {
  // The spawner (iobench-spawner, beside this binary) starts before anything is loaded, so a
  // missing one fails at once rather than after the preparations (docs/driver.md).
  if (argc > 1 && std::string_view(argv[1]) == "run") iobench::spawn::Spawner::start_global();
  return iobench::cli::run_cli(argc, argv);
}
