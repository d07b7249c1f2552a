#include "driver/util/json.hpp"

#include <cmath>

namespace iobench::util {

nlohmann::ordered_json number_or_null(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

}  // namespace iobench::util
