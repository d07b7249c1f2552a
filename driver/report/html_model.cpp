#include "driver/report/html_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "common/error.hpp"
#include "driver/report/answer.hpp"
#include "driver/report/plot_sections.hpp"
#include "driver/util/format.hpp"

namespace iobench::report {
namespace {

using runfile::Metric;
using OthersByCell = std::map<std::string, std::vector<OthersDuringRun>>;

runfile::RunSet group_runs(const std::vector<runfile::WrittenRun>& runs) {
  return runfile::group_written_runs(runs, runfile::cell_grouping());
}

std::vector<std::pair<std::string, std::string_view>> named_texts(
    const std::vector<runfile::WrittenRun>& runs) {
  std::vector<std::pair<std::string, std::string_view>> texts;
  texts.reserve(runs.size());
  for (const runfile::WrittenRun& run : runs) texts.emplace_back(run.runs_file.string(), run.text);
  return texts;
}

// The groups of one place (input, sink and the conditions the files differ in: every key but the
// test) as a set of their own, keyed by test, input and sink alone: a section's chart, summary and
// verdicts.
runfile::RunSet subset(const runfile::RunSet& all, const std::vector<std::string>& place) {
  runfile::RunSet part;
  part.group_by.assign(all.group_by.begin(), all.group_by.begin() + 3);
  part.files = all.files;
  part.has_metric = all.has_metric;
  part.has_disturbance = all.has_disturbance;
  for (const auto& group : all.groups) {
    if (!std::equal(place.begin(), place.end(), group.key.begin() + 1)) continue;
    part.groups.push_back(group);
    part.groups.back().key.resize(3);
    for (std::size_t rows : group.rows) part.rows += rows;
  }
  return part;
}

std::vector<RunRecord> records_of(const std::vector<runfile::WrittenRun>& runs,
                                  std::vector<std::string>& warnings) {
  std::vector<RunRecord> records;
  for (const runfile::WrittenRun& run : runs) {
    RunRecord record{run.runs_file.string(), run.meta, run.meta_problem};
    if (!run.meta_problem.empty()) {
      warnings.push_back(fmt::format("{}: its meta file cannot be read: {}", run.runs_file.string(),
                                     run.meta_problem));
    } else if (!run.meta) {
      record.problem = "no meta file beside it (not written by iobench run?)";
    }
    records.push_back(std::move(record));
  }
  return records;
}

std::string choose_baseline(const std::string& asked, const std::vector<RunRecord>& records) {
  if (!asked.empty()) return asked;
  for (const auto& record : records) {
    if (record.meta && !record.meta->baseline().empty()) return record.meta->baseline();
  }
  return "";
}

// The order of the section's chart rows (report::group_sections): fastest first, no run last.
std::vector<std::size_t> chart_order(const runfile::RunSet& set) {
  const std::vector<report::Section> sections = report::group_sections(set, Metric::kElapsed);
  std::vector<std::size_t> order;
  for (const auto& row : sections.front().rows) {
    order.push_back(static_cast<std::size_t>(row.group - set.groups.data()));
  }
  return order;
}

std::unique_ptr<ReportSection> build_section(const ReportModel& model,
                                             const std::vector<std::string>& place,
                                             const std::map<std::string, ContextSwitches>& cs,
                                             const OthersByCell& others) {
  auto section = std::make_unique<ReportSection>();
  const std::string& input = place[0];
  const std::string& sink = place[1];
  section->input = input;
  section->sink = sink;
  for (std::size_t k = 3; k < model.set.group_by.size(); ++k) {
    section->conditions.emplace_back(model.set.group_by[k], place[k - 1]);
  }
  section->set = subset(model.set, place);
  report::SummaryOptions options = model.summary_options;
  options.baseline = model.baseline;
  section->summary = report::summarize(section->set, options);
  // The verdicts are the answer's (answer.hpp): the same reference, ratios and intervals as
  // `run` and `summarize` print.
  const std::vector<Answer> answered = answers(section->summary);
  if (!answered.empty()) section->answer = answered.front();
  section->reference = section->answer.reference;
  std::map<std::string, report::Row> versus;
  for (const AnswerEntry& entry : section->answer.ranked) {
    if (entry.versus) versus.emplace(entry.test, *entry.versus);
  }
  for (const std::size_t i : chart_order(section->set)) {
    const report::GroupStats& gs = section->summary.groups[i];
    ReportRow row;
    row.stats = &gs;
    row.test = gs.group->key[0];
    if (const auto it = versus.find(row.test); it != versus.end()) row.versus = it->second;
    if (const auto it = cs.find(cell_key(row.test, input, sink)); it != cs.end()) {
      row.context_switches = it->second;
    }
    if (const auto it = others.find(cell_key(row.test, input, sink)); it != others.end()) {
      row.others = it->second;
    }
    row.notes = row_notes(gs, options);
    section->rows.push_back(std::move(row));
  }
  return section;
}

// What a run record says about the whole run; the lines it kept about tests go to `lines`.
void record_warnings(const RunRecord& record, std::vector<std::string>& run_warnings,
                     std::vector<std::string>& lines) {
  if (!record.meta) return;
  const runfile::RunMeta& meta = *record.meta;
  if (meta.merged_from.empty() && !meta.end) {
    run_warnings.push_back(fmt::format(
        "{}: its run record has no end (the run died, or was still running): the figures cover "
        "the rows written so far",
        record.runs_file));
  } else if (meta.end && !meta.end->finished) {
    run_warnings.push_back(fmt::format(
        "{}: the run did not finish (interrupted, or iobench could not go on): the figures cover "
        "the {} rows written",
        record.runs_file, meta.rows.value_or(0)));
  }
  if (meta.counters) {
    for (const auto& [counter, why] : meta.counters->unavailable) {
      run_warnings.push_back(
          fmt::format("{}: counter {} was not counted ({})", record.runs_file, counter, why));
    }
  }
  if (meta.end) {
    // `warnings` holds every line the runs printed; older records kept the cache state's only.
    const auto& kept =
        meta.end->warnings.empty() ? meta.end->cache_state_warnings : meta.end->warnings;
    lines.insert(lines.end(), kept.begin(), kept.end());
  }
}

}  // namespace

std::vector<Note> row_notes(const report::GroupStats& stats,
                            const report::SummaryOptions& options) {
  std::vector<Note> notes;
  const runfile::Group& g = *stats.group;
  const std::size_t total = g.excluded_count() + g.ok_runs();
  for (std::size_t s = 1; s < runfile::kStatusCount; ++s) {
    if (g.rows[s] == 0) continue;
    if (g.from_disturbed_runs && s == static_cast<std::size_t>(runfile::RunStatus::kDisturbed)) {
      notes.push_back({"every run disturbed",
                       fmt::format("every one of its {} runs was disturbed (docs/driver.md, "
                                   "\"Disturbance\"): the figures are theirs, not a quiet "
                                   "machine's",
                                   g.rows[s])});
      continue;
    }
    notes.push_back(
        {fmt::format("{} {}", g.rows[s], runfile::kStatusWords[s]),
         fmt::format("{} of {} runs {} (status {}): left out of every figure", g.rows[s], total,
                     runfile::kStatusWords[s], runfile::kStatusNames[s])});
  }
  if (g.unverified) {
    notes.push_back({"unverified",
                     "its strategy says \"verify\": false: its output was never checked against "
                     "the reference, so its times may be of a run that did other work"});
  }
  const stats::SampleStats& el = stats.metric(Metric::kElapsed);
  if (el.n == 0) {
    notes.push_back({"no successful run", "no successful run: nothing to measure"});
    return notes;
  }
  if (el.n < options.min_runs) {
    notes.push_back({fmt::format("n = {}", el.n),
                     fmt::format("fewer than {} runs: the median is not reliable; use more repeats",
                                 options.min_runs)});
  }
  if (el.median > 0 && el.mad / el.median > options.spread_warning) {
    const double pct = el.mad / el.median * 100;
    notes.push_back({fmt::format("spread {:.1f} %", pct),
                     fmt::format("elapsed varies by {:.1f} % (MAD / median, over {:.0f} %): rerun "
                                 "on a quiet machine or with more repeats",
                                 pct, options.spread_warning * 100)});
  }
  if (stats.elapsed_outliers > 0) {
    notes.push_back(
        {fmt::format("{} outlier{}", stats.elapsed_outliers,
                     stats.elapsed_outliers == 1 ? "" : "s"),
         fmt::format(
             "{} of {} runs are outliers in elapsed (modified z-score over {}): kept in the "
             "statistics, but something disturbed them",
             stats.elapsed_outliers, el.n, options.outlier_threshold)});
  }
  if (g.cache.off > 0) {
    const bool cold = g.cache.mode == "cold";
    notes.push_back(
        {fmt::format("cache not {}", g.cache.mode),
         fmt::format("cache {}, but {} of {} runs started with {} of the input in the page cache "
                     "(as much as {:.1f} %; a {} run needs {} {:.0f} %): their times are not "
                     "{}-cache times",
                     g.cache.mode, g.cache.off, g.cache.checked, cold ? "more" : "less",
                     g.cache.worst_pct, g.cache.mode, cold ? "at most" : "at least",
                     cold ? runfile::kColdMaxCachePct : runfile::kWarmMinCachePct, g.cache.mode)});
  }
  return notes;
}

void attach_recorded_warnings(ReportModel& model, const std::vector<std::string>& lines) {
  std::vector<std::string> tests = model.tests;
  std::stable_sort(tests.begin(), tests.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const std::string& line : lines) {
    const auto named = std::find_if(tests.begin(), tests.end(), [&](const std::string& t) {
      return line.rfind(t + ": ", 0) == 0 || line.rfind(t + " on ", 0) == 0;
    });
    if (named == tests.end()) {
      model.run_warnings.push_back(line);
      continue;
    }
    // "TEST on INPUT (SINK sink, ...)": that row only; "TEST: ...": every row of the test.
    const std::string place = line.substr(named->size());
    bool attached = false;
    for (auto& section : model.sections) {
      const bool here =
          place.rfind(": ", 0) == 0 ||
          place.rfind(fmt::format(" on {} ({} sink", section->input, section->sink), 0) == 0;
      for (auto& row : section->rows) {
        if (!here || row.test != *named) continue;
        row.notes.push_back({"warned in the run", line});
        attached = true;
      }
    }
    if (!attached) model.run_warnings.push_back(line);
  }
}

ReportModel build_report_model(const std::vector<std::filesystem::path>& files,
                               const std::string& baseline) {
  std::vector<runfile::WrittenRun> runs;
  runs.reserve(files.size());
  for (const auto& file : files) {
    if (file == "-") {
      throw Error(
          "report: reads run files by name, not standard input (the meta file beside "
          "each is part of the report)");
    }
    runs.push_back(runfile::load_written_run(file));
  }
  return build_report_model(runs, baseline);
}

ReportModel build_report_model(const std::vector<runfile::WrittenRun>& runs,
                               const std::string& baseline) {
  ReportModel model;
  // The figure bench's terminal shows (elapsed_figure.hpp): the same runs, the same verdicts.
  model.set = group_runs(runs);
  model.figure = elapsed_figure_of(runs);
  model.set = in_figure(model.set, model.figure);
  model.records = records_of(runs, model.run_warnings);
  model.baseline = choose_baseline(baseline, model.records);
  model.summary_options.baseline_named_by =
      baseline.empty() ? "the config's baseline" : "--baseline";
  model.split_note = split_note(model.set, false);
  std::vector<std::vector<std::string>> places;  // every key but the test
  for (const auto& group : model.set.groups) {
    if (std::find(model.tests.begin(), model.tests.end(), group.key[0]) == model.tests.end()) {
      model.tests.push_back(group.key[0]);
    }
    const std::vector<std::string> place(group.key.begin() + 1, group.key.end());
    if (std::find(places.begin(), places.end(), place) == places.end()) places.push_back(place);
  }
  if (!baseline.empty() &&
      std::find(model.tests.begin(), model.tests.end(), baseline) == model.tests.end()) {
    throw Error(fmt::format("--baseline {}: no such test in the run files", baseline));
  }
  const auto texts = named_texts(runs);
  const auto context_switches = context_switches_of(texts);
  const auto others = others_during_runs_of(texts);
  for (const auto& place : places) {
    model.sections.push_back(build_section(model, place, context_switches, others));
  }
  std::vector<std::string> lines;
  for (const auto& record : model.records) record_warnings(record, model.run_warnings, lines);
  attach_recorded_warnings(model, lines);
  return model;
}

}  // namespace iobench::report
