#include "driver/history/check_sessions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "driver/report/compare.hpp"
#include "driver/stats/change_points.hpp"
#include "driver/stats/descriptive.hpp"

namespace iobench::history {
namespace {

// The log of the median of the point's rows that count, if it has any and it is positive.
std::optional<double> log_median(const RunPoint& point, const StoredSeries& series) {
  const std::vector<double> values = usable_elapsed(point, series);
  if (values.empty()) return std::nullopt;
  const double median = stats::median(values);
  if (!(median > 0)) return std::nullopt;
  return std::log(median);
}

// The earlier sessions' log medians, split into levels where a change point was found among them
// or an acknowledged change starts.
std::vector<std::vector<double>> levels_of(const Timeline& timeline,
                                           const std::vector<std::size_t>& earlier,
                                           const std::vector<std::size_t>& level_starts) {
  const std::size_t first =
      earlier.size() > kSessionHistoryRuns ? earlier.size() - kSessionHistoryRuns : 0;
  std::vector<double> medians;  // the detector works on medians, as `history changes` does
  std::vector<double> log_medians;
  std::vector<bool> starts;
  bool starts_here = false;  // a level starts at the next point with a row that counts
  for (std::size_t e = first; e < earlier.size(); ++e) {
    const std::size_t i = earlier[e];
    const std::size_t before = e == first ? 0 : earlier[e - 1] + 1;
    starts_here = starts_here || std::any_of(level_starts.begin(), level_starts.end(),
                                             [&](std::size_t s) { return before <= s && s <= i; });
    const std::optional<double> x = log_median(timeline.points[i], *timeline.series);
    if (!x) continue;
    medians.push_back(std::exp(*x));
    log_medians.push_back(*x);
    starts.push_back(starts_here);
    starts_here = false;
  }
  for (const stats::ChangePoint& change : stats::find_change_points(medians)) {
    starts[change.index] = true;
  }
  std::vector<std::vector<double>> levels(1);
  for (std::size_t j = 0; j < log_medians.size(); ++j) {
    if (starts[j] && !levels.back().empty()) levels.emplace_back();
    levels.back().push_back(log_medians[j]);
  }
  return levels;
}

}  // namespace

SessionCheck check_sessions(const Timeline& timeline, const std::vector<std::size_t>& earlier,
                            const std::vector<std::size_t>& level_starts,
                            const std::vector<std::size_t>& baseline,
                            std::optional<double> stated_pct, double alpha) {
  SessionCheck check;
  check.learnt = stats::pooled_session_spread(levels_of(timeline, earlier, level_starts));
  const bool learnt = check.learnt.df >= kMinSessionDf;
  const double stated_sd = stated_pct ? std::log1p(*stated_pct / 100) : 0;
  check.known = learnt || stated_pct.has_value();
  check.stated = stated_pct.has_value() && (!learnt || stated_sd > check.learnt.sd_log);
  check.sd_log = check.stated ? stated_sd : check.learnt.sd_log;
  std::vector<double> baseline_log;
  for (const std::size_t i : baseline) {
    if (auto x = log_median(timeline.points[i], *timeline.series)) baseline_log.push_back(*x);
  }
  check.baseline_sessions = baseline_log.size();
  const std::optional<double> newest = log_median(timeline.points.back(), *timeline.series);
  if (check.known && newest && !baseline_log.empty()) {
    check.judgement = stats::judge_session(baseline_log, *newest, check.sd_log,
                                           check.stated ? 0 : check.learnt.df, alpha);
  }
  return check;
}

double spread_pct(double sd_log) {
  return 100 * std::expm1(sd_log);
}

std::string session_phrase(const SessionCheck& sessions) {
  if (!sessions.known) {
    return fmt::format(
        "{} earlier session{} cannot say how far sessions drift ({} in one level needed, or "
        "--session-spread PCT)",
        sessions.learnt.sessions, sessions.learnt.sessions == 1 ? "" : "s", kMinSessionDf + 1);
  }
  const std::string source = sessions.stated
                                 ? std::string("stated by --session-spread")
                                 : fmt::format("learnt from {} sessions", sessions.learnt.sessions);
  const stats::SessionJudgement& j = sessions.judgement;
  return fmt::format("sessions spread {:.1f} % ({}): the newest {} of the baseline's {}{}",
                     spread_pct(sessions.sd_log), source,
                     report::ratio_text(j.ratio, stats::Interval{j.low, j.high}),
                     sessions.baseline_sessions, report::p_phrase(j.p_value));
}

}  // namespace iobench::history
