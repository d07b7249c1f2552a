// Command lines as text: shell quoting and sh-like word splitting (for `bench --no-shell`).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/util/text.hpp"

namespace iobench {
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

}  // namespace
}  // namespace iobench
