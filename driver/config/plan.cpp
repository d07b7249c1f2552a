#include "driver/config/plan.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <regex>
#include <set>

#include "common/error.hpp"
#include "common/splitmix64.hpp"
#include "common/worker_args.hpp"
#include "driver/config/output_class.hpp"
#include "driver/config/plan_tests.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/util/text.hpp"

namespace iobench::config {
namespace {

std::vector<std::size_t> identity_round(std::size_t cells) {
  std::vector<std::size_t> round(cells);
  for (std::size_t c = 0; c < cells; ++c) round[c] = c;
  return round;
}

// The baseline names a test before filtering, so a typo is caught whatever the filter.
std::optional<std::size_t> find_baseline(const Config& config, const std::vector<Test>& tests) {
  if (config.baseline.empty()) return std::nullopt;
  std::optional<std::size_t> baseline;
  for (std::size_t t = 0; t < tests.size(); ++t) {
    if (tests[t].name == config.baseline) baseline = t;
  }
  if (!baseline) {
    throw Error(fmt::format("{}: baseline: '{}' is not the name of any test", config.file.string(),
                            config.baseline));
  }
  return baseline;
}

// Commands write what the baseline writes: a worker baseline's class, a command baseline's own
// output (so `iobench bench 'grep x {input}' 'rg x {input}'` compares rg with grep, not with the
// input), or a copy of the input without a baseline.
void give_commands_the_baselines_class(const Config& config, std::vector<Test>& tests,
                                       std::optional<std::size_t> baseline_test) {
  std::string command_class = "copy";
  if (baseline_test) {
    const Test& baseline = tests[*baseline_test];
    command_class = config.strategies[baseline.strategy].kind == StrategySpec::Kind::kWorker
                        ? baseline.output_class
                        : "output of " + baseline.name;
  }
  for (auto& test : tests) {
    if (config.strategies[test.strategy].kind == StrategySpec::Kind::kCommand) {
      test.output_class = command_class;
    }
  }
}

// The tests --filter keeps, into the plan (with the baseline's new index when it is kept).
void select_tests(std::vector<Test>&& all_tests, std::optional<std::size_t> baseline_test,
                  const PlanOptions& options, Plan& plan) {
  std::optional<std::regex> filter;
  if (!options.filter_regex.empty()) {
    try {
      filter.emplace(options.filter_regex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw Error(fmt::format("--filter '{}': not a valid regular expression: {}",
                              options.filter_regex, e.what()));
    }
  }
  // Kept in place and the vector moved: a copy of 100,000 tests is 30 MB.
  const std::size_t all_count = all_tests.size();
  std::size_t kept = 0;
  for (std::size_t t = 0; t < all_count; ++t) {
    if (filter && !std::regex_search(all_tests[t].name, *filter)) continue;
    if (baseline_test && t == *baseline_test) plan.baseline_test = kept;
    if (kept != t) all_tests[kept] = std::move(all_tests[t]);
    ++kept;
  }
  all_tests.resize(kept);
  plan.tests = std::move(all_tests);
  if (plan.tests.empty()) {
    throw Error(
        fmt::format("--filter '{}' selects none of the {} tests", options.filter_regex, all_count));
  }
}

// A test of a family (its strategy uses a param of "family_reference"): the index of the member
// it is compared with, its own when it is that member or that member was filtered out; nullopt for
// a test of no family.
std::optional<std::size_t> family_reference_of(
    const Config& config, const Plan& plan, std::size_t t,
    const std::map<std::pair<std::size_t, ParamValues>, std::size_t>& test_of) {
  ParamValues values = plan.tests[t].param_values;
  bool in_family = false;
  for (auto& [name, value] : values) {
    for (const auto& [reference_name, reference_value] : config.family_reference) {
      if (name != reference_name) continue;
      value = reference_value;
      in_family = true;
    }
  }
  if (!in_family) return std::nullopt;
  const auto found = test_of.find({plan.tests[t].strategy, values});
  return found == test_of.end() ? t : found->second;
}

// What each test's cells are compared with: its twin, else its family's reference, else the
// baseline.
void set_references(const Config& config, Plan& plan) {
  std::map<std::pair<std::size_t, ParamValues>, std::size_t> test_of;  // with families only
  if (!config.family_reference.empty()) {
    for (std::size_t t = 0; t < plan.tests.size(); ++t)
      test_of.emplace(std::pair(plan.tests[t].strategy, plan.tests[t].param_values), t);
  }
  for (std::size_t t = 0; t < plan.tests.size(); ++t) {
    Test& test = plan.tests[t];
    if (plan.twins) {
      if (t % 2 == 1) test.reference = t - 1;
    } else if (const auto family = family_reference_of(config, plan, t, test_of)) {
      if (*family != t) test.reference = family;
    } else if (plan.baseline_test && t != *plan.baseline_test) {
      test.reference = plan.baseline_test;
    }
  }
}

// Cells in interleave order (per input and sink, every test), then this shard's share: cell c
// belongs to shard c mod N.
void add_shard_cells(const Config& config, const PlanOptions& options, Plan& plan) {
  std::size_t cell_number = 0;
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    for (const SinkKind sink : config.sinks) {
      for (std::size_t t = 0; t < plan.tests.size(); ++t, ++cell_number) {
        if (static_cast<int>(cell_number % static_cast<std::size_t>(options.shard_count)) ==
            options.shard_index) {
          plan.cells.push_back(Cell{t, i, sink});
        }
      }
    }
  }
  if (plan.cells.empty()) {
    throw Error(fmt::format("--shard {}/{} has no cells: the matrix has only {}",
                            options.shard_index + 1, options.shard_count, cell_number));
  }
}

// A pipe cell needs no verification run where its measured runs are compared anyway: every run
// into a pipe is hashed, so the first that ends ok can be checked against the reference the driver
// computes for the class. With warmups the verification run stands in for the first one instead
// (verified_by_warmup_run); another sink of the pair, or `grouped`, keeps it (docs/driver.md,
// "Verification").
void mark_cells_verified_by_first_ok_run(const Config& config, Plan& plan) {
  if (config.warmup != 0 || config.order == RunOrder::kGrouped) return;
  std::set<std::pair<std::size_t, std::size_t>> pairs_with_other_sinks;
  for (const Cell& cell : plan.cells) {
    if (cell.sink != SinkKind::kPipe) pairs_with_other_sinks.emplace(cell.test, cell.input);
  }
  for (Cell& cell : plan.cells) {
    const Test& test = plan.tests[cell.test];
    cell.verified_by_first_ok_run = test.verify && !config.inputs[cell.input].none() &&
                                    !pairs_with_other_sinks.count({cell.test, cell.input}) &&
                                    independent_reference_of(test.output_class).has_value();
  }
}

// Verification: one run per (test, input), class references first (the baseline's, then in
// config order) so that every other test of a class has something to be compared with.
void add_verification_runs(Plan& plan) {
  const auto is_baseline = [&](std::size_t t) {
    return plan.baseline_test && *plan.baseline_test == t;
  };
  std::vector<std::size_t> cell_order(plan.cells.size());
  for (std::size_t c = 0; c < cell_order.size(); ++c) cell_order[c] = c;
  std::stable_sort(cell_order.begin(), cell_order.end(), [&](std::size_t a, std::size_t b) {
    return is_baseline(plan.cells[a].test) && !is_baseline(plan.cells[b].test);
  });
  std::vector<PlannedRun> verify_later;
  std::set<std::pair<std::size_t, std::size_t>> seen_pairs;
  std::set<std::pair<std::string, std::size_t>> classes_with_reference;
  for (const std::size_t c : cell_order) {
    const Cell& cell = plan.cells[c];
    const Test& test = plan.tests[cell.test];
    if (!test.verify || cell.verified_by_first_ok_run ||
        !seen_pairs.emplace(cell.test, cell.input).second)
      continue;
    const bool first_of_class =
        classes_with_reference.emplace(test.output_class, cell.input).second;
    (first_of_class ? plan.runs : verify_later).push_back(PlannedRun{RunPhase::kVerify, c, 0});
  }
  plan.runs.insert(plan.runs.end(), verify_later.begin(), verify_later.end());
}

// Every cell gets the same warmups. Grouped: each cell's warmups and repeats together (a
// verification run does not stand in for one there: it ran long before).
void add_grouped_runs(const Config& config, Plan& plan) {
  for (std::size_t c = 0; c < plan.cells.size(); ++c) {
    for (int w = 0; w < config.warmup; ++w)
      plan.runs.push_back(PlannedRun{RunPhase::kWarmup, c, 0});
    for (int r = 1; r <= plan.repeats; ++r)
      plan.runs.push_back(PlannedRun{RunPhase::kMeasure, c, r});
  }
}

// The cells whose verification run is their first warmup (docs/driver.md, "Order, failures,
// interrupts"): it runs the cell's test on its input into a pipe, the very run a pipe cell's
// warmup would be, in the round before the measured rounds. A 13 s per-line writer saves 13 s.
std::vector<bool> verified_by_warmup_run(const Plan& plan) {
  std::set<std::pair<std::size_t, std::size_t>> verified_pairs;
  for (const PlannedRun& run : plan.runs) {
    if (run.phase == RunPhase::kVerify) {
      verified_pairs.emplace(plan.cells[run.cell].test, plan.cells[run.cell].input);
    }
  }
  std::vector<bool> stands_in(plan.cells.size(), false);
  for (std::size_t c = 0; c < plan.cells.size(); ++c) {
    const Cell& cell = plan.cells[c];
    stands_in[c] = cell.sink == SinkKind::kPipe && verified_pairs.count({cell.test, cell.input});
  }
  return stands_in;
}

// Rounds (warmup rounds first) visit every cell once; in the first warmup round a cell whose
// verification run stands in is left out. Interleaved rounds follow a Williams design, so over
// the rounds each cell runs right after every other cell equally often; shuffled ones are the
// measured runs in a random order reproducible from the config's seed.
void add_rounds(const Config& config, Plan& plan) {
  const std::size_t cells = plan.cells.size();
  const std::vector<bool> verified_warm = verified_by_warmup_run(plan);
  const int rounds = config.warmup + plan.repeats;
  plan.runs.reserve(plan.runs.size() + cells * static_cast<std::size_t>(std::max(rounds, 0)));
  std::size_t first_measured = plan.runs.size();
  for (int round = 0; round < rounds; ++round) {
    const bool warmup = round < config.warmup;
    if (round == config.warmup) first_measured = plan.runs.size();
    const bool interleaved = rounds_interleaved(config.order);
    const auto r = static_cast<std::size_t>(round);
    const std::vector<std::size_t> order = !interleaved ? identity_round(cells)
                                           : plan.twins ? twins_round(cells, r)
                                                        : williams_round(cells, r);
    for (const std::size_t c : order) {
      if (round == 0 && warmup && verified_warm[c]) continue;
      plan.runs.push_back(warmup ? PlannedRun{RunPhase::kWarmup, c, 0}
                                 : PlannedRun{RunPhase::kMeasure, c, round - config.warmup + 1});
    }
  }
  if (config.order != RunOrder::kShuffle) return;
  std::uint64_t state = config.seed;
  for (std::size_t i = plan.runs.size() - 1; i > first_measured; --i) {
    const std::size_t span = i - first_measured + 1;
    const std::size_t j = first_measured + static_cast<std::size_t>(splitmix64(state) % span);
    std::swap(plan.runs[i], plan.runs[j]);
  }
}

}  // namespace

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
  plan.fill_s = options.repeats_override ? 0 : config.repeats_fill_s;
  std::vector<Test> all_tests = expand_tests(config, options);
  const std::optional<std::size_t> baseline = find_baseline(config, all_tests);
  give_commands_the_baselines_class(config, all_tests, baseline);
  select_tests(std::move(all_tests), baseline, options, plan);
  if (options.versus_dir) add_base_twins(config, options, plan);
  set_references(config, plan);
  add_shard_cells(config, options, plan);
  mark_cells_verified_by_first_ok_run(config, plan);
  add_verification_runs(plan);
  if (config.order == RunOrder::kGrouped) {
    add_grouped_runs(config, plan);
  } else {
    add_rounds(config, plan);
  }
  return plan;
}

std::vector<std::string> run_argv(const Test& test, const Config& config,
                                  const std::string& input) {
  const bool shell = config.strategies[test.strategy].shell;
  const std::vector<std::pair<std::string, std::string>> values{
      {"input", shell ? util::shell_quote(input) : input}};
  std::vector<std::string> argv;
  argv.reserve(test.argv.size());
  for (const auto& arg : test.argv) argv.push_back(expand_placeholders(arg, values));
  return argv;
}

}  // namespace iobench::config
