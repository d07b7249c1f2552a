#include "driver/history/import_record.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <regex>

#include "common/error.hpp"
#include "common/read_file.hpp"
#include "driver/importers/importer.hpp"
#include "driver/runfile/file_hash.hpp"

namespace iobench::history {
namespace {

// An iobench run file starts with its TSV header; the other formats are JSON. Only the first
// line is read: a run file is read once, by its own reader (history add's time is its parsing,
// docs/history.md "Performance").
bool looks_native(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return true;  // the run file's own reader says what is wrong, as it always did
  std::string first_line;
  std::getline(in, first_line);
  return first_line.find('\t') != std::string::npos;
}

// The file's date as the time axis wants it ("2026-12-03T06:11:48Z"): only a UTC one, so that
// it sorts among the others; nullopt for any other.
std::optional<std::string> utc_date(const std::optional<std::string>& date) {
  if (!date || date->size() < 19 || (*date)[10] != 'T') return std::nullopt;
  const std::string_view zone = std::string_view(*date).substr(19);
  const std::size_t fraction = zone.find_first_not_of(".0123456789");
  const std::string_view offset =
      fraction == std::string_view::npos ? std::string_view() : zone.substr(fraction);
  if (offset.empty() || offset == "Z" || offset == "+00:00") return date->substr(0, 19) + "Z";
  return std::nullopt;
}

RunMetaFacts facts_of(const importers::ImportedRun& run, const std::string& file) {
  RunMetaFacts facts;
  facts.meta_path = file;
  facts.date = utc_date(run.date).value_or(utc_now());
  facts.host = run.host.value_or("");
  facts.kernel = run.kernel;
  facts.machine = run.machine;
  facts.cpu_model = run.cpu_model;
  facts.cpus_online = run.cpus;
  facts.measured_commit = run.commit;
  facts.measured_dirty = run.dirty;
  facts.config_name = run.tool;
  facts.config = nlohmann::json::object();
  return facts;
}

std::string conditions_text(const importers::ImportedRun& run) {
  std::vector<std::string> parts;
  for (const auto& [key, value] : run.conditions) parts.push_back(fmt::format("{}={}", key, value));
  return fmt::format("{}", fmt::join(parts, "; "));
}

runfile::RunRow row_of(const importers::ImportedSeries& series, double value, int repeat,
                       bool failed) {
  runfile::RunRow row;
  row.test = series.name;
  row.sink = series.measure;
  row.elapsed_s = value;
  row.repeat = repeat;
  row.status = failed ? runfile::RunStatus::kFailed : runfile::RunStatus::kOk;
  return row;
}

void add_rows(RunRecord& record, const importers::ImportedSeries& series,
              importers::Direction direction) {
  ImportedRow facts{series.unit, std::string(importers::to_string(direction)), {}, {}, {}};
  for (std::size_t i = 0; i < series.samples.size(); ++i) {
    record.file.rows.push_back(row_of(series, series.samples[i], static_cast<int>(i) + 1,
                                      i < series.failed.size() && series.failed[i]));
    record.imported.push_back(facts);
  }
  if (series.samples.empty() && series.summary) {
    record.file.rows.push_back(row_of(series, series.summary->center, 1, false));
    facts.summary_n = series.summary->n;
    facts.summary_low = series.summary->lower;
    facts.summary_high = series.summary->upper;
    record.imported.push_back(facts);
  }
}

// --higher-is-better and --lower-is-better, compiled.
struct GivenDirections {
  std::vector<std::regex> higher;
  std::vector<std::regex> lower;
};

std::vector<std::regex> compiled(const std::vector<std::string>& texts, const char* option) {
  std::vector<std::regex> regexes;
  for (const std::string& text : texts) {
    try {
      regexes.emplace_back(text);
    } catch (const std::regex_error& e) {
      throw Error(fmt::format("history add {} {}: not a regex: {}", option, text, e.what()));
    }
  }
  return regexes;
}

bool any_matches(const std::vector<std::regex>& regexes, const std::string& name) {
  return std::any_of(regexes.begin(), regexes.end(),
                     [&name](const std::regex& regex) { return std::regex_match(name, regex); });
}

// The measures the file gives no direction for: imported where an option names their direction;
// a note names the others.
void add_undirected(RunRecord& record, const importers::ImportedRun& run,
                    const AddOptions& options) {
  const GivenDirections given{compiled(options.higher_is_better, "--higher-is-better"),
                              compiled(options.lower_is_better, "--lower-is-better")};
  std::vector<std::string> left_out;
  for (const importers::ImportedSeries& series : run.undirected) {
    const bool higher = any_matches(given.higher, series.measure);
    const bool lower = any_matches(given.lower, series.measure);
    if (higher && lower) {
      throw Error(fmt::format("{}: {}: both --higher-is-better and --lower-is-better name it",
                              record.runs_file, series.measure));
    }
    if (higher || lower) {
      add_rows(
          record, series,
          higher ? importers::Direction::kHigherIsBetter : importers::Direction::kLowerIsBetter);
    } else if (std::find(left_out.begin(), left_out.end(), series.measure) == left_out.end()) {
      left_out.push_back(series.measure);
    }
  }
  if (left_out.empty()) return;
  record.notes.push_back(fmt::format(
      "{}: {} counter{} not imported ({}): the file says not whether higher or lower is better; "
      "history add --higher-is-better REGEX or --lower-is-better REGEX imports those the regex "
      "names",
      record.runs_file, left_out.size(), left_out.size() == 1 ? "" : "s",
      fmt::join(left_out, ", ")));
}

}  // namespace

RunRecord imported_record(const importers::ImportedRun& run, std::string_view bytes,
                          const std::string& file, const Labels& given, const EnvLookup& lookup,
                          const AddOptions& options) {
  RunRecord record;
  record.runs_file = file;
  record.facts = facts_of(run, file);
  record.tool = run.tool;
  record.conditions = conditions_text(run);
  record.context = run.context_json;
  record.file.name = file;
  record.file.hash = runfile::file_hash(bytes);
  record.host_class = run.host_class;
  for (const importers::ImportedSeries& series : run.series) {
    add_rows(record, series, series.direction);
  }
  add_undirected(record, run, options);
  if (record.file.rows.empty()) throw Error(fmt::format("{}: no results to add", file));
  record.labels = resolve_labels(given, lookup, run.commit);
  if (!given.branch && !record.labels.branch) record.labels.branch = run.branch;
  record.added_by = current_user(lookup);
  return record;
}

namespace {

RunRecord read_any_record(const std::filesystem::path& file, const AddOptions& options,
                          const Labels& given, const EnvLookup& lookup) {
  // A bad regex is an error whatever the files: the option never goes unread.
  (void)compiled(options.higher_is_better, "--higher-is-better");
  (void)compiled(options.lower_is_better, "--lower-is-better");
  const importers::Importer* importer = nullptr;
  if (options.format && *options.format != "iobench") {
    importer = importers::importer_named(*options.format);
    if (importer == nullptr) {
      throw Error(
          fmt::format("history add --format {}: not a format history add reads ({}, or "
                      "iobench for a run file)",
                      *options.format, importers::importer_names()));
    }
  }
  if (options.format && importer == nullptr) return load_run_record(file, given, lookup);
  if (importer == nullptr && looks_native(file)) return load_run_record(file, given, lookup);
  const std::string bytes = read_file_bytes(file);
  if (importer == nullptr) {
    importer = importers::detect_importer(bytes);
    if (importer == nullptr) {
      throw Error(
          fmt::format("{}: neither an iobench run file nor a file of {} (give --format "
                      "if it is one of them)",
                      file.string(), importers::importer_names()));
    }
  }
  return imported_record(importer->parse(bytes, file.string()), bytes, file.string(), given, lookup,
                         options);
}

}  // namespace

RunRecord load_any_record(const std::filesystem::path& file, const AddOptions& options,
                          const Labels& given, const EnvLookup& lookup) {
  RunRecord record = read_any_record(file, options, given, lookup);
  if (options.date) record.facts.date = *options.date;
  return record;
}

}  // namespace iobench::history
