// `iobench history list|show|check|changes|plot|export|publish`: what the store says
// (docs/history.md); and `history rename`, which says how they read it.
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/cli/cmd_history.hpp"
#include "driver/history/changes.hpp"
#include "driver/history/check.hpp"
#include "driver/history/check_output.hpp"
#include "driver/history/export_imported.hpp"
#include "driver/history/listing.hpp"
#include "driver/history/publish.hpp"
#include "driver/history/rename.hpp"
#include "driver/history/run_record.hpp"
#include "driver/history/store.hpp"
#include "driver/history/trend_plot.hpp"

namespace iobench::cli {
namespace {

// The whole store, read once, and its series along time.
struct Loaded {
  history::HistoryData data;
  std::vector<history::Timeline> timelines;
};

// Renamed series continue the ones they rename (history rename), in every reading command.
std::unique_ptr<Loaded> load(const std::optional<std::string>& store) {
  history::Store opened(store_location(store), history::OpenMode::kReadOnly);
  auto loaded = std::make_unique<Loaded>();
  loaded->data = opened.load();
  loaded->timelines = history::build_timelines(loaded->data);
  history::continue_renamed(loaded->timelines, opened.renames());
  return loaded;
}

struct CheckCli {
  std::optional<std::string> store;
  std::optional<std::string> base;
  std::vector<std::string> min_effects;
  std::string format = "text";
  history::CheckOptions options;
};

int check(CheckCli& cli) {
  const history::CheckFormat format = report::parse_verdict_format("--format", cli.format);
  history::CheckOptions& options = cli.options;
  options.base = cli.base;
  if (!options.default_branch) options.default_branch = history::ci_target_branch(environment());
  for (const auto& text : cli.min_effects)
    options.min_effects.push_back(history::parse_min_effect(text));
  const auto loaded = load(cli.store);
  const history::CheckReport report =
      history::check_history(loaded->data, loaded->timelines, options);
  std::ostringstream text;
  history::write_check_report(report, format, text);
  std::cout << text.str() << std::flush;
  fmt::print(stderr, "iobench history check: {}; exit {}: {}\n", history::check_summary(report),
             report.exit_status, history::exit_reason(report));
  return report.exit_status;
}

void setup_check(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<CheckCli>();
  add_store_option(sub, cli->store);
  sub.add_option(
      "--base", cli->base,
      "Judge against the runs of this commit (a label, or 4 or more of its digits) or branch; "
      "default the runs before the newest on its own branch and the default branch, since its "
      "last acknowledged change (at most 20; 40 for a series of summaries)");
  sub.add_option("--default-branch", cli->options.default_branch,
                 "The branch a series on another branch is judged against too, without --base "
                 "(default $GITHUB_BASE_REF, $CI_MERGE_REQUEST_TARGET_BRANCH_NAME, "
                 "$CI_DEFAULT_BRANCH, else main or master where the store has runs on it); "
                 "another feature branch's runs never count");
  sub.add_option("--min-effect", cli->min_effects,
                 "PCT, or REGEX=PCT for the series whose test, or test and measure (an import's "
                 "'BM_Copy cpu_time', an iobench series' sink 'read-raw pipe'), it matches "
                 "(repeat; the last match wins): a significant slowdown must exceed it to fail "
                 "(default 5)")
      ->allow_extra_args(false);
  sub.add_option("--session-spread", cli->options.session_spread_pct,
                 "PCT: how far sessions of unchanged code drift (one standard deviation of their "
                 "medians), used where the series' history is too short to learn it and as the "
                 "least where it is not (default: learnt; too few sessions leave a series not "
                 "judged, exit 4)")
      ->check(CLI::Range(0.0, 100.0));
  sub.add_option("--format", cli->format,
                 "text (a line per series that is not steady), markdown (a table for a pull "
                 "request), json, github (workflow commands)")
      ->check(CLI::IsMember({"text", "markdown", "json", "github"}))
      ->capture_default_str();
  sub.add_flag("--allow-new-series", cli->options.allow_new_series,
               "Exit 0 for a series without a baseline (new in this change), not 4");
  sub.add_flag("--allow-missing-series", cli->options.allow_missing_series,
               "Exit 0 for a series the newest run no longer has, not 4");
  sub.add_flag("--allow-conditions-changed", cli->options.allow_conditions_changed,
               "Exit 0 for a series no baseline run shares the conditions of, not 4");
  sub.add_flag("--allow-underpowered", cli->options.allow_underpowered,
               "Exit 0 for a series judged steady whose interval reaches past --min-effect (too "
               "few runs or sessions to rule that slowdown out), not 4");
  sub.add_flag("--allow-unverified", cli->options.allow_unverified,
               "Exit 0 for a series whose output is not verified (\"verify\": false, bench "
               "--no-verify), whose rows never count, not 4");
  sub.callback([cli, &exit_code] { exit_code = check(*cli); });
}

struct SeriesCli {
  std::optional<std::string> store;
  std::string series;
  std::string output;
  std::string format = "bmf";
  std::optional<std::string> commit;
};

void setup_history_list(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<SeriesCli>();
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    const auto loaded = load(cli->store);
    history::write_series_list(loaded->data, loaded->timelines, std::cout);
    exit_code = kExitOk;
  });
}

void setup_show(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<SeriesCli>();
  sub.add_option("series", cli->series, "A series id (its first 4+ hex digits) or a test name")
      ->required();
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    const auto loaded = load(cli->store);
    history::write_series_detail(loaded->data,
                                 history::find_timeline(loaded->timelines, cli->series), std::cout);
    exit_code = kExitOk;
  });
}

void setup_changes(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<SeriesCli>();
  sub.add_option("series", cli->series, "Only this series (id or test name); default every one");
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    const auto loaded = load(cli->store);
    std::size_t found = 0;
    for (const auto& timeline : loaded->timelines) {
      if (!cli->series.empty() &&
          &timeline != &history::find_timeline(loaded->timelines, cli->series))
        continue;
      for (const auto& change : history::series_changes(timeline, loaded->data)) {
        fmt::print("{}\n", history::describe_change(change));
        ++found;
      }
    }
    fmt::print(stderr, "iobench history changes: {} change point{}\n", found,
               found == 1 ? "" : "s");
    exit_code = kExitOk;
  });
}

void setup_history_plot(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<SeriesCli>();
  sub.add_option("series", cli->series, "A series id (its first 4+ hex digits) or a test name")
      ->required();
  sub.add_option("-o,--output", cli->output, "The SVG file to write")->required();
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    const auto loaded = load(cli->store);
    const auto& timeline = history::find_timeline(loaded->timelines, cli->series);
    const history::TrendChart chart = history::render_trend(loaded->data, timeline);
    write_file_atomically(cli->output, chart.svg);
    fmt::print(
        stderr,
        "iobench history plot: {} rows of {} runs, {} change point(s) ({} acknowledged) in {}\n",
        chart.points, timeline.points.size(), chart.change_points, chart.acknowledged, cli->output);
    exit_code = kExitOk;
  });
}

// `export --commit X` where no series has a run of X to export is an error, not `{}` and exit 0
// (docs/history.md, the commands' table): a typo or a commit never measured would pass for an
// empty history.
void check_commit_has_runs(const std::vector<history::Timeline>& timelines,
                           const std::optional<std::string>& commit) {
  if (!commit) return;
  for (const history::Timeline& timeline : timelines) {
    if (history::export_point(timeline, commit) != nullptr) return;
  }
  throw Error(fmt::format("--commit {}: no series has a run of that commit to export", *commit));
}

void setup_export(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<SeriesCli>();
  sub.add_option("--format", cli->format,
                 "bmf: Bencher Metric Format (JSON); hyperfine: hyperfine's --export-json, with "
                 "each run's times (iobench's own series and hyperfine's imports)")
      ->check(CLI::IsMember({"bmf", "hyperfine"}))
      ->capture_default_str();
  sub.add_option("-o,--output", cli->output, "File to write (default standard output)");
  sub.add_option("--commit", cli->commit,
                 "Each series' newest run of this commit (prefix); default its newest run");
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    const auto loaded = load(cli->store);
    check_commit_has_runs(loaded->timelines, cli->commit);
    std::ostringstream text;
    if (cli->format == "hyperfine") {
      history::write_hyperfine_json(loaded->timelines, cli->commit, text);
    } else {
      history::write_bmf(loaded->timelines, cli->commit, text);
    }
    if (cli->output.empty()) {
      std::cout << text.str();
    } else {
      write_file_atomically(cli->output, text.str());
    }
    exit_code = kExitOk;
  });
}

struct PublishCli {
  std::optional<std::string> store;
  std::string output;
  history::SiteText text;
};

void setup_publish(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<PublishCli>();
  sub.add_option("-o,--output", cli->output,
                 "The site's folder: new, empty, or a site published before (replaced whole)")
      ->required();
  sub.add_option("--title", cli->text.title, "The site's title")->capture_default_str();
  sub.add_option("--base-url", cli->text.base_url,
                 "Where the site is served (https://...): the feed's links become absolute");
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    history::check_site_folder(cli->output);  // before the store is read: a typo fails fast
    const auto loaded = load(cli->store);
    cli->text.store_name = store_location(cli->store).display;
    const history::PublishOutcome outcome =
        history::publish_site(loaded->data, loaded->timelines, cli->output, cli->text, std::cerr);
    fmt::print(stderr,
               "iobench history publish: {} series, {} open regression(s), {} files in {}\n",
               outcome.series, outcome.regressions, outcome.files, cli->output);
    exit_code = kExitOk;
  });
}

struct RenameCli {
  std::optional<std::string> store;
  std::string old_name;
  std::string new_name;
  std::string by;
};

// `history rename OLD NEW`: kept beside the reading commands, since what it records is how they
// read the store (continue_renamed in load above).
void setup_rename(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<RenameCli>();
  sub.add_option("old", cli->old_name, "The series that stops (an id, 4+ hex digits, or a test)")
      ->required();
  sub.add_option("new", cli->new_name, "The series that continues it (id or test name)")
      ->required();
  sub.add_option("--by", cli->by, "Who renames (default $GITHUB_ACTOR, $USER, ...)");
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    history::Store store(store_location(cli->store), history::OpenMode::kExisting);
    const history::HistoryData data = store.load();
    history::SeriesRename rename =
        history::plan_rename(data, store.renames(), cli->old_name, cli->new_name);
    rename.who = cli->by.empty() ? history::current_user(environment()) : cli->by;
    rename.renamed_at = history::utc_now();
    store.rename_series(rename);
    fmt::print(stderr, "iobench history: series {} continues as {}, renamed by {}\n",
               rename.old_hash.substr(0, 8), rename.new_hash.substr(0, 8), rename.who);
    exit_code = kExitOk;
  });
}

}  // namespace

void setup_history_reports(CLI::App& history, int& exit_code) {
  setup_check(
      *history.add_subcommand("check",
                              "Judge each series' newest run against its baseline; exit 1 on a "
                              "regression, 4 when a series could not be judged"),
      exit_code);
  setup_changes(*history.add_subcommand("changes", "Every change point along each series"),
                exit_code);
  setup_history_list(
      *history.add_subcommand("list", "Every series: its latest median, trend and last change"),
      exit_code);
  setup_show(*history.add_subcommand("show", "One series, run by run"), exit_code);
  setup_rename(
      *history.add_subcommand(
          "rename",
          "Continue a series under its new command text, for check and the rest (never across "
          "tools, units, measures or host classes)"),
      exit_code);
  setup_history_plot(*history.add_subcommand("plot", "One series as an SVG trend chart"),
                     exit_code);
  setup_export(
      *history.add_subcommand("export", "Each series' newest run in Bencher Metric Format"),
      exit_code);
  setup_publish(*history.add_subcommand(
                    "publish", "A static site of every series, the open regressions and a feed"),
                exit_code);
}

}  // namespace iobench::cli
