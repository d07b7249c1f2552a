#include "driver/runfile/numbers.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace iobench::runfile {
namespace {

constexpr std::array<double, 16> kPowersOf10{1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                             1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

}  // namespace

bool parse_double(std::string_view text, double& value) {
  if (text.empty()) return false;
  const char* first = text.data();
  const char* last = first + text.size();
  if (*first == '+') ++first;
  // Fast path for plain decimals ("0.512497", "2249") of at most 15 digits: the digits are an
  // exact integer below 2^53 and 10^k is exact, so one division rounds correctly, as from_chars.
  {
    std::uint64_t mantissa = 0;
    std::size_t digits = 0;
    std::size_t decimals = 0;
    bool dot = false;
    const char* q = first;
    for (; q != last; ++q) {
      const char c = *q;
      if (c >= '0' && c <= '9') {
        mantissa = mantissa * 10 + static_cast<std::uint64_t>(c - '0');
        ++digits;
        if (dot) ++decimals;
      } else if (c == '.' && !dot) {
        dot = true;
      } else {
        break;
      }
    }
    if (q == last && digits > 0 && digits <= 15) {
      value = static_cast<double>(mantissa) / kPowersOf10[decimals];
      return true;
    }
  }
  const auto [ptr, ec] = std::from_chars(first, last, value);
  return ec == std::errc() && ptr == last && std::isfinite(value);
}

bool parse_seconds(std::string_view text, double& seconds) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return parse_double(text, seconds) && seconds >= 0;
  // [h:]m:ss[.ss]
  double total = 0;
  std::size_t parts = 0;
  std::size_t start = 0;
  for (;;) {
    const std::size_t next = text.find(':', start);
    const std::string_view part =
        text.substr(start, next == std::string_view::npos ? std::string_view::npos : next - start);
    double v = 0;
    if (!parse_double(part, v) || v < 0) return false;
    const bool last = next == std::string_view::npos;
    if (!last && part.find('.') != std::string_view::npos)
      return false;  // only seconds have decimals
    total = total * 60 + v;
    ++parts;
    if (last) break;
    start = next + 1;
  }
  if (parts > 3) return false;
  seconds = total;
  return true;
}

}  // namespace iobench::runfile
