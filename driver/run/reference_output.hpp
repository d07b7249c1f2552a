#pragma once
// The output a class must produce for an input, computed by the driver itself where it can, so a
// class is checked against the input rather than only against its first member: `copy` is the
// input; `count` is its number of lines (a last line without '\n' counts); `field:N` is the Nth
// tab-separated field of each line, '\n'-terminated, empty when missing (docs/formats.md).
#include <filesystem>
#include <optional>
#include <string>

#include "driver/run/verifier.hpp"

namespace iobench::run {

// Empty for classes the driver has no reference for (their first verified test serves). Throws
// iobench::Error when the input cannot be read.
std::optional<ExpectedOutput> reference_output(const std::string& output_class,
                                               const std::filesystem::path& input);

}  // namespace iobench::run
