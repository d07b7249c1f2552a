// mmap-ahead: the whole file mapped, as `mmap`, but its lines are found by a second thread one
// window ahead of the op and writer, so the newline scan runs while the writer waits on a full
// pipe instead of between its writes (docs/workers.md, "Where the time goes").
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "workers/lines.hpp"
#include "workers/readers.hpp"
#include "workers/worker.hpp"

namespace iobench::worker {
namespace {

// The lines of one window: whole lines from `begin` up to `end` (just after a newline, or the end
// of the file). Only the file's last window may hold a line without '\n'.
struct Window {
  std::vector<std::string_view> lines;  // grown once, reused; `count` of them are valid
  std::size_t count = 0;
  const char* end = nullptr;
  bool last = false;
};

class MmapAheadReader final : public Reader {
 public:
  void run(Input& input, Op& op) override {
    // As `mmap`: a pipe is refused, never read(2) instead.
    const MappedInput mapped(input, "mmap-ahead");
    if (mapped.empty()) return;
    {
      Scanner scanner(mapped.begin(), mapped.end());  // joined before the mapping goes
      consume(scanner, mapped.base(), op);
    }
    ::lseek(input.fd, 0, SEEK_END);
  }

 private:
  static constexpr std::size_t kWindowBytes = 512 * 1024;
  static constexpr std::size_t kPage = 4096;
  static constexpr std::size_t kBatch = 256;

  // The second thread: fills windows[k % 2] with window k's lines once the op is done with
  // window k - 2.
  class Scanner {
   public:
    Scanner(const char* begin, const char* end)
        : thread_([this, begin, end] { scan(begin, end); }) {}
    Scanner(const Scanner&) = delete;
    Scanner& operator=(const Scanner&) = delete;
    ~Scanner() {
      {
        const std::lock_guard lock(mutex_);
        stop_ = true;
      }
      changed_.notify_all();
      thread_.join();
    }

    // Window k, once scanned; rethrows the scanner's error.
    const Window& wait(std::size_t k) {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return scanned_ > k || error_; });
      if (error_) std::rethrow_exception(error_);
      return windows_[k % windows_.size()];
    }
    void done_with(std::size_t k) {
      {
        const std::lock_guard lock(mutex_);
        consumed_ = k + 1;
      }
      changed_.notify_all();
    }

   private:
    void scan(const char* p, const char* const end) {
      try {
        for (std::size_t k = 0;; ++k) {
          {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return stop_ || k < consumed_ + windows_.size(); });
            if (stop_) return;
          }
          Window& window = windows_[k % windows_.size()];
          window.end = window_end(p, end);
          window.count = 0;
          for (;;) {
            if (window.lines.size() < window.count + kBatch)
              window.lines.resize(window.count + kBatch);
            std::size_t n = 0;
            p = scan_lines(p, window.end, window.lines.data() + window.count, kBatch, n);
            window.count += n;
            if (n < kBatch) break;
          }
          if (p < window.end) {  // the file's last line, without '\n'
            window.lines[window.count++] =
                std::string_view(p, static_cast<std::size_t>(window.end - p));
            p = window.end;
          }
          window.last = window.end == end;
          {
            const std::lock_guard lock(mutex_);
            scanned_ = k + 1;
          }
          changed_.notify_all();
          if (window.last) return;
        }
      } catch (...) {
        const std::lock_guard lock(mutex_);
        error_ = std::current_exception();
        changed_.notify_all();
      }
    }

    // Just after the last newline within kWindowBytes of p; when there is none (a longer line),
    // just after the line's own newline; the end of the file at the last.
    static const char* window_end(const char* p, const char* end) {
      if (static_cast<std::size_t>(end - p) <= kWindowBytes) return end;
      const char* const cut = p + kWindowBytes;
      if (const void* newline = ::memrchr(p, '\n', kWindowBytes))
        return static_cast<const char*>(newline) + 1;
      const void* newline = std::memchr(cut, '\n', static_cast<std::size_t>(end - cut));
      return newline != nullptr ? static_cast<const char*>(newline) + 1 : end;
    }

    std::array<Window, 2> windows_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t scanned_ = 0;   // windows scanned so far
    std::size_t consumed_ = 0;  // windows the op is done with
    bool stop_ = false;
    std::exception_ptr error_;
    std::thread thread_;  // last: starts once the members above exist
  };

  // Hands each window's lines to the op, then releases them and drops the window's pages from
  // RSS (the data stays in the page cache), as `mmap` does every MiB.
  static void consume(Scanner& scanner, const char* base, Op& op) {
    const char* dropped = base;
    for (std::size_t k = 0;; ++k) {
      const Window& window = scanner.wait(k);
      if (window.count > 0)
        op.lines(std::span<const std::string_view>(window.lines.data(), window.count));
      op.release();
      const bool last = window.last;
      const auto keep = static_cast<std::size_t>(window.end - base) & ~(kPage - 1);
      if (base + keep > dropped) {
        ::madvise(const_cast<char*>(dropped), static_cast<std::size_t>(base + keep - dropped),
                  MADV_DONTNEED);
        dropped = base + keep;
      }
      scanner.done_with(k);
      if (last) return;
    }
  }
};

const RegisterReader kMmapAhead(
    {"mmap-ahead",
     "mmap(2) as mmap, lines found by a second thread one 512 KiB window ahead of the writer", 85,
     [](const Options& /*options*/) -> std::unique_ptr<Reader> {
       return std::make_unique<MmapAheadReader>();
     }});

}  // namespace
}  // namespace iobench::worker
