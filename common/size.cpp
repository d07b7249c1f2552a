#include "common/size.hpp"

#include <array>
#include <cctype>
#include <limits>
#include <utility>

namespace iobench {
namespace {

struct Suffix {
  std::string_view text;
  std::uint64_t multiplier;
};

constexpr std::uint64_t kKi = 1024;
constexpr std::array<Suffix, 17> kSuffixes{{
    {"", 1},
    {"B", 1},
    {"K", kKi},
    {"KiB", kKi},
    {"KB", 1000},
    {"M", kKi* kKi},
    {"MiB", kKi* kKi},
    {"MB", 1000ULL * 1000},
    {"G", kKi* kKi* kKi},
    {"GiB", kKi* kKi* kKi},
    {"GB", 1000ULL * 1000 * 1000},
    {"T", kKi* kKi* kKi* kKi},
    {"TiB", kKi* kKi* kKi* kKi},
    {"TB", 1000ULL * 1000 * 1000 * 1000},
    {"k", kKi},
    {"m", kKi* kKi},
    {"g", kKi* kKi* kKi},
}};

bool fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text, std::string* error) {
  std::size_t pos = 0;
  std::uint64_t value = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0) {
    const auto digit = static_cast<std::uint64_t>(text[pos] - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      fail(error, "size '" + std::string(text) + "' is too large");
      return std::nullopt;
    }
    value = value * 10 + digit;
    ++pos;
  }
  if (pos == 0) {
    fail(error, "size '" + std::string(text) + "' must start with a number (e.g. 64KiB, 1M, 4096)");
    return std::nullopt;
  }
  const std::string_view suffix = text.substr(pos);
  for (const auto& candidate : kSuffixes) {
    if (candidate.text != suffix) continue;
    if (value != 0 && candidate.multiplier > std::numeric_limits<std::uint64_t>::max() / value) {
      fail(error, "size '" + std::string(text) + "' is too large");
      return std::nullopt;
    }
    return value * candidate.multiplier;
  }
  fail(error, "size '" + std::string(text) + "' has an unknown suffix '" + std::string(suffix) +
                  "' (use K, KiB, M, MiB, G, GiB, KB, MB, GB)");
  return std::nullopt;
}

std::string format_size(std::uint64_t bytes) {
  constexpr std::array<std::pair<std::uint64_t, const char*>, 4> kUnits{{
      {kKi * kKi * kKi * kKi, "TiB"},
      {kKi * kKi * kKi, "GiB"},
      {kKi * kKi, "MiB"},
      {kKi, "KiB"},
  }};
  for (const auto& [unit, name] : kUnits) {
    if (bytes != 0 && bytes % unit == 0) return std::to_string(bytes / unit) + name;
  }
  return std::to_string(bytes);
}

}  // namespace iobench
