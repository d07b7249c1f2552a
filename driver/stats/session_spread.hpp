#pragma once
// Sessions as the unit across commits (docs/history.md, "Sessions"): the runs of one session are
// not independent samples of its commit, because a machine drifts between sessions by more than
// its runs spread within one. A session is summed up by the log of its median; the spread between
// sessions is pooled over the levels of a series (the stretches between its change points); a new
// session is judged by where it falls against the mean of the baseline's sessions, as a new
// observation: a prediction interval, not a comparison of means.
#include <cstddef>
#include <span>
#include <vector>

namespace iobench::stats {

struct SessionSpread {
  double sd_log = 0;         // the pooled standard deviation of sessions' log medians
  std::size_t df = 0;        // its degrees of freedom: each level's sessions less one, summed
  std::size_t sessions = 0;  // sessions in levels of two or more
};
// The pooled spread of sessions around their level's mean: sqrt(sum of squared deviations /
// df). Each level is the log medians of its sessions; a level of one session adds nothing.
SessionSpread pooled_session_spread(const std::vector<std::vector<double>>& levels);

struct SessionJudgement {
  double ratio = 1;  // exp(newest - mean of the baseline's log medians)
  double low = 1;    // the ratio's 1 - alpha prediction interval
  double high = 1;
  double p_value = 1;  // two-sided
};
// The newest session's log median against the baseline sessions' (one or more), with the spread
// sd_log between sessions: d = newest - mean, standard error sd_log * sqrt(1 + 1/k) for k
// baseline sessions, and Student's t with df degrees of freedom (an estimated spread) or, with
// df = 0, the normal (a spread stated, not estimated). A spread of 0 gives p = 0 for any d other
// than 0 (the rows alone then decide: history/check_sessions.hpp).
SessionJudgement judge_session(std::span<const double> baseline_log, double newest_log,
                               double sd_log, std::size_t df, double alpha);

}  // namespace iobench::stats
