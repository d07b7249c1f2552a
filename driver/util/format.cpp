#include "driver/util/format.hpp"

#include <fmt/core.h>

namespace iobench {

std::string format_duration(double seconds) {
  const auto total = static_cast<long long>(seconds + 0.5);
  if (total >= 3600)
    return fmt::format("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60);
  return fmt::format("{}:{:02}", total / 60, total % 60);
}

}  // namespace iobench
