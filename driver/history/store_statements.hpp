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

  // The id of the stored run whose run file hashes to `run_hash`; nullopt when there is none.
  std::optional<std::int64_t> find_run(const std::string& run_hash);
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
  std::string find_hash_;
  long long id_ = 0;  // what each statement returns
  soci::indicator id_found_ = soci::i_null;
  soci::statement find_run_;
  soci::statement insert_run_;
  soci::statement insert_series_;
};

}  // namespace iobench::history
