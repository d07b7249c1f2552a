// The completions' model (completion_model.hpp) and the exit-status table (exit_status.hpp):
// values read from CLI11's IsMember, refused options left out, and each command's statuses.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/cli/completion_model.hpp"
#include "driver/cli/exit_status.hpp"

namespace iobench::cli {
namespace {

using Words = std::vector<std::string>;

TEST(CompletionModel, ValuesAreThoseOfTheIsMemberInTheTypeName) {
  EXPECT_EQ(accepted_values("TEXT:{auto,command,mean-time}"),
            (Words{"auto", "command", "mean-time"}));
  EXPECT_EQ(accepted_values("{bash}"), (Words{"bash"}));
  EXPECT_EQ(accepted_values("TEXT"), Words{});
  EXPECT_EQ(accepted_values("INT:{"), Words{});
}

TEST(CompletionModel, AnOptionThereOnlyToBeRefusedIsLeftOut) {
  CLI::App app;
  CLI::App* sub = app.add_subcommand("bench", "Compare commands");
  std::string sort;
  sub->add_option("--sort", sort, "how")->check(CLI::IsMember({"auto", "command"}));
  std::string conclude;
  sub->add_option("-C,--conclude", conclude, "refused")->group(std::string(kRefusedOptionsGroup));
  const std::vector<Subcommand> model = completion_model(app);
  ASSERT_EQ(model.size(), 1u);
  Words names;
  for (const Flag& flag : model[0].flags) names.push_back(flag.name);
  EXPECT_EQ(names, (Words{"--help", "-h", "--sort"}));
  EXPECT_EQ(model[0].flags[2].values, (Words{"auto", "command"}));
  EXPECT_TRUE(model[0].flags[2].takes_value);
}

TEST(ExitStatus, EachCommandListsItsOwnStatusesByCode) {
  std::vector<int> bench;
  for (const ExitStatus& s : exit_statuses("bench")) bench.push_back(s.code);
  EXPECT_EQ(bench, (std::vector<int>{kExitOk, kExitRunFailed, kExitRunFailed, kExitUsage,
                                     kExitCouldNotContinue, kExitNotJudged, kExitInterrupted}));
  std::vector<int> gen;
  for (const ExitStatus& s : exit_statuses("gen")) gen.push_back(s.code);
  EXPECT_EQ(gen, (std::vector<int>{kExitOk, kExitUsage, kExitInterrupted}));
  // Issue 47: history check's 4 was in no --help. A subcommand lists its own; its group, all.
  const auto codes = [](std::string_view command) {
    std::vector<int> out;
    for (const ExitStatus& s : exit_statuses(command)) out.push_back(s.code);
    return out;
  };
  EXPECT_EQ(codes("history check"),
            (std::vector<int>{kExitOk, kExitRunFailed, kExitUsage, kExitNotJudged}));
  EXPECT_EQ(codes("history add"), (std::vector<int>{kExitOk, kExitUsage}));
  EXPECT_EQ(codes("history"),
            (std::vector<int>{kExitOk, kExitRunFailed, kExitUsage, kExitNotJudged}));
  const std::vector<int> iobench = codes("");
  EXPECT_NE(std::find(iobench.begin(), iobench.end(), kExitNotJudged), iobench.end());
  EXPECT_EQ(exit_status_footer("compare"),
            "Exit status:\n"
            "  0    success: every run ended ok, or the command did what it was asked\n"
            "  1    --fail-on-regression: a test is slower than it allows\n"
            "  2    usage, config or input error, found before anything runs; one line says "
            "which, and nothing is written\n");
}

}  // namespace
}  // namespace iobench::cli
