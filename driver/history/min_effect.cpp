#include "driver/history/min_effect.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace iobench::history {

MinEffect parse_min_effect(const std::string& text) {
  MinEffect effect;
  effect.spelling = text;
  const std::size_t equals = text.rfind('=');
  const std::string number = equals == std::string::npos ? text : text.substr(equals + 1);
  std::size_t used = 0;
  try {
    effect.pct = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != number.size() || !(effect.pct >= 0) || effect.pct > 1000) {
    throw Error(fmt::format(
        "--min-effect {}: give a percentage (5) or REGEX=PCT (count-.*=10, 'BM_Copy cpu_time=10')",
        text));
  }
  if (equals != std::string::npos) {
    try {
      effect.test = std::regex(text.substr(0, equals));
    } catch (const std::regex_error& e) {
      throw Error(fmt::format("--min-effect {}: not a regex: {}", text, e.what()));
    }
  }
  return effect;
}

double min_effect_for(const SeriesKey& key, const std::vector<MinEffect>& effects) {
  const std::string with_measure = fmt::format("{} {}", key.test, key.sink);
  double pct = kDefaultMinEffectPct;
  for (const MinEffect& effect : effects) {
    if (!effect.test || std::regex_match(key.test, *effect.test) ||
        std::regex_match(with_measure, *effect.test)) {
      pct = effect.pct;
    }
  }
  return pct;
}

}  // namespace iobench::history
