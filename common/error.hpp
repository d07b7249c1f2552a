#pragma once
// Errors that end a command with a one-line message and a defined exit code (docs/formats.md "Exit
// codes"): 2 for usage, config and input errors found before anything runs; 3 when iobench
// itself cannot go on after runs started (every finished row kept).
#include <stdexcept>
#include <string>

namespace iobench {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRunFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitCouldNotContinue = 3;
// `history check` only: some series it was asked about could not be judged (no baseline, nothing
// ok and verified, too few runs, gone from the newest run, conditions changed), and no option
// accepts that case. Distinct from 0 so that a merge gate is never green by accident.
inline constexpr int kExitNotJudged = 4;
inline constexpr int kExitInterrupted = 130;

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, int exit_code = kExitUsage)
      : std::runtime_error(message), exit_code_(exit_code) {}
  [[nodiscard]] int exit_code() const noexcept { return exit_code_; }

 private:
  int exit_code_;
};

}  // namespace iobench
