// bench's options from the one table (driver/bench/options.hpp): CLI11 gets exactly the
// options it lists, and a known command line comes back as its made_by line, word for word.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "driver/bench/cli_options.hpp"
#include "driver/bench/options.hpp"

namespace iobench::bench {
namespace {

// "-r,--runs" as {"-r", "--runs"}.
std::vector<std::string> split_names(const std::string& names) {
  std::vector<std::string> out;
  std::stringstream in(names);
  for (std::string name; std::getline(in, name, ',');) out.push_back(name);
  return out;
}

TEST(BenchRequestOptions, CliGetsExactlyTheTablesOptions) {
  CLI::App app;
  bench::BenchRequest request;
  add_bench_request_options(app, request);
  std::set<std::string> from_table;
  for (const bench::BenchOption& option : bench::bench_options()) {
    for (const std::string& name : split_names(option.names)) from_table.insert(name);
  }
  std::set<std::string> from_cli;
  std::size_t options = 0;
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_name() == "--help") continue;
    ++options;
    for (const std::string& name : option->get_snames()) from_cli.insert("-" + name);
    for (const std::string& name : option->get_lnames()) from_cli.insert("--" + name);
    if (!option->nonpositional()) from_cli.insert(option->get_name());  // "commands"
  }
  EXPECT_EQ(from_cli, from_table);
  EXPECT_EQ(options, bench::bench_options().size());
  EXPECT_TRUE(from_cli.count("--no-verify") == 1 && from_cli.count("commands") == 1);
}

// argv as a shell would give it, parsed by the table's options.
bench::BenchRequest parsed(std::vector<std::string> argv) {
  CLI::App app;
  bench::BenchRequest request;
  add_bench_request_options(app, request);
  std::reverse(argv.begin(), argv.end());  // CLI11 takes them last first
  app.parse(argv);
  return request;
}

TEST(BenchRequestOptions, TheMadeByLineOfAKnownCommandLineIsExact) {
  const bench::BenchRequest request = parsed({"--input",
                                              "data/in.txt",
                                              "-L",
                                              "n=1,2",
                                              "-n",
                                              "cat",
                                              "--name",
                                              "count",
                                              "-r",
                                              "10",
                                              "-p",
                                              "sync",
                                              "-S",
                                              "bash --norc",
                                              "-w",
                                              "0",
                                              "--sink",
                                              "pipe",
                                              "--sink",
                                              "null",
                                              "--timeout",
                                              "2.5",
                                              "--counters",
                                              "syscalls,task-clock",
                                              "--disturbance",
                                              "flag",
                                              "--decide",
                                              "off",
                                              "-N",
                                              "--verify",
                                              "on",
                                              "--no-verify",
                                              "cat {input}",
                                              "grep -c . {input}"});
  EXPECT_EQ(bench::bench_command_line(request),
            "iobench bench --input data/in.txt -L n=1,2 --name cat --name count --runs 10 "
            "--shell 'bash --norc' --prepare sync --warmup 0 --sink pipe --sink null --cache "
            "warm --order interleave --timeout 2.5 --counters syscalls,task-clock --disturbance "
            "flag --decide off --no-shell 'cat {input}' 'grep -c . {input}'");
  // The defaults write what the config needs to say them again, and nothing else.
  EXPECT_EQ(bench::bench_command_line(parsed({"sleep 0.1"})),
            "iobench bench --warmup 1 --order interleave 'sleep 0.1'");
  EXPECT_EQ(bench::bench_command_line(parsed({"-P", "d", "1", "3", "--verify", "on", "true {d}"})),
            "iobench bench --parameter-scan d 1 3 --warmup 1 --order interleave --verify on "
            "'true {d}'");
}

}  // namespace
}  // namespace iobench::bench
