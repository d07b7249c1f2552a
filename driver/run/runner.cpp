#include "driver/run/runner.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>
#include <system_error>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/size.hpp"
#include "driver/gen/gen.hpp"
#include "driver/report/medians_file.hpp"
#include "driver/run/data_dir.hpp"
#include "driver/run/page_cache.hpp"
#include "driver/run/progress.hpp"
#include "driver/run/run_meta.hpp"
#include "driver/run/shard.hpp"
#include "driver/run/sink.hpp"
#include "driver/run/worker_catalog.hpp"
#include "driver/runfile/writer.hpp"
#include "driver/spawn/spawner.hpp"
#include "driver/util/text.hpp"

namespace iobench {
namespace {

namespace fs = std::filesystem;

// --- Interrupts: stop scheduling, end the running worker, keep every finished row. ------------

volatile std::sig_atomic_t g_interrupt_signal = 0;
const Spawner* g_active_spawner = nullptr;

extern "C" void on_interrupt(int signal_number) {
  g_interrupt_signal = signal_number;
  if (g_active_spawner != nullptr) g_active_spawner->cancel();
}

class InterruptGuard {
 public:
  explicit InterruptGuard(const Spawner& spawner) {
    g_interrupt_signal = 0;
    g_active_spawner = &spawner;
    struct sigaction action {};
    action.sa_handler = &on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocking wait must notice
    ::sigaction(SIGINT, &action, &saved_int_);
    ::sigaction(SIGTERM, &action, &saved_term_);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  ~InterruptGuard() {
    ::sigaction(SIGINT, &saved_int_, nullptr);
    ::sigaction(SIGTERM, &saved_term_, nullptr);
    g_active_spawner = nullptr;
  }

 private:
  struct sigaction saved_int_ {};
  struct sigaction saved_term_ {};
};

// --- Output files ----------------------------------------------------------------------------

struct OutputPaths {
  fs::path runs;
  fs::path medians;
  fs::path meta;
  fs::path folder;
};

std::string utc_stamp() {
  const std::time_t now = std::time(nullptr);
  char text[32] = {};
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", std::gmtime(&now));
  return text;
}

void make_folder(const fs::path& folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    throw Error(fmt::format("{}: cannot create results folder: {}", folder.string(), ec.message()));
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw Error(fmt::format("{}: results folder is not writable: {}", folder.string(),
                            std::strerror(errno)));
  }
}

OutputPaths choose_outputs(const RunOptions& options, const Config& config,
                           const ShardChoice& shard) {
  OutputPaths paths;
  if (options.output.empty()) {
    paths.folder = "results";
    // The shard in the name: the tasks of one array start in the same second.
    const std::string shard_part =
        shard.count > 1 ? fmt::format("-shard-{}-of-{}", shard.index + 1, shard.count) : "";
    const std::string stem = fmt::format("{}-{}{}", config.name, utc_stamp(), shard_part);
    paths.runs = paths.folder / (stem + ".tsv");
    for (int n = 2; fs::exists(paths.runs); ++n)
      paths.runs = paths.folder / fmt::format("{}-{}.tsv", stem, n);
  } else {
    paths.runs = options.output;
    paths.folder = paths.runs.has_parent_path() ? paths.runs.parent_path() : fs::path(".");
    if (fs::exists(paths.runs)) {
      throw Error(fmt::format("{}: exists; results are never overwritten (choose another -o)",
                              paths.runs.string()));
    }
  }
  const std::string stem = paths.runs.stem().string();
  paths.medians = paths.folder / "medians" / (stem + ".tsv");
  paths.meta = paths.folder / "meta" / (stem + ".json");
  return paths;
}

void write_json_file(const fs::path& path, const nlohmann::ordered_json& json) {
  write_file_atomically(path, json.dump(2) + '\n');
}

// A private folder for file sinks, removed with everything in it at the end.
class SinkFolder {
 public:
  explicit SinkFolder(const fs::path& parent) {
    std::string pattern = (parent / ".sinks-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw Error(fmt::format("{}: cannot create a private folder for file sinks: {}",
                              parent.string(), std::strerror(errno)));
    }
    path_ = pattern;
  }
  SinkFolder(const SinkFolder&) = delete;
  SinkFolder& operator=(const SinkFolder&) = delete;
  ~SinkFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The last lines a failed worker wrote to stderr, for the warning that names it.
std::string stderr_tail(int memfd) {
  constexpr std::size_t kTailBytes = 4096;
  const off_t size = ::lseek(memfd, 0, SEEK_END);
  const off_t from =
      size > static_cast<off_t>(kTailBytes) ? size - static_cast<off_t>(kTailBytes) : 0;
  std::string text(kTailBytes, '\0');
  const ssize_t n = ::pread(memfd, text.data(), text.size(), from);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::string tail;
  for (std::size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i) {
    if (!tail.empty()) tail += " | ";
    tail += lines[i];
  }
  return tail;
}

struct InputState {
  fs::path path;
  std::optional<std::uint64_t> size_bytes;
  bool size_change_reported = false;
  bool missing_reported = false;
};

struct PairVerification {
  bool mismatch = false;
  std::optional<std::uint64_t> bytes;
  std::string hash;
};

struct ExpectedOutput {
  std::string hash;
  std::uint64_t bytes = 0;
  std::string source;  // "the input" or the reference test's name
};

std::string describe_outcome(const SpawnResult& result) {
  switch (result.outcome) {
    case SpawnOutcome::kExited:
      return fmt::format("exit code {}", result.exit_code);
    case SpawnOutcome::kSignaled:
      return fmt::format("killed by signal {} ({})", result.term_signal,
                         strsignal(result.term_signal));
    case SpawnOutcome::kTimedOut:
      return "timed out";
    case SpawnOutcome::kCancelled:
      return "cancelled";
    case SpawnOutcome::kSpawnFailed:
      return "could not start: " + result.error;
  }
  return "unknown";
}

void fill_measurements(RunRow& row, const SpawnResult& result) {
  const auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
  };
  row.elapsed_s = result.elapsed_s;
  row.user_s = seconds(result.usage.ru_utime);
  row.system_s = seconds(result.usage.ru_stime);
  row.cpu_pct = row.elapsed_s > 0 ? (row.user_s + row.system_s) / row.elapsed_s * 100.0 : 0.0;
  row.max_rss_kib = result.usage.ru_maxrss;  // KiB on Linux
  row.minflt = result.usage.ru_minflt;
  row.majflt = result.usage.ru_majflt;
  row.nvcsw = result.usage.ru_nvcsw;
  row.nivcsw = result.usage.ru_nivcsw;
  row.inblock = result.usage.ru_inblock;
  row.oublock = result.usage.ru_oublock;
  switch (result.outcome) {
    case SpawnOutcome::kExited:
      row.status = result.exit_code == 0 ? RunStatus::kOk : RunStatus::kFailed;
      row.exit_code = result.exit_code;
      break;
    case SpawnOutcome::kSignaled:
      row.status = RunStatus::kSignal;
      row.exit_code = 128 + result.term_signal;
      break;
    case SpawnOutcome::kTimedOut:
      row.status = RunStatus::kTimeout;
      row.exit_code = 128 + result.term_signal;
      break;
    case SpawnOutcome::kCancelled:
    case SpawnOutcome::kSpawnFailed:
      row.status = RunStatus::kError;
      break;
  }
}

void print_plan(const Config& config, const Plan& plan) {
  std::size_t verify_runs = 0;
  std::size_t warmup_runs = 0;
  for (const auto& run : plan.runs) {
    verify_runs += run.phase == RunPhase::kVerify ? 1 : 0;
    warmup_runs += run.phase == RunPhase::kWarmup ? 1 : 0;
  }
  fmt::print(
      "# {}: {} tests, {} inputs, {} sinks: {} cells; {} repeats; {} runs ({} verification, "
      "{} warmup, {} measured); order {}, cache {}\n",
      config.name, plan.tests.size(), config.inputs.size(), config.sinks.size(), plan.cells.size(),
      plan.repeats, plan.runs.size(), verify_runs, warmup_runs, plan.measured_runs(),
      to_string(config.order), to_string(config.cache));
  fmt::print("phase\ttest\tinput\tsink\trepeat\targv\n");
  for (const auto& run : plan.runs) {
    const Cell& cell = plan.cells[run.cell];
    const Test& test = plan.tests[cell.test];
    const std::string input = config.inputs[cell.input].path.string();
    const char* phase = run.phase == RunPhase::kVerify   ? "verify"
                        : run.phase == RunPhase::kWarmup ? "warmup"
                                                         : "measure";
    const SinkKind sink = run.phase == RunPhase::kVerify ? SinkKind::kPipe : cell.sink;
    fmt::print("{}\t{}\t{}\t{}\t{}\t{}\n", phase, test.name, input, to_string(sink), run.repeat,
               join_argv(run_argv(test, config, input)));
  }
}

void check_worker_strategies(const Config& config, const Plan& plan, const fs::path& worker) {
  bool any_worker = false;
  for (const auto& test : plan.tests) {
    any_worker |= config.strategies[test.strategy].kind == StrategySpec::Kind::kWorker;
  }
  if (!any_worker) return;
  const auto catalog = load_worker_catalog(worker);
  for (const auto& test : plan.tests) {
    if (config.strategies[test.strategy].kind != StrategySpec::Kind::kWorker) continue;
    const std::vector<std::string> args(test.argv.begin() + 1, test.argv.end() - 1);
    if (const std::string problem = check_worker_args(args, catalog); !problem.empty()) {
      throw Error(fmt::format("{}: strategies[{}].worker: test '{}': {}", config.file.string(),
                              test.strategy, test.name, problem));
    }
  }
}

// The tasks of a job array may share a file system and start at once: one makes the input
// while the others wait on its lock file, then find it whole (gen renames it into place).
void generate_once(const InputSpec& input, bool quiet) {
  const fs::path lock_path =
      input.path.parent_path() / ("." + input.path.filename().string() + ".lock");
  const UniqueFd lock(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!lock) {
    throw Error(fmt::format("{}: cannot create the lock file for generating {}: {}",
                            lock_path.string(), input.path.string(), std::strerror(errno)));
  }
  if (::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) {
    if (!quiet) {
      fmt::print(stderr, "iobench: waiting for another process generating {}\n",
                 input.path.string());
    }
    while (::flock(lock.get(), LOCK_EX) != 0) {
      if (errno != EINTR) {
        throw Error(fmt::format("{}: cannot lock: {}", lock_path.string(), std::strerror(errno)));
      }
    }
  }
  std::error_code ec;
  if (fs::exists(input.path, ec)) return;  // made while we waited
  if (!quiet) {
    fmt::print(stderr, "iobench: generating {} ({} {}, seed {})\n", input.path.string(),
               format_size(input.generate->size_bytes), input.generate->kind, input.generate->seed);
  }
  gen::generate(*input.generate, input.path);
  // Still locked: a waiter holds the old inode and finds the input; a latecomer finds it first.
  ::unlink(lock_path.c_str());
}

void prepare_inputs(const Config& config, bool quiet) {
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    const InputSpec& input = config.inputs[i];
    std::error_code ec;
    if (fs::exists(input.path, ec)) continue;
    if (!input.generate) {
      throw Error(
          fmt::format("{}: inputs[{}]: {} does not exist (give it a \"generate\" to have it made)",
                      config.file.string(), i, input.path.string()));
    }
    if (input.path.has_parent_path()) fs::create_directories(input.path.parent_path(), ec);
    generate_once(input, quiet);
  }
}

struct MatrixTotals {
  std::size_t rows_written = 0;
  std::size_t bad_rows = 0;
};

// Executes a plan run by run: checks the input, prepares the cache, runs the worker into its
// sink through the spawner, verifies the output, and appends the row.
class MatrixExecutor {
 public:
  MatrixExecutor(const Config& config, const Plan& plan, Spawner& spawner, RunTsvWriter& writer,
                 const fs::path& sink_folder, bool show_progress)
      : config_(config),
        plan_(plan),
        spawner_(spawner),
        writer_(writer),
        progress_(plan.runs.size(), show_progress),
        host_(host_name()),
        allow_drop_caches_(::geteuid() == 0) {
    sink_settings_.pipe_size_bytes = config.pipe_size_bytes;
    sink_settings_.temp_dir = sink_folder;
    for (const auto& spec : config.inputs) {
      InputState state;
      state.path = spec.path;
      std::error_code ec;
      const auto size = fs::file_size(spec.path, ec);
      if (!ec) state.size_bytes = size;
      inputs_.push_back(state);
    }
  }

  MatrixTotals run_all() {
    for (std::size_t r = 0; r < plan_.runs.size() && g_interrupt_signal == 0; ++r) {
      run_one(r);
    }
    progress_.finish();
    return totals_;
  }

 private:
  void run_one(std::size_t index) {
    const PlannedRun& run = plan_.runs[index];
    const Cell& cell = plan_.cells[run.cell];
    const Test& test = plan_.tests[cell.test];
    InputState& input = inputs_[cell.input];
    const SinkKind sink_kind = run.phase == RunPhase::kVerify ? SinkKind::kPipe : cell.sink;
    progress_.start(index, fmt::format("{} · {} · {}{}", test.name, input.path.filename().string(),
                                       to_string(sink_kind), phase_suffix(run.phase)));

    RunRow row;
    row.test = test.name;
    row.input = input.path.string();
    row.sink = std::string(to_string(sink_kind));
    row.repeat = run.repeat;
    row.host = host_;
    if (!input_still_there(input)) {
      if (run.phase == RunPhase::kMeasure) {
        row.status = RunStatus::kError;
        record(row);
      }
      return;
    }
    row.cache_pct = prepare_cache(input.path);

    SpawnResult result;
    SinkResult output;
    const UniqueFd stderr_capture(::memfd_create("iobench-worker-stderr", MFD_CLOEXEC));
    try {
      const std::unique_ptr<Sink> sink = open_sink(sink_kind, sink_settings_);
      SpawnRequest request;
      request.argv = run_argv(test, config_, input.path.string());
      request.stdout_fd = sink->worker_fd();
      request.stderr_fd = stderr_capture.get();
      request.cpus = config_.cpus;
      request.timeout_s = config_.timeout_s;
      result = spawner_.run(request);
      if (result.outcome == SpawnOutcome::kCancelled || g_interrupt_signal != 0) return;
      output = sink->finish();
    } catch (const Error& e) {
      // A sink that cannot be made or read back (a full disk) fails this run, not the matrix.
      result.outcome = SpawnOutcome::kSpawnFailed;
      result.error = e.what();
    }
    fill_measurements(row, result);
    row.output_hash = output.hash;
    row.bytes_out = output.bytes;
    if (output.drain_cut_short) {
      progress_.warn(
          fmt::format("{}: a process kept the sink pipe open after the worker ended; "
                      "its output was cut off",
                      test.name));
    }
    if (row.status != RunStatus::kOk) warn_failure(row, run, result, stderr_capture.get());

    switch (run.phase) {
      case RunPhase::kVerify:
        verify(cell, test, row, output);
        return;
      case RunPhase::kWarmup:
        return;
      case RunPhase::kMeasure:
        check_against_verification(cell, test, row, run.repeat);
        record(row);
        return;
    }
  }

  static std::string phase_suffix(RunPhase phase) {
    switch (phase) {
      case RunPhase::kVerify:
        return " (verify)";
      case RunPhase::kWarmup:
        return " (warmup)";
      case RunPhase::kMeasure:
        break;
    }
    return "";
  }

  // The input may have been removed or changed since the start: say so, never assume.
  bool input_still_there(InputState& input) {
    std::error_code ec;
    const auto size_now = fs::file_size(input.path, ec);
    if (ec) {
      if (!input.missing_reported) {
        progress_.warn(
            fmt::format("input {} is gone or unreadable: {}", input.path.string(), ec.message()));
        input.missing_reported = true;
      }
      return false;
    }
    if (input.size_bytes && size_now != *input.size_bytes && !input.size_change_reported) {
      progress_.warn(
          fmt::format("input {} changed size during the run: {} -> {} bytes; later "
                      "runs read different data",
                      input.path.string(), *input.size_bytes, size_now));
      input.size_change_reported = true;
    }
    return true;
  }

  // Brings the input into the configured cache state and returns its measured residency.
  std::optional<double> prepare_cache(const fs::path& path) const {
    switch (config_.cache) {
      case CacheMode::kWarm:
        if (const auto resident = resident_pct(path); resident && *resident >= 100.0)
          return resident;
        warm_page_cache(path);
        return resident_pct(path);
      case CacheMode::kCold:
        return evict_page_cache(path, allow_drop_caches_);
      case CacheMode::kNone:
        break;
    }
    return resident_pct(path);
  }

  void warn_failure(const RunRow& row, const PlannedRun& run, const SpawnResult& result,
                    int stderr_fd) {
    std::string detail = describe_outcome(result);
    if (const std::string tail = stderr_fd >= 0 ? stderr_tail(stderr_fd) : ""; !tail.empty()) {
      detail += ": " + tail;
    }
    std::string which;
    switch (run.phase) {
      case RunPhase::kVerify:
        which = "verification run";
        break;
      case RunPhase::kWarmup:
        which = "warmup";
        break;
      case RunPhase::kMeasure:
        which = fmt::format("run {}", run.repeat);
        break;
    }
    progress_.warn(
        fmt::format("{} on {} ({} sink, {}): {}", row.test, row.input, row.sink, which, detail));
  }

  // A verification run: compare with the class's expected output (the input for copies, else
  // the class's first verified test).
  void verify(const Cell& cell, const Test& test, const RunRow& row, const SinkResult& output) {
    // A failed verification run was warned about; the measured runs show their own status.
    if (row.status != RunStatus::kOk) return;
    PairVerification& pair = verified_[{cell.test, cell.input}];
    pair.hash = output.hash;
    pair.bytes = output.bytes;
    const auto class_key = std::make_pair(test.output_class, cell.input);
    auto found = expected_.find(class_key);
    if (found == expected_.end()) {
      ExpectedOutput reference;
      if (test.output_class == "copy") {
        reference.hash = hash_file(inputs_[cell.input].path, &reference.bytes);
        reference.source = "the input";
      } else {
        reference.hash = output.hash;
        reference.bytes = output.bytes.value_or(0);
        reference.source = test.name;
      }
      found = expected_.emplace(class_key, reference).first;
    }
    if (found->second.hash != pair.hash) {
      pair.mismatch = true;
      progress_.warn(
          fmt::format("{} on {}: MISMATCH: wrote {} bytes (hash {}), but {} has {} "
                      "bytes (hash {}); its rows are marked mismatch",
                      test.name, row.input, pair.bytes.value_or(0), pair.hash, found->second.source,
                      found->second.bytes, found->second.hash));
    }
  }

  // A measured run: its own hash (pipe, file) must equal its verification run's.
  void check_against_verification(const Cell& cell, const Test& test, RunRow& row, int repeat) {
    const auto it = verified_.find({cell.test, cell.input});
    if (it == verified_.end()) return;
    const PairVerification& pair = it->second;
    if (!row.bytes_out) row.bytes_out = pair.bytes;  // the null sink counts nothing itself
    const bool differs =
        !row.output_hash.empty() && !pair.hash.empty() && row.output_hash != pair.hash;
    if (row.status != RunStatus::kOk || !(pair.mismatch || differs)) return;
    row.status = RunStatus::kMismatch;
    if (differs && !pair.mismatch) {
      progress_.warn(fmt::format("{} on {} run {}: output differs from its verification run",
                                 test.name, row.input, repeat));
    }
  }

  void record(const RunRow& row) {
    writer_.append(row);
    ++totals_.rows_written;
    if (row.status != RunStatus::kOk) ++totals_.bad_rows;
  }

  const Config& config_;
  const Plan& plan_;
  Spawner& spawner_;
  RunTsvWriter& writer_;
  Progress progress_;
  std::string host_;
  bool allow_drop_caches_;
  SinkSettings sink_settings_;
  std::vector<InputState> inputs_;
  std::map<std::pair<std::size_t, std::size_t>, PairVerification> verified_;  // (test, input)
  std::map<std::pair<std::string, std::size_t>, ExpectedOutput> expected_;    // (class, input)
  MatrixTotals totals_;
};

}  // namespace

int run_experiment(const RunOptions& options) {
  Config config = load_config(options.config_path);
  const auto lookup = [](const char* name) { return std::getenv(name); };
  if (const auto data_dir = choose_data_dir(options.data_dir, config.file, lookup)) {
    set_data_dir(config, *data_dir);
  }
  return run_config(config, options);
}

int run_config(const Config& config, const RunOptions& options) {
  // Everything that can be wrong with the config is found here, before anything is written.
  PlanOptions plan_options;
  plan_options.worker_path = find_worker().string();
  plan_options.filter_regex = options.filter_regex;
  plan_options.repeats_override = options.repeats_override;
  const ShardChoice shard =
      resolve_shard(options.shard, [](const char* name) { return std::getenv(name); });
  plan_options.shard_index = shard.index;
  plan_options.shard_count = shard.count;
  const Plan plan = build_plan(config, plan_options);
  PlanOptions whole_matrix = plan_options;
  whole_matrix.shard_index = 0;
  whole_matrix.shard_count = 1;
  const nlohmann::ordered_json matrix =
      describe_matrix(config, shard.count > 1 ? build_plan(config, whole_matrix) : plan, shard);
  check_worker_strategies(config, plan, plan_options.worker_path);
  for (std::size_t i = 0; i < config.inputs.size(); ++i) {
    std::error_code ec;
    if (!config.inputs[i].generate && !fs::exists(config.inputs[i].path, ec)) {
      throw Error(
          fmt::format("{}: inputs[{}]: {} does not exist (give it a \"generate\" to have it made)",
                      config.file.string(), i, config.inputs[i].path.string()));
    }
  }
  if (options.dry_run) {
    print_plan(config, plan);
    return kExitOk;
  }

  const OutputPaths paths = choose_outputs(options, config, shard);
  if (options.runs_file_out != nullptr) *options.runs_file_out = paths.runs;
  make_folder(paths.folder);
  make_folder(paths.medians.parent_path());
  make_folder(paths.meta.parent_path());
  if (is_unoptimized_build()) {
    fmt::print(stderr, "iobench: warning: this is a {} build; its timings are not representative\n",
               build_info());
  }
  prepare_inputs(config, options.quiet);

  RunTsvWriter writer(paths.runs);
  nlohmann::ordered_json meta;
  meta["runs_file"] = paths.runs.string();
  meta["medians_file"] = paths.medians.string();
  meta["context"] = collect_machine_context();
  meta["options"] = {{"filter", options.filter_regex},
                     {"repeats", plan.repeats},
                     {"shard", matrix["shard"]},
                     {"order", to_string(config.order)},
                     {"seed", config.seed},
                     {"worker", plan_options.worker_path}};
  meta["host"] = host_name();
  meta["matrix"] = matrix;
  meta["config_file"] = config.file.string();
  meta["config"] = config.as_written;
  write_json_file(paths.meta, meta);

  SinkFolder sink_folder(paths.folder);
  Spawner& spawner = Spawner::global();
  const InterruptGuard interrupt_guard(spawner);
  MatrixExecutor executor(config, plan, spawner, writer, sink_folder.path(),
                          !options.quiet && ::isatty(STDERR_FILENO) != 0);
  const MatrixTotals totals = executor.run_all();

  const bool interrupted = g_interrupt_signal != 0;
  meta["finished"] = !interrupted;
  meta["rows"] = totals.rows_written;
  write_json_file(paths.meta, meta);

  if (totals.rows_written > 0) {
    report::write_run_report({paths.runs, paths.medians, config.baseline}, std::cout, std::cerr);
  }
  fmt::print(stderr, "iobench: {} rows in {}{}\n", totals.rows_written, paths.runs.string(),
             interrupted ? " (interrupted; every finished run is kept)" : "");
  if (interrupted) return kExitInterrupted;
  if (totals.bad_rows > 0) {
    fmt::print(stderr, "iobench: {} of {} runs did not end ok (see the status column)\n",
               totals.bad_rows, totals.rows_written);
    return kExitRunFailed;
  }
  return kExitOk;
}

}  // namespace iobench
