// The whole HTML page: self-contained (nothing loads from anywhere), every string escaped (a test
// named <script>alert(1)</script> stays text), every test and every run there, the record and
// the command beside them.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "driver/report/html_report.hpp"
#include "tests/unit/fixture_paths.hpp"
#include "tests/unit/occurrences.hpp"
#include "tests/unit/report/html_test_runs.hpp"

namespace iobench::report {
namespace {

using testing::kMarkupTest;
using testing::write_test_runs;

std::string page_of(const std::vector<std::filesystem::path>& files) {
  return render_html_report(build_report_model(files, ""), HtmlReportOptions{});
}

TEST(HtmlReport, IsOnePageThatLoadsNothing) {
  const iobench::test::TempDir dir("html-page");
  const std::string page = page_of({write_test_runs(dir)});
  EXPECT_EQ(page.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  EXPECT_EQ(page.substr(page.size() - 8), "</html>\n");
  EXPECT_NE(page.find(R"(<meta http-equiv="Content-Security-Policy" content="default-src 'none';)"),
            std::string::npos);
  // No resource from outside: no src, no link, no url(), no import; the only http is the SVG
  // namespace, which is a name, not a request.
  EXPECT_EQ(iobench::test::occurrences(page, " src="), 0u);
  EXPECT_EQ(iobench::test::occurrences(page, "<link"), 0u);
  EXPECT_EQ(iobench::test::occurrences(page, "url("), 0u);
  EXPECT_EQ(iobench::test::occurrences(page, "@import"), 0u);
  EXPECT_EQ(iobench::test::occurrences(page, "://"),
            iobench::test::occurrences(page, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_EQ(iobench::test::occurrences(page, "<script"), 1u);
  EXPECT_EQ(iobench::test::occurrences(page, "<style>"), 1u);
}

TEST(HtmlReport, EscapesEveryStringFromTheFiles) {
  const iobench::test::TempDir dir("html-escape");
  const std::string page = page_of({write_test_runs(dir)});
  EXPECT_EQ(page.find(kMarkupTest), std::string::npos);
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("Test CPU &lt;9000&gt;"), std::string::npos);  // from the meta file
}

TEST(HtmlReport, HasEveryTestEveryRunTheRecordAndTheCommand) {
  const iobench::test::TempDir dir("html-all");
  const std::string page = page_of({write_test_runs(dir)});
  for (const std::string test :
       {"ref", "fast", "&lt;script&gt;alert(1)&lt;/script&gt;", "slow-one"}) {
    // Two sections, each with a times, a counters and a disturbance table (the rows have the
    // others_cpu_s and steal_s columns), and each section's answer ranks it (docs/reports.md,
    // "The answer").
    EXPECT_EQ(iobench::test::occurrences(page, "<tr data-test=\"" + test + "\">"), 8u) << test;
    EXPECT_EQ(
        iobench::test::occurrences(page, "<g class=\"chart-row\" data-test=\"" + test + "\">"), 2u)
        << test;
    EXPECT_EQ(
        iobench::test::occurrences(page, "type=\"checkbox\" checked data-test=\"" + test + "\""),
        1u)
        << test;
  }
  EXPECT_EQ(iobench::test::occurrences(page, "<circle class=\"run\""),
            46u);  // 48 rows, 2 timed out
  EXPECT_EQ(iobench::test::occurrences(page, "<section class=\"place\""), 2u);
  EXPECT_NE(page.find("input in.txt · sink null"), std::string::npos);
  EXPECT_NE(page.find("× faster ["), std::string::npos);
  EXPECT_NE(page.find(">1 timed out</span>"), std::string::npos);
  EXPECT_NE(page.find("<dt>CPU</dt>"), std::string::npos);
  EXPECT_NE(page.find("iobench run " + (dir / "tiny.json").string() +
                      " --filter &#39;f|s&#39; "
                      "--repeats 6"),
            std::string::npos);
  EXPECT_NE(page.find("\n  &quot;inputs&quot;: [&quot;in.txt&quot;],\n  &quot;repeats&quot;: 3,\n"),
            std::string::npos);
  EXPECT_NE(page.find("  &quot;strategies&quot;: [\n    {&quot;name&quot;: &quot;ref&quot;, "
                      "&quot;command&quot;: [&quot;cat&quot;, &quot;{input}&quot;]},\n    "
                      "{&quot;name&quot;: &quot;fast&quot;}\n  ]\n}"),
            std::string::npos);
  EXPECT_EQ(iobench::test::occurrences(page, "null sink: nobody can see what a program writes"),
            1u);
}

TEST(HtmlReport, AFileWithoutItsMetaFileStillMakesAPage) {
  const std::string page = page_of({iobench::test::kReportFixtures / "gnu-time.tsv"});
  EXPECT_NE(page.find("no meta file beside it"), std::string::npos);
  EXPECT_NE(page.find("(no input or sink column)"), std::string::npos);
  EXPECT_EQ(iobench::test::occurrences(page, "<section class=\"place\""), 1u);
}

TEST(HtmlReport, IsWrittenWholeOrNotAtAll) {
  const iobench::test::TempDir dir("html-write");
  const auto runs = write_test_runs(dir);
  write_html_report({runs}, dir / "out/report.html", HtmlReportOptions{"My <title>", ""});
  std::ifstream in(dir / "out/report.html");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("<title>My &lt;title&gt;</title>"), std::string::npos);
  EXPECT_THROW(write_html_report({dir / "nope.tsv"}, dir / "bad.html", {}), Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.html"));
  std::filesystem::create_directory(dir / "a-folder");
  EXPECT_THROW(write_html_report({runs}, dir / "a-folder", {}), Error);
}

}  // namespace
}  // namespace iobench::report
