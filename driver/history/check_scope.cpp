// --base checked against the store, the newest run's scope (the series that disappeared from
// it) and the commit range of a change (docs/history.md, "Check").
#include "driver/history/check_scope.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/error.hpp"
#include "driver/stats/descriptive.hpp"

namespace iobench::history {
namespace {

// At most this many commits are named in an error about --base: a line, not a listing.
constexpr std::size_t kCommitsNamed = 6;

std::string short_list(const std::vector<std::string>& names) {
  std::vector<std::string> shown(
      names.begin(), names.begin() + static_cast<long>(std::min(names.size(), kCommitsNamed)));
  std::string text = fmt::format("{}", fmt::join(shown, ", "));
  if (names.size() > shown.size()) text += fmt::format(" and {} more", names.size() - shown.size());
  return text;
}

bool later(const StoredRun& a, const StoredRun& b) {
  if (a.date != b.date) return a.date > b.date;
  return a.run_id > b.run_id;
}

std::optional<std::string> commit_of(const StoredRun& run) {
  return run.labels.commit ? run.labels.commit : run.measured_commit;
}

bool same_place(const StoredRun& a, const StoredRun& b) {
  return a.config_name == b.config_name && a.host == b.host;
}

}  // namespace

BaseRef resolve_base(const HistoryData& data, const std::string& ref) {
  BaseRef base;
  base.given = ref;
  std::set<std::string> commits;
  std::set<std::string> branches;
  for (const StoredRun& run : data.runs) {
    if (run.labels.commit) commits.insert(*run.labels.commit);
    if (run.measured_commit) commits.insert(*run.measured_commit);
    if (run.labels.branch) branches.insert(*run.labels.branch);
  }
  if (branches.count(ref) != 0) {
    base.branch = true;
    return base;
  }
  if (commits.count(ref) != 0) {
    base.commit = ref;
    return base;
  }
  std::vector<std::string> starting;
  for (const std::string& commit : commits) {
    if (commit.compare(0, ref.size(), ref) == 0) starting.push_back(commit);
  }
  if (starting.size() == 1 && ref.size() >= 4) {
    base.commit = starting.front();
    return base;
  }
  if (!starting.empty() && ref.size() < 4) {
    throw Error(fmt::format(
        "history check --base {}: too short to name a commit (4 or more digits) and no branch has "
        "that name; it could be {}",
        ref, short_list(starting)));
  }
  if (starting.size() > 1) {
    throw Error(fmt::format("history check --base {}: ambiguous, {} commits start with it: {}", ref,
                            starting.size(), short_list(starting)));
  }
  throw Error(fmt::format(
      "history check --base {}: no run in the store has that commit or branch (branches: {}; "
      "commits: {})",
      ref, branches.empty() ? "none" : short_list({branches.begin(), branches.end()}),
      commits.empty() ? "none" : short_list({commits.begin(), commits.end()})));
}

bool in_base(const StoredRun& run, const BaseRef& base) {
  if (base.branch) return run.labels.branch == base.given;
  return run.labels.commit == base.commit || run.measured_commit == base.commit;
}

std::string commit_name(const StoredRun& run) {
  if (const auto commit = commit_of(run)) return *commit;
  return "run " + run.run_hash.substr(0, 8);
}

NewestScope newest_scope(const HistoryData& data, const std::vector<Timeline>& timelines,
                         const std::optional<BaseRef>& base, std::size_t window) {
  NewestScope scope;
  for (const StoredRun& run : data.runs) {
    if (scope.newest == nullptr || later(run, *scope.newest)) scope.newest = &run;
  }
  if (scope.newest == nullptr) return scope;
  const StoredRun& newest = *scope.newest;
  const std::optional<std::string> commit = commit_of(newest);
  std::vector<const StoredRun*> before;  // of the newest run's branch, before its commit
  for (const StoredRun& run : data.runs) {
    if (!same_place(run, newest)) continue;
    const bool at_newest =
        &run == &newest ||
        (commit && run.labels.branch == newest.labels.branch && commit_of(run) == commit);
    if (at_newest) {
      scope.newest_runs.insert(run.run_id);
    } else if (base ? in_base(run, *base)
                    : run.labels.branch == newest.labels.branch && later(newest, run)) {
      before.push_back(&run);
    }
  }
  std::sort(before.begin(), before.end(),
            [](const StoredRun* a, const StoredRun* b) { return later(*a, *b); });
  if (base) {
    // --base's newest commit is what the base has now: a series it dropped long ago is not missing.
    const std::optional<std::string> base_commit =
        before.empty() ? std::nullopt : commit_of(*before.front());
    for (const StoredRun* run : before) {
      if (run == before.front() || (base_commit && commit_of(*run) == base_commit)) {
        scope.earlier_runs.insert(run->run_id);
      }
    }
    window = 0;
  }
  for (std::size_t i = 0; i < before.size() && i < window; ++i) {
    scope.earlier_runs.insert(before[i]->run_id);
  }
  for (const Timeline& timeline : timelines) {
    for (const RunPoint& point : timeline.points) {
      if (scope.newest_runs.count(point.run->run_id) != 0) {
        scope.host_classes.insert(timeline.series->key.host_class);
        break;
      }
    }
  }
  return scope;
}

std::optional<std::string> default_branch(const HistoryData& data,
                                          const std::optional<std::string>& given) {
  if (given && !given->empty()) return given;
  for (const char* name : {"main", "master"}) {
    for (const StoredRun& run : data.runs) {
      if (run.labels.branch == name) return std::string(name);
    }
  }
  return std::nullopt;
}

Timeline line_of(const Timeline& timeline, const std::optional<BaseRef>& base,
                 const std::optional<std::string>& default_branch) {
  // The branches of the line: the newest point's, and the base's (a --base commit's history is
  // that of the branches its runs are on, which the spread between sessions is learnt from).
  std::set<std::optional<std::string>> branches{timeline.points.back().run->labels.branch};
  if (base && base->branch) {
    branches.insert(base->given);
  } else if (base) {
    for (const RunPoint& point : timeline.points) {
      if (in_base(*point.run, *base)) branches.insert(point.run->labels.branch);
    }
  } else if (default_branch) {
    branches.insert(*default_branch);
  }
  const auto on_line = [&](const StoredRun& run) {
    return !run.labels.branch || branches.count(run.labels.branch) != 0 ||
           (base && in_base(run, *base));
  };
  Timeline line{timeline.series, {}, timeline.earlier_series};
  for (const RunPoint& point : timeline.points) {
    if (on_line(*point.run)) line.points.push_back(point);
  }
  return line;
}

const RunPoint* missing_since(const Timeline& timeline, const NewestScope& scope) {
  if (scope.host_classes.count(timeline.series->key.host_class) == 0) return nullptr;
  const RunPoint* last = nullptr;
  for (const RunPoint& point : timeline.points) {
    if (scope.newest_runs.count(point.run->run_id) != 0) return nullptr;
    if (scope.earlier_runs.count(point.run->run_id) != 0) last = &point;
  }
  return last;
}

bool out_of_scope(CellCheck& cell, const NewestScope& scope) {
  const Timeline& timeline = *cell.timeline;
  if (const RunPoint* since = missing_since(timeline, scope)) {
    cell.verdict = CellVerdict::kMissing;
    cell.missing_from = scope.newest;
    cell.commits = CommitRange{commit_name(*since->run), commit_name(*scope.newest)};
    return true;
  }
  const std::string& host_class = timeline.series->key.host_class;
  // A class the newest runs have is theirs (its series are in them, or missing from them); a
  // series with a run of the newest commit is that commit's on another machine, judged.
  if (scope.newest == nullptr || scope.host_classes.empty() ||
      scope.host_classes.count(host_class) != 0) {
    return false;
  }
  const std::optional<std::string> commit = commit_of(*scope.newest);
  if (std::any_of(timeline.points.begin(), timeline.points.end(), [&](const RunPoint& point) {
        return point.run == scope.newest || (commit && commit_of(*point.run) == commit);
      })) {
    return false;
  }
  const StoredRun& last = *timeline.points.back().run;
  std::vector<std::string> now(scope.host_classes.begin(), scope.host_classes.end());
  std::sort(now.begin(), now.end());
  cell.verdict = CellVerdict::kOtherMachine;
  cell.commits = CommitRange{commit_name(last), commit_name(*scope.newest)};
  const auto host = [](const StoredRun& run) { return run.host.empty() ? "?" : run.host; };
  cell.not_judged = fmt::format(
      "of host class {}, its last run {} on host {}; the newest run, {} on host {}, is of host "
      "class {}, and this series has no run of {}: another machine's history, or this machine's "
      "before it changed; not judged, it passes",
      host_class, cell.commits.from, host(last), cell.commits.to, host(*scope.newest),
      fmt::join(now, "; "), cell.commits.to);
  return true;
}

CommitRange change_range(const Timeline& timeline, std::size_t before, std::size_t first) {
  const std::size_t newest = timeline.points.size() - 1;
  const std::size_t last_without = first < newest ? first - 1 : before;
  return CommitRange{commit_name(*timeline.points[last_without].run),
                     commit_name(*timeline.points[first].run)};
}

std::string format_range(const CommitRange& range) {
  if (range.from.empty()) return range.to;
  return fmt::format("{}..{}", range.from, range.to);
}

}  // namespace iobench::history
