#include "driver/config/decide_keys.hpp"

namespace iobench::config::detail {
namespace {

constexpr const char* kMarginRule = "must be a percentage above 0 and below 100";

}  // namespace

void parse_decide(const Validator& v, const Json& root, Config& config) {
  // A precision target or a time to fill already lets a cell stop early; a decided comparison is
  // the other reason.
  config.decide = config.repeats_ci_pct > 0 || config.repeats_fill_s > 0;
  if (const auto it = root.find("decide"); it != root.end())
    config.decide = v.boolean(*it, "decide");
  if (const auto it = root.find("decide_margin_pct"); it != root.end()) {
    if (!it->is_number()) v.fail("decide_margin_pct", kMarginRule);
    config.decide_margin_pct = it->get<double>();
  }
}

void check_decide(const Validator& v, const Config& config) {
  if (!(config.decide_margin_pct > 0) || config.decide_margin_pct >= 100)
    v.fail("decide_margin_pct", kMarginRule);
}

}  // namespace iobench::config::detail
