#include "driver/stats/session_spread.hpp"

#include <cmath>
#include <numeric>

#include "driver/stats/distributions.hpp"

namespace iobench::stats {

SessionSpread pooled_session_spread(const std::vector<std::vector<double>>& levels) {
  SessionSpread spread;
  double squares = 0;
  for (const std::vector<double>& level : levels) {
    if (level.size() < 2) continue;
    const double mean =
        std::accumulate(level.begin(), level.end(), 0.0) / static_cast<double>(level.size());
    for (const double x : level) squares += (x - mean) * (x - mean);
    spread.df += level.size() - 1;
    spread.sessions += level.size();
  }
  if (spread.df > 0) spread.sd_log = std::sqrt(squares / static_cast<double>(spread.df));
  return spread;
}

SessionJudgement judge_session(std::span<const double> baseline_log, double newest_log,
                               double sd_log, std::size_t df, double alpha) {
  SessionJudgement judgement;
  if (baseline_log.empty()) return judgement;
  const double k = static_cast<double>(baseline_log.size());
  const double d = newest_log - std::accumulate(baseline_log.begin(), baseline_log.end(), 0.0) / k;
  judgement.ratio = std::exp(d);
  const double se = sd_log * std::sqrt(1 + 1 / k);
  if (!(se > 0)) {
    judgement.low = judgement.high = judgement.ratio;
    judgement.p_value = d == 0 ? 1 : 0;
    return judgement;
  }
  const double t = d / se;
  const double nu = static_cast<double>(df);
  const double q = df == 0 ? normal_quantile(1 - alpha / 2) : student_t_quantile(1 - alpha / 2, nu);
  judgement.p_value = df == 0 ? 2 * normal_sf(std::fabs(t)) : student_t_two_sided_p(t, nu);
  judgement.low = std::exp(d - q * se);
  judgement.high = std::exp(d + q * se);
  return judgement;
}

}  // namespace iobench::stats
