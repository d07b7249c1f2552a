#include "driver/history/add_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace iobench::history {
namespace {

// How many files may be read ahead of the one being stored: enough to keep every reader busy,
// few enough that the records in memory stay a handful whatever the number of files.
constexpr std::size_t kReadAhead = 16;

// The records of `files` in the order given, read on every CPU while the caller stores the ones
// before (parsing was half of an add's CPU time, the store the other half, on one thread:
// docs/history.md, "Performance"). The caller's thread reads too whenever the next record is not
// ready yet, so neither CPU waits while there is a file to read.
class RecordPipeline {
 public:
  RecordPipeline(const std::vector<std::filesystem::path>& files, const Labels& given,
                 const EnvLookup& lookup, const AddOptions& options)
      : files_(files), given_(given), lookup_(lookup), options_(options), slots_(files.size()) {
    const std::size_t readers =
        std::min<std::size_t>(std::max(1U, std::thread::hardware_concurrency()), files.size());
    for (std::size_t t = 1; t < readers; ++t) readers_.emplace_back([this] { read_while_asked(); });
  }
  ~RecordPipeline() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
  }  // then readers_ join, each after the file in hand
  RecordPipeline(const RecordPipeline&) = delete;
  RecordPipeline& operator=(const RecordPipeline&) = delete;

  // The next record in the order given (nullptr after the last), valid until the next call;
  // rethrows the error of a file that could not be read.
  const RunRecord* next();

 private:
  struct Slot {
    std::optional<RunRecord> record;
    std::exception_ptr error;
    bool done = false;
  };
  // Under the lock: the next file to read, if the read-ahead allows one.
  std::optional<std::size_t> claim() {
    if (claimed_ == files_.size() || claimed_ >= handed_ + kReadAhead) return std::nullopt;
    return claimed_++;
  }
  void read(std::size_t i, std::unique_lock<std::mutex>& lock);
  void read_while_asked();

  const std::vector<std::filesystem::path>& files_;
  const Labels& given_;
  const EnvLookup& lookup_;
  const AddOptions& options_;
  std::vector<Slot> slots_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t claimed_ = 0;  // files [0, claimed_) are read or being read
  std::size_t handed_ = 0;   // records [0, handed_) were handed out
  bool stopping_ = false;
  std::vector<std::jthread> readers_;  // last: joined before the rest is destroyed
};

void RecordPipeline::read(std::size_t i, std::unique_lock<std::mutex>& lock) {
  lock.unlock();
  Slot slot;
  try {
    slot.record = load_any_record(files_[i], options_, given_, lookup_);
  } catch (...) {
    slot.error = std::current_exception();
  }
  slot.done = true;
  lock.lock();
  slots_[i] = std::move(slot);
  changed_.notify_all();
}

void RecordPipeline::read_while_asked() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (const auto i = claim()) {
      read(*i, lock);
    } else if (claimed_ == files_.size()) {
      return;
    } else {
      changed_.wait(lock);
    }
  }
}

const RunRecord* RecordPipeline::next() {
  std::unique_lock lock(mutex_);
  if (handed_ > 0) slots_[handed_ - 1].record.reset();  // stored: its memory goes back
  if (handed_ == files_.size()) return nullptr;
  while (!slots_[handed_].done) {
    if (const auto i = claim()) {
      read(*i, lock);
    } else {
      changed_.wait(lock);
    }
  }
  Slot& slot = slots_[handed_++];
  changed_.notify_all();  // the read-ahead moved on
  if (slot.error) std::rethrow_exception(slot.error);
  return &*slot.record;
}

}  // namespace

namespace {

// What an add says of each record: "added RUNS to STORE: ..." or "RUNS is already in STORE".
auto saying_into(const Store& store, std::vector<std::string>& lines) {
  return [&store, &lines](const RunRecord& record, const AddOutcome& outcome) {
    if (!outcome.stored) {
      lines.push_back(
          fmt::format("{} is already in {}", record.runs_file, store.location().display));
      return;
    }
    lines.push_back(fmt::format("added {} to {}: {} rows, {} new series (commit {}{})",
                                record.runs_file, store.location().display, outcome.rows,
                                outcome.new_series, record.labels.commit.value_or("unknown"),
                                record.labels.branch ? ", branch " + *record.labels.branch : ""));
    lines.insert(lines.end(), record.notes.begin(), record.notes.end());
  };
}

}  // namespace

std::vector<std::string> add_run_files(Store& store,
                                       const std::vector<std::filesystem::path>& files,
                                       const Labels& given, const EnvLookup& lookup,
                                       const AddOptions& options) {
  RecordPipeline records(files, given, lookup, options);
  std::vector<std::string> lines;
  store.add_all([&records] { return records.next(); }, saying_into(store, lines));
  return lines;
}

std::vector<std::string> add_written_run(Store& store, const runfile::WrittenRun& run,
                                         const EnvLookup& lookup) {
  const RunRecord record = run_record_of(run, {}, lookup);
  std::vector<std::string> lines;
  saying_into(store, lines)(record, store.add(record));
  return lines;
}

}  // namespace iobench::history
