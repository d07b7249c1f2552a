#pragma once
// What `history check` is asked about beyond each series' own runs (docs/history.md, "Check"):
// which series disappeared from the newest run, and between which commits a change came in.
// Shared by check.cpp and check_scope.cpp only.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "driver/history/check.hpp"

namespace iobench::history {

// The store's newest run (by date, then the order runs were added) and what it is held to.
struct NewestScope {
  const StoredRun* newest = nullptr;
  // The runs of the newest run's commit, config, host and branch: shards and filtered runs of one
  // commit, added one by one, are one run as far as which series it has goes.
  std::unordered_set<std::int64_t> newest_runs;
  // The runs a series of the newest run's config and host must still be in: those of --base's
  // newest commit, else the `window` most recent of the newest run's branch before its commit.
  std::unordered_set<std::int64_t> earlier_runs;
  // The host classes of the series in the newest runs: a series of another class is another
  // machine's, even under the same host name (containers), and never missing from this one.
  std::unordered_set<std::string> host_classes;
};
NewestScope newest_scope(const HistoryData& data, const std::vector<Timeline>& timelines,
                         const std::optional<BaseRef>& base, std::size_t window);

// The default branch, where no --base names one: `given` (the CLI's --default-branch or CI's
// target branch), else main or master when the store has runs on it, else none.
std::optional<std::string> default_branch(const HistoryData& data,
                                          const std::optional<std::string>& given);

// The points of `timeline` its newest point is judged along (docs/history.md, "The baseline"):
// the newest point's own branch, the runs filed under no branch, and the base (--base's branch, or
// a --base commit and the branches its runs are on, else the default branch). Another feature
// branch's runs are never in it, so neither its baseline nor the commits a change is blamed on come
// from another branch.
Timeline line_of(const Timeline& timeline, const std::optional<BaseRef>& base,
                 const std::optional<std::string>& default_branch);

// The newest point of `timeline` in scope.earlier_runs when it has none in scope.newest_runs (the
// series disappeared), else nullptr.
const RunPoint* missing_since(const Timeline& timeline, const NewestScope& scope);

// Sets the verdict of a series the newest run's scope leaves out, without judging it: kMissing
// (missing_since), or kOtherMachine: a series of a host class the newest run's series do not
// have, with no run of the newest run's commit (another machine's, or this one's before it
// changed: its last verdict is not the newest run's). False for any other series.
bool out_of_scope(CellCheck& cell, const NewestScope& scope);

// The commits between which the newest run's change came in: the run at `before` (the last
// known not to show it, the newest baseline run) or the one before `first` when that is later,
// .. the run at `first` (came_in.hpp: the first run of the new level).
CommitRange change_range(const Timeline& timeline, std::size_t before, std::size_t first);

}  // namespace iobench::history
