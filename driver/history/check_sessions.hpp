#pragma once
// Sessions as the unit of `history check` (docs/history.md, "Sessions"): a change must stand out
// from how far the series' sessions drift, not only from how far one session's runs spread. The
// spread is learnt from the series' own earlier sessions, level by level (split where a change
// point was found or a change acknowledged), or stated (--session-spread); with neither, a
// slowdown the rows show cannot be judged.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/timeline.hpp"
#include "driver/stats/session_spread.hpp"

namespace iobench::history {

// A spread is learnt from this many degrees of freedom or more: three sessions of one level, or
// four in two. Fewer say almost nothing of it (Student's t at 1 df has a 95 % quantile of 12.7).
inline constexpr std::size_t kMinSessionDf = 2;
// The earlier sessions the spread is learnt from, at most: the newest ones (the machine of a year
// ago says little of today's, and the change-point search is quadratic in them).
inline constexpr std::size_t kSessionHistoryRuns = 100;

struct SessionCheck {
  bool known = false;   // a spread to judge by: learnt from kMinSessionDf or more, or stated
  bool stated = false;  // the spread used is --session-spread's, above what was learnt
  stats::SessionSpread learnt;
  double sd_log = 0;  // the spread used
  std::size_t baseline_sessions = 0;
  stats::SessionJudgement judgement;  // when known
};

// What the series' sessions say of its newest run (the last point of timeline). `earlier` are the
// points the spread may be learnt from (the same conditions as the newest, oldest first), and
// `level_starts` the points where a level starts (an acknowledged change, or the new level the
// rows show; a point left out of `earlier` starts it at the next one); `baseline` the
// points judged against. Points without a row that counts are passed over.
SessionCheck check_sessions(const Timeline& timeline, const std::vector<std::size_t>& earlier,
                            const std::vector<std::size_t>& level_starts,
                            const std::vector<std::size_t>& baseline,
                            std::optional<double> stated_pct, double alpha);

// A spread in log units as a percentage: 100 (e^sd - 1).
double spread_pct(double sd_log);
// "sessions spread 3.1 % (learnt from 9 sessions): the newest 1.210 [1.120, 1.310] of the
// baseline's 4, p = 0.002"; for a spread not known, what is missing.
std::string session_phrase(const SessionCheck& sessions);

}  // namespace iobench::history
