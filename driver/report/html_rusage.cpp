#include "driver/report/html_rusage.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "driver/report/run_rows.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/stats/descriptive.hpp"

namespace iobench::report {
namespace {

using run_rows::CellColumns;
using run_rows::column_index;
using run_rows::for_each_row;
using run_rows::kMissing;
using run_rows::number;

struct Samples {
  std::vector<double> voluntary;
  std::vector<double> involuntary;
};

void add_sample(std::vector<double>& to, const std::vector<std::string_view>& fields,
                std::size_t column) {
  if (const auto value = number(fields, column)) to.push_back(*value);
}

void read_text(const std::string& name, std::string_view text, std::map<std::string, Samples>& to) {
  std::optional<CellColumns> cell;
  std::size_t voluntary = kMissing, involuntary = kMissing;
  const auto on_header = [&](const std::vector<std::string_view>& columns) {
    cell.emplace(columns);
    voluntary = column_index(columns, "nvcsw");
    involuntary = column_index(columns, "nivcsw");
    return voluntary != kMissing || involuntary != kMissing;
  };
  for_each_row(name, text, on_header, [&](const std::vector<std::string_view>& fields) {
    if (cell->status_of(fields) != to_string(RunStatus::kOk)) return;
    Samples& samples =
        to[cell_key(cell->test_of(fields), cell->input_of(fields), cell->sink_of(fields))];
    add_sample(samples.voluntary, fields, voluntary);
    add_sample(samples.involuntary, fields, involuntary);
  });
}

void read_others(const std::string& name, std::string_view text,
                 std::map<std::string, std::vector<OthersDuringRun>>& to) {
  std::optional<CellColumns> cell;
  std::size_t repeat = kMissing, elapsed = kMissing, others = kMissing, steal = kMissing;
  const auto on_header = [&](const std::vector<std::string_view>& columns) {
    cell.emplace(columns);
    repeat = column_index(columns, "repeat");
    elapsed = column_index(columns, "elapsed");
    others = column_index(columns, "others_cpu_s");
    steal = column_index(columns, "steal_s");
    return others != kMissing || steal != kMissing;
  };
  for_each_row(name, text, on_header, [&](const std::vector<std::string_view>& fields) {
    OthersDuringRun run;
    run.repeat = static_cast<int>(number(fields, repeat).value_or(0));
    run.status = std::string(cell->status_of(fields));
    run.elapsed_s = number(fields, elapsed).value_or(0);
    run.others_cpu_s = number(fields, others);
    run.steal_s = number(fields, steal);
    to[cell_key(cell->test_of(fields), cell->input_of(fields), cell->sink_of(fields))].push_back(
        std::move(run));
  });
}

std::vector<std::pair<std::string, std::string>> read_texts(
    const std::vector<std::filesystem::path>& files) {
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw Error(fmt::format("{}: cannot read the run file again", path.string()));
    texts.emplace_back(path.string(), text.str());
  }
  return texts;
}

std::optional<double> median_of(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  return stats::median(values);
}

}  // namespace

std::string cell_key(std::string_view test, std::string_view input, std::string_view sink) {
  return fmt::format("{}\t{}\t{}", test, input, sink);
}

std::map<std::string, ContextSwitches> context_switches_of(
    const std::vector<std::pair<std::string, std::string>>& named_texts) {
  std::map<std::string, Samples> samples;
  for (const auto& [name, text] : named_texts) read_text(name, text, samples);
  std::map<std::string, ContextSwitches> out;
  for (const auto& [key, s] : samples) {
    out[key] = ContextSwitches{median_of(s.voluntary), median_of(s.involuntary)};
  }
  return out;
}

std::map<std::string, ContextSwitches> read_context_switches(
    const std::vector<std::filesystem::path>& files) {
  return context_switches_of(read_texts(files));
}

std::map<std::string, std::vector<OthersDuringRun>> others_during_runs_of(
    const std::vector<std::pair<std::string, std::string>>& named_texts) {
  std::map<std::string, std::vector<OthersDuringRun>> out;
  for (const auto& [name, text] : named_texts) read_others(name, text, out);
  return out;
}

std::map<std::string, std::vector<OthersDuringRun>> read_others_during_runs(
    const std::vector<std::filesystem::path>& files) {
  return others_during_runs_of(read_texts(files));
}

}  // namespace iobench::report
