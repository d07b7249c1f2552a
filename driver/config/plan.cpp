#include "driver/config/plan.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <regex>
#include <set>

#include "common/error.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/util/text.hpp"

namespace iobench {
namespace {

// A worker's output class from its parsed options (docs/formats.md "Worker CLI"), not from their
// spelling: `--op=count` and `--op count`, `-v` and `--verbose`, any order, are one class. Options
// that choose *how* the I/O is done (--read, --write, --buffer, --threads, --pipe-size, --verbose)
// and where split files go (--prefix) never change what is written, so they are left out.
std::string worker_output_class(const std::vector<std::string>& args) {
  static const std::set<std::string_view> kTakesValue{
      "--read",    "--write",  "--op",       "--buffer",     "--threads",
      "--outputs", "--prefix", "--compress", "--decompress", "--pipe-size"};
  static const std::set<std::string_view> kOutputNeutral{"--read",    "--write",     "--buffer",
                                                         "--threads", "--pipe-size", "--prefix"};
  std::map<std::string, std::string> kept;  // option -> value, in a fixed (sorted) order
  std::vector<std::string> others;          // flags and words the table does not know
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    std::string value;
    bool has_value = false;
    if (name.starts_with("--")) {
      if (const auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
        has_value = true;
      }
    }
    if (kTakesValue.count(name) != 0) {
      if (!has_value && i + 1 < args.size()) value = args[++i];
      if (kOutputNeutral.count(name) == 0) kept[name] = value;
    } else if (name != "--verbose" && name != "-v") {
      others.push_back(args[i]);
    }
  }
  if (kept["--op"].empty()) kept["--op"] = "copy";
  if (kept.size() == 1 && kept["--op"] == "copy" && others.empty()) return "copy";
  std::string joined = "worker";
  for (const auto& [name, value] : kept) joined += " " + name + " " + value;
  for (const auto& arg : others) joined += " " + arg;
  return joined;
}

// The params a strategy uses, in config order.
std::vector<std::size_t> used_params(const Config& config, const StrategySpec& strategy) {
  std::set<std::string> names;
  for (const auto& name : find_placeholders(strategy.name)) names.insert(name);
  for (const auto& arg : strategy.args) {
    for (const auto& name : find_placeholders(arg)) names.insert(name);
  }
  std::vector<std::size_t> used;
  for (std::size_t i = 0; i < config.params.size(); ++i) {
    if (names.count(config.params[i].first) != 0) used.push_back(i);
  }
  return used;
}

// SplitMix64: a tiny seeded generator whose sequence is the same on every platform, so a
// shuffled order is reproducible from the recorded seed.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<std::size_t> identity_round(std::size_t cells) {
  std::vector<std::size_t> round(cells);
  for (std::size_t c = 0; c < cells; ++c) round[c] = c;
  return round;
}

}  // namespace

std::vector<std::vector<std::size_t>> williams_rounds(std::size_t cells) {
  if (cells == 0) return {{}};
  // First row 0, 1, n-1, 2, n-2, ...; row i adds i (mod n). For odd n the mirrored rows follow.
  std::vector<std::size_t> first(cells);
  for (std::size_t j = 1; j < cells; ++j) first[j] = j % 2 == 1 ? (j + 1) / 2 : cells - j / 2;
  std::vector<std::vector<std::size_t>> rounds;
  for (std::size_t i = 0; i < cells; ++i) {
    std::vector<std::size_t> row(cells);
    for (std::size_t j = 0; j < cells; ++j) row[j] = (first[j] + i) % cells;
    rounds.push_back(std::move(row));
  }
  if (cells % 2 == 1) {
    for (std::size_t i = 0; i < cells; ++i) {
      rounds.emplace_back(rounds[i].rbegin(), rounds[i].rend());
    }
  }
  return rounds;
}

std::size_t Plan::measured_runs() const {
  return static_cast<std::size_t>(
      std::count_if(runs.begin(), runs.end(),
                    [](const PlannedRun& run) { return run.phase == RunPhase::kMeasure; }));
}

std::pair<int, int> parse_shard(const std::string& text) {
  const auto shard = runfile::ShardId::parse(text);
  if (!shard)
    throw Error(fmt::format("--shard '{}': expected K/N with 1 <= K <= N, e.g. 2/4", text));
  return {shard->number - 1, shard->count};
}

Plan build_plan(const Config& config, const PlanOptions& options) {
  Plan plan;
  plan.repeats = options.repeats_override.value_or(config.repeats);
  plan.repeats_min = options.repeats_override.value_or(config.repeats_min);  // --repeats N: N
  plan.ci_pct = options.repeats_override ? 0 : config.repeats_ci_pct;

  // Tests: each strategy over the cartesian product of the params it uses.
  std::vector<Test> all_tests;
  std::map<std::string, std::size_t> first_strategy_of_name;
  for (std::size_t s = 0; s < config.strategies.size(); ++s) {
    const StrategySpec& strategy = config.strategies[s];
    const std::vector<std::size_t> used = used_params(config, strategy);
    std::vector<std::size_t> choice(used.size(), 0);
    for (;;) {
      Test test;
      test.strategy = s;
      test.verify = strategy.verify;
      for (std::size_t u = 0; u < used.size(); ++u) {
        const auto& [name, values] = config.params[used[u]];
        test.param_values.emplace_back(name, values[choice[u]]);
      }
      test.name = expand_placeholders(strategy.name, test.param_values);
      std::vector<std::string> args;
      for (const auto& arg : strategy.args)
        args.push_back(expand_placeholders(arg, test.param_values));
      if (strategy.kind == StrategySpec::Kind::kWorker) {
        test.argv.push_back(options.worker_path);
        test.argv.insert(test.argv.end(), args.begin(), args.end());
        test.output_class = worker_output_class(args);
        test.writes_files = test.output_class.find("--op split") != std::string::npos;
        if (test.writes_files) {
          for (const auto& arg : args) {
            if (arg == "--prefix" || arg.starts_with("--prefix=")) {
              throw Error(fmt::format(
                  "{}: strategies[{}].worker: --op split writes into the run's private folder, "
                  "whose --prefix the driver gives; remove --prefix",
                  config.file.string(), s));
            }
          }
          test.argv.insert(test.argv.end(), {"--prefix", kSplitPrefixPlaceholder});
        }
        test.argv.emplace_back("{input}");
      } else if (strategy.shell) {
        test.argv = strategy.shell_words;
        test.argv.insert(test.argv.end(), {"-c", args.front()});
      } else {
        test.argv = args;
      }
      if (const auto [it, inserted] = first_strategy_of_name.emplace(test.name, s); !inserted) {
        throw Error(fmt::format(
            "{}: strategies[{}].name: expands to '{}', which strategies[{}] also gives; make the "
            "names differ",
            config.file.string(), s, test.name, it->second));
      }
      all_tests.push_back(std::move(test));
      // Next combination (odometer).
      std::size_t u = 0;
      while (u < used.size() && ++choice[u] == config.params[used[u]].second.size()) {
        choice[u++] = 0;
      }
      if (u == used.size()) break;
    }
  }

  // The baseline names a test before filtering, so a typo is caught whatever the filter.
  std::optional<std::size_t> baseline_all;
  if (!config.baseline.empty()) {
    for (std::size_t t = 0; t < all_tests.size(); ++t) {
      if (all_tests[t].name == config.baseline) baseline_all = t;
    }
    if (!baseline_all) {
      throw Error(fmt::format("{}: baseline: '{}' is not the name of any test",
                              config.file.string(), config.baseline));
    }
  }
  // Commands write what the baseline writes: a worker baseline's class, a command baseline's own
  // output (so `iobench bench 'grep x {input}' 'rg x {input}'` compares rg with grep, not with
  // the input), or a copy of the input without a baseline.
  std::string command_class = "copy";
  if (baseline_all) {
    const Test& baseline = all_tests[*baseline_all];
    command_class = config.strategies[baseline.strategy].kind == StrategySpec::Kind::kWorker
                        ? baseline.output_class
                        : "output of " + baseline.name;
  }
  for (auto& test : all_tests) {
    if (config.strategies[test.strategy].kind == StrategySpec::Kind::kCommand) {
      test.output_class = command_class;
    }
  }

  std::optional<std::regex> filter;
  if (!options.filter_regex.empty()) {
    try {
      filter.emplace(options.filter_regex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw Error(fmt::format("--filter '{}': not a valid regular expression: {}",
                              options.filter_regex, e.what()));
    }
  }
  for (std::size_t t = 0; t < all_tests.size(); ++t) {
    if (filter && !std::regex_search(all_tests[t].name, *filter)) continue;
    if (baseline_all && t == *baseline_all) plan.baseline_test = plan.tests.size();
    plan.tests.push_back(all_tests[t]);
  }
  if (plan.tests.empty()) {
    throw Error(fmt::format("--filter '{}' selects none of the {} tests", options.filter_regex,
                            all_tests.size()));
  }

  // Cells in interleave order (per input and sink, every test), then this shard's share.
  std::size_t cell_number = 0;
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    for (const SinkKind sink : config.sinks) {
      for (std::size_t t = 0; t < plan.tests.size(); ++t, ++cell_number) {
        if (static_cast<int>(cell_number % static_cast<std::size_t>(options.shard_count)) !=
            options.shard_index) {
          continue;
        }
        plan.cells.push_back(Cell{t, i, sink});
      }
    }
  }
  if (plan.cells.empty()) {
    throw Error(fmt::format("--shard {}/{} has no cells: the matrix has only {}",
                            options.shard_index + 1, options.shard_count, cell_number));
  }

  // Verification: one run per (test, input), class references first so that every other test
  // of a class has something to be compared with.
  std::vector<PlannedRun> verify_first;
  std::vector<PlannedRun> verify_later;
  std::set<std::pair<std::size_t, std::size_t>> seen_pairs;
  std::set<std::pair<std::string, std::size_t>> classes_with_reference;
  auto is_reference_candidate = [&](std::size_t t) {
    return plan.baseline_test && *plan.baseline_test == t;
  };
  // Baseline first, then config order.
  std::vector<std::size_t> cell_order(plan.cells.size());
  for (std::size_t c = 0; c < cell_order.size(); ++c) cell_order[c] = c;
  std::stable_sort(cell_order.begin(), cell_order.end(), [&](std::size_t a, std::size_t b) {
    return is_reference_candidate(plan.cells[a].test) &&
           !is_reference_candidate(plan.cells[b].test);
  });
  for (const std::size_t c : cell_order) {
    const Cell& cell = plan.cells[c];
    const Test& test = plan.tests[cell.test];
    if (!test.verify || !seen_pairs.emplace(cell.test, cell.input).second) continue;
    const bool first_of_class =
        classes_with_reference.emplace(test.output_class, cell.input).second;
    (first_of_class ? verify_first : verify_later).push_back(PlannedRun{RunPhase::kVerify, c, 0});
  }
  plan.runs = verify_first;
  plan.runs.insert(plan.runs.end(), verify_later.begin(), verify_later.end());

  // Every cell gets the same warmups (a verification run does not stand in for one: it ran
  // long before, into another sink).
  if (config.order == RunOrder::kGrouped) {
    for (std::size_t c = 0; c < plan.cells.size(); ++c) {
      for (int w = 0; w < config.warmup; ++w)
        plan.runs.push_back(PlannedRun{RunPhase::kWarmup, c, 0});
      for (int r = 1; r <= plan.repeats; ++r)
        plan.runs.push_back(PlannedRun{RunPhase::kMeasure, c, r});
    }
    return plan;
  }
  // Rounds (warmup rounds first) visit every cell once. Interleaved rounds follow a Williams
  // design, so over the rounds each cell runs right after every other cell equally often.
  const std::vector<std::vector<std::size_t>> design =
      config.order == RunOrder::kInterleave
          ? williams_rounds(plan.cells.size())
          : std::vector<std::vector<std::size_t>>{identity_round(plan.cells.size())};
  const int rounds = config.warmup + plan.repeats;
  std::size_t first_measured = plan.runs.size();
  for (int round = 0; round < rounds; ++round) {
    const bool warmup = round < config.warmup;
    if (round == config.warmup) first_measured = plan.runs.size();
    for (const std::size_t c : design[static_cast<std::size_t>(round) % design.size()]) {
      plan.runs.push_back(warmup ? PlannedRun{RunPhase::kWarmup, c, 0}
                                 : PlannedRun{RunPhase::kMeasure, c, round - config.warmup + 1});
    }
  }
  if (config.order == RunOrder::kShuffle) {
    std::uint64_t state = config.seed;
    for (std::size_t i = plan.runs.size() - 1; i > first_measured; --i) {
      const std::size_t span = i - first_measured + 1;
      const std::size_t j = first_measured + static_cast<std::size_t>(splitmix64(state) % span);
      std::swap(plan.runs[i], plan.runs[j]);
    }
  }
  return plan;
}

std::vector<std::string> run_argv(const Test& test, const Config& config,
                                  const std::string& input) {
  const bool shell = config.strategies[test.strategy].shell;
  const std::vector<std::pair<std::string, std::string>> values{
      {"input", shell ? shell_quote(input) : input}};
  std::vector<std::string> argv;
  argv.reserve(test.argv.size());
  for (const auto& arg : test.argv) argv.push_back(expand_placeholders(arg, values));
  return argv;
}

}  // namespace iobench
