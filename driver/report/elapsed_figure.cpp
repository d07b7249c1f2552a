#include "driver/report/elapsed_figure.hpp"

#include <algorithm>

namespace iobench::report {
namespace {

bool same(const runfile::ShellStartup& a, const runfile::ShellStartup& b) {
  return a.command == b.command && a.runs == b.runs && a.elapsed_s == b.elapsed_s &&
         a.user_s == b.user_s && a.system_s == b.system_s;
}

}  // namespace

std::string ElapsedFigure::name() const {
  return kind == ElapsedFigureKind::kStartupSubtracted ? "elapsed, shell start-up subtracted"
                                                       : "elapsed";
}

std::string_view ElapsedFigure::json_name() const {
  return kind == ElapsedFigureKind::kStartupSubtracted ? "startup_subtracted" : "raw";
}

ElapsedFigure decide_elapsed_figure(
    const std::vector<std::optional<runfile::ShellStartup>>& startups) {
  if (startups.empty() || !startups.front()) return {};
  const bool all_same = std::all_of(startups.begin(), startups.end(), [&](const auto& s) {
    return s && same(*s, *startups.front());
  });
  if (!all_same) return {};
  return {ElapsedFigureKind::kStartupSubtracted, startups.front()};
}

ElapsedFigure elapsed_figure_of(const std::vector<runfile::WrittenRun>& runs) {
  std::vector<std::optional<runfile::ShellStartup>> startups;
  startups.reserve(runs.size());
  for (const runfile::WrittenRun& run : runs) {
    // A record that could not be read records no start-up: the raw figure, which the file has.
    startups.push_back(run.meta ? run.meta->shell_startup : std::nullopt);
  }
  return decide_elapsed_figure(startups);
}

namespace {

// The start-up's CPU time off one run's, as a sum: where the kernel put more of the run in one
// of user and system than the start-up had there, the other gives the rest. Their sum is the
// run's less the start-up's, floored at 0; each alone floored, it kept up to the other's share.
void subtract_cpu(double& user_s, double& system_s, const runfile::ShellStartup& startup) {
  user_s -= startup.user_s;
  system_s -= startup.system_s;
  if (user_s < 0) {
    system_s += user_s;
    user_s = 0;
  }
  if (system_s < 0) {
    user_s = std::max(0.0, user_s + system_s);
    system_s = 0;
  }
}

}  // namespace

runfile::RunSet subtract_shell_startup(const runfile::RunSet& set,
                                       const runfile::ShellStartup& startup) {
  runfile::RunSet corrected = set;
  const auto less = [](std::vector<double>& samples, double cost) {
    for (double& value : samples) value = std::max(0.0, value - cost);
  };
  for (runfile::Group& group : corrected.groups) {
    auto& elapsed = group.samples[runfile::index(runfile::Metric::kElapsed)];
    auto& user = group.samples[runfile::index(runfile::Metric::kUser)];
    auto& system = group.samples[runfile::index(runfile::Metric::kSystem)];
    auto& cpu_pct = group.samples[runfile::index(runfile::Metric::kCpuPct)];
    less(elapsed, startup.elapsed_s);
    for (std::size_t i = 0; i < user.size() && i < system.size(); ++i)
      subtract_cpu(user[i], system[i], startup);
    for (std::size_t i = 0; i < cpu_pct.size() && i < elapsed.size(); ++i) {
      cpu_pct[i] = elapsed[i] > 0 ? (user[i] + system[i]) / elapsed[i] * 100 : 0;
    }
  }
  return corrected;
}

runfile::RunSet in_figure(const runfile::RunSet& raw, const ElapsedFigure& figure) {
  if (figure.kind != ElapsedFigureKind::kStartupSubtracted || !figure.startup) return raw;
  return subtract_shell_startup(raw, *figure.startup);
}

}  // namespace iobench::report
