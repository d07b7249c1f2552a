#include "driver/bench/shell_startup.hpp"

#include <fcntl.h>

#include "common/fd.hpp"
#include "driver/run/measurement.hpp"
#include "driver/run/sink.hpp"
#include "driver/stats/descriptive.hpp"

namespace iobench::bench {

using run::fill_measurements;
using run::Launcher;
using run::open_sink;
using run::Sink;
using run::SinkSettings;

namespace {

constexpr std::size_t kWarmups = 3;

}  // namespace

std::vector<std::string> config_shell(const config::Config& config) {
  for (const config::StrategySpec& strategy : config.strategies) {
    if (strategy.kind == config::StrategySpec::Kind::kCommand && strategy.shell) {
      return strategy.shell_words;
    }
  }
  return {};
}

std::optional<runfile::ShellStartup> measure_shell_startup(Launcher& launcher,
                                                           const config::Config& config,
                                                           const std::vector<std::string>& counters,
                                                           std::size_t runs) {
  runfile::ShellStartup startup;
  startup.command = config_shell(config);
  if (startup.command.empty() || runs == 0) return std::nullopt;
  startup.command.insert(startup.command.end(), {"-c", ""});
  SinkSettings sink_settings;
  sink_settings.pipe_size_bytes = config.pipe_size_bytes;
  sink_settings.worker_cpus = config.cpus;
  sink_settings.drain = config.drain;
  const config::SinkKind sink_kind = config.sinks.front() == config::SinkKind::kFile
                                         ? config::SinkKind::kPipe
                                         : config.sinks.front();
  std::vector<double> elapsed_s;
  std::vector<double> user_s;
  std::vector<double> system_s;
  for (std::size_t i = 0; i < kWarmups + runs; ++i) {
    const std::unique_ptr<Sink> sink = open_sink(sink_kind, sink_settings);
    UniqueFd stdin_file;
    if (!config.stdin_path.empty()) {
      stdin_file = UniqueFd(::open(config.stdin_path.c_str(), O_RDONLY | O_CLOEXEC));
      if (!stdin_file) return std::nullopt;
    }
    spawn::SpawnRequest request;
    request.argv = startup.command;
    request.stdin_fd = stdin_file.get();
    run::connect_sink(*sink, request);
    request.cpus = config.cpus;
    request.counters = counters;
    request.timeout_s = config.timeout_s;
    const spawn::SpawnResult result = launcher.run(request);
    run::finish_sink(*sink, result);
    runfile::RunRow row;
    fill_measurements(row, result);
    if (row.status != runfile::RunStatus::kOk) return std::nullopt;
    if (i < kWarmups) continue;
    elapsed_s.push_back(row.elapsed_s);
    user_s.push_back(row.user_s);
    system_s.push_back(row.system_s);
  }
  startup.runs = runs;
  startup.elapsed_s = stats::median(elapsed_s);
  startup.user_s = stats::median(user_s);
  startup.system_s = stats::median(system_s);
  return startup;
}

}  // namespace iobench::bench
