#include "driver/run/dry_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <iterator>
#include <string>
#include <system_error>

#include "driver/run/decided_comparisons.hpp"
#include "driver/util/text.hpp"

namespace iobench::run {

std::string repeats_text(const config::Plan& plan) {
  if (plan.fill_s > 0) {
    return fmt::format("{} to {} repeats (as many as fill {} s at a cell's first run's time)",
                       plan.repeats_min, plan.repeats, plan.fill_s);
  }
  if (plan.ci_pct <= 0) return fmt::format("{} repeats", plan.repeats);
  return fmt::format(
      "{} to {} repeats (a cell stops once its median's 95 % interval is within {} %)",
      plan.repeats_min, plan.repeats, plan.ci_pct);
}

namespace {

constexpr std::size_t kFlushBytes = 64 * 1024;

// Throws on a failed write, as fmt::print does.
void flush(fmt::memory_buffer& out) {
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size())
    throw std::system_error(errno, std::generic_category(), "cannot write to standard output");
  out.clear();
}

// iobench's own cost of a run with the fastest command: 1 cell x 200,000 runs of `true` took
// 205 s (scripts/bench-scale, docs/driver.md).
constexpr double kOwnCostPerRunS = 1e-3;

// "40 s", "17 min", "2.8 h": a time to plan by, not a measurement.
std::string rough_duration(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 2 * 3600) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

}  // namespace

int fewest_repeats(const config::Config& config, const config::Plan& plan) {
  int fewest = plan.ci_pct > 0 ? plan.repeats_min : plan.repeats;
  if (config.decide && plan.baseline_test) {
    // Every comparison decided at the rule's first look stops every cell there, the baseline's too.
    fewest = std::min(fewest, static_cast<int>(sequential_plan(plan, config).first_look_runs));
  }
  return fewest;
}

std::string duration_text(const config::Plan& plan, int fewest_per_cell) {
  if (plan.fill_s > 0) {
    return fmt::format("about {} of measured runs (each cell fills {:g} s)",
                       rough_duration(static_cast<double>(plan.cells.size()) * plan.fill_s),
                       plan.fill_s);
  }
  const std::string most = rough_duration(static_cast<double>(plan.runs.size()) * kOwnCostPerRunS);
  if (fewest_per_cell >= plan.repeats) {
    return fmt::format(
        "at least {} (iobench's own {:g} ms a run), and {} more for each millisecond a run takes",
        most, kOwnCostPerRunS * 1e3, most);
  }
  // A cell that stops early saves its later measured runs: "at least" the whole plan was false.
  const std::size_t saved =
      plan.cells.size() * static_cast<std::size_t>(plan.repeats - fewest_per_cell);
  const std::string least = rough_duration(
      static_cast<double>(plan.runs.size() - std::min(saved, plan.runs.size())) * kOwnCostPerRunS);
  return fmt::format(
      "{} to {} (iobench's own {:g} ms a run; a cell stops after {} to {} repeats), and {} to {} "
      "more for each millisecond a run takes",
      least, most, kOwnCostPerRunS * 1e3, fewest_per_cell, plan.repeats, least, most);
}

void print_plan(const config::Config& config, const config::Plan& plan) {
  std::size_t verify_runs = 0;
  std::size_t warmup_runs = 0;
  for (const auto& run : plan.runs) {
    verify_runs += run.phase == config::RunPhase::kVerify ? 1 : 0;
    warmup_runs += run.phase == config::RunPhase::kWarmup ? 1 : 0;
  }
  // docs/driver.md, "Verification": these cells' first ok measured run is their verification.
  const auto verified_by_first_ok_run =
      std::count_if(plan.cells.begin(), plan.cells.end(),
                    [](const config::Cell& c) { return c.verified_by_first_ok_run; });
  fmt::print(
      "# {}: {} tests, {} inputs, {} sinks: {} cells; {}; {} runs ({} verification, "
      "{} warmup, {} measured{}{}); order {}, cache {}; {}\n",
      config.name, plan.tests.size(), config.inputs.size(), config.sinks.size(), plan.cells.size(),
      repeats_text(plan), plan.runs.size(), verify_runs, warmup_runs, plan.measured_runs(),
      plan.ci_pct > 0 || plan.fill_s > 0 ? " at most" : "",
      verified_by_first_ok_run == 0
          ? std::string()
          : fmt::format("; {} cells verified by their first ok measured run instead",
                        verified_by_first_ok_run),
      to_string(config.order), to_string(config.cache),
      duration_text(plan, fewest_repeats(config, plan)));
  // One buffer written in large pieces: a print a run was a fifth of the dry run of 200,000.
  fmt::memory_buffer out;
  fmt::format_to(std::back_inserter(out), "phase\ttest\tinput\tsink\trepeat\targv\n");
  for (const auto& run : plan.runs) {
    const config::Cell& cell = plan.cells[run.cell];
    const config::Test& test = plan.tests[cell.test];
    const std::string input = config.inputs[cell.input].path.string();
    const char* phase = run.phase == config::RunPhase::kVerify   ? "verify"
                        : run.phase == config::RunPhase::kWarmup ? "warmup"
                                                                 : "measure";
    const config::SinkKind sink =
        run.phase == config::RunPhase::kVerify ? config::SinkKind::kPipe : cell.sink;
    fmt::format_to(std::back_inserter(out), "{}\t{}\t{}\t{}\t{}\t{}\n", phase, test.name, input,
                   to_string(sink), run.repeat,
                   util::join_argv(config::run_argv(test, config, input)));
    if (out.size() >= kFlushBytes) flush(out);
  }
  flush(out);
}

}  // namespace iobench::run
