#include "driver/report/html_sections.hpp"

#include <fmt/format.h>

#include <cmath>

#include "driver/report/compare.hpp"
#include "driver/report/html.hpp"
#include "driver/report/plot.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::report {
namespace {

using html::number_cell;
using html::text_cell;
using runfile::Metric;

std::optional<double> known(double value) {
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

html::Cell seconds_cell(double seconds) {
  return number_cell(known(seconds), util::format_seconds(seconds));
}

html::Cell count_cell(std::optional<double> value) {
  return number_cell(value, value ? format_count(*value) : "");
}

html::Cell test_cell(const ReportRow& row, const std::string& reference) {
  html::Cell cell =
      text_cell(row.test, row.stats->is_reference ? "text test reference" : "text test");
  if (row.test == reference) cell.html += R"( <span class="tag">reference</span>)";
  return cell;
}

html::Cell interval_cell(const stats::MedianInterval& ci) {
  if (!std::isfinite(ci.half_width)) return number_cell(std::nullopt, "");
  html::Cell cell = number_cell(ci.half_width_pct, fmt::format("± {:.1f} %", ci.half_width_pct));
  cell.title = fmt::format("{} – {}", util::format_seconds(ci.median - ci.half_width),
                           util::format_seconds(ci.median + ci.half_width));
  return cell;
}

html::Cell versus_cell(const ReportRow& row) {
  if (!row.versus) {
    return text_cell(row.stats->is_reference ? "reference" : "-", "text verdict");
  }
  const report::Row& v = *row.versus;
  const char* css = v.verdict == report::Verdict::kFaster   ? "verdict faster"
                    : v.verdict == report::Verdict::kSlower ? "verdict slower"
                                                            : "verdict same";
  html::Cell cell = number_cell(known(v.ratio), report::verdict_phrase(v));
  cell.css_class = css;
  if (v.ci) {
    cell.title = fmt::format("ratio {:.4f}, 95 % interval [{:.4f}, {:.4f}]; {} vs {} runs", v.ratio,
                             v.ci->low, v.ci->high, v.new_n, v.base_n);
  }
  return cell;
}

html::Cell notes_cell(const std::vector<Note>& notes) {
  html::Cell cell = text_cell("", "text notes");
  for (const Note& note : notes) {
    cell.html += fmt::format(R"(<span class="note" title="{}">{}</span> )",
                             util::escape_markup(note.text), util::escape_markup(note.label));
  }
  return cell;
}

html::Table times_table(const ReportSection& section) {
  html::Table table;
  table.css_class = "sortable times";
  table.caption = "Times, verdicts and warnings (click a column to sort)";
  table.columns = {
      {"test", "the strategy", true},
      {"n", "ok runs: the figures' sample", false},
      {"median", "elapsed median", false},
      {"95 % CI", "the median's 95 % interval, as a share of it (hover: the bounds)", false},
      {"min", "fastest run", false},
      {"max", "slowest run", false},
      {"user", "user CPU median", false},
      {"system", "system CPU median", false},
      {"cpu", "cpu % median", false},
      {"max RSS", "median of the largest process's max RSS", false},
      {"MB/s", "input size / elapsed median", false},
      {"against the reference",
       "elapsed median / the reference's, ± half its 95 % interval, U test; sorts by the ratio",
       false},
      {"p", "two-sided p-value of the U test", false},
      {"warnings", "what to check before trusting the row", true}};
  for (const ReportRow& row : section.rows) {
    const report::GroupStats& gs = *row.stats;
    const auto& el = gs.metric(Metric::kElapsed);
    const bool runs = el.n > 0;
    const auto cpu = gs.metric(Metric::kCpuPct).median;
    const auto mem = gs.metric(Metric::kMem).median;
    html::TableRow tr{row.test, {}};
    tr.cells = {test_cell(row, section.reference),
                number_cell(static_cast<double>(el.n), std::to_string(el.n)),
                seconds_cell(runs ? el.median : NAN),
                interval_cell(gs.elapsed_ci95),
                seconds_cell(runs ? el.min : NAN),
                seconds_cell(runs ? el.max : NAN),
                seconds_cell(runs ? gs.metric(Metric::kUser).median : NAN),
                seconds_cell(runs ? gs.metric(Metric::kSystem).median : NAN),
                number_cell(runs ? known(cpu) : std::nullopt, fmt::format("{:.0f} %", cpu)),
                number_cell(runs ? known(mem) : std::nullopt, util::format_kib(mem)),
                number_cell(gs.mb_per_s, gs.mb_per_s ? fmt::format("{:.1f}", *gs.mb_per_s) : ""),
                versus_cell(row),
                number_cell(row.versus ? row.versus->p_value : std::nullopt,
                            row.versus && row.versus->p_value ? p_text(*row.versus->p_value) : ""),
                notes_cell(row.notes)};
    table.rows.push_back(std::move(tr));
  }
  return table;
}

html::Table counters_table(const ReportSection& section) {
  html::Table table;
  table.css_class = "sortable counters";
  table.caption = "Context switches, kernel counters and what they explain (medians per run)";
  table.columns = {
      {"test", "the strategy", true},
      {"voluntary cs", "voluntary context switches (nvcsw): waits for I/O or a pipe", false},
      {"involuntary cs", "involuntary context switches (nivcsw): preempted", false}};
  const std::vector<Metric> counters = section.set.counter_metrics();
  for (const Metric m : counters) {
    table.columns.push_back({std::string(metric_name(m)), "kernel counter median", false});
  }
  if (!counters.empty()) {
    table.columns.push_back({"syscalls/line", "syscalls median / input lines", false});
    table.columns.push_back({"syscalls/MiB", "syscalls median / input MiB", false});
    table.columns.push_back({"instr/byte", "instructions median / input bytes", false});
    table.columns.push_back({"IPC", "instructions / cycles", false});
  }
  for (const ReportRow& row : section.rows) {
    html::TableRow tr{row.test, {text_cell(row.test, "text test")}};
    tr.cells.push_back(count_cell(row.context_switches.voluntary_median));
    tr.cells.push_back(count_cell(row.context_switches.involuntary_median));
    for (const Metric m : counters) {
      const auto& s = row.stats->metric(m);
      tr.cells.push_back(count_cell(s.n > 0 ? known(s.median) : std::nullopt));
    }
    if (!counters.empty()) {
      const report::CounterFigures& f = row.stats->counter_figures;
      const auto figure = [](const std::optional<double>& v, int decimals) {
        return number_cell(v, v ? fmt::format("{:.{}f}", *v, decimals) : "");
      };
      tr.cells.push_back(figure(f.syscalls_per_line, 3));
      tr.cells.push_back(figure(f.syscalls_per_mib, 1));
      tr.cells.push_back(figure(f.instructions_per_byte, 2));
      tr.cells.push_back(figure(f.ipc, 2));
    }
    table.rows.push_back(std::move(tr));
  }
  return table;
}

// One run's chip: its repeat, what it waited for a CPU and what others took, "disturbed" spelled
// out (docs/driver.md, "Disturbance": such a run is out of every figure but where every run of its
// cell was).
std::string run_chip(const OthersDuringRun& run) {
  const bool disturbed = run.status == to_string(runfile::RunStatus::kDisturbed);
  const auto seconds = [](const std::optional<double>& s, const char* none) {
    return s ? util::format_seconds(*s) : std::string(none);
  };
  std::string shown = fmt::format("r{} waited {}", run.repeat, seconds(run.wait_cpu_s, "-"));
  if (run.steal_s && *run.steal_s > 0)
    shown += fmt::format(" + {} steal", seconds(run.steal_s, ""));
  if (disturbed) shown += " disturbed";
  const std::string title = fmt::format(
      "repeat {}, {}, {} elapsed; waited for a CPU {}, steal {}; others' CPU {}", run.repeat,
      run.status, util::format_seconds(run.elapsed_s), seconds(run.wait_cpu_s, "not measured"),
      seconds(run.steal_s, "not measured"), seconds(run.others_cpu_s, "not measured"));
  return fmt::format(R"(<span class="run{}" title="{}">{}</span> )", disturbed ? " disturbed" : "",
                     util::escape_markup(title), util::escape_markup(shown));
}

html::Table disturbance_table(const ReportSection& section) {
  html::Table table;
  table.css_class = "sortable disturbance";
  table.caption =
      "What each run waited for a CPU (its own processes, the rule's figure), the steal, and what "
      "the rest of the machine ran meanwhile: other processes' CPU seconds, as context "
      "(docs/driver.md, \"Disturbance\"); a disturbed run is left out of every figure above "
      "unless every run of its cell was";
  table.columns = {{"test", "the strategy", true},
                   {"runs", "rows with the figures, every status", false},
                   {"disturbed", "runs kept from running (status disturbed)", false},
                   {"waited max", "the longest wait_cpu_s", false},
                   {"others median", "median of others_cpu_s over these runs", false},
                   {"others max", "largest others_cpu_s", false},
                   {"steal max", "largest steal_s", false},
                   {"each run", "repeat and its wait for a CPU, in the order they ran", true}};
  for (const ReportRow& row : section.rows) {
    if (row.others.empty()) continue;
    std::vector<double> others;
    std::vector<double> steal;
    std::vector<double> waited;
    std::size_t disturbed = 0;
    html::Cell chips = text_cell("", "text runs");
    for (const OthersDuringRun& run : row.others) {
      if (run.others_cpu_s) others.push_back(*run.others_cpu_s);
      if (run.steal_s) steal.push_back(*run.steal_s);
      if (run.wait_cpu_s) waited.push_back(*run.wait_cpu_s);
      if (run.status == to_string(runfile::RunStatus::kDisturbed)) ++disturbed;
      chips.html += run_chip(run);
    }
    const auto figure = [](const std::vector<double>& values, bool max) {
      if (values.empty()) return number_cell(std::nullopt, "");
      const double value = max ? stats::max(values) : stats::median(values);
      return number_cell(value, fmt::format("{:.3f} s", value));
    };
    const auto count = [](std::size_t n) {
      return number_cell(static_cast<double>(n), std::to_string(n));
    };
    table.rows.push_back({row.test,
                          {text_cell(row.test, "text test"), count(row.others.size()),
                           count(disturbed), figure(waited, true), figure(others, false),
                           figure(others, true), figure(steal, true), std::move(chips)}});
  }
  return table;
}

std::string notes_list(const ReportSection& section) {
  std::string items;
  for (const ReportRow& row : section.rows) {
    for (const Note& note : row.notes) {
      items += fmt::format(R"(<li data-test="{0}"><b>{0}</b>: {1}</li>)",
                           util::escape_markup(row.test), util::escape_markup(note.text));
      items += '\n';
    }
  }
  if (items.empty()) return "<p class=\"quiet\">No warning about these rows.</p>\n";
  return "<h3>Warnings about these rows</h3>\n<ul class=\"warnings\">\n" + items + "</ul>\n";
}

std::string chart(const ReportSection& section) {
  report::PlotOptions options;
  options.heading = false;
  options.report_marks = true;
  options.baseline = section.summary.baseline;  // the same reference as the table's
  const std::string svg = report::render(section.set, options).svg;
  // Inline in HTML: the SVG element without its XML declaration.
  return "<figure class=\"chart\">" + svg.substr(svg.find("<svg")) + "</figure>\n";
}

}  // namespace

std::string format_count(double value) {
  if (!std::isfinite(value)) return "-";
  const double a = std::fabs(value);
  if (a < 1e4) return fmt::format("{:.0f}", value);
  if (a < 1e6) return fmt::format("{:.1f} k", value / 1e3);
  if (a < 1e9) return fmt::format("{:.2f} M", value / 1e6);
  return fmt::format("{:.2f} G", value / 1e9);
}

std::string section_title(const ReportSection& section) {
  std::string title;
  if (!section.input.empty()) title += "input " + section.input;
  if (!section.sink.empty()) title += (title.empty() ? "sink " : " · sink ") + section.sink;
  for (const auto& [name, value] : section.conditions) {
    title +=
        fmt::format("{}{} {}", title.empty() ? "" : " · ", name, value.empty() ? "unknown" : value);
  }
  return title.empty() ? "(no input or sink column)" : title;
}

std::string render_answers(const ReportModel& model) {
  std::string out = "<section id=\"answer\"><h2>The answer</h2>\n";
  for (std::size_t i = 0; i < model.sections.size(); ++i) {
    const Answer& answer = model.sections[i]->answer;
    out += fmt::format(
        "<p><a href=\"#s{}\">{}</a>: <b>{}</b>.<br>Reference: {}{} ({}); each factor the "
        "Hodges-Lehmann estimate against it, its 95 % interval in brackets.</p>\n",
        i + 1, util::escape_markup(section_title(*model.sections[i])),
        util::escape_markup(answer.claim),
        answer.against_twins ? "each test NAME's base build twin NAME@base; the others " : "",
        util::escape_markup(answer.reference.empty() ? "none" : answer.reference),
        util::escape_markup(answer.reference_why));
    html::Table table{"sortable",
                      "",
                      {{"rank", "", false},
                       {"test", "", true},
                       {"elapsed", "median", false},
                       {"against the reference", "", true}},
                      {}};
    for (std::size_t r = 0; r < answer.ranked.size(); ++r) {
      const AnswerEntry& e = answer.ranked[r];
      std::string factor = answer_factor(e);
      if (e.versus && e.reference != answer.reference) factor += " than " + e.reference;
      table.rows.push_back({e.test,
                            {html::number_cell(static_cast<double>(r + 1), std::to_string(r + 1)),
                             html::text_cell(marked_test(e.test, *e.runs)),
                             html::number_cell(e.median_s, util::format_seconds(e.median_s)),
                             html::text_cell(factor)}});
    }
    out += html::render_table(table);
  }
  return out + "</section>\n";
}

std::string render_section(const ReportSection& section, std::size_t index) {
  std::string out = fmt::format(R"(<section class="place" id="s{}">)", index);
  out += "\n<h2>" + util::escape_markup(section_title(section)) + "</h2>\n";
  out += section.reference.empty()
             ? std::string("<p>No test has a successful run here: nothing to compare.</p>\n")
             : fmt::format(
                   "<p>{} tests, {} runs. Verdicts against <b>{}</b>, {} (Mann-Whitney U test, "
                   "alpha 0.05; the ratio's 95 % interval in brackets).</p>\n",
                   section.rows.size(), section.set.rows, util::escape_markup(section.reference),
                   util::escape_markup(section.answer.reference_why));
  if (section.sink == "null") {
    out +=
        "<p class=\"quiet\">null sink: nobody can see what a program writes to /dev/null (a "
        "program may detect it and skip the work), so these tests were verified through their "
        "unrecorded pipe run only.</p>\n";
  }
  out += chart(section);
  out += html::render_table(times_table(section));
  out += notes_list(section);
  out += html::render_table(counters_table(section));
  if (const html::Table disturbance = disturbance_table(section); !disturbance.rows.empty()) {
    out += html::render_table(disturbance);
  }
  return out + "</section>\n";
}

}  // namespace iobench::report
