#pragma once
// What the worker offers (`iobench-worker --list`), used to reject a config that names a reader,
// writer or op the worker does not have before anything runs.
#include <filesystem>
#include <string>
#include <vector>

namespace iobench::run {

struct WorkerEntry {
  std::string name;
  std::string kind;  // reader, writer, op
  std::string description;
};

// The worker binary: $IOBENCH_WORKER when set, else iobench-worker next to this executable.
std::filesystem::path find_worker();

// Runs `WORKER --list` and parses its JSON. Throws iobench::Error when it cannot.
std::vector<WorkerEntry> load_worker_catalog(const std::filesystem::path& worker);

// Checks every --read, --write and --op value in args against the catalog; returns an error
// message naming the first unknown one, or an empty string.
std::string check_worker_args(const std::vector<std::string>& args,
                              const std::vector<WorkerEntry>& catalog);

}  // namespace iobench::run
