#pragma once
// Byte sizes as people write them: "4096", "64K", "64KiB", "1M", "1MiB", "1GiB", "2G".
// K/M/G/T and KiB/MiB/GiB/TiB are both powers of 1024 (as dd and GNU sort read them); KB/MB/GB
// are powers of 1000.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace iobench {

// Parses a size; returns std::nullopt (and sets *error when given) on malformed text or overflow.
std::optional<std::uint64_t> parse_size(std::string_view text, std::string* error = nullptr);

// Formats bytes the way parse_size reads them back, exact when possible ("64KiB", "1000").
std::string format_size(std::uint64_t bytes);

}  // namespace iobench
