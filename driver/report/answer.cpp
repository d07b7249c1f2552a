#include "driver/report/answer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string_view>

#include "driver/report/reference.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/util/format.hpp"
#include "driver/util/json.hpp"

namespace iobench::report {
namespace {

using runfile::Metric;

const std::vector<double>& elapsed_of(const Summary& summary, std::size_t group) {
  return summary.groups[group].group->metric(Metric::kElapsed);
}

// compare_samples, unless the pairs of runs are too many to list (the interval sorts all m * n
// ratios: 20,000 runs a side would be 3.2 GB): then the ratio of medians, without an interval.
Row versus_reference(const std::vector<double>& reference, const std::vector<double>& runs) {
  if (reference.size() * runs.size() <= kMostPairsCompared) return compare_samples(reference, runs);
  Row row;
  row.base_n = reference.size();
  row.new_n = runs.size();
  row.base_median = stats::median(reference);
  row.new_median = stats::median(runs);
  row.ratio = row.new_median / row.base_median;
  return row;
}

bool too_many_pairs(const Row& row) {
  return row.base_n * row.new_n > kMostPairsCompared;
}

// Why a factor has no interval.
std::string no_interval_why(const Row& row) {
  return too_many_pairs(row) ? "the ratio of medians: too many runs for the pairwise interval"
                             : "too few runs for a 95 % interval";
}

std::string why_of(const Summary& summary, const GroupStats& reference_holder) {
  if (reference_holder.reference_rule == ReferenceRule::kBaseline) return summary.baseline_named_by;
  return "the fastest";
}

// Fastest first by elapsed median; groups without an ok run last, in the set's order.
std::vector<AnswerEntry> ranked_entries(const Summary& summary, const Peers& peers,
                                        std::size_t test_key) {
  std::vector<AnswerEntry> ranked;
  for (std::size_t i : peers.members) {
    const GroupStats& g = summary.groups[i];
    AnswerEntry entry{i,
                      g.group,
                      g.group->key[test_key],
                      g.metric(Metric::kElapsed).n,
                      g.metric(Metric::kElapsed).median,
                      "",
                      std::nullopt};
    if (g.reference && *g.reference != i) {
      entry.reference = summary.set->groups[*g.reference].key[test_key];
      if (entry.n > 0 && !g.group->from_disturbed_runs)
        entry.versus = versus_reference(elapsed_of(summary, *g.reference), elapsed_of(summary, i));
    }
    ranked.push_back(std::move(entry));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const AnswerEntry& a, const AnswerEntry& b) {
    if ((a.n > 0) != (b.n > 0)) return a.n > 0;
    return a.n > 0 && a.median_s < b.median_s;
  });
  return ranked;
}

std::string marked(const Summary& summary, const AnswerEntry& entry) {
  return marked_test(entry.test, *summary.groups[entry.group].group);
}

// "F is 2.10× faster [2.00, 2.20] than R here"; "F and R cannot be told apart here (...)" when
// the interval holds 1; the interval's absence said.
std::string pair_claim(const std::string& fastest, const std::string& other, const Row& row,
                       std::string_view other_is) {
  const std::string factor = factor_phrase(row);
  if (!row.ci || !(row.ci->low > 0)) {
    return fmt::format("{} is {} than {}{} here ({})", fastest, factor, other, other_is,
                       no_interval_why(row));
  }
  if (row.ci->low <= 1 && row.ci->high >= 1) {
    return fmt::format("{} and {}{} cannot be told apart here ({})", fastest, other, other_is,
                       factor);
  }
  return fmt::format("{} is {} than {}{} here", fastest, factor, other, other_is);
}

std::string claim_of(const Summary& summary, const Answer& answer) {
  const auto with_runs = std::count_if(answer.ranked.begin(), answer.ranked.end(),
                                       [](const AnswerEntry& e) { return e.n > 0; });
  if (with_runs == 0) return "no strategy has an ok run here";
  const AnswerEntry& fastest = answer.ranked.front();
  std::string claim;
  if (with_runs == 1) {
    claim = fmt::format("{} is the only strategy with an ok run here", marked(summary, fastest));
  } else if (fastest.versus) {
    const std::size_t reference = *summary.groups[fastest.group].reference;
    claim = pair_claim(marked(summary, fastest),
                       marked_test(fastest.reference, *summary.groups[reference].group),
                       *fastest.versus, "");
  } else if (!fastest.reference.empty()) {
    claim = fmt::format("{} is the fastest here, but its runs were all disturbed: not compared",
                        marked(summary, fastest));
  } else {
    // The fastest is the reference: against the next.
    const AnswerEntry& next = answer.ranked[1];
    const Row row =
        versus_reference(elapsed_of(summary, next.group), elapsed_of(summary, fastest.group));
    claim = pair_claim(marked(summary, fastest), marked(summary, next), row, ", the next fastest,");
  }
  if (with_runs == 1) return claim;
  const std::size_t within = answer.within_of_fastest.size();
  if (within == 0)
    return claim + fmt::format("; no other is within {:g} % of it", kWithinOfFastest * 100);
  return claim + fmt::format("; {} other{} within {:g} % of the fastest ({})", within,
                             within == 1 ? " is" : "s are", kWithinOfFastest * 100,
                             fmt::join(answer.within_of_fastest, ", "));
}

// The columns an answer names: input and sink, and any other whose value differs between the
// groups (a host column of one host says nothing; `run`'s own grouping has none).
std::vector<bool> named_columns(const runfile::RunSet& set) {
  std::vector<bool> named(set.group_by.size(), false);
  for (std::size_t k = 0; k < set.group_by.size(); ++k) {
    named[k] = set.group_by[k] == "input" || set.group_by[k] == "sink" ||
               std::any_of(set.groups.begin(), set.groups.end(), [&](const runfile::Group& g) {
                 return g.key[k] != set.groups.front().key[k];
               });
  }
  return named;
}

Answer answer_of(const Summary& summary, const Peers& peers, std::size_t test_key,
                 const std::vector<bool>& named) {
  const runfile::RunSet& set = *summary.set;
  Answer answer;
  std::size_t k = 0;
  for (std::size_t column = 0; column < set.group_by.size(); ++column) {
    if (column == test_key) continue;
    if (named[column] && !peers.key[k].empty())
      answer.conditions.emplace_back(set.group_by[column], peers.key[k]);
    ++k;
  }
  answer.ranked = ranked_entries(summary, peers, test_key);
  for (std::size_t i : peers.members) {
    const GroupStats& g = summary.groups[i];
    if (g.reference_rule == ReferenceRule::kBaseTwin) {
      answer.against_twins = true;
    } else if (g.reference && answer.reference.empty()) {
      answer.reference = set.groups[*g.reference].key[test_key];
      answer.reference_why = why_of(summary, g);
    }
  }
  const AnswerEntry& first = answer.ranked.front();
  if (first.n > 0) {
    answer.fastest = first.test;
    for (const AnswerEntry& e : answer.ranked) {
      if (&e != &first && e.n > 0 && e.median_s <= first.median_s * (1 + kWithinOfFastest))
        answer.within_of_fastest.push_back(e.test);
    }
  }
  answer.claim = claim_of(summary, answer);
  return answer;
}

}  // namespace

std::vector<Answer> answers(const Summary& summary) {
  const std::size_t test_key = summary.set->key_index("test");
  std::vector<Answer> out;
  if (test_key == std::string_view::npos) return out;
  const std::vector<bool> named = named_columns(*summary.set);
  for (const Peers& peers : peer_sets(*summary.set))
    out.push_back(answer_of(summary, peers, test_key, named));
  return out;
}

std::string answer_where(const Answer& answer) {
  if (answer.conditions.empty()) return "all runs";
  std::vector<std::string> parts;
  for (const auto& [column, value] : answer.conditions)
    parts.push_back(fmt::format("{} {}", column, value));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string answer_factor(const AnswerEntry& entry) {
  if (entry.n == 0) return "no ok run";
  if (entry.reference.empty()) return "reference";
  if (!entry.versus) return "disturbed, not compared";
  const Row& row = *entry.versus;
  // An interval that holds 1 says the two cannot be told apart, whichever way the estimate leans.
  const bool holds_one = row.ci && row.ci->low > 0 && row.ci->low <= 1 && row.ci->high >= 1;
  if (too_many_pairs(row)) return factor_phrase(row) + " (" + no_interval_why(row) + ")";
  return factor_phrase(row) + (holds_one ? ", not told apart" : "");
}

void write_answers(const std::vector<Answer>& answers, Format format, std::size_t top_rows,
                   const std::string& all_rows_hint, std::ostream& out) {
  const bool markdown = format == Format::kMarkdown;
  for (const Answer& answer : answers) {
    const std::string line =
        fmt::format("The answer ({}): {}.", answer_where(answer), answer.claim);
    out << (markdown ? "**The answer**" + line.substr(10) + "\n\n" : line + "\n");
    std::string reference = answer.reference.empty()
                                ? std::string("none (no ok run)")
                                : fmt::format("{} ({})", answer.reference, answer.reference_why);
    if (answer.against_twins)
      reference.insert(0, "each test NAME's base build twin NAME@base; the others ");
    out << (markdown ? "" : "  ") << "reference: " << reference
        << "; each factor is the Hodges-Lehmann estimate against it, its 95 % interval in "
           "brackets\n"
        << (markdown ? "\n" : "");
    Table table{
        {"rank", "test", "elapsed", "against the reference"}, {true, false, true, false}, {}};
    const std::size_t shown =
        top_rows == 0 ? answer.ranked.size() : std::min(top_rows, answer.ranked.size());
    for (std::size_t r = 0; r < shown; ++r) {
      const AnswerEntry& e = answer.ranked[r];
      std::string factor = answer_factor(e);
      if (e.versus && e.reference != answer.reference) factor += " than " + e.reference;
      table.rows.push_back({std::to_string(r + 1), marked_test(e.test, *e.runs),
                            util::format_seconds(e.median_s), factor});
    }
    write_table(table, format, out);
    if (shown < answer.ranked.size()) {
      out << fmt::format("… and {} more ({})\n", util::with_thousands(answer.ranked.size() - shown),
                         all_rows_hint);
    }
    out << '\n';
  }
}

nlohmann::ordered_json answers_json(const std::vector<Answer>& answers) {
  using Json = nlohmann::ordered_json;
  Json list = Json::array();
  for (const Answer& answer : answers) {
    Json conditions = Json::object();
    for (const auto& [column, value] : answer.conditions) conditions[column] = value;
    Json ranked = Json::array();
    for (const AnswerEntry& e : answer.ranked) {
      Json entry;
      entry["test"] = e.test;
      entry["marks"] = group_marks(*e.runs);
      entry["n"] = e.n;
      entry["median"] = util::number_or_null(e.median_s);
      entry["reference"] = e.reference.empty() ? Json() : Json(e.reference);
      entry["ratio"] = e.versus ? util::number_or_null(e.versus->ratio) : Json();
      const bool interval = e.versus && e.versus->ci;
      entry["ci_low"] = interval ? util::number_or_null(e.versus->ci->low) : Json();
      entry["ci_high"] = interval ? util::number_or_null(e.versus->ci->high) : Json();
      entry["factor"] = answer_factor(e);
      ranked.push_back(std::move(entry));
    }
    Json one;
    one["conditions"] = std::move(conditions);
    one["reference"] = answer.reference.empty() ? Json() : Json(answer.reference);
    one["reference_is"] = answer.reference_why;
    one["each_against_its_base_twin"] = answer.against_twins;
    one["fastest"] = answer.fastest.empty() ? Json() : Json(answer.fastest);
    one["claim"] = answer.claim;
    one["within_2pct_of_fastest"] = answer.within_of_fastest;
    one["ranked"] = std::move(ranked);
    list.push_back(std::move(one));
  }
  return list;
}

}  // namespace iobench::report
