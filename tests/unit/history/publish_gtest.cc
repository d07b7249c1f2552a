// history publish on histories built in memory: which series and which regressions the site
// shows, the feed's ids, names that are no file names, and the folder it replaces whole.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "common/error.hpp"
#include "driver/history/publish.hpp"
#include "driver/report/compare.hpp"
#include "history_builder.hpp"

namespace iobench::history {
namespace {

namespace fs = std::filesystem;
using test::History;

// Three runs at 0.1 s (sessions enough to learn their spread), then one 20 % slower: check's
// regression at the newest run.
History two_commits() {
  History h = History::sessions_then(3, 0.12);
  h.timelines = build_timelines(h.data);
  return h;
}

// `levels` runs each, at each level of `slow`: a change point at every step.
History stepped(std::initializer_list<double> slow_levels, int runs_each = 8) {
  History h;
  int i = 0;
  for (const double level : slow_levels) {
    for (int k = 0; k < runs_each; ++k, ++i) {
      h.add_run(fmt::format("c{:07d}", i));
      h.add_all(level);
    }
  }
  h.timelines = build_timelines(h.data);
  return h;
}

TEST(HistorySite, EverySeriesHasAPageNamedByItsHashAndItsLatestMedian) {
  const History h = two_commits();
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  ASSERT_EQ(site.series.size(), 3u);
  EXPECT_EQ(site.series[0].page, "series-01aabbccddeeff00.html");
  EXPECT_EQ(site.series[1].page, "series-02aabbccddeeff00.html");
  EXPECT_EQ(site.series[2].page, "series-03aabbccddeeff00.html");
  ASSERT_TRUE(site.series[0].latest_median_s);
  EXPECT_NEAR(*site.series[0].latest_median_s, 0.12, 0.001);
  EXPECT_FALSE(site.series[2].latest_median_s);  // unverified: no row counts
  EXPECT_EQ(site.updated, "2026-01-01T00:04:00Z");
  EXPECT_EQ(site.feed_id, "urn:iobench:history:" + hex_hash64("h.sqlite"));
}

TEST(HistorySite, ChecksRegressionAtTheNewestRunIsOpenWithTheFullHashesAsItsFeedId) {
  const History h = two_commits();
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  ASSERT_EQ(site.regressions.size(), 1u);
  const SiteRegression& r = site.regressions[0];
  EXPECT_EQ(r.series, 0u);
  EXPECT_EQ(r.source, RegressionSource::kNewestRun);
  EXPECT_EQ(r.change_id, "01aabbcc@0004ffff");
  EXPECT_EQ(r.atom_id, "urn:iobench:change:01aabbccddeeff00@0004ffffeeeedddd");
  EXPECT_EQ(r.updated, "2026-01-01T00:04:00Z");
  EXPECT_EQ(r.run->labels.commit, "bbbb2222");
  EXPECT_EQ(r.summary.rfind("regression 01aabbcc@0004ffff slow (in.txt, pipe)", 0), 0u);
}

// One comparison, one p: the regressions page's cell says it as `history check`'s line does.
TEST(HistorySite, TheRegressionsPageSaysThePAsCheckDoes) {
  const History h = two_commits();
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  ASSERT_EQ(site.regressions.size(), 1u);
  const SiteRegression& r = site.regressions[0];
  ASSERT_TRUE(r.p_value);
  EXPECT_NE(r.summary.find(report::p_phrase(r.p_value) + ","), std::string::npos) << r.summary;
  std::string cell = report::p_text(*r.p_value);
  if (cell.starts_with("<")) cell.replace(0, 1, "&lt;");
  const std::string page = render_regressions_page(site, SiteText{});
  EXPECT_NE(page.find(">" + cell + "</td>"), std::string::npos) << page;
}

TEST(HistorySite, AnAcknowledgedRegressionIsNotOpen) {
  History h = two_commits();
  h.data.acks.push_back(
      {"01aabbcc@0004ffff", "01aabbccddeeff00", "0004ffffeeeedddd", "on purpose", "me", "t"});
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  EXPECT_TRUE(site.regressions.empty());
}

TEST(HistorySite, ASlowerLevelIsOpenUntilAcknowledgedOrTakenBack) {
  // 0.1 s, then 0.12 s from run 9: a change point, listed for check's regression of the newest
  // run too (its id would change with every new run).
  History up = stepped({0.1, 0.12});
  SiteModel site = build_site_model(up.data, up.timelines, "h.sqlite");
  ASSERT_EQ(site.series[0].changes.size(), 1u);
  ASSERT_EQ(site.regressions.size(), 1u);
  EXPECT_EQ(site.regressions[0].source, RegressionSource::kChangePoint);
  EXPECT_EQ(site.regressions[0].change_id, "01aabbcc@0009ffff");
  EXPECT_EQ(site.regressions[0].atom_id, "urn:iobench:change:01aabbccddeeff00@0009ffffeeeedddd");
  EXPECT_EQ(site.regressions[0].updated, "2026-01-01T00:09:00Z");
  EXPECT_NEAR(site.regressions[0].after_s / site.regressions[0].before_s, 1.2, 0.01);
  // Check, where it still flags the level, names it as the change point does (issue 47).
  const CheckReport check = up.check();
  const CellCheck& slow = History::cell(check, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kRegression);
  EXPECT_EQ(slow.change_id, "01aabbcc@0009ffff");

  up.data.acks.push_back({"01aabbcc@0009ffff", "", "", "bigger buffers", "me", "t"});
  EXPECT_TRUE(build_site_model(up.data, up.timelines, "h.sqlite").regressions.empty());

  // Up at run 9, back down at run 17: nothing open.
  const History back = stepped({0.1, 0.12, 0.1});
  site = build_site_model(back.data, back.timelines, "h.sqlite");
  EXPECT_EQ(site.series[0].changes.size(), 2u);
  EXPECT_TRUE(site.regressions.empty());

  // Faster is no regression.
  const History down = stepped({0.12, 0.1});
  EXPECT_TRUE(build_site_model(down.data, down.timelines, "h.sqlite").regressions.empty());
}

TEST(HistorySite, TheFeedIsAtomWithOneEntryPerOpenRegression) {
  const History h = two_commits();
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  SiteText text;
  const std::string feed = render_feed(site, text);
  EXPECT_EQ(feed.rfind("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed "
                       "xmlns=\"http://www.w3.org/2005/Atom\">",
                       0),
            0u);
  EXPECT_NE(feed.find("<id>" + site.feed_id + "</id>"), std::string::npos);
  EXPECT_NE(feed.find("<updated>2026-01-01T00:04:00Z</updated>"), std::string::npos);
  EXPECT_NE(feed.find("<id>urn:iobench:change:01aabbccddeeff00@0004ffffeeeedddd</id>"),
            std::string::npos);
  EXPECT_NE(feed.find(R"(href="series-01aabbccddeeff00.html#change-01aabbcc@0004ffff")"),
            std::string::npos);
  std::size_t entries = 0;
  for (auto at = feed.find("<entry>"); at != std::string::npos; at = feed.find("<entry>", at + 1))
    ++entries;
  EXPECT_EQ(entries, 1u);
  EXPECT_EQ(feed.find("rel=\"self\""), std::string::npos);
  text.base_url = "https://bench.example/site";
  const std::string absolute = render_feed(site, text);
  EXPECT_NE(absolute.find(R"(href="https://bench.example/site/series-01aabbccddeeff00.html#)"),
            std::string::npos);
  EXPECT_NE(
      absolute.find(
          R"(rel="self" type="application/atom+xml" href="https://bench.example/site/feed.atom")"),
      std::string::npos);
}

// Every "PAGE#ID" link of the feed and of the regressions page names an id that PAGE has.
void expect_anchors_exist(const History& h) {
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  const SiteText text;
  std::map<std::string, std::string> pages;
  for (std::size_t s = 0; s < site.series.size(); ++s) {
    pages[site.series[s].page] = render_series_page(site, s, h.data, text);
  }
  std::size_t links = 0;
  for (const std::string& from : {render_feed(site, text), render_regressions_page(site, text)}) {
    const std::regex link(R"re(href="(series-[0-9a-f]+\.html)#([^"]+)")re");
    for (std::sregex_iterator it(from.begin(), from.end(), link), end; it != end; ++it, ++links) {
      const std::string page = (*it)[1];
      const std::string id = (*it)[2];
      ASSERT_EQ(pages.count(page), 1u) << page;
      EXPECT_NE(pages[page].find("id=\"" + id + "\""), std::string::npos) << page << "#" << id;
    }
  }
  EXPECT_GE(links, 2u);  // the feed's entry and the regressions page's row at least
}

TEST(HistorySite, EveryAnchorTheFeedAndTheRegressionsPageLinkToExists) {
  expect_anchors_exist(two_commits());         // check's regression of the newest run
  expect_anchors_exist(stepped({0.1, 0.12}));  // a change point
}

TEST(HistorySite, ChecksRegressionIsPinnedToTheRunWhereTheSlowerLevelCameIn) {
  // c1 to c3 at 0.1 s, c4 and c5 at 0.12 s: too few slow runs for a change point, and check's
  // regression of c5 came in at c4.
  History h;
  for (const char* commit : {"c1", "c2", "c3"}) {
    h.add_run(commit);
    h.add_all(0.1);
  }
  for (const char* commit : {"c4", "c5"}) {
    h.add_run(commit);
    h.add_all(0.12);
  }
  h.timelines = build_timelines(h.data);
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  ASSERT_TRUE(site.series[0].changes.empty());
  ASSERT_EQ(site.regressions.size(), 1u);
  EXPECT_EQ(site.regressions[0].source, RegressionSource::kNewestRun);
  EXPECT_EQ(site.regressions[0].run->labels.commit, "c4");
  EXPECT_EQ(site.regressions[0].change_id, "01aabbcc@0004ffff");
  EXPECT_EQ(site.regressions[0].updated, "2026-01-01T00:04:00Z");
  expect_anchors_exist(h);
  // Check names the change as the feed does (issue 47: check said c5's run, the feed c4's), in
  // the entry's text too; acking that id passes check and closes the entry.
  CheckOptions options;
  options.allow_unverified = true;
  const CheckReport check = h.check(options);
  EXPECT_EQ(History::cell(check, "slow").change_id, site.regressions[0].change_id);
  EXPECT_EQ(site.regressions[0].summary.rfind("regression 01aabbcc@0004ffff ", 0), 0u)
      << site.regressions[0].summary;
  EXPECT_EQ(check.exit_status, kExitRunFailed);
  h.data.acks.push_back(
      {"01aabbcc@0004ffff", "01aabbccddeeff00", "0004ffffeeeedddd", "on purpose", "me", "t"});
  EXPECT_EQ(h.check(options).exit_status, kExitOk);
  EXPECT_TRUE(build_site_model(h.data, h.timelines, "h.sqlite").regressions.empty());
}

TEST(HistorySite, ANameWithSlashesSpacesAndMarkupStaysTextAndOutOfFileNames) {
  History h = two_commits();
  h.data.series[1].key.test = "odd / name <b>";
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  const SiteText text;
  const std::string index = render_site_index(site, text);
  EXPECT_NE(index.find(R"(<a href="series-02aabbccddeeff00.html">odd / name &lt;b&gt;</a>)"),
            std::string::npos);
  EXPECT_EQ(index.find("<b>"), std::string::npos);
  const std::string page = render_series_page(site, 1, h.data, text);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_NE(page.find("<title>odd / name &lt;b&gt; (in.txt, pipe) · iobench history</title>"),
            std::string::npos);
  EXPECT_EQ(render_sparkline(site.series[1]).rfind("<svg class=\"spark\"", 0), 0u);
  EXPECT_EQ(render_sparkline(site.series[2]), "-");  // nothing counts
}

TEST(HistorySite, TheSeriesPageHasEveryRunItsChangeAndItsAcknowledgement) {
  History h = stepped({0.1, 0.12});
  h.data.acks.push_back({"01aabbcc@0009ffff", "01aabbccddeeff00", "0009ffffeeeedddd",
                         "a <bigger> buffer", "me", "t"});
  const SiteModel site = build_site_model(h.data, h.timelines, "h.sqlite");
  const std::string page = render_series_page(site, 0, h.data, SiteText{});
  const std::string runs_table = page.substr(
      page.find(R"(id="runs")"), page.find(R"(id="changes")") - page.find(R"(id="runs")"));
  std::size_t runs = 0;
  for (auto at = runs_table.find("<tr><td"); at != std::string::npos;
       at = runs_table.find("<tr><td", at + 1))
    ++runs;
  EXPECT_EQ(runs, 16u);
  EXPECT_NE(page.find(R"(<span id="change-01aabbcc@0009ffff">)"), std::string::npos);
  EXPECT_NE(page.find("by me at t: a &lt;bigger&gt; buffer"), std::string::npos);
  EXPECT_NE(page.find("+20.0 %"), std::string::npos);
  std::size_t points = 0;
  for (auto at = page.find("<circle"); at != std::string::npos; at = page.find("<circle", at + 1))
    ++points;
  EXPECT_EQ(points, 80u);  // 16 runs of 5 rows
}

class SiteFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "iobench-site-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }
  static std::size_t entries(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
  }
  fs::path root_;
};

TEST_F(SiteFolder, AnotherFolderIsRefusedAndLeftAsItWas) {
  const History h = two_commits();
  fs::create_directories(root_ / "mine");
  std::ofstream(root_ / "mine" / "notes.txt") << "keep";
  std::ostringstream progress;
  try {
    publish_site(h.data, h.timelines, root_ / "mine", SiteText{}, progress);
    FAIL() << "a folder that is not a site was replaced";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    EXPECT_NE(std::string(e.what()).find("is not empty and not a site published before"),
              std::string::npos);
  }
  EXPECT_EQ(entries(root_), 1u);  // no build folder left
  EXPECT_EQ(entries(root_ / "mine"), 1u);
  std::ofstream(root_ / "file") << "x";
  EXPECT_THROW(check_site_folder(root_ / "file"), Error);
}

TEST_F(SiteFolder, ASiteIsWrittenWholeAndReplacesTheSitePublishedBefore) {
  const History h = two_commits();
  std::ostringstream progress;
  const fs::path site = root_ / "public" / "site";
  PublishOutcome outcome = publish_site(h.data, h.timelines, site, SiteText{}, progress);
  EXPECT_EQ(outcome.series, 3u);
  EXPECT_EQ(outcome.regressions, 1u);
  EXPECT_EQ(outcome.files, 7u);  // 3 series pages, index, regressions, feed, marker
  EXPECT_EQ(entries(site), 7u);
  EXPECT_TRUE(fs::exists(site / kSiteMarker));
  EXPECT_TRUE(fs::exists(site / "series-01aabbccddeeff00.html"));
  std::ofstream(site / "stale.html") << "from before";
  outcome = publish_site(h.data, h.timelines, site, SiteText{}, progress);
  EXPECT_EQ(entries(site), 7u);  // the old site went whole
  EXPECT_FALSE(fs::exists(site / "stale.html"));
  EXPECT_EQ(entries(root_ / "public"), 1u);  // no build folder and no old site left
  EXPECT_EQ(progress.str(), "");             // each took less than a second
  std::ostringstream every_page;
  publish_site(h.data, h.timelines, site, SiteText{}, every_page, std::chrono::milliseconds(0));
  EXPECT_EQ(every_page.str(),
            "iobench history publish: 1 of 3 series pages\n"
            "iobench history publish: 2 of 3 series pages\n"
            "iobench history publish: 3 of 3 series pages\n");
  fs::create_directories(root_ / "empty");
  publish_site(h.data, h.timelines, root_ / "empty", SiteText{}, progress);
  EXPECT_EQ(entries(root_ / "empty"), 7u);
}

}  // namespace
}  // namespace iobench::history
