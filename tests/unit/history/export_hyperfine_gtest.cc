// `history export --format hyperfine`, through report/hyperfine_json: an import's times back as
// hyperfine wrote them, in order, without the CPU times and max RSS an import does not keep;
// iobench's own series with theirs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "driver/history/export_imported.hpp"
#include "history_builder.hpp"

namespace iobench::history {
namespace {

using test::History;

// The builder's three series (2 KiB of max RSS each row) and one hyperfine import, `sleep 0.1`,
// its three runs given out of order (repeats 1, 3, 2: 1 s, 2 s, 3 s).
History with_an_import() {
  History h;
  StoredSeries imported;
  imported.series_id = 4;
  imported.series_hash = "04aabbccddeeff00";
  imported.key.test = "sleep 0.1";
  imported.key.tool = "hyperfine";
  h.data.series.push_back(imported);
  h.add_run("c0000001");
  h.add_all(0.1);
  for (StoredSample& s : h.data.samples) s.max_rss_kib = 2;
  const std::pair<int, double> kRuns[] = {{1, 1.0}, {3, 2.0}, {2, 3.0}};
  for (const auto& [repeat, elapsed_s] : kRuns) {
    StoredSample s;
    s.run_id = h.data.runs.back().run_id;
    s.series_id = imported.series_id;
    s.repeat = repeat;
    s.elapsed_s = elapsed_s;
    s.exit_code = 0;
    h.data.samples.push_back(s);
  }
  h.timelines = build_timelines(h.data);
  return h;
}

TEST(HistoryExportHyperfine, AnImportsTimesComeBackInOrderWithoutWhatItDidNotKeep) {
  const History h = with_an_import();
  std::vector<Timeline> only_the_import;
  for (const Timeline& t : h.timelines) {
    if (t.series->key.tool == "hyperfine") only_the_import.push_back(t);
  }
  std::ostringstream out;
  write_hyperfine_json(only_the_import, std::nullopt, out);
  EXPECT_EQ(out.str(),
            "{\n  \"results\": [\n    {\n      \"command\": \"sleep 0.1\",\n"
            "      \"mean\": 2.0,\n      \"stddev\": 1.0,\n      \"median\": 2.0,\n"
            "      \"min\": 1.0,\n      \"max\": 3.0,\n"
            "      \"times\": [\n        1.0,\n        3.0,\n        2.0\n      ],\n"
            "      \"exit_codes\": [\n        0,\n        0,\n        0\n      ]\n    }\n  ]\n}\n");
}

TEST(HistoryExportHyperfine, IobenchsOwnSeriesHaveTheirCpuTimesAndMaxRss) {
  const History h = with_an_import();
  std::ostringstream out;
  write_hyperfine_json(h.timelines, std::nullopt, out);
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(out.str());
  ASSERT_EQ(doc["results"].size(), 3u);  // the unverified series has no row that counts
  const auto& slow = doc["results"][0];
  EXPECT_EQ(slow["command"], "slow (in.txt, pipe)");
  EXPECT_DOUBLE_EQ(slow["user"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(slow["system"].get<double>(), 0.02);
  EXPECT_EQ(slow["times"].size(), 5u);
  EXPECT_EQ(slow["memory_usage_byte"],
            nlohmann::ordered_json::array({2048, 2048, 2048, 2048, 2048}));
  EXPECT_FALSE(slow.contains("iobench"));
  EXPECT_FALSE(doc["results"][2].contains("user"));
}

}  // namespace
}  // namespace iobench::history
