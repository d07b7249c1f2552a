#pragma once
// Output verification (docs/driver.md): each (test, input) pair's unrecorded verification run is
// compared with its output class's reference for that input (an independent one where the driver
// can compute it, such as the input itself for `copy`; else the class's first verified test), and
// every measured row with its pair's verification run. A pair that could not be verified has no
// `ok` rows.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "driver/config/plan.hpp"
#include "driver/run/sink.hpp"
#include "driver/runfile/writer.hpp"

namespace iobench {

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

  Verifier(Warn warn, ReferenceOf reference_of)
      : warn_(std::move(warn)), reference_of_(std::move(reference_of)) {}

  // A verification run that ended ok and wrote `output` into its pipe.
  void on_verified_run(const Cell& cell, const Test& test, const std::string& input_name,
                       const SinkResult& output);
  // A pair whose verification run did not end ok (after its retry), or could not be compared.
  void on_unverifiable(const Cell& cell, const Test& test, const std::string& input_name,
                       const std::string& reason);

  // A measured row: `mismatch` when its pair mismatched or its own output differs from the
  // pair's verification run; `error` when the pair is unverified. Other statuses stay.
  void check_measured(const Cell& cell, const Test& test, RunRow& row);

 private:
  struct PairState {
    bool mismatch = false;
    std::string unverified_reason;  // non-empty: no row of this pair may be ok
    std::string hash;
  };
  Warn warn_;
  ReferenceOf reference_of_;
  std::map<std::pair<std::size_t, std::size_t>, PairState> pairs_;          // (test, input)
  std::map<std::pair<std::string, std::size_t>, ExpectedOutput> expected_;  // (class, input)
};

}  // namespace iobench
