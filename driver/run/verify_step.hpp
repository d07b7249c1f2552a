#pragma once
// The run loop's third step (docs/driver.md, "Verification"): a verification run's output against
// its class's reference, a measured row against its pair's verification run, through the
// Verifier; an independent reference is computed from the input where the class has one. With
// bench's stop at a command's first failure (stop_at_first_failure) a mismatch stops its pair.
#include <cstddef>
#include <optional>
#include <string>

#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"
#include "driver/run/launch_step.hpp"
#include "driver/run/progress.hpp"
#include "driver/run/verifier.hpp"

namespace iobench::run {

class VerifyStep {
 public:
  // How bench's mismatch warning ends: its command is not run again on that input.
  static constexpr const char* kNotRunAgainVerifyOff =
      "it is not run again (--verify off times it anyway)";

  VerifyStep(const config::Config& config, Progress& progress, bool stop_at_first_failure);
  // The Verifier asks this one for references.
  VerifyStep(const VerifyStep&) = delete;
  VerifyStep& operator=(const VerifyStep&) = delete;
  // A verification run, after its retry: compared when it ended ok, else its pair is unverified.
  // True when its pair is to stop (a mismatch, with stop_at_first_failure).
  bool check_verification_run(const config::Cell& cell, const config::Test& test,
                              const runfile::RunRow& row, const LaunchOutcome& outcome);
  // A measured row: marked `mismatch` or `error` as its pair's verification says. True when its
  // pair is to stop (a mismatch, with stop_at_first_failure).
  bool check_measured_run(const config::Cell& cell, const config::Test& test, runfile::RunRow& row,
                          const SinkResult& output);
  // A pair that cannot be verified (its input unreadable, a hook failed before its run).
  void unverifiable(const config::Cell& cell, const config::Test& test,
                    const std::string& input_name, const std::string& reason) {
    verifier_.on_unverifiable(cell, test, input_name, reason);
  }

 private:
  std::optional<ExpectedOutput> independent_reference(const std::string& output_class,
                                                      std::size_t input) const;

  const config::Config& config_;
  bool stop_at_first_failure_;
  Verifier verifier_;
};

}  // namespace iobench::run
