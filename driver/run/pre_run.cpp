#include "driver/run/pre_run.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <system_error>

#include "common/cpus.hpp"
#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/size.hpp"
#include "common/worker_args.hpp"
#include "driver/gen/gen.hpp"
#include "driver/run/machine_context.hpp"
#include "driver/run/worker_catalog.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

Error missing_input(const config::Config& config, std::size_t index) {
  return Error(
      fmt::format("{}: inputs[{}]: {} does not exist (give it a \"generate\" to have it made)",
                  config.file.string(), index, config.inputs[index].path.string()));
}

// The tasks of a job array may share a file system and start at once: one makes the input
// while the others wait on its lock file, then find it whole (gen renames it into place).
void generate_once(const config::InputSpec& input, bool quiet) {
  std::string lock_name = ".";  // built in steps: GCC 12 warns wrongly on "." + string + ".lock"
  lock_name += input.path.filename().string();
  lock_name += ".lock";
  const fs::path lock_path = input.path.parent_path() / lock_name;
  const UniqueFd lock(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!lock) {
    throw Error(fmt::format("{}: cannot create the lock file for generating {}: {}",
                            lock_path.string(), input.path.string(), std::strerror(errno)));
  }
  if (::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) {
    if (!quiet) {
      fmt::print(stderr, "iobench: waiting for another process generating {}\n",
                 input.path.string());
    }
    while (::flock(lock.get(), LOCK_EX) != 0) {
      if (errno != EINTR) {
        throw Error(fmt::format("{}: cannot lock: {}", lock_path.string(), std::strerror(errno)));
      }
    }
  }
  std::error_code ec;
  if (fs::exists(input.path, ec)) return;  // made while we waited
  if (!quiet) {
    fmt::print(stderr, "iobench: generating {} ({} {}, seed {})\n", input.path.string(),
               format_size(input.generate->size_bytes), input.generate->kind, input.generate->seed);
  }
  try {
    gen::generate(*input.generate, input.path);
  } catch (...) {
    // Interrupted or failed: gen removed its temporary file, and no lock stays behind either (it
    // did after Ctrl-C). A waiter then finds no input and generates it itself.
    ::unlink(lock_path.c_str());
    throw;
  }
  // Still locked: a waiter holds the old inode and finds the input; a latecomer finds it first.
  ::unlink(lock_path.c_str());
}

bool uses_mmap_reader(const config::Test& test) {
  return WorkerCommandLine(test.worker_args).value_of("--read") == "mmap";
}

}  // namespace

void check_machine_settings(const config::Config& config, const config::Plan& plan) {
  if (!config.cpus.empty()) {
    const std::vector<int> usable = usable_cpu_list();
    for (std::size_t i = 0; i < config.cpus.size(); ++i) {
      if (std::find(usable.begin(), usable.end(), config.cpus[i]) == usable.end()) {
        throw Error(fmt::format(
            "{}: cpus[{}]: CPU {} is not online or not one this process may run on (it may run "
            "on {}); name those CPUs",
            config.file.string(), i, config.cpus[i], format_cpu_list(usable)));
      }
    }
  }
  if (config.pipe_size_bytes) {
    const std::string max_text = read_first_line("/proc/sys/fs/pipe-max-size");
    std::uint64_t max_bytes = 0;
    if (std::from_chars(max_text.data(), max_text.data() + max_text.size(), max_bytes).ec ==
            std::errc() &&
        *config.pipe_size_bytes > max_bytes) {
      throw Error(fmt::format(
          "{}: pipe_size: {} bytes is above /proc/sys/fs/pipe-max-size ({} bytes); the kernel "
          "would refuse it (lower it, or raise the limit as root)",
          config.file.string(), *config.pipe_size_bytes, max_bytes));
    }
  }
  for (const auto& test : plan.tests) {
    if (!uses_mmap_reader(test)) continue;
    for (std::size_t i = 0; i < config.inputs.size(); ++i) {
      std::error_code ec;
      if (fs::is_fifo(config.inputs[i].path, ec)) {
        throw Error(fmt::format(
            "{}: strategies[{}]: test '{}' reads with mmap, but inputs[{}] ({}) is a pipe, which "
            "cannot be mapped; use another reader or a regular file",
            config.file.string(), test.strategy, test.name, i, config.inputs[i].path.string()));
      }
    }
  }
}

void check_worker_strategies(const config::Config& config, const config::Plan& plan) {
  // By the worker each test runs (--versus has two), each asked once.
  std::map<std::string, std::vector<WorkerEntry>> catalogs;
  for (const auto& test : plan.tests) {
    if (config.strategies[test.strategy].kind != config::StrategySpec::Kind::kWorker) continue;
    const std::string& worker = test.argv.front();
    auto catalog = catalogs.find(worker);
    if (catalog == catalogs.end())
      catalog = catalogs.emplace(worker, load_worker_catalog(worker)).first;
    if (const std::string problem = check_worker_args(test.worker_args, catalog->second);
        !problem.empty()) {
      throw Error(fmt::format("{}: strategies[{}].worker: test '{}': {}", config.file.string(),
                              test.strategy, test.name, problem));
    }
  }
}

void check_inputs_exist(const config::Config& config) {
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    const config::InputSpec& input = config.inputs[i];
    std::error_code ec;
    if (input.none()) continue;
    if (!input.generate && !fs::exists(input.path, ec)) throw missing_input(config, i);
    // Found here, not by every run's worker failing to read it after the runs began.
    if (fs::is_directory(input.path, ec)) {
      throw Error(fmt::format("{}: inputs[{}]: {} is a folder; an input is one file",
                              config.file.string(), i, input.path.string()));
    }
  }
  if (config.stdin_path.empty()) return;
  if (::access(config.stdin_path.c_str(), R_OK) != 0) {
    throw Error(fmt::format("{}: stdin: {}: {}", config.file.string(), config.stdin_path.string(),
                            std::strerror(errno)));
  }
  std::error_code ec;
  if (fs::is_directory(config.stdin_path, ec)) {
    throw Error(fmt::format("{}: stdin: {} is a folder; stdin is read from one file",
                            config.file.string(), config.stdin_path.string()));
  }
}

void prepare_inputs(const config::Config& config, bool quiet) {
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    const config::InputSpec& input = config.inputs[i];
    std::error_code ec;
    if (input.none() || fs::exists(input.path, ec)) continue;
    if (!input.generate) throw missing_input(config, i);
    if (input.path.has_parent_path()) fs::create_directories(input.path.parent_path(), ec);
    generate_once(input, quiet);
  }
}

}  // namespace iobench::run
