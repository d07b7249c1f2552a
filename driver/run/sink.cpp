#include "driver/run/sink.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "common/cpus.hpp"
#include "common/error.hpp"
#include "common/fd.hpp"
#include "common/hash.hpp"
#include "common/sysio.hpp"
#include "driver/spawn/measure.hpp"

namespace iobench::run {
namespace {

constexpr std::size_t kDrainBufferBytes = 1 << 20;
constexpr std::size_t kSmallReadBytes = 1 << 10;
constexpr std::chrono::microseconds kSmallReadPause{50};

class NullSink final : public Sink {
 public:
  // One /dev/null for every run of the process: it holds nothing, so sharing it costs no
  // guarantee, and a run of `true` saves an open and a close.
  NullSink() {
    static const UniqueFd dev_null(::open("/dev/null", O_WRONLY | O_CLOEXEC));
    if (!dev_null) throw Error(fmt::format("/dev/null: {}", std::strerror(errno)));
    fd_ = dev_null.get();
  }
  [[nodiscard]] int worker_fd() const override { return fd_; }
  SinkResult finish() override { return {}; }

 private:
  int fd_ = -1;
};

// `inherit` (bench --show-output, hyperfine's --output=inherit): the worker writes to iobench's
// own stdout, so what it prints is seen and what printing costs is measured; nobody hashes it, so
// its rows are verified through their pair's verification run only, as the null sink's are.
class InheritSink final : public Sink {
 public:
  [[nodiscard]] int worker_fd() const override { return STDOUT_FILENO; }
  SinkResult finish() override { return {}; }
};

// A pipe with its capacity set (pipe_size) and read back: what the kernel gave.
struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
  std::optional<std::uint64_t> size_bytes;
};

Pipe open_pipe(const SinkSettings& settings) {
  std::array<int, 2> ends{};
  if (::pipe2(ends.data(), O_CLOEXEC) != 0)
    throw Error(fmt::format("pipe: {}", std::strerror(errno)));
  Pipe pipe{UniqueFd(ends[0]), UniqueFd(ends[1]), std::nullopt};
  if (settings.pipe_size_bytes && ::fcntl(pipe.write_end.get(), F_SETPIPE_SZ,
                                          static_cast<int>(*settings.pipe_size_bytes)) < 0) {
    throw Error(
        fmt::format("pipe_size {}: F_SETPIPE_SZ refused: {} (see /proc/sys/fs/pipe-max-size)",
                    *settings.pipe_size_bytes, std::strerror(errno)));
  }
  if (const int given = ::fcntl(pipe.write_end.get(), F_GETPIPE_SZ); given > 0) {
    pipe.size_bytes = static_cast<std::uint64_t>(given);
  }
  // Both readers decide themselves when to sleep: reads must not block.
  if (::fcntl(pipe.read_end.get(), F_SETFL, O_NONBLOCK) != 0)
    throw Error(fmt::format("pipe: O_NONBLOCK: {}", std::strerror(errno)));
  return pipe;
}

// `drain: block` (the default): the spawner reads the pipe while it waits for the worker and
// sleeps whenever it is empty, as hyperfine's reader does (spawn/pipe_drain.hpp). It takes no CPU
// of its own, so a load that leaves the worker a CPU leaves the figure where it was
// (docs/driver.md, "What the pipe sink costs").
class SpawnerDrainedPipeSink final : public Sink {
 public:
  explicit SpawnerDrainedPipeSink(const SinkSettings& settings) : pipe_(open_pipe(settings)) {}
  [[nodiscard]] int worker_fd() const override { return pipe_.write_end.get(); }
  [[nodiscard]] int drain_fd() const override { return pipe_.read_end.get(); }
  void drained_by_spawner(const spawn::DrainedOutput& drained) override { drained_ = drained; }

  SinkResult finish() override {
    pipe_.write_end.reset();
    SinkResult result;
    result.pipe_size_bytes = pipe_.size_bytes;
    if (drained_) {
      if (drained_->read_errno != 0)
        throw Error(fmt::format("draining the pipe sink: {}", std::strerror(drained_->read_errno)));
      result.bytes = drained_->bytes;
      result.hash = hex64(drained_->xxh3);
      return result;
    }
    // Nobody drained it (a launcher that is not the spawner, or no worker started): what the
    // pipe holds is the output. At most one pipe's worth: a writer still there (a stray) would
    // refill it without end.
    StreamHash hash;
    std::uint64_t bytes = 0;
    std::array<char, 64 * 1024> buffer{};
    const std::uint64_t limit = pipe_.size_bytes.value_or(buffer.size());
    while (bytes < limit) {
      const ssize_t n = sys::ops().read(pipe_.read_end.get(), buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // empty (EAGAIN), or no writer left
      hash.update(buffer.data(), static_cast<std::size_t>(n));
      bytes += static_cast<std::uint64_t>(n);
    }
    result.drain_cut_short = bytes >= limit;
    result.bytes = bytes;
    result.hash = hash.hex();
    return result;
  }

 private:
  Pipe pipe_;
  std::optional<spawn::DrainedOutput> drained_;
};

// `drain: spin`: a thread of the driver's reads the pipe without sleeping while output flows.
class SpinningPipeSink final : public Sink {
 public:
  explicit SpinningPipeSink(const SinkSettings& settings)
      : grace_s_(settings.drain_grace_s),
        worker_cpus_(settings.worker_cpus),
        spin_s_(settings.drain_spin_s) {
    Pipe pipe = open_pipe(settings);
    read_end_ = std::move(pipe.read_end);
    write_end_ = std::move(pipe.write_end);
    pipe_size_bytes_ = pipe.size_bytes;
    stop_.reset(::eventfd(0, EFD_CLOEXEC));
    if (!stop_) throw Error(fmt::format("eventfd: {}", std::strerror(errno)));
    drain_ = std::thread([this] { drain(); });
  }
  ~SpinningPipeSink() override {
    if (drain_.joinable()) {
      stop();
      drain_.join();
    }
  }
  [[nodiscard]] int worker_fd() const override { return write_end_.get(); }

  SinkResult finish() override {
    write_end_.reset();
    SinkResult result;
    result.pipe_size_bytes = pipe_size_bytes_;
    {
      std::unique_lock lock(mutex_);
      const bool ended = done_cv_.wait_for(lock, std::chrono::duration<double>(grace_s_),
                                           [this] { return done_; });
      if (!ended) result.drain_cut_short = true;
    }
    stop();
    drain_.join();
    result.drain_cpus = drain_cpus_;
    if (!error_.empty()) throw Error(error_);
    result.bytes = bytes_;
    result.hash = hash_.hex();
    return result;
  }

 private:
  void stop() {
    stop_requested_.store(true, std::memory_order_relaxed);
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = ::write(stop_.get(), &one, sizeof one);
  }

  // A pipe writer waits for its reader twice: when the pipe is full, until the reader has read,
  // and on every write into an empty pipe, which wakes a sleeping reader (on a VM, an idle CPU
  // leaving its halt: tens of microseconds). `cat` sleeps whenever the pipe is empty, so a
  // writer into `| cat` pays both; the spinning drain stays awake while output flows (yielding
  // its CPU to anything else runnable), so the writer pays only the copy. docs/driver.md, "What
  // the pipe sink costs", has the figures.
  void drain() {
    // Not zero-filled (a std::vector would touch the whole MiB on every run); pages are only
    // touched as output arrives.
    const std::unique_ptr<char[]> buffer(new char[kDrainBufferBytes]);
    keep_off_worker_cpus();
    const auto spin_for = std::chrono::duration<double>(spin_s_);
    try {
      // Asleep until the first output (the first write wakes it once): spinning before then only
      // takes a CPU from the run, from a pipeline's other process on a machine of two.
      auto last_data = std::chrono::steady_clock::now() -
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(spin_for);
      for (;;) {
        // Stop first: a stray that escaped the process group and writes without end would
        // otherwise keep the pipe readable forever and the drain (and the driver) never ends.
        if (stop_requested_.load(std::memory_order_relaxed)) break;
        // The raw read of the seam: EAGAIN (an empty pipe) is an answer here, not an error.
        const ssize_t n = sys::ops().read(read_end_.get(), buffer.get(), kDrainBufferBytes);
        if (n > 0) {
          consume(buffer.get(), static_cast<std::size_t>(n));
          last_data = std::chrono::steady_clock::now();
          // A small read means a writer of small pieces: every read takes the pipe's lock that
          // each of its writes needs too, so let a few of them gather first (without a system
          // call, and far from filling the pipe).
          if (static_cast<std::size_t>(n) < kSmallReadBytes) {
            while (std::chrono::steady_clock::now() - last_data < kSmallReadPause &&
                   !stop_requested_.load(std::memory_order_relaxed)) {
            }
          }
          continue;
        }
        if (n == 0) break;
        if (errno == EINTR) continue;
        if (errno != EAGAIN) throw std::system_error(errno, std::generic_category(), "read");
        // Empty: wait for output awake with poll(0), which looks at the pipe without its lock
        // (a read would take the lock the writer needs on every try), then read again.
        const auto idle = std::chrono::steady_clock::now() - last_data;
        if (idle < spin_for) {
          spawn::await_readable_awake(read_end_.get(),
                                      std::chrono::duration<double>(spin_for - idle).count());
          continue;
        }
        std::array<pollfd, 2> fds{{{read_end_.get(), POLLIN, 0}, {stop_.get(), POLLIN, 0}}};
        if (::poll(fds.data(), fds.size(), -1) < 0) {
          if (errno == EINTR) continue;
          throw std::system_error(errno, std::generic_category(), "poll");
        }
        if (fds[1].revents != 0) break;
        last_data = std::chrono::steady_clock::now();  // awake again: spin on the next read
      }
    } catch (const std::exception& e) {
      error_ = fmt::format("draining the pipe sink: {}", e.what());
    }
    const std::lock_guard lock(mutex_);
    done_ = true;
    done_cv_.notify_all();
  }

  void consume(const char* data, std::size_t n) {
    bytes_ += n;
    hash_.update(data, n);
  }

  // Moves this (the drain) thread off the worker's CPUs when others remain; records where it runs.
  void keep_off_worker_cpus() {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    if (!worker_cpus_.empty()) {
      cpu_set_t others = allowed;
      for (const int cpu : worker_cpus_) {
        if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_CLR(static_cast<std::size_t>(cpu), &others);
      }
      if (CPU_COUNT(&others) > 0 && ::sched_setaffinity(0, sizeof others, &others) == 0) {
        allowed = others;
      }
    }
    drain_cpus_ = cpu_list(allowed);
  }

  double grace_s_;
  std::vector<int> worker_cpus_;
  double spin_s_;  // how long an empty pipe is watched awake before the drain sleeps in poll
  std::atomic<bool> stop_requested_{false};
  std::vector<int> drain_cpus_;  // written by the drain thread before it ends, read after join
  std::optional<std::uint64_t> pipe_size_bytes_;
  UniqueFd read_end_;
  UniqueFd write_end_;
  UniqueFd stop_;
  std::thread drain_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::uint64_t bytes_ = 0;
  StreamHash hash_;
  std::string error_;
};

class FileSink final : public Sink {
 public:
  explicit FileSink(const SinkSettings& settings) : kept_(!settings.output_file.empty()) {
    if (kept_) {
      path_ = settings.output_file;
      fd_.reset(::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
      if (!fd_) {
        throw Error(fmt::format("{}: cannot write the output there: {}", path_.string(),
                                std::strerror(errno)));
      }
      return;
    }
    std::string pattern = (settings.temp_dir / "sink-XXXXXX").string();
    fd_.reset(::mkostemp(pattern.data(), O_CLOEXEC));
    if (!fd_) {
      throw Error(fmt::format("{}: cannot create a file sink: {}", settings.temp_dir.string(),
                              std::strerror(errno)));
    }
    path_ = pattern;
  }
  ~FileSink() override { remove(); }
  [[nodiscard]] int worker_fd() const override { return fd_.get(); }
  SinkResult finish() override {
    // A full disk means the worker's output is cut short, whatever the worker's exit status:
    // the run is an error (docs/reliability.md, "Faults"), not a measurement of a shorter output.
    struct statvfs disk {};
    const bool full = ::fstatvfs(fd_.get(), &disk) == 0 && disk.f_bavail == 0;
    fd_.reset();
    if (full) {
      const std::string where = path_.parent_path().string();
      remove();
      throw Error(
          fmt::format("file sink in {}: the disk is full (No space left on device); the "
                      "output is incomplete",
                      where));
    }
    SinkResult result;
    std::uint64_t bytes = 0;
    result.hash = hash_file(path_, &bytes);
    result.bytes = bytes;
    remove();
    return result;
  }

 private:
  // A temporary file goes; the file the user named stays, whatever became of the run.
  void remove() {
    if (!kept_ && !path_.empty()) ::unlink(path_.c_str());
    path_.clear();
  }

  bool kept_;
  UniqueFd fd_;
  std::filesystem::path path_;
};

}  // namespace

std::unique_ptr<Sink> open_sink(config::SinkKind kind, const SinkSettings& settings) {
  switch (kind) {
    case config::SinkKind::kNull:
      return std::make_unique<NullSink>();
    case config::SinkKind::kPipe:
      if (settings.drain == config::DrainMode::kSpin)
        return std::make_unique<SpinningPipeSink>(settings);
      return std::make_unique<SpawnerDrainedPipeSink>(settings);
    case config::SinkKind::kFile:
      return std::make_unique<FileSink>(settings);
    case config::SinkKind::kInherit:
      return std::make_unique<InheritSink>();
  }
  throw Error("unknown sink");
}

void connect_sink(const Sink& sink, spawn::SpawnRequest& request) {
  request.stdout_fd = sink.worker_fd();
  request.drain_fd = sink.drain_fd();
}

SinkResult finish_sink(Sink& sink, const spawn::SpawnResult& run) {
  if (run.drained) sink.drained_by_spawner(*run.drained);
  return sink.finish();
}

std::string hash_file(const std::filesystem::path& path, std::uint64_t* bytes) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) throw Error(fmt::format("{}: cannot read: {}", path.string(), std::strerror(errno)));
  std::vector<char> buffer(kDrainBufferBytes);
  StreamHash hash;
  std::uint64_t total = 0;
  try {
    while (const std::size_t n = sys::read_some(fd.get(), buffer.data(), buffer.size())) {
      hash.update(buffer.data(), n);
      total += n;
    }
  } catch (const std::system_error& e) {
    throw Error(fmt::format("{}: cannot read: {}", path.string(), e.code().message()));
  }
  if (bytes != nullptr) *bytes = total;
  return hash.hex();
}

}  // namespace iobench::run
