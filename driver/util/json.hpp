#pragma once
// JSON values that every writer of the driver's JSON spells the same way.
#include <nlohmann/json.hpp>

namespace iobench::util {

// The number, or null where it has none (NaN, ±inf): JSON has no NaN, and a reader must see
// "no value", not a made-up one.
nlohmann::ordered_json number_or_null(double value);

}  // namespace iobench::util
