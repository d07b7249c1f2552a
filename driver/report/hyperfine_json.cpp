#include "driver/report/hyperfine_json.hpp"

#include <cmath>
#include <ostream>

#include "driver/util/json.hpp"

namespace iobench::report {

using util::number_or_null;

namespace {

using Json = nlohmann::ordered_json;

Json result_json(const HyperfineResult& result) {
  Json r;
  r["command"] = result.command;
  r["mean"] = number_or_null(result.mean_s);
  r["stddev"] = number_or_null(result.stddev_s);
  r["median"] = number_or_null(result.median_s);
  if (result.user_mean_s) r["user"] = number_or_null(*result.user_mean_s);
  if (result.system_mean_s) r["system"] = number_or_null(*result.system_mean_s);
  r["min"] = number_or_null(result.min_s);
  r["max"] = number_or_null(result.max_s);
  r["times"] = result.times_s;
  r["exit_codes"] = result.exit_codes;
  if (result.max_rss_kib) {
    Json memory = Json::array();
    for (const double kib : *result.max_rss_kib) memory.push_back(std::llround(kib * 1024));
    r["memory_usage_byte"] = std::move(memory);
  }
  if (!result.parameters.empty()) {
    Json parameters = Json::object();
    for (const auto& [name, value] : result.parameters) parameters[name] = value;
    r["parameters"] = std::move(parameters);
  }
  if (!result.iobench.is_null()) r["iobench"] = result.iobench;
  return r;
}

}  // namespace

void write_hyperfine_json(const std::vector<HyperfineResult>& results,
                          const nlohmann::ordered_json& document_extras, std::ostream& out) {
  Json list = Json::array();
  for (const HyperfineResult& result : results) list.push_back(result_json(result));
  Json doc;
  doc["results"] = std::move(list);
  if (!document_extras.is_null()) doc["iobench"] = document_extras;
  out << doc.dump(2) << '\n';
}

}  // namespace iobench::report
