#pragma once
// The worker's command line: parsing (testable on its own) and the whole run.
#include <string>
#include <vector>

#include "workers/worker.hpp"

namespace iobench::worker {

// Parses and checks the arguments (without argv[0]). Throws UsageError.
Options parse_args(const std::vector<std::string>& args);

// Runs the worker as `iobench-worker ARGS`: returns the exit status (0 ok, 1 run error, 2 usage),
// having written any error as one line on stderr.
int worker_main(int argc, char** argv);

}  // namespace iobench::worker
