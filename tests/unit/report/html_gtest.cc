// The HTML report's building blocks: sortable cells, and the Content-Security-Policy
// (its hash is computed at build time: tests/e2e/report_csp_hash.sh checks it against Python's).
#include <gtest/gtest.h>

#include <string>

#include "driver/report/html.hpp"
#include "driver/report/html_csp.hpp"

namespace iobench::report {
namespace {

TEST(Html, NumberCellsCarryTheirSortValueAndEmptyOnesSortLast) {
  html::Table table;
  table.css_class = "sortable";
  table.columns = {{"test", "", true}, {"median", "the median", false}};
  table.rows.push_back({"a<b", {html::text_cell("a<b"), html::number_cell(0.00125, "1.25 ms")}});
  table.rows.push_back({"c", {html::text_cell("c"), html::number_cell(std::nullopt, "")}});
  const std::string out = html::render_table(table);
  EXPECT_NE(
      out.find(
          R"(<tr data-test="a&lt;b"><td class="text">a&lt;b</td><td data-v="0.00125">1.25 ms</td></tr>)"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(<td data-v="">-</td>)"), std::string::npos) << out;
  EXPECT_NE(out.find(R"(<th scope="col" title="the median">median</th>)"), std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(<table class="sortable">)"), std::string::npos);
}

TEST(Html, DefinitionListLeavesOutEmptyValues) {
  EXPECT_EQ(html::definition_list({{"host", "x<y"}, {"kernel", ""}}),
            "<dl><dt>host</dt><dd>x&lt;y</dd></dl>\n");
}

TEST(ContentSecurityPolicy, LoadsNothingAndRunsOnlyOneScriptByItsHash) {
  const std::string policy = content_security_policy();
  const std::string head = "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-";
  const std::string tail = "'; img-src data:";
  ASSERT_EQ(policy.substr(0, head.size()), head) << policy;
  ASSERT_GT(policy.size(), head.size() + tail.size());
  EXPECT_EQ(policy.substr(policy.size() - tail.size()), tail) << policy;
  // A SHA-256 in base64: 32 bytes make 43 characters and one '='.
  const std::string digest = policy.substr(head.size(), policy.size() - head.size() - tail.size());
  ASSERT_EQ(digest.size(), 44u) << digest;
  EXPECT_EQ(
      digest.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
      43u)
      << digest;
  EXPECT_EQ(digest.back(), '=');
}

}  // namespace
}  // namespace iobench::report
