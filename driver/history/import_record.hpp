#pragma once
// Another harness's result file as `history add` stores it (docs/history.md, "Other harnesses"):
// each value a row of its series, so that check, list, show, plot, publish and export read it as
// they read iobench's own runs.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/history/run_record.hpp"
#include "driver/importers/imported_run.hpp"

namespace iobench::history {

// How `history add` reads FILE: the format --format names, else the one detected from its bytes;
// an iobench run file (a TSV header) goes the native way. Throws iobench::Error (exit 2) for an
// unknown --format and for a file of no known format, naming the formats. A date given (--date,
// as parse_given_date wrote it) is every run's date, in place of its meta file's or its file's.
struct AddOptions {
  std::optional<std::string> format;  // --format
  std::optional<std::string> date;    // --date
  // --higher-is-better, --lower-is-better: regexes, each matched against the whole name of a
  // measure the file gives no direction for (a Google Benchmark user counter), which is imported
  // as a series of that direction; the others are not imported, and the add says so.
  std::vector<std::string> higher_is_better;
  std::vector<std::string> lower_is_better;
};

// Reads RUNS (an iobench run file with its meta) or another harness's file, as `options` say.
RunRecord load_any_record(const std::filesystem::path& file, const AddOptions& options,
                          const Labels& given, const EnvLookup& lookup);

// The record of an imported run read from `file` (whose bytes are `bytes`): labels as for a
// native run (--commit, CI's variables, else the commit the file names), the machine the file
// names, its date (else now); its measures without a direction as `options` say (notes say
// which were left out). Throws iobench::Error (exit 2) for a regex of `options` that is not one,
// or a measure both of its directions name.
RunRecord imported_record(const importers::ImportedRun& run, std::string_view bytes,
                          const std::string& file, const Labels& given, const EnvLookup& lookup,
                          const AddOptions& options = {});

}  // namespace iobench::history
