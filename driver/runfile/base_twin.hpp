#pragma once
// `run --versus` (docs/driver.md, "Two builds"): a test's twin measured with the base build is
// named "NAME@base" in the run file, beside NAME, the candidate build's.
#include <optional>
#include <string>
#include <string_view>

namespace iobench::runfile {

inline constexpr std::string_view kBaseBuildSuffix = "@base";

// NAME when `test` is a base twin's name, NAME@base; nullopt otherwise.
inline std::optional<std::string> candidate_of_base_twin(std::string_view test) {
  if (test.size() <= kBaseBuildSuffix.size() || !test.ends_with(kBaseBuildSuffix))
    return std::nullopt;
  return std::string(test.substr(0, test.size() - kBaseBuildSuffix.size()));
}

}  // namespace iobench::runfile
