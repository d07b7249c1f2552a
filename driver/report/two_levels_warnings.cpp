#include "driver/report/two_levels_warnings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "driver/runfile/rows.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/stats/two_levels.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::report {
namespace {

// A figure another column moved by, at the split that elapsed moved at, when its own two-sample
// t there is at least this: one test at a given split, not the best of many, so a p of about
// 0.01 to 0.02 at 8 degrees of freedom.
constexpr double kCompanionMinT = 3;
constexpr std::size_t kCompanionMinRuns = 2;  // a side

struct Companion {
  std::string name;         // as the warning names it
  std::string_view column;  // in the run file (a name of the schema's)
  bool seconds = true;      // else a count
  std::function<std::optional<double>(const runfile::RunRow&)> value;
};

struct Cell {
  std::string test, input, sink;
  std::vector<int> repeats;
  std::vector<double> elapsed_s;
  std::vector<std::vector<std::optional<double>>> companions;  // per companion, per ok run
};

template <typename T>
std::optional<double> as_double(const std::optional<T>& value) {
  if (!value) return std::nullopt;
  return static_cast<double>(*value);
}

std::vector<Companion> companions_of(const runfile::RunColumns& columns) {
  std::vector<Companion> all{{"others' CPU", runfile::column("others_cpu_s"), true,
                              [](const runfile::RunRow& r) { return r.others_cpu_s; }},
                             {"user", runfile::column("user"), true,
                              [](const runfile::RunRow& r) { return std::optional(r.user_s); }},
                             {"system", runfile::column("system"), true,
                              [](const runfile::RunRow& r) { return std::optional(r.system_s); }},
                             {"voluntary context switches", runfile::column("nvcsw"), false,
                              [](const runfile::RunRow& r) { return as_double(r.nvcsw); }},
                             {"involuntary context switches", runfile::column("nivcsw"), false,
                              [](const runfile::RunRow& r) { return as_double(r.nivcsw); }}};
  for (std::size_t c = 0; c < runfile::kCounterCount; ++c) {
    const std::string_view column = column_name(static_cast<runfile::Counter>(c));
    all.push_back({std::string(column), column, false,
                   [c](const runfile::RunRow& r) { return as_double(r.counters[c]); }});
  }
  std::vector<Companion> present;
  for (Companion& companion : all) {
    if (columns.has(companion.column)) present.push_back(std::move(companion));
  }
  return present;
}

std::string figure(double value, bool seconds) {
  return seconds ? util::format_seconds(value) : fmt::format("{:.4g}", value);
}

// "others' CPU 0 µs → 30.0 ms" when the companion moved at the split, "" when it held.
std::string moved(const Companion& companion, const std::vector<std::optional<double>>& values,
                  std::size_t split) {
  std::vector<double> first;
  std::vector<double> second;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i]) (i < split ? first : second).push_back(*values[i]);
  }
  if (first.size() < kCompanionMinRuns || second.size() < kCompanionMinRuns) return "";
  std::vector<double> both = first;
  both.insert(both.end(), second.begin(), second.end());
  const double before = stats::median(first);
  const double after = stats::median(second);
  if (before == after || stats::split_t(both, first.size()) < kCompanionMinT) return "";
  return fmt::format("{} {} → {}", companion.name, figure(before, companion.seconds),
                     figure(after, companion.seconds));
}

std::string level(const Cell& cell, std::size_t from, std::size_t to) {
  const std::span<const double> times(cell.elapsed_s.data() + from, to - from);
  return fmt::format("{} over runs {}–{} (repeats {}–{}; {} to {})",
                     util::format_seconds(stats::median(times)), from + 1, to, cell.repeats[from],
                     cell.repeats[to - 1], util::format_seconds(stats::min(times)),
                     util::format_seconds(stats::max(times)));
}

std::string warning(const Cell& cell, std::size_t split, const std::vector<Companion>& companions) {
  // "TEST on INPUT (SINK sink)", as the run's other warnings about a row name it, so the report
  // puts it beside that row (html_model.hpp, attach_recorded_warnings).
  std::string line = fmt::format("{}: its ok runs fell into two levels, {}, then {}",
                                 util::cell_name(cell.test, cell.input, cell.sink, false),
                                 level(cell, 0, split), level(cell, split, cell.elapsed_s.size()));
  std::vector<std::string> with_it;
  std::vector<std::string> steady;
  for (std::size_t c = 0; c < companions.size(); ++c) {
    const std::string change = moved(companions[c], cell.companions[c], split);
    (change.empty() ? steady : with_it).push_back(change.empty() ? companions[c].name : change);
  }
  if (companions.empty()) return line + "; the rows record nothing else to tell why";
  if (with_it.empty()) {
    return line + fmt::format(
                      "; nothing the rows record moved with it ({}): the machine, or something "
                      "no column records",
                      fmt::join(steady, ", "));
  }
  line += fmt::format("; moved with it: {}", fmt::join(with_it, ", "));
  if (!steady.empty()) line += fmt::format("; steady: {}", fmt::join(steady, ", "));
  return line;
}

}  // namespace

std::vector<std::string> two_level_warnings(std::string_view run_file_text,
                                            const std::string& name) {
  runfile::RowReader reader(name, run_file_text);
  const std::vector<Companion> companions = companions_of(reader.columns());
  std::vector<Cell> cells;
  std::map<std::string, std::size_t, std::less<>> cell_of;
  while (reader.next()) {
    const runfile::RunRow& row = reader.row();
    if (row.status != runfile::RunStatus::kOk) continue;
    const std::string key = fmt::format("{}\t{}\t{}", row.test, row.input, row.sink);
    auto [it, added] = cell_of.try_emplace(key, cells.size());
    if (added) {
      cells.push_back({row.test,
                       row.input,
                       row.sink,
                       {},
                       {},
                       std::vector<std::vector<std::optional<double>>>(companions.size())});
    }
    Cell& cell = cells[it->second];
    cell.repeats.push_back(row.repeat);
    cell.elapsed_s.push_back(row.elapsed_s);
    for (std::size_t c = 0; c < companions.size(); ++c) {
      cell.companions[c].push_back(companions[c].value(row));
    }
  }
  std::vector<std::string> lines;
  for (const Cell& cell : cells) {
    if (const auto levels = stats::find_two_levels(cell.elapsed_s)) {
      lines.push_back(warning(cell, levels->split, companions));
    }
  }
  return lines;
}

std::vector<std::string> name_a_few(const std::vector<std::string>& lines, std::size_t named,
                                    const std::string& all_in) {
  if (lines.size() <= named) return lines;
  std::vector<std::string> few(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(named));
  const std::size_t rest = lines.size() - named;
  few.push_back(fmt::format("… and {} more cell{} fell into two levels; all in {}", rest,
                            rest == 1 ? "" : "s", all_in));
  return few;
}

}  // namespace iobench::report
