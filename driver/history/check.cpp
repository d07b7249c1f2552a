#include "driver/history/check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "driver/util/format.hpp"

namespace iobench::history {
namespace {

// What a run's rows were measured under, as far as the harness verified it (docs/history.md,
// "Like with like").
struct Conditions {
  bool cache_held = true;  // every counted row's cache_pct within its mode's bound
  double worst_cache_pct = std::numeric_limits<double>::quiet_NaN();
  bool busy = false;
  std::optional<double> busy_cpus;
  std::string kernel;
};

Conditions conditions_of(const RunPoint& point, const StoredSeries& series) {
  Conditions c;
  for (const StoredSample* sample : point.samples) {
    if (!counts(*sample, series) || !sample->cache_pct) continue;
    if (!cache_state_holds(series.key.cache_mode, *sample->cache_pct)) {
      c.cache_held = false;
      c.worst_cache_pct = *sample->cache_pct;
    }
  }
  c.busy_cpus = point.run->busy_cpus_start;
  c.busy = c.busy_cpus && *c.busy_cpus >= kBusyCpus;
  c.kernel = point.run->kernel;
  return c;
}

bool same_conditions(const Conditions& a, const Conditions& b) {
  return a.cache_held == b.cache_held && a.busy == b.busy && a.kernel == b.kernel;
}

std::string what_moved(const Conditions& now, const Conditions& before,
                       const std::string& cache_mode) {
  std::vector<std::string> parts;
  if (now.cache_held != before.cache_held) {
    parts.push_back(now.cache_held ? fmt::format("cache {} now, not before", cache_mode)
                                   : fmt::format("cache no longer {} (cache_pct {:.1f})",
                                                 cache_mode, now.worst_cache_pct));
  }
  if (now.busy != before.busy) {
    parts.push_back(fmt::format(
        "{} machine ({:.2f} CPUs busy with others at the start, before "
        "{:.2f})",
        now.busy ? "a busy" : "a quiet", now.busy_cpus.value_or(0), before.busy_cpus.value_or(0)));
  }
  if (now.kernel != before.kernel) {
    parts.push_back(fmt::format("another kernel ({} -> {})", before.kernel, now.kernel));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

bool matches_ref(const StoredRun& run, const std::string& ref) {
  const auto starts = [&](const std::optional<std::string>& commit) {
    return ref.size() >= 4 && commit && commit->compare(0, ref.size(), ref) == 0;
  };
  return starts(run.labels.commit) || starts(run.measured_commit) || run.labels.branch == ref;
}

const Ack* find_ack(const std::vector<Ack>& acks, const std::string& id) {
  for (const Ack& ack : acks) {
    if (ack.change_id == id) return &ack;
  }
  return nullptr;
}

// The runs the newest is judged against, before like with like is applied.
std::vector<const RunPoint*> baseline_candidates(const Timeline& timeline, std::size_t newest,
                                                 const HistoryData& data,
                                                 const CheckOptions& options) {
  std::vector<const RunPoint*> candidates;
  if (options.base) {
    for (std::size_t i = 0; i < timeline.points.size(); ++i) {
      if (i != newest && matches_ref(*timeline.points[i].run, *options.base)) {
        candidates.push_back(&timeline.points[i]);
      }
    }
    return candidates;
  }
  std::size_t start = 0;  // the last acknowledged change starts the level the newest is held to
  for (std::size_t i = 0; i < newest; ++i) {
    const std::string id =
        change_id(timeline.series->series_hash, timeline.points[i].run->run_hash);
    if (find_ack(data.acks, id) != nullptr) start = i;
  }
  if (newest - start > options.baseline_runs) start = newest - options.baseline_runs;
  for (std::size_t i = start; i < newest; ++i) candidates.push_back(&timeline.points[i]);
  return candidates;
}

double min_effect_for(const std::string& test, const CheckOptions& options) {
  double pct = kDefaultMinEffectPct;
  for (const MinEffect& effect : options.min_effects) {
    if (!effect.test || std::regex_match(test, *effect.test)) pct = effect.pct;
  }
  return pct;
}

CellCheck check_series(const Timeline& timeline, const HistoryData& data,
                       const CheckOptions& options) {
  CellCheck cell;
  cell.timeline = &timeline;
  const StoredSeries& series = *timeline.series;
  const std::size_t newest = timeline.points.size() - 1;
  const RunPoint& last = timeline.points[newest];
  cell.change_id = change_id(series.series_hash, last.run->run_hash);
  cell.min_effect_pct = min_effect_for(series.key.test, options);
  cell.excluded = excluded_summary(last, series);
  const std::vector<const StoredSample*> now = counted_rows({&last}, series);
  if (now.empty()) {
    cell.verdict = CellVerdict::kNothingCounts;
    return cell;
  }
  const std::vector<const RunPoint*> candidates =
      baseline_candidates(timeline, newest, data, options);
  if (candidates.empty()) return cell;  // kNoBaseline
  const Conditions conditions = conditions_of(last, series);
  std::vector<const RunPoint*> baseline;
  for (const RunPoint* point : candidates) {
    if (same_conditions(conditions_of(*point, series), conditions)) baseline.push_back(point);
  }
  if (baseline.empty()) {
    cell.verdict = CellVerdict::kConditionsChanged;
    cell.conditions =
        what_moved(conditions, conditions_of(*candidates.back(), series), series.key.cache_mode);
    return cell;
  }
  cell.baseline_runs = baseline.size();
  const std::vector<const StoredSample*> before = counted_rows(baseline, series);
  std::vector<double> a;
  std::vector<double> b;
  a.reserve(before.size());
  b.reserve(now.size());
  for (const StoredSample* s : before) a.push_back(s->elapsed_s);
  for (const StoredSample* s : now) b.push_back(s->elapsed_s);
  report::CompareOptions compare_options;
  compare_options.alpha = options.alpha;
  cell.comparison = report::compare_samples(a, b, compare_options);
  const report::Row& row = cell.comparison;
  if (row.verdict == report::Verdict::kTooFewRuns) {
    cell.verdict = CellVerdict::kTooFewRuns;
  } else if (row.verdict == report::Verdict::kSlower &&
             (row.ratio - 1) * 100 > cell.min_effect_pct) {
    cell.ack = find_ack(data.acks, cell.change_id);
    cell.verdict = cell.ack != nullptr ? CellVerdict::kAcknowledged : CellVerdict::kRegression;
  } else if (row.verdict == report::Verdict::kFaster &&
             (1 - row.ratio) * 100 > cell.min_effect_pct) {
    cell.verdict = CellVerdict::kFaster;
  } else {
    cell.verdict = CellVerdict::kSteady;
  }
  if (cell.verdict != CellVerdict::kSteady) cell.why = explain_change(before, now, options.alpha);
  return cell;
}

}  // namespace

MinEffect parse_min_effect(const std::string& text) {
  MinEffect effect;
  effect.spelling = text;
  const std::size_t equals = text.rfind('=');
  const std::string number = equals == std::string::npos ? text : text.substr(equals + 1);
  std::size_t used = 0;
  try {
    effect.pct = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != number.size() || !(effect.pct >= 0) || effect.pct > 1000) {
    throw Error(
        fmt::format("--min-effect {}: give a percentage (5) or REGEX=PCT (count-.*=10)", text));
  }
  if (equals != std::string::npos) {
    try {
      effect.test = std::regex(text.substr(0, equals));
    } catch (const std::regex_error& e) {
      throw Error(fmt::format("--min-effect {}: not a regex: {}", text, e.what()));
    }
  }
  return effect;
}

std::string_view to_string(CellVerdict verdict) {
  switch (verdict) {
    case CellVerdict::kRegression:
      return "regression";
    case CellVerdict::kAcknowledged:
      return "acknowledged";
    case CellVerdict::kConditionsChanged:
      return "conditions changed";
    case CellVerdict::kFaster:
      return "faster";
    case CellVerdict::kSteady:
      return "steady";
    case CellVerdict::kTooFewRuns:
      return "too few runs";
    case CellVerdict::kNoBaseline:
      return "no baseline";
    case CellVerdict::kNothingCounts:
      return "nothing counts";
  }
  return "";
}

CheckReport check_history(const HistoryData& data, const std::vector<Timeline>& timelines,
                          const CheckOptions& options) {
  CheckReport report;
  for (const Timeline& timeline : timelines) {
    report.cells.push_back(check_series(timeline, data, options));
    if (report.cells.back().verdict == CellVerdict::kRegression) ++report.regressions;
  }
  return report;
}

std::string series_label(const StoredSeries& series) {
  return fmt::format("{} ({}, {})", series.key.test, series.key.input, series.key.sink);
}

std::string describe_cell(const CellCheck& cell) {
  const std::string head = fmt::format("{} {} {}", to_string(cell.verdict), cell.change_id,
                                       series_label(*cell.timeline->series));
  switch (cell.verdict) {
    case CellVerdict::kNoBaseline:
      return head + ": no earlier run to compare with";
    case CellVerdict::kNothingCounts:
      return fmt::format("{}: the newest run has no ok, verified row ({})", head, cell.excluded);
    case CellVerdict::kConditionsChanged:
      return fmt::format(
          "{}: {}; not judged as a regression (no baseline run shares its "
          "conditions)",
          head, cell.conditions);
    default:
      break;
  }
  const report::Row& row = cell.comparison;
  std::string line = fmt::format("{}: elapsed {} -> {}, {}", head, format_seconds(row.base_median),
                                 format_seconds(row.new_median), report::verdict_phrase(row));
  if (row.ci) line += fmt::format(", ratio in [{:.3f}, {:.3f}]", row.ci->low, row.ci->high);
  line += fmt::format(", against {} rows of {} run{}", row.base_n, cell.baseline_runs,
                      cell.baseline_runs == 1 ? "" : "s");
  if (cell.verdict == CellVerdict::kRegression) {
    line += fmt::format(", over the {:g} % allowed", cell.min_effect_pct);
  }
  if (cell.ack != nullptr) {
    line += fmt::format("; acknowledged by {} at {}: {}", cell.ack->who, cell.ack->acked_at,
                        cell.ack->why);
  }
  if (!cell.excluded.empty()) line += fmt::format("; not counted: {}", cell.excluded);
  if (cell.verdict != CellVerdict::kSteady && cell.verdict != CellVerdict::kTooFewRuns) {
    line += "; " + format_explanation(cell.why);
  }
  return line;
}

}  // namespace iobench::history
