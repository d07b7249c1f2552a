#include "driver/run/machine_context.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>

#include "common/child_process.hpp"
#include "common/error.hpp"
#include "iobench/build_info.hpp"

namespace iobench::run {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  }
  return "unknown";
}

}  // namespace

std::string read_first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::optional<std::string> git_output(const std::filesystem::path& folder,
                                      std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", folder.empty() ? "." : folder.string()});
  try {
    const auto git = child::run_capturing_stdout(args, child::Stderr::kDevNull);
    if (git.exit_status != 0) return std::nullopt;
    return git.out;
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string build_info() {
  return IOBENCH_BUILD_INFO;
}

bool is_unoptimized_build() {
  const std::string info = build_info();
  return info.rfind("Debug", 0) == 0 || info.find("sanitize") != std::string::npos;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

runfile::MachineContext collect_machine_context() {
  runfile::MachineContext context;
  const std::time_t now = std::time(nullptr);
  char date[32] = {};
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  context.date = date;
  context.host = host_name();
  utsname uts{};
  if (::uname(&uts) == 0) {
    context.kernel = std::string(uts.sysname) + " " + uts.release;
    context.kernel_version = uts.version;
    context.machine = uts.machine;
  }
  context.cpu_model = cpu_model();
  context.cpus_online = ::sysconf(_SC_NPROCESSORS_ONLN);
  long long mem_total_kib = 0;  // /proc/meminfo's first line: "MemTotal:  24683584 kB"
  if (std::sscanf(read_first_line("/proc/meminfo").c_str(), "MemTotal: %lld kB", &mem_total_kib) ==
      1) {
    context.memory_kib = mem_total_kib;
  }
  const std::string governor =
      read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  context.cpu_governor = governor.empty() ? "unknown (no cpufreq)" : governor;
  const std::string pipe_max = read_first_line("/proc/sys/fs/pipe-max-size");
  if (!pipe_max.empty()) context.pipe_max_size_bytes = std::stoll(pipe_max);
  context.build = build_info();
  context.iobench_version = IOBENCH_VERSION;
  // The current folder's commit; absent without git or outside a repository.
  if (const auto commit = git_output(".", {"rev-parse", "HEAD"})) {
    context.git_commit = commit->substr(0, commit->find('\n'));
  }
  return context;
}

}  // namespace iobench::run
