#pragma once
// The statements each run of an add executes (store_add.cpp), prepared once a store and run again
// with the values set in their fields: preparing them for every run cost a tenth of an add's CPU
// time (docs/history.md, "Performance"). One SQL text for both backends, through SOCI.
#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>

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
  std::int64_t insert_run(const RunRecord& run, const std::string& added_at);
  // The series table's row of `key`; its new id.
  std::int64_t insert_series(const SeriesKey& key, const std::string& hash);

 private:
  // A value and its indicator, bound once and set before each run of a statement.
  template <typename T>
  struct Nullable {
    T value{};
    soci::indicator indicator = soci::i_null;
    void operator=(const std::optional<T>& optional) {
      indicator = optional ? soci::i_ok : soci::i_null;
      if (optional) value = *optional;
    }
  };
  // The runs table's columns, in the INSERT's order.
  struct RunValues {
    std::string hash, added_at, added_by;
    Nullable<std::string> commit, branch, measured;
    Nullable<int> dirty;
    std::string date, config, file, host, kernel, cpu;
    Nullable<long long> cpus, memory;
    std::string worker_build, worker_xxh3, version, build, cache;
    Nullable<double> load_start, load_end, busy;
    long long rows = 0;
    Nullable<int> finished;
    std::string tool, conditions;
    Nullable<std::string> context;
  };
  struct SeriesValues {
    std::string hash;
    SeriesKey key;
    int verified = 1;
  };

  RunValues run_;
  SeriesValues series_;
  std::string find_hash_;
  long long id_ = 0;  // what each statement returns
  soci::indicator id_found_ = soci::i_null;
  soci::statement find_run_;
  soci::statement insert_run_;
  soci::statement insert_series_;
};

}  // namespace iobench::history
