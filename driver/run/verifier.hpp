#pragma once
// Output verification (docs/driver.md): each (test, input) pair's unrecorded verification run is
// compared with its output class's reference for that input (an independent one where the driver
// can compute it, such as the input itself for `copy`; else the class's first verified test), and
// every measured row with its pair's verification run. A cell planned without one
// (Cell::verified_by_first_ok_run) has its first ok measured run compared with the reference
// instead. A pair that could not be verified has no `ok` rows.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "driver/config/plan.hpp"
#include "driver/run/sink.hpp"
#include "driver/runfile/writer.hpp"

namespace iobench::run {

struct ExpectedOutput {
  std::string hash;
  std::uint64_t bytes = 0;
  std::string source;  // "the input" or the reference test's name, for the warning
};

class Verifier {
 public:
  using Warn = std::function<void(const std::string&)>;
  // Computes the independent reference of an output class for an input, or nullopt when the
  // class has none (its first verified test then serves). May throw iobench::Error (an input
  // that cannot be read): the pair is then unverified.
  using ReferenceOf =
      std::function<std::optional<ExpectedOutput>(const std::string& output_class, std::size_t)>;

  // How a mismatch's warning ends by default; `iobench bench`, which stops the command there,
  // gives its own (`mismatch_consequence`).
  static constexpr const char* kRowsMarkedMismatch = "its rows are marked mismatch";

  Verifier(Warn warn, ReferenceOf reference_of,
           std::string mismatch_consequence = kRowsMarkedMismatch)
      : warn_(std::move(warn)),
        reference_of_(std::move(reference_of)),
        mismatch_consequence_(std::move(mismatch_consequence)) {}

  // A verification run that ended ok and wrote `output` into its pipe. False when its output
  // differs from the reference's (the pair is then a mismatch, warned about once).
  bool on_verified_run(const config::Cell& cell, const config::Test& test,
                       const std::string& input_name, const SinkResult& output);
  // A pair whose verification run did not end ok (after its retry), or could not be compared.
  void on_unverifiable(const config::Cell& cell, const config::Test& test,
                       const std::string& input_name, const std::string& reason);

  // A measured row that wrote `output`: `mismatch` when its pair mismatched or its own output
  // differs from the pair's verification run; `error` when the pair is unverified. Other statuses
  // stay. The first ok row of a cell verified by its first ok run is that verification run.
  void check_measured(const config::Cell& cell, const config::Test& test, runfile::RunRow& row,
                      const SinkResult& output);

 private:
  struct PairState {
    bool mismatch = false;
    std::string unverified_reason;  // non-empty: no row of this pair may be ok
    std::string hash;
    int verified_by_repeat = 0;  // the measured run that verified the pair; 0: a verification run
  };
  Warn warn_;
  ReferenceOf reference_of_;
  std::string mismatch_consequence_;
  std::map<std::pair<std::size_t, std::size_t>, PairState> pairs_;          // (test, input)
  std::map<std::pair<std::string, std::size_t>, ExpectedOutput> expected_;  // (class, input)
};

}  // namespace iobench::run
