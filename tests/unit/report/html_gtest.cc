// The HTML report's building blocks: escaping, sortable cells, and the Content-Security-Policy's
// SHA-256 (FIPS 180-4 and RFC 4648 test vectors).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "driver/report/html.hpp"
#include "driver/report/html_assets.hpp"
#include "driver/report/html_csp.hpp"

namespace iobench::report {
namespace {

std::string hex(const std::array<std::uint8_t, 32>& digest) {
  std::string out;
  for (const auto byte : digest) out += fmt::format("{:02x}", byte);
  return out;
}

std::string b64(std::string_view text) {
  return base64(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

TEST(Html, EscapesMarkupQuotesAndControlCharacters) {
  EXPECT_EQ(html::escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(html::escape(R"(a&b"c'd)"), "a&amp;b&quot;c&#39;d");
  EXPECT_EQ(html::escape("tab\there\nline\x01\x1f"), "tab\there\nline  ");
  EXPECT_EQ(html::escape("µs · 1.5×"), "µs · 1.5×");  // UTF-8 passes through
}

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

TEST(Sha256, MatchesTheStandardsVectors) {
  EXPECT_EQ(hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the padding needs a second block.
  EXPECT_EQ(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(sha256(std::string(1000, 'a'))),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST(Base64, MatchesRfc4648) {
  EXPECT_EQ(b64(""), "");
  EXPECT_EQ(b64("f"), "Zg==");
  EXPECT_EQ(b64("fo"), "Zm8=");
  EXPECT_EQ(b64("foo"), "Zm9v");
  EXPECT_EQ(b64("foob"), "Zm9vYg==");
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");
}

TEST(ContentSecurityPolicy, LoadsNothingAndRunsOnlyTheReportsScript) {
  const std::string policy = content_security_policy(report_script());
  const auto digest = sha256(report_script());
  EXPECT_EQ(policy, "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-" +
                        base64(digest.data(), digest.size()) + "'; img-src data:");
  EXPECT_NE(content_security_policy("alert(1)"), policy);
}

}  // namespace
}  // namespace iobench::report
