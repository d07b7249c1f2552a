#pragma once
// The statements each run of an add executes (store_add.cpp), prepared once a store and run again
// with the values set in their fields: preparing them for every run cost a tenth of an add's CPU
// time (docs/history.md, "Performance"). One SQL text for both backends, through SOCI.
#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/run_record.hpp"
#include "driver/history/series.hpp"

namespace iobench::history {

class AddStatements {
 public:
  explicit AddStatements(soci::session& sql);
  AddStatements(const AddStatements&) = delete;
  AddStatements& operator=(const AddStatements&) = delete;

  // The id of the stored run that `run` is (docs/history.md, "Adding runs"): the one whose
  // run_hash is run_hash_of(run), or one stored before run hashes held the labels, whose run_hash
  // is its file's hash, filed under the same commit and branch; nullopt when there is none.
  std::optional<std::int64_t> find_run(const RunRecord& run);
  // The runs table's row of `run` (docs/formats.md, "History store"); its new id.
  std::int64_t insert_run(StoredRun run);
  // The series table's row of `key`; its new id.
  std::int64_t insert_series(const SeriesKey& key, const std::string& hash);

  // One column's value, bound once and set before each run of the INSERT: the member its
  // field's type binds (a flag and a whole number both as a whole number).
  struct RunValue {
    std::string text;
    long long whole = 0;
    double real = 0;
    soci::indicator indicator = soci::i_ok;
  };

 private:
  struct SeriesValues {
    std::string hash;
    SeriesKey key;
    int verified = 1;
  };

  std::vector<RunValue> run_;  // one a column of run_columns() but run_id, in order
  SeriesValues series_;
  // find_run's: the two hashes it looks for, and each row's hash and labels.
  std::string find_hash_;
  std::string find_file_hash_;
  std::string found_hash_;
  std::string found_commit_;
  std::string found_branch_;
  soci::indicator found_commit_null_ = soci::i_null;
  soci::indicator found_branch_null_ = soci::i_null;
  long long id_ = 0;  // what each statement returns
  soci::statement find_run_;
  soci::statement insert_run_;
  soci::statement insert_series_;
};

}  // namespace iobench::history
