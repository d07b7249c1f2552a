// The one writer of hyperfine's JSON schema: its keys in hyperfine's order, null where there is
// no figure, max RSS in bytes, parameters only when there are some, the document's extras last;
// CPU times, max RSS and iobench's extras left out where a result has none (an import).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "driver/report/hyperfine_json.hpp"

namespace iobench::report {
namespace {

HyperfineResult one_run() {
  HyperfineResult r;
  r.command = "cat {input}";
  r.mean_s = 0.5;
  r.stddev_s = NAN;  // one run
  r.median_s = 0.5;
  r.user_mean_s = 0.25;
  r.system_mean_s = 0.125;
  r.min_s = 0.5;
  r.max_s = 0.5;
  r.times_s = {0.5};
  r.exit_codes = {0};
  r.max_rss_kib = {1.5};
  r.iobench = {{"sink", "pipe"}};
  return r;
}

TEST(HyperfineJson, KeysInHyperfinesOrderNullWithoutAFigureAndRssInBytes) {
  std::ostringstream out;
  write_hyperfine_json({one_run()}, nullptr, out);
  EXPECT_EQ(out.str(),
            "{\n  \"results\": [\n    {\n      \"command\": \"cat {input}\",\n"
            "      \"mean\": 0.5,\n      \"stddev\": null,\n      \"median\": 0.5,\n"
            "      \"user\": 0.25,\n      \"system\": 0.125,\n      \"min\": 0.5,\n"
            "      \"max\": 0.5,\n      \"times\": [\n        0.5\n      ],\n"
            "      \"exit_codes\": [\n        0\n      ],\n"
            "      \"memory_usage_byte\": [\n        1536\n      ],\n"
            "      \"iobench\": {\n        \"sink\": \"pipe\"\n      }\n    }\n  ]\n}\n");
}

TEST(HyperfineJson, ParametersAndTheDocumentsExtrasAreWrittenWhenGiven) {
  HyperfineResult r = one_run();
  r.parameters = {{"n", "2"}, {"mode", "fast"}};
  std::ostringstream out;
  write_hyperfine_json({r}, {{"elapsed_figure", "raw"}}, out);
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(out.str());
  EXPECT_EQ(doc["results"][0]["parameters"].dump(), R"({"n":"2","mode":"fast"})");
  EXPECT_EQ(doc.back().dump(), R"({"elapsed_figure":"raw"})");
  EXPECT_EQ(doc.begin().key(), "results");
}

TEST(HyperfineJson, WhatAResultDoesNotHaveIsLeftOut) {
  HyperfineResult r = one_run();
  r.user_mean_s.reset();
  r.system_mean_s.reset();
  r.max_rss_kib.reset();
  r.iobench = nullptr;
  std::ostringstream out;
  write_hyperfine_json({r}, nullptr, out);
  EXPECT_EQ(out.str(),
            "{\n  \"results\": [\n    {\n      \"command\": \"cat {input}\",\n"
            "      \"mean\": 0.5,\n      \"stddev\": null,\n      \"median\": 0.5,\n"
            "      \"min\": 0.5,\n      \"max\": 0.5,\n      \"times\": [\n        0.5\n      ],\n"
            "      \"exit_codes\": [\n        0\n      ]\n    }\n  ]\n}\n");
}

}  // namespace
}  // namespace iobench::report
