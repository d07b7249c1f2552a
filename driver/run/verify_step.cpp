#include "driver/run/verify_step.hpp"

#include "driver/run/measurement.hpp"
#include "driver/run/reference_output.hpp"

namespace iobench::run {

VerifyStep::VerifyStep(const config::Config& config, Progress& progress, bool stop_at_first_failure)
    : config_(config),
      stop_at_first_failure_(stop_at_first_failure),
      verifier_([&progress](const std::string& message) { progress.warn(message); },
                [this](const std::string& output_class, std::size_t input) {
                  return independent_reference(output_class, input);
                },
                stop_at_first_failure ? kNotRunAgainVerifyOff : Verifier::kRowsMarkedMismatch) {}

bool VerifyStep::check_verification_run(const config::Cell& cell, const config::Test& test,
                                        const runfile::RunRow& row, const LaunchOutcome& outcome) {
  if (row.status != runfile::RunStatus::kOk) {
    verifier_.on_unverifiable(cell, test, row.input,
                              "unverified: " + describe_outcome(outcome.result));
    return false;
  }
  return !verifier_.on_verified_run(cell, test, row.input, outcome.output) &&
         stop_at_first_failure_;
}

bool VerifyStep::check_measured_run(const config::Cell& cell, const config::Test& test,
                                    runfile::RunRow& row, const SinkResult& output) {
  verifier_.check_measured(cell, test, row, output);
  return row.status == runfile::RunStatus::kMismatch && stop_at_first_failure_;
}

std::optional<ExpectedOutput> VerifyStep::independent_reference(const std::string& output_class,
                                                                std::size_t input) const {
  // Without an input nothing can be computed from it: the class's first test is the reference.
  const std::filesystem::path& path = config_.inputs[input].path;
  if (path.empty()) return std::nullopt;
  return reference_output(output_class, path);
}

}  // namespace iobench::run
