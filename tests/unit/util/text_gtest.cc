// Text for other readers: shell quoting, sh-like word splitting (for `bench --no-shell`), and
// escaping for HTML and XML.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/util/text.hpp"

namespace iobench::util {
namespace {

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  EXPECT_TRUE(split_words(text, words)) << text;
  return words;
}

TEST(SplitWords, BlanksSeparateAndQuotesKeepTextTogether) {
  EXPECT_EQ(words_of("  grep  -c\tx {input} "),
            (std::vector<std::string>{"grep", "-c", "x", "{input}"}));
  EXPECT_EQ(words_of(R"(awk '{print $1}' "a b" c\ d)"),
            (std::vector<std::string>{"awk", "{print $1}", "a b", "c d"}));
  EXPECT_EQ(words_of(R"(x"y z"'w' "q\"\\\$\n")"), (std::vector<std::string>{"xy zw", R"(q"\$\n)"}));
  EXPECT_EQ(words_of("''"), std::vector<std::string>{""});
  EXPECT_TRUE(words_of("   ").empty());
}

TEST(SplitWords, RefusesAnUnterminatedQuoteOrTrailingBackslash) {
  std::vector<std::string> words;
  EXPECT_FALSE(split_words("grep 'x", words));
  EXPECT_FALSE(split_words("grep \"x", words));
  EXPECT_FALSE(split_words("grep x\\", words));
}

TEST(SplitWords, JoinArgvOutputSplitsBackToTheSameArgv) {
  const std::vector<std::string> argv{"printf", "%s\\n", "it's", "a b", "$HOME", ""};
  EXPECT_EQ(words_of(join_argv(argv)), argv);
}

TEST(EscapeMarkup, EscapesMarkupQuotesAndControlCharacters) {
  EXPECT_EQ(escape_markup("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(escape_markup(R"(a&b"c'd)"), "a&amp;b&quot;c&#39;d");
  EXPECT_EQ(escape_markup("tab\there\nline\x01\x1f"), "tab\there\nline  ");
  EXPECT_EQ(escape_markup("µs · 1.5×"), "µs · 1.5×");  // UTF-8 passes through
}

TEST(EscapeTableCell, APipeIsEscapedAndALineBreakIsASpace) {
  EXPECT_EQ(escape_table_cell("grep -c x | wc -l"), "grep -c x \\| wc -l");
  EXPECT_EQ(escape_table_cell("two\nlines\r\n"), "two lines  ");
  EXPECT_EQ(escape_table_cell("a*b_c"), "a*b_c");  // emphasis is the caller's to escape
}

TEST(GithubEscape, PercentAndLineBreaksAndInPropertiesColonAndComma) {
  EXPECT_EQ(github_escape_data("100 %\r\nnext: a, b"), "100 %25%0D%0Anext: a, b");
  EXPECT_EQ(github_escape_property("100 %\r\nnext: a, b"), "100 %25%0D%0Anext%3A a%2C b");
}

TEST(CellName, TheTestOnItsInputIntoItsSink) {
  EXPECT_EQ(cell_name("copy", "in.txt", "pipe", true), "'copy' on in.txt (pipe sink)");
  EXPECT_EQ(cell_name("copy", "", "null", true), "'copy' (null sink)");
  EXPECT_EQ(cell_name("copy", "in.txt", "file", false), "copy on in.txt (file sink)");
}

TEST(ClosestName, ATypoOfOneOrTwoEditsFindsTheName) {
  const std::vector<std::string> names{"run", "summarize", "compare", "report", "history"};
  EXPECT_EQ(closest_name("sumarize", names), "summarize");   // a letter left out
  EXPECT_EQ(closest_name("summarise", names), "summarize");  // one replaced
  EXPECT_EQ(closest_name("comapre", names), "compare");      // two neighbours swapped
  EXPECT_EQ(closest_name("hsitroy", names), "history");      // two swaps: distance 2
  EXPECT_EQ(closest_name("rnu", names), "run");
  EXPECT_EQ(closest_name("rp", names), std::nullopt);  // 2 edits of 2 letters: a guess, not a typo
  EXPECT_EQ(closest_name("plotter", names), std::nullopt);  // nothing within 2
}

TEST(ClosestName, TwoNamesAsNearAreNoHint) {
  EXPECT_EQ(closest_name("cat", {"cut", "cap"}), std::nullopt);
  EXPECT_EQ(closest_name("cutx", {"cut", "cap"}), "cut");
}

// The first repeat in order, not the first in sorted order, and the earliest of its name.
TEST(FirstRepeat, NamesTheFirstRepeatInOrderAndItsEarliestTwin) {
  const auto name = [](const std::string& s) -> const std::string& { return s; };
  using Pair = std::pair<std::size_t, std::size_t>;
  EXPECT_EQ(first_repeat(std::vector<std::string>{"a", "b", "c"}, name), std::nullopt);
  EXPECT_EQ(first_repeat(std::vector<std::string>{}, name), std::nullopt);
  // "z" repeats at 2, before "a" repeats at 3, though "a" sorts first.
  EXPECT_EQ(first_repeat(std::vector<std::string>{"z", "a", "z", "a"}, name), Pair(0, 2));
  // Three of one name: the second is the repeat, the first its twin.
  EXPECT_EQ(first_repeat(std::vector<std::string>{"x", "b", "b", "b"}, name), Pair(1, 2));
  EXPECT_EQ(first_repeat(std::vector<std::string>{"b", "x", "y", "b", "x"}, name), Pair(0, 3));
}

}  // namespace
}  // namespace iobench::util
