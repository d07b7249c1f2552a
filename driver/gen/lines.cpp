// `lines`: text lines whose lengths follow a chosen distribution, for buffer-size sweeps.
//
//   line_length: fixed:N            every line N bytes (N may carry a size suffix: fixed:64KiB)
//                uniform:A-B        uniform over A..B bytes, both included (default uniform:0-200)
//                lognormal:MU,SIGMA ln(length) normal with mean MU and deviation SIGMA, e.g.
//                                   lognormal:4,1 (median e^4 = 55 bytes, a long right tail)
//
// Lengths exclude the LF and are capped at 64 MiB. The content is lowercase letters with spaces and
// an occasional TAB (so field ops have fields), never LF. The size is exact: the last line is cut
// to fit.
#include <fmt/core.h>

#include <charconv>
#include <cmath>
#include <numbers>

#include "common/error.hpp"
#include "common/size.hpp"
#include "driver/gen/detail.hpp"

namespace iobench::gen::detail {
namespace {

constexpr std::string_view kDefaultLineLength = "uniform:0-200";
constexpr std::size_t kPool = 1U << 20;            // random text that lines are cut from
constexpr std::size_t kPoolWrap = 1U << 15;        // copied after the pool: slices never wrap
constexpr std::size_t kShortLine = kPoolWrap - 1;  // lines up to this length take one copy

[[noreturn]] void bad_spec(std::string_view spec, std::string_view why) {
  throw Error(fmt::format(
      "line_length '{}': {} (use fixed:N, uniform:A-B or lognormal:MU,SIGMA, e.g. uniform:0-200)",
      spec, why));
}

std::uint64_t parse_length(std::string_view spec, std::string_view text) {
  std::string error;
  const auto value = parse_size(text, &error);
  if (!value) bad_spec(spec, error);
  if (*value > kMaxLineLength) bad_spec(spec, "lengths above 64MiB are not supported");
  return *value;
}

double parse_double(std::string_view spec, std::string_view text) {
  double value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty() || !std::isfinite(value)) {
    bad_spec(spec, fmt::format("'{}' is not a number", text));
  }
  return value;
}

}  // namespace

LineLength parse_line_length(std::string_view spec) {
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos) bad_spec(spec, "no shape before ':'");
  const auto shape = spec.substr(0, colon);
  const auto args = spec.substr(colon + 1);
  LineLength length;
  if (shape == "fixed") {
    length.shape = LineLength::Shape::kFixed;
    length.a = parse_length(spec, args);
  } else if (shape == "uniform") {
    length.shape = LineLength::Shape::kUniform;
    const auto dash = args.find('-');
    if (dash == std::string_view::npos) bad_spec(spec, "uniform needs A-B");
    length.a = parse_length(spec, args.substr(0, dash));
    length.b = parse_length(spec, args.substr(dash + 1));
    if (length.a > length.b) bad_spec(spec, "A is above B");
  } else if (shape == "lognormal") {
    length.shape = LineLength::Shape::kLognormal;
    const auto comma = args.find(',');
    if (comma == std::string_view::npos) bad_spec(spec, "lognormal needs MU,SIGMA");
    length.mu = parse_double(spec, args.substr(0, comma));
    length.sigma = parse_double(spec, args.substr(comma + 1));
    if (length.mu < 0 || length.mu > 17) bad_spec(spec, "MU must be from 0 to 17");
    if (length.sigma < 0 || length.sigma > 4) bad_spec(spec, "SIGMA must be from 0 to 4");
  } else {
    bad_spec(spec, fmt::format("unknown shape '{}'", shape));
  }
  return length;
}

std::uint64_t LineLength::draw(Rng& rng) const {
  switch (shape) {
    case Shape::kFixed:
      return a;
    case Shape::kUniform:
      return a + rng.below(b - a + 1);
    case Shape::kLognormal: {
      // Box-Muller from our own uniforms; only libm's log/cos/exp are the platform's.
      const double u1 = 1.0 - rng.unit();  // (0, 1]
      const double u2 = rng.unit();
      const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
      const double value = std::exp(mu + sigma * z);
      if (!(value < static_cast<double>(kMaxLineLength))) return kMaxLineLength;
      return static_cast<std::uint64_t>(std::llround(value));
    }
  }
  return a;
}

void validate_lines(const GenRequest& request) {
  parse_line_length(string_option(request, "line_length", kDefaultLineLength));
}

void write_lines(const GenRequest& request, BlockWriter& out) {
  const LineLength length =
      parse_line_length(string_option(request, "line_length", kDefaultLineLength));
  Rng rng(request.seed);

  // The text pool: words of 1..10 letters, separated by a space, one separator in 16 a TAB.
  std::vector<char> pool(kPool + kPoolWrap);
  std::size_t word_left = 0;
  for (std::size_t i = 0; i < kPool; ++i) {
    const std::uint64_t r = rng.next();
    if (word_left == 0) {
      pool[i] = (r & 15) == 0 ? '\t' : ' ';
      word_left = 1 + (r >> 8) % 10;
    } else {
      pool[i] = static_cast<char>('a' + (r >> 16) % 26);
      --word_left;
    }
  }
  std::copy(pool.begin(), pool.begin() + kPoolWrap, pool.begin() + kPool);

  std::uint64_t left = request.size_bytes;
  while (left > 0) {
    std::uint64_t n = length.draw(rng);
    if (n + 1 > left) n = left - 1;  // the last line is cut so the size is exact
    auto offset = static_cast<std::size_t>(rng.below(kPool));
    if (n <= kShortLine) {
      char* p = out.reserve(n + 1);
      std::memcpy(p, pool.data() + offset, n);
      p[n] = '\n';
      out.commit(p + n + 1);
    } else {
      for (std::uint64_t done = 0; done < n;) {
        const std::size_t chunk =
            static_cast<std::size_t>(std::min<std::uint64_t>(n - done, kPool - offset));
        out.append(pool.data() + offset, chunk);
        done += chunk;
        offset = 0;
      }
      out.append("\n", 1);
    }
    left -= n + 1;
  }
}

}  // namespace iobench::gen::detail
