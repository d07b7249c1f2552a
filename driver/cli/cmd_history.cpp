// `iobench history SUBCOMMAND`: the history store (docs/history.md). This file wires the store's
// subcommands that write (add, ack, prune); cmd_history_report.cpp those that read.
#include "driver/cli/cmd_history.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/cli/command.hpp"
#include "driver/history/add_runs.hpp"
#include "driver/history/given_date.hpp"
#include "driver/history/location.hpp"
#include "driver/history/new_store_undo.hpp"
#include "driver/history/timeline.hpp"
#include "driver/importers/importer.hpp"

namespace iobench::cli {

history::EnvLookup environment() {
  return [](const char* name) { return std::getenv(name); };
}

history::StoreLocation store_location(const std::optional<std::string>& given) {
  return history::choose_store_location(given, environment());
}

namespace {

// CLI11 writes a flag that may take an attached value as "--history{}" in --help; people, the man
// page and the completions know it as --history (its help says --history=PATH). The command's
// own formatter still writes the description (show_examples_first's examples).
class AttachedValueFormatter : public CLI::Formatter {
 public:
  explicit AttachedValueFormatter(std::shared_ptr<CLI::Formatter> inherited)
      : CLI::Formatter(*inherited), inherited_(std::move(inherited)) {}
  std::string make_description(const CLI::App* app) const override {
    return inherited_->make_description(app);
  }
  std::string make_option_name(const CLI::Option* option, bool positional) const override {
    std::string name = CLI::Formatter::make_option_name(option, positional);
    for (std::size_t at = name.find("{}"); at != std::string::npos; at = name.find("{}")) {
      name.erase(at, 2);
    }
    return name;
  }

 private:
  std::shared_ptr<CLI::Formatter> inherited_;
};

// A word that can only have been meant as the store: a store URL, sqlite:NAME, or an SQLite file
// that exists (a command or config never is one).
bool names_a_store(const std::string& word) {
  return history::has_store_scheme(word) ||
         history::begins_as_sqlite_database(word).value_or(false);
}

// The one rule of --history (docs/history.md, "Naming the store"): its value is attached,
// --history=STORE, and a bare --history (the default store) never takes the next word. A bare
// --history beside a word that names a store is what other tools read as --history STORE:
// refused, before that word runs as a command, is read as a config or is an extra argument.
void refuse_detached_store(const CLI::App& sub, const CLI::Option& history) {
  const auto& given = history.results();
  if (std::none_of(given.begin(), given.end(), [](const std::string& v) { return v.empty(); })) {
    return;
  }
  std::vector<std::string> words = sub.remaining();
  for (const CLI::Option* option : sub.get_options()) {
    if (option->get_positional()) {
      words.insert(words.end(), option->results().begin(), option->results().end());
    }
  }
  for (const std::string& word : words) {
    if (!names_a_store(word)) continue;
    throw Error(fmt::format(
        "--history {0}: write --history={0} (the store's name is attached with '='; a bare "
        "--history never takes the next word and means $IOBENCH_HISTORY or {1})",
        history::redact_passwords(word), history::kDefaultStorePath));
  }
}

// --history on `sub`, a flag whose value is only ever attached, as the rule above says.
CLI::Option* add_history_flag(CLI::App& sub, CLI::Option* option) {
  auto inherited = std::dynamic_pointer_cast<CLI::Formatter>(sub.get_formatter());
  sub.formatter(std::make_shared<AttachedValueFormatter>(
      inherited != nullptr ? inherited : std::make_shared<CLI::Formatter>()));
  // Once the subcommand's words are parsed, before CLI11 refuses extra ones or a callback runs.
  sub.parse_complete_callback([&sub, option] { refuse_detached_store(sub, *option); });
  return option;
}

}  // namespace

void add_store_option(CLI::App& sub, std::optional<std::string>& store) {
  add_history_flag(sub, sub.add_flag("--history{}", store,
                                     "The store: --history=PATH, --history=sqlite:PATH or "
                                     "--history=postgresql://...; alone or absent, "
                                     "$IOBENCH_HISTORY, else results/history.sqlite"));
}

HistoryAfterRun::HistoryAfterRun() = default;

// A command that threw after open() (an interrupt while inputs were generated, a full disk) never
// reached add(): the store it created goes all the same.
HistoryAfterRun::~HistoryAfterRun() {
  if (!created_.empty()) remove_created_store();
}

void HistoryAfterRun::add_option(CLI::App& sub) {
  // A flag whose value is only ever attached (getopt's rule for an optional argument): a bare
  // --history never takes the next word, which is the config or a command (docs/history.md,
  // "Naming the store").
  option_ = add_history_flag(
      sub, sub.add_flag("--history{}", given_,
                        "Add the runs to the history store (docs/history.md): --history=PATH, "
                        "--history=sqlite:PATH or --history=postgresql://...; alone, "
                        "$IOBENCH_HISTORY or results/history.sqlite"));
}

void HistoryAfterRun::open(const std::string& config_key,
                           const std::filesystem::path& config_folder) {
  std::optional<history::StoreLocation> location;
  if (option_ != nullptr && option_->count() > 0) {
    location = store_location(given_.empty() ? std::nullopt : std::optional<std::string>(given_));
  } else if (!config_key.empty()) {
    location = history::choose_store_location(config_key, environment(), config_folder);
  }
  if (!location) return;
  std::error_code ec;
  const bool is_new = location->backend == history::Backend::kSqlite &&
                      !std::filesystem::exists(location->sqlite_path, ec);
  store_ = std::make_unique<history::Store>(*location, history::OpenMode::kCreate);
  if (is_new) created_ = location->sqlite_path;
}

void HistoryAfterRun::remove_created_store() {
  // Only while it holds nothing: another command may have added to it since (shards sharing one
  // new store), and its runs must stay.
  bool holds_runs = true;
  try {
    holds_runs = created_.empty() || !store_ || !store_->load().runs.empty();
  } catch (const Error&) {
    // Unreadable: kept, as one that holds runs is.
  }
  store_.reset();  // closed before its files go
  if (holds_runs) return;
  std::error_code ec;
  for (const char* suffix : {"", "-journal", "-wal", "-shm"})
    std::filesystem::remove(created_.string() + suffix, ec);
  created_.clear();
}

int HistoryAfterRun::add(const std::optional<runfile::WrittenRun>& run, int exit_code) {
  if (!store_ || !run || (exit_code != kExitOk && exit_code != kExitRunFailed)) {
    remove_created_store();
    return exit_code;  // nothing was written (merge's problems), or the run did not end
  }
  try {
    for (const auto& line : history::add_written_run(*store_, *run, environment())) {
      fmt::print(stderr, "iobench history: {}\n", line);
    }
  } catch (const Error& e) {
    remove_created_store();
    fmt::print(stderr, "iobench: {}; the rows are kept in {} (iobench history add adds them)\n",
               e.what(), run->runs_file.string());
    return kExitCouldNotContinue;
  }
  created_.clear();
  return exit_code;
}

namespace {

struct AddCli {
  std::optional<std::string> store;
  std::vector<std::string> files;
  history::Labels labels;
  history::AddOptions options;
};

void setup_add(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<AddCli>();
  sub.add_option("runs", cli->files,
                 "Run files (each with its meta file beside it, in meta/), or other harnesses' "
                 "result files")
      ->required();
  sub.add_option("--format", cli->options.format,
                 fmt::format("The files' format: iobench (run files), {}; default: detected from "
                             "each file's content",
                             importers::importer_names()));
  sub.add_option("--higher-is-better", cli->options.higher_is_better,
                 "REGEX: import the measures a file gives no direction for (Google Benchmark's "
                 "user counters) whose whole name it matches, larger values better (repeat)")
      ->allow_extra_args(false);
  sub.add_option("--lower-is-better", cli->options.lower_is_better,
                 "REGEX: the same, smaller values better (the others are left out, and the add "
                 "says which)")
      ->allow_extra_args(false);
  add_store_option(sub, cli->store);
  sub.add_option("--commit", cli->labels.commit,
                 "The commit to file the runs under (default $GITHUB_SHA, $CI_COMMIT_SHA, else "
                 "the commit the meta file says was measured)");
  sub.add_option("--branch", cli->labels.branch,
                 "The branch (default $GITHUB_REF_NAME, $CI_COMMIT_REF_NAME)");
  sub.add_option("--date", cli->options.date,
                 "The date of every run added, the time axis (ISO 8601: 2026-12-01T10:00:00Z, "
                 "2026-12-01T12:00:00+02:00 or 2026-12-01; default the run's own date, else, for "
                 "a file that has none, the time of the add)");
  sub.callback([cli, &exit_code] {
    if (cli->options.date) {  // before the store is opened: a bad date writes nothing
      const std::string given = *cli->options.date;
      cli->options.date = history::parse_given_date(given);
      if (!cli->options.date) throw Error(history::given_date_refusal(given));
    }
    const history::StoreLocation location = store_location(cli->store);
    history::NewStoreUndo undo(location);  // a failed add leaves no new store behind
    std::vector<std::string> lines;
    {
      history::Store store(location, history::OpenMode::kCreate);
      const std::vector<std::filesystem::path> files(cli->files.begin(), cli->files.end());
      lines = history::add_run_files(store, files, cli->labels, environment(), cli->options);
    }
    undo.keep();
    for (const auto& line : lines) fmt::print(stderr, "iobench history: {}\n", line);
    exit_code = kExitOk;
  });
}

struct AckCli {
  std::optional<std::string> store;
  std::string change;
  std::string why;
  std::string by;
};

// The full hashes of CHANGE ("SERIES8@RUN8", as check and changes print it), checked against
// the store: the series must have a row in that run.
history::Ack resolve_change(const history::HistoryData& data, const std::string& change) {
  const std::size_t at = change.find('@');
  const std::string series = change.substr(0, at);
  const std::string run = at == std::string::npos ? "" : change.substr(at + 1);
  if (at == std::string::npos || series.size() < 4 || run.size() < 4) {
    throw Error(
        fmt::format("history ack {}: a change is SERIES@RUN, as history check and "
                    "history changes print it (3f2a9c1b@7b21e0aa)",
                    change));
  }
  for (const auto& timeline : history::build_timelines(data)) {
    if (timeline.series->series_hash.compare(0, series.size(), series) != 0) continue;
    for (const auto& point : timeline.points) {
      if (point.run->run_hash.compare(0, run.size(), run) != 0) continue;
      history::Ack ack;
      ack.series_hash = timeline.series->series_hash;
      ack.run_hash = point.run->run_hash;
      ack.change_id = history::change_id(ack.series_hash, ack.run_hash);
      return ack;
    }
  }
  throw Error(
      fmt::format("history ack {}: no such change in the store (no series {} with a row "
                  "in run {})",
                  change, series, run));
}

void setup_ack(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<AckCli>();
  sub.add_option("change", cli->change,
                 "The change, SERIES@RUN (the run it came in) as check, changes, list and the "
                 "site print it")
      ->required();
  sub.add_option("--why", cli->why, "Why it is expected (kept with who and when)")->required();
  sub.add_option("--by", cli->by, "Who acknowledges (default $GITHUB_ACTOR, $USER, ...)");
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    if (cli->why.find_first_not_of(" \t") == std::string::npos) {
      throw Error("history ack: --why needs a reason");
    }
    history::Store store(store_location(cli->store), history::OpenMode::kExisting);
    history::Ack ack = resolve_change(store.load(), cli->change);
    ack.why = cli->why;
    ack.who = cli->by.empty() ? history::current_user(environment()) : cli->by;
    ack.acked_at = history::utc_now();
    store.acknowledge(ack);
    fmt::print(stderr, "iobench history: {} acknowledged by {}: {}\n", ack.change_id, ack.who,
               ack.why);
    exit_code = kExitOk;
  });
}

struct PruneCli {
  std::optional<std::string> store;
  std::size_t keep = 0;
};

void setup_prune(CLI::App& sub, int& exit_code) {
  auto cli = std::make_shared<PruneCli>();
  sub.add_option("--keep", cli->keep, "Runs of each series to keep, the newest")
      ->required()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000000}));
  add_store_option(sub, cli->store);
  sub.callback([cli, &exit_code] {
    history::Store store(store_location(cli->store), history::OpenMode::kExisting);
    const history::PruneOutcome outcome = store.prune(cli->keep);
    fmt::print(stderr, "iobench history prune: {} rows and {} runs removed from {}\n",
               outcome.samples_removed, outcome.runs_removed, store.location().display);
    exit_code = kExitOk;
  });
}

void setup_history(CLI::App& sub, int& exit_code) {
  sub.require_subcommand(1);
  setup_add(*sub.add_subcommand("add", "Add run files (and their meta files) to the store"),
            exit_code);
  setup_ack(*sub.add_subcommand("ack", "Mark a change as expected, so that check passes it"),
            exit_code);
  setup_prune(*sub.add_subcommand("prune", "Keep only the newest runs of each series"), exit_code);
  setup_history_reports(sub, exit_code);
}

const RegisterCommand kRegisterHistory{
    "history",
    "Remember runs across commits and machines; find and explain regressions (docs/history.md)",
    &setup_history, 17};

}  // namespace
}  // namespace iobench::cli
