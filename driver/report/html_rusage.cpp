#include "driver/report/html_rusage.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "driver/report/stats.hpp"
#include "driver/runfile/header.hpp"
#include "driver/runfile/numbers.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::report {
namespace {

constexpr std::size_t kMissing = static_cast<std::size_t>(-1);

std::size_t column_index(const std::vector<std::string_view>& columns, std::string_view name) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == name) return i;
  }
  return kMissing;
}

struct Samples {
  std::vector<double> voluntary;
  std::vector<double> involuntary;
};

void add_sample(std::vector<double>& to, const std::vector<std::string_view>& fields,
                std::size_t column) {
  double value = 0;
  if (column < fields.size() && runfile::parse_double(fields[column], value)) {
    to.push_back(value);
  }
}

void read_text(const std::string& name, std::string_view text, std::map<std::string, Samples>& to) {
  const runfile::FileHeader header = runfile::read_header(name, text);
  const auto at = [&](std::string_view column) { return column_index(header.columns, column); };
  const std::size_t test = at("test");
  const std::size_t input = at("input");
  const std::size_t sink = at("sink");
  const std::size_t status = at("status");
  const std::size_t voluntary = at("nvcsw");
  const std::size_t involuntary = at("nivcsw");
  if (voluntary == kMissing && involuntary == kMissing) return;
  const auto field = [](const std::vector<std::string_view>& f, std::size_t i) {
    return i < f.size() ? f[i] : std::string_view();
  };
  std::size_t pos = header.body_start;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = runfile::strip_cr(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty()) continue;
    const std::vector<std::string_view> fields = runfile::split_tabs(line);
    if (status != kMissing && field(fields, status) != to_string(RunStatus::kOk)) continue;
    Samples& samples = to[cell_key(field(fields, test), field(fields, input), field(fields, sink))];
    add_sample(samples.voluntary, fields, voluntary);
    add_sample(samples.involuntary, fields, involuntary);
  }
}

std::optional<double> median_of(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  return report::median(values);
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
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw Error(fmt::format("{}: cannot read the run file again", path.string()));
    texts.emplace_back(path.string(), text.str());
  }
  return context_switches_of(texts);
}

}  // namespace iobench::report
