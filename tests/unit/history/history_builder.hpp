#pragma once
// Histories made by hand for the analyses' tests: three series (slow, steady, unverified), runs
// added one at a time, five rows per series per run.
#include <fmt/format.h>

#include <stdexcept>
#include <string>

#include "driver/history/check.hpp"

namespace iobench::history::test {

// A history made by hand: add_run() then add_rows() for each series.
class History {
 public:
  History() {
    for (const char* test : {"slow", "steady", "unverified"}) {
      StoredSeries s;
      s.series_id = static_cast<std::int64_t>(data.series.size() + 1);
      s.series_hash = fmt::format("{:02d}aabbccddeeff00", s.series_id);
      s.key.test = test;
      s.key.input = "in.txt";
      s.key.sink = "pipe";
      s.key.cache_mode = "warm";
      s.key.verified = std::string(test) != "unverified";
      data.series.push_back(s);
    }
  }
  StoredRun& add_run(const std::string& commit, const std::string& branch = "main") {
    StoredRun run;
    run.run_id = static_cast<std::int64_t>(data.runs.size() + 1);
    run.run_hash = fmt::format("{:04d}ffffeeeedddd", run.run_id);
    run.labels.commit = commit;
    run.labels.branch = branch;
    run.date = fmt::format("2026-01-01T00:{:02d}:00Z", run.run_id);
    run.kernel = "Linux 6.1.0-18-amd64";
    run.busy_cpus_start = 0.1;
    data.runs.push_back(run);
    return data.runs.back();
  }
  // Five rows of `test` in the newest run, around `elapsed_s` (a fixed spread of 1 %).
  void add_rows(const std::string& test, double elapsed_s,
                runfile::RunStatus status = runfile::RunStatus::kOk) {
    std::vector<double> values;
    for (const double spread : {-0.01, -0.005, 0.0, 0.005, 0.01}) {
      const double run = 0.001 * static_cast<double>(data.runs.back().run_id % 3);
      values.push_back(elapsed_s * (1 + spread + run));
    }
    add_values(test, values, status);
  }
  // A row of `test` in the newest run for each of `elapsed_s`.
  void add_values(const std::string& test, const std::vector<double>& elapsed_s,
                  runfile::RunStatus status = runfile::RunStatus::kOk) {
    for (std::size_t i = 0; i < elapsed_s.size(); ++i) {
      StoredSample s;
      s.run_id = data.runs.back().run_id;
      s.series_id = series_id(test);
      s.repeat = static_cast<int>(i) + 1;
      s.status = status;
      s.elapsed_s = elapsed_s[i];
      s.user_s = 0.01;
      s.system_s = 0.02;
      s.cache_pct = 100;
      s.counters[index(runfile::Counter::kSyscalls)] = 300 + static_cast<std::uint64_t>(i);
      data.samples.push_back(s);
    }
  }
  void add_all(double slow_s, double steady_s = 0.2) {
    add_rows("slow", slow_s);
    add_rows("steady", steady_s);
    add_rows("unverified", 0.3);
  }
  std::int64_t series_id(const std::string& test) const {
    for (const auto& s : data.series)
      if (s.key.test == test) return s.series_id;
    throw std::runtime_error(test);
  }
  // Sessions taken not to drift (--session-spread 0): the rows alone decide, for the tests of
  // rules one or two baseline sessions show (the session rule: check_sessions_gtest.cc).
  static CheckOptions no_drift() {
    CheckOptions options;
    options.session_spread_pct = 0;
    return options;
  }
  CheckReport check(const CheckOptions& options = {}) {
    timelines = build_timelines(data);
    return check_history(data, timelines, options);
  }
  // `sessions` runs of commit aaaa1111 with every series at its usual level (slow at 0.1 s), then
  // one of bbbb2222 with slow at `slow_s`.
  static History sessions_then(int sessions, double slow_s) {
    History h;
    for (int session = 0; session < sessions; ++session) {
      h.add_run("aaaa1111");
      h.add_all(0.1);
    }
    h.add_run("bbbb2222");
    h.add_all(slow_s);
    return h;
  }
  static const CellCheck& cell(const CheckReport& report, const std::string& test) {
    for (const auto& c : report.cells)
      if (c.timeline->series->key.test == test) return c;
    throw std::runtime_error(test);
  }

  HistoryData data;
  std::vector<Timeline> timelines;
};

}  // namespace iobench::history::test
