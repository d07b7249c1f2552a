#include "driver/run/worker_catalog.hpp"

#include <fmt/core.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common/child_process.hpp"
#include "common/error.hpp"
#include "common/worker_args.hpp"

namespace iobench::run {

std::filesystem::path find_worker() {
  if (const char* forced = std::getenv("IOBENCH_WORKER"); forced != nullptr && *forced != '\0') {
    return forced;
  }
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(fmt::format("cannot find this executable: {}", ec.message()));
  return self.parent_path() / "iobench-worker";
}

std::vector<WorkerEntry> load_worker_catalog(const std::filesystem::path& worker) {
  if (::access(worker.c_str(), X_OK) != 0) {
    throw Error(
        fmt::format("{}: the worker is missing or not executable (build it, or set IOBENCH_WORKER)",
                    worker.string()));
  }
  child::Captured list;
  try {
    list = child::run_capturing_stdout({worker.string(), "--list"});  // not a measured run
  } catch (const std::exception& e) {
    throw Error(fmt::format("{} --list: {}", worker.string(), e.what()));
  }
  if (list.exit_status != 0)
    throw Error(fmt::format("{} --list exited with {}", worker.string(), list.exit_status));
  const std::string& text = list.out;
  std::vector<WorkerEntry> catalog;
  try {
    for (const auto& entry : nlohmann::json::parse(text)) {
      catalog.push_back(WorkerEntry{entry.at("name").get<std::string>(),
                                    entry.at("kind").get<std::string>(),
                                    entry.value("description", "")});
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{} --list: unreadable JSON: {}", worker.string(), e.what()));
  }
  return catalog;
}

std::string check_worker_args(const std::vector<std::string>& args,
                              const std::vector<WorkerEntry>& catalog) {
  auto known = [&](const std::string& kind, const std::string& name) {
    for (const auto& entry : catalog) {
      // Ops with an argument may be listed as "field" or "field:N".
      if (entry.kind == kind && entry.name.substr(0, entry.name.find(':')) == name) return true;
    }
    return false;
  };
  auto names_of = [&](const std::string& kind) {
    std::string names;
    for (const auto& entry : catalog) {
      if (entry.kind != kind) continue;
      if (!names.empty()) names += ", ";
      names += entry.name;
    }
    return names;
  };
  for (const NamedWorkerUnit& named : WorkerCommandLine(args).named_units()) {
    const std::string kind(named.kind);
    if (!known(kind, named.unit)) {
      return fmt::format("{} '{}' is not a worker {} (known: {})", named.option, named.value, kind,
                         names_of(kind));
    }
  }
  return {};
}

}  // namespace iobench::run
