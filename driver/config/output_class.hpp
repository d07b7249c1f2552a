#pragma once
// The output classes whose expected output the driver computes itself (docs/driver.md,
// "Verification"): the plan needs to know which they are (such a pipe cell needs no verification
// run of its own), driver/run/reference_output.cpp computes them.
#include <cstddef>
#include <optional>
#include <string>

namespace iobench::config {

struct IndependentReference {
  enum class Kind { kCopy, kCount, kField };
  Kind kind = Kind::kCopy;
  std::size_t field = 0;  // kField: the 1-based tab field
};

// `copy` (the input), `worker --op count` (its line count), `worker --op field:N` with N >= 1 (its
// Nth tab field); nullopt for any other class (its first verified test is its reference).
std::optional<IndependentReference> independent_reference_of(const std::string& output_class);

}  // namespace iobench::config
