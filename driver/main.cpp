// iobench: the driver's entry point. Everything lives in the core library; see driver/cli.cpp.
#include <cstdlib>
#include <string_view>

#include "driver/cli/cli.hpp"
#include "driver/spawn/spawner.hpp"

int main(int argc, char** argv) {
  if (argc == 3 && std::string_view(argv[1]) == iobench::kSpawnerArgument) {
    return iobench::serve_spawner(std::atoi(argv[2]));
  }
  // The spawner is forked before anything else is loaded: a child's ru_maxrss starts at the RSS of
  // the process it was forked from, so workers must come from a small process (docs/driver.md).
  if (argc > 1 && std::string_view(argv[1]) == "run") iobench::Spawner::start_global();
  return iobench::run_cli(argc, argv);
}
