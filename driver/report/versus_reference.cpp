#include "driver/report/versus_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>

#include "common/error.hpp"
#include "driver/runfile/base_twin.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::report {

namespace {

bool comparable(const report::Row& row) {
  return row.ratio > 0 && std::isfinite(row.ratio);
}

}  // namespace

std::string interval_phrase(const report::Row& row) {
  if (!comparable(row)) return "no comparison (no time to divide by)";
  std::string phrase = factor_phrase(row);
  const bool interval = row.ci && row.ci->low > 0;
  phrase += p_phrase(row.p_value);
  if (row.verdict == report::Verdict::kTooFewRuns) return "too few runs to judge (" + phrase + ")";
  const bool holds_one = interval && row.ci->low <= 1 && row.ci->high >= 1;
  if (row.verdict == report::Verdict::kNoChange || holds_one) {
    return "no significant difference (" + phrase + ")";
  }
  return phrase;
}

const RuleDecision* decision_for(const VersusReference& versus, const report::Row& row) {
  for (const RuleDecision& decision : versus.decisions) {
    if (row.key.size() == 3 && decision.test == row.key[0] && decision.input == row.key[1] &&
        decision.sink == row.key[2])
      return &decision;
  }
  return nullptr;
}

std::optional<report::Row> rule_row(const report::Row& row, const RuleDecision* decision) {
  if (decision == nullptr || !decision->result.interval ||
      !(decision->result.estimate > 0 && std::isfinite(decision->result.estimate)))
    return std::nullopt;
  report::Row judged = row;
  judged.ratio = decision->result.estimate;
  judged.ci = decision->result.interval;
  return judged;
}

report::Row as_judged(const report::Row& row, const RuleDecision* decision) {
  return rule_row(row, decision).value_or(row);
}

bool significant(const report::Row& row, const RuleDecision* decision) {
  if (decision != nullptr) return decision->result.decision == stats::Decision::kDifferent;
  // As interval_phrase says "no significant difference".
  const bool holds_one = row.ci && row.ci->low > 0 && row.ci->low <= 1 && row.ci->high >= 1;
  return (row.verdict == report::Verdict::kSlower || row.verdict == report::Verdict::kFaster) &&
         !holds_one;
}

namespace {

std::string cell_phrase(const report::Row& row) {
  if (row.key.size() != 3) return fmt::format("'{}'", fmt::join(row.key, ", "));
  return util::cell_name(row.key[0], row.key[1], row.key[2], true);
}

// "decided: different after 8 runs, sequential rule on round pairs", "budget of 54 runs spent,
// undecided, sequential rule", "Mann-Whitney U, p = 0.004".
std::string judged_by(const report::Row& row, const RuleDecision* decision) {
  if (decision == nullptr) return "Mann-Whitney U" + p_phrase(row.p_value);
  return fmt::format("{}, {}", report::decision_phrase(decision->result, decision->plan),
                     rule_name(decision->plan));
}

// The line of a gate with nothing to judge, in its command's words.
std::string nothing_to_judge(const VersusReference& versus, double pct, const GateOf& of) {
  if (versus.each_against_its_twin) {
    return fmt::format(
        "--fail-if-slower {:g}: no {} to judge against its base build twin (each "
        "needs ok runs, and its twin NAME@base ok runs, on the same input and sink)",
        pct, of.subject);
  }
  const bool bench = of.subject == GateOf{}.subject;
  if (!bench && versus.reference.empty()) {
    return fmt::format(
        "--fail-if-slower {:g}: no {} to judge: without --versus each is judged against the "
        "config's \"baseline\", and it names none",
        pct, of.subject);
  }
  return fmt::format(
      "--fail-if-slower {:g}: no {} to judge against '{}' (it needs two {}s or more, "
      "{}, with ok runs on the same input and sink)",
      pct, of.subject, versus.reference, of.subject,
      bench ? "the first the reference" : "one of them the baseline");
}

// The candidates whose base twin was left out, every run of it disturbed: no row judges them.
void add_left_out(const VersusReference& versus, const GateOf& of, Gate& gate) {
  for (const MissingReference& missing : versus.missing) {
    if (!missing.every_run_disturbed) continue;
    gate.cells.push_back(
        {missing.place, GateVerdict::kNotJudged, std::nullopt, std::nullopt, "",
         fmt::format(
             "{} against '{}': not judged: every run of its base build's twin was disturbed, "
             "so none is ok to compare with; a quieter machine or more runs would tell "
             "({})",
             missing.place, versus.reference, of.more_runs)});
  }
}

}  // namespace

Gate fail_if_slower(const VersusReference& versus, double pct, const GateOf& of) {
  Gate gate{versus.reference, pct, {}, of.made_by, of.subject};
  const double allowed = 1 + pct / 100;
  for (const report::Row& row : versus.result.rows) {
    const RuleDecision* decision = decision_for(versus, row);
    // Judged on the figures the decision was made on: the rule's estimate and interval.
    const report::Row judged = as_judged(row, decision);
    GateCell cell{cell_phrase(row),
                  GateVerdict::kPassed,
                  std::nullopt,
                  decision != nullptr ? decision->result.interval : row.ci,
                  judged_by(row, decision),
                  ""};
    if (comparable(judged)) cell.ratio = judged.ratio;
    const bool slower = decision != nullptr ? cell.interval && cell.interval->low > 1
                                            : row.verdict == report::Verdict::kSlower;
    const std::string factor = comparable(judged) ? factor_phrase(judged) : "no factor";
    if (slower && significant(row, decision) && judged.ratio > allowed) {
      cell.verdict = GateVerdict::kSlower;
      cell.line =
          fmt::format("{} is {} against '{}', more than the {:g} % --fail-if-slower allows ({})",
                      cell.cell, factor, versus.reference, pct, cell.judged_by);
    } else if (!cell.interval || !(cell.interval->high <= allowed)) {
      cell.verdict = GateVerdict::kNotJudged;
      cell.line = fmt::format(
          "{} against '{}': cannot rule out a slowdown of more than {:g} %: {}{} ({}); more runs "
          "would tell ({})",
          cell.cell, versus.reference, pct, factor,
          cell.interval ? "" : ", too few runs for an interval", cell.judged_by, of.more_runs);
    } else {
      cell.line =
          fmt::format("{} is {} against '{}', within the {:g} % --fail-if-slower allows ({})",
                      cell.cell, factor, versus.reference, pct, cell.judged_by);
    }
    gate.cells.push_back(std::move(cell));
  }
  add_left_out(versus, of, gate);
  // A gate with nothing to judge (one command, or a reference without an ok run) is not green.
  if (gate.cells.empty()) {
    gate.cells.push_back({"", GateVerdict::kNotJudged, std::nullopt, std::nullopt, "",
                          nothing_to_judge(versus, pct, of)});
  }
  return gate;
}

std::vector<std::string> gate_lines(const Gate& gate, GateVerdict verdict) {
  std::vector<std::string> lines;
  for (const GateCell& cell : gate.cells) {
    if (cell.verdict == verdict) lines.push_back(cell.line);
  }
  return lines;
}

int gate_exit_status(const Gate& gate) {
  const auto any = [&gate](GateVerdict verdict) {
    return std::any_of(gate.cells.begin(), gate.cells.end(),
                       [verdict](const GateCell& cell) { return cell.verdict == verdict; });
  };
  if (any(GateVerdict::kSlower)) return kExitRunFailed;
  return any(GateVerdict::kNotJudged) ? kExitNotJudged : kExitOk;
}

std::string decision_phrase(const report::Row& row, const RuleDecision& decision) {
  const std::string rule =
      fmt::format("({}, alpha {:g} overall)", rule_name(decision.plan), decision.plan.alpha);
  const report::Row judged = as_judged(row, &decision);
  const std::string factor =
      comparable(judged) ? factor_phrase(judged) : std::string("no time to divide by");
  const stats::SequentialResult& result = decision.result;
  switch (result.decision) {
    case stats::Decision::kDifferent:
      return fmt::format("{}, decided different after {} runs {}", factor, result.runs, rule);
    case stats::Decision::kEquivalent:
      return fmt::format("equivalent within ±{:g} % ({}), decided after {} runs {}",
                         decision.plan.margin * 100, factor, result.runs, rule);
    case stats::Decision::kBudget:
    case stats::Decision::kContinue:
      break;
  }
  // The rule did not stop it: the runs all ran, so the fixed-n test's figures stand beside the
  // rule's word that they decided nothing.
  return fmt::format("{}; {}: {} (alpha {:g} overall)", interval_phrase(row),
                     rule_name(decision.plan), report::decision_phrase(result, decision.plan),
                     decision.plan.alpha);
}

VersusReference compare_with_reference(const runfile::RunSet& set, const std::string& reference,
                                       const report::CompareOptions& options,
                                       std::vector<RuleDecision> decisions) {
  VersusReference versus;
  versus.reference = reference;
  versus.decisions = std::move(decisions);
  versus.result.group_by = {"test", "input", "sink"};
  versus.result.alpha = options.alpha;
  versus.result.confidence = options.confidence;
  // The reference side: its groups keyed (input, sink).
  runfile::RunSet base;
  base.group_by = {"input", "sink"};
  std::vector<std::string> tests;
  for (const auto& group : set.groups) {
    // Disturbed runs show their figures, marked, but are not compared: a verdict on them would
    // read as one on the machine's quiet time.
    if (group.from_disturbed_runs) continue;
    if (group.key[0] == reference) {
      runfile::Group g = group;
      g.key = {group.key[1], group.key[2]};
      base.groups.push_back(std::move(g));
    } else if (std::find(tests.begin(), tests.end(), group.key[0]) == tests.end()) {
      tests.push_back(group.key[0]);
    }
  }
  for (const auto& group : set.groups) {
    if (group.key[0] == reference && group.ok_runs() == 0)
      versus.missing.push_back(
          {fmt::format("{}{} sink", group.key[1].empty() ? "" : group.key[1] + ", ",
                       group.key[2])});  // no empty input named
  }
  for (const auto& test : tests) {
    runfile::RunSet candidate;
    candidate.group_by = base.group_by;
    for (const auto& group : set.groups) {
      if (group.key[0] != test) continue;
      runfile::Group g = group;
      g.key = {group.key[1], group.key[2]};
      candidate.groups.push_back(std::move(g));
    }
    report::Result one = report::compare(base, candidate, options);
    versus.result.metric = one.metric;
    for (auto& row : one.rows) {
      row.key.insert(row.key.begin(), test);
      versus.result.rows.push_back(std::move(row));
    }
  }
  return versus;
}

VersusReference compare_with_base_twins(const runfile::RunSet& set,
                                        std::vector<RuleDecision> decisions) {
  VersusReference versus;
  versus.reference = "base build";
  versus.each_against_its_twin = true;
  versus.decisions = std::move(decisions);
  runfile::RunSet base;
  runfile::RunSet candidate;
  base.group_by = candidate.group_by = versus.result.group_by = {"test", "input", "sink"};
  for (const auto& group : set.groups) {
    const std::optional<std::string> candidate_name = runfile::candidate_of_base_twin(group.key[0]);
    const bool twin = candidate_name.has_value();
    runfile::Group g = group;
    if (twin) g.key[0] = *candidate_name;
    if (twin && (group.ok_runs() == 0 || group.from_disturbed_runs)) {
      versus.missing.push_back(
          {util::cell_name(g.key[0], g.key[1], g.key[2], true), group.from_disturbed_runs});
    }
    // As compare_with_reference: a disturbed twin is named above, and left out.
    if (group.from_disturbed_runs) continue;
    (twin ? base : candidate).groups.push_back(std::move(g));
  }
  versus.result = report::compare(base, candidate, CompareOptions{});
  return versus;
}

void write_versus_reference(const VersusReference& versus, std::ostream& out,
                            const VersusStyle& style) {
  // Rows by input and sink, in the run file's order.
  std::vector<std::pair<std::string, std::string>> places;
  std::map<std::pair<std::string, std::string>, std::vector<const report::Row*>> rows;
  for (const auto& row : versus.result.rows) {
    const auto place = std::make_pair(row.key[1], row.key[2]);
    if (rows.count(place) == 0) places.push_back(place);
    rows[place].push_back(&row);
  }
  if (style.by_time) {
    for (auto& [place, list] : rows) {
      std::stable_sort(list.begin(), list.end(), [](const report::Row* a, const report::Row* b) {
        return a->new_median < b->new_median;
      });
    }
  }
  std::size_t width = 0;
  for (const auto& row : versus.result.rows)
    width = std::max(width, util::display_width(row.key[0]));
  // Decided comparisons are judged by the rule, whose error rate holds over all its looks; the
  // U test's p would read as that rate (docs/reports.md, "Deciding a comparison").
  std::string judged_by = fmt::format("Mann-Whitney U test, alpha {}", versus.result.alpha);
  if (!versus.decisions.empty()) {
    judged_by += fmt::format(
        "; a comparison the sequential rule stopped is said by its decision, alpha {:g} over all "
        "its looks",
        versus.decisions.front().plan.alpha);
  }
  const bool twins = versus.each_against_its_twin;
  out << fmt::format("Against {} (median over {}, its {:g} % interval in brackets; {}{}):\n",
                     twins ? "the base build" : fmt::format("the reference '{}'", versus.reference),
                     twins ? "its twin's, NAME@base" : "the reference's",
                     versus.result.confidence * 100, judged_by,
                     style.figures.empty() ? "" : "; " + style.figures);
  for (const auto& place : places) {
    const auto& first = *rows[place].front();
    // An input-less run's input column is empty: its place is its sink alone.
    const std::string where = (place.first.empty() ? "" : place.first + ", ") + place.second;
    out << (twins ? fmt::format("  {} sink:\n", where)
                  : fmt::format("  {} sink: '{}' {} median ({} runs)\n", where, versus.reference,
                                format_time(first.base_median, style.time_unit), first.base_n));
    for (const report::Row* row : rows[place]) {
      const std::string& name = row->key[0];
      const RuleDecision* decision = decision_for(versus, *row);
      out << fmt::format(
          "    {}{}  {}{}\n", name, std::string(width - util::display_width(name), ' '),
          twins ? fmt::format("{} from {}: ", format_time(row->new_median, style.time_unit),
                              format_time(row->base_median, style.time_unit))
                : "",
          decision ? decision_phrase(*row, *decision) : interval_phrase(*row));
    }
  }
  for (const MissingReference& missing : versus.missing) {
    out << fmt::format("  {}: {} no ok run to compare with{}\n", missing.place,
                       twins ? "the base build's twin has" : "the reference has",
                       missing.every_run_disturbed ? " (every run disturbed)" : "");
  }
}

}  // namespace iobench::report
