#pragma once
// Helpers for the worker tests: a temp dir, file I/O, running iobench-worker as a process, and a
// reference implementation of each op to compare against.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tests/unit/temp_dir.hpp"

extern char** environ;

namespace iobench::worker::testing {

#ifndef IOBENCH_BIN_DIR
#error "IOBENCH_BIN_DIR must name the folder holding iobench-worker"
#endif

inline std::string worker_path() {
  return std::string(IOBENCH_BIN_DIR) + "/iobench-worker";
}

using iobench::test::TempDir;

inline void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct RunResult {
  int exit_code = -1;  // -1: killed by a signal
  std::string out;
  std::string err;
};

// How the worker gets its input.
enum class Feed {
  kPath,   // INPUT is passed as a path
  kStdin,  // "-" with stdin redirected from the file
  kPipe,   // "-" with stdin a pipe the test writes the file into
};

// Runs iobench-worker ARGS [INPUT|-] with stdout and stderr captured in files under `dir`.
inline RunResult run_worker(const TempDir& dir, std::vector<std::string> args,
                            const std::string& input = "", Feed feed = Feed::kPath) {
  if (!input.empty()) args.push_back(feed == Feed::kPath ? input : "-");
  std::vector<char*> argv;
  const std::string program = worker_path();
  argv.push_back(const_cast<char*>(program.c_str()));
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  const std::string out_path = (dir / "stdout").string();
  const std::string err_path = (dir / "stderr").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  int pipe_ends[2] = {-1, -1};
  if (feed == Feed::kStdin && !input.empty()) {
    posix_spawn_file_actions_addopen(&actions, 0, input.c_str(), O_RDONLY, 0);
  } else if (feed == Feed::kPipe && !input.empty()) {
    if (::pipe2(pipe_ends, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_adddup2(&actions, pipe_ends[0], 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  }
  pid_t pid = 0;
  const int error = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + program + ": " + std::strerror(error));
  if (pipe_ends[0] >= 0) {
    ::close(pipe_ends[0]);
    // A worker that refuses its input exits without reading it: the write then fails with EPIPE,
    // and the SIGPIPE it raises is blocked here and consumed below instead of killing the test.
    sigset_t pipe_signal;
    sigset_t saved_mask;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_signal, &saved_mask);
    const std::string bytes = read_file(input);
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(pipe_ends[1], bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;  // the worker stopped reading; its exit status tells why
      done += static_cast<std::size_t>(n);
    }
    ::close(pipe_ends[1]);
    const timespec no_wait{};
    while (::sigtimedwait(&pipe_signal, nullptr, &no_wait) == SIGPIPE) {
    }
    ::pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  return result;
}

// Reference ops, written the obvious way.
inline std::vector<std::string_view> reference_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

inline std::string reference_count(std::string_view text) {
  return std::to_string(reference_lines(text).size()) + "\n";
}

inline std::string reference_field(std::string_view text, std::size_t n) {
  std::string out;
  for (std::string_view line : reference_lines(text)) {
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    std::size_t field = 1;
    std::size_t start = 0;
    while (field < n && start <= line.size()) {
      const std::size_t tab = line.find('\t', start);
      start = tab == std::string_view::npos ? line.size() + 1 : tab + 1;
      ++field;
    }
    if (start <= line.size()) {
      const std::size_t tab = line.find('\t', start);
      out +=
          line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start);
    }
    out += '\n';
  }
  return out;
}

// Output i of split gets lines i, i+N, i+2N, ...
inline std::vector<std::string> reference_split(std::string_view text, std::size_t outputs) {
  std::vector<std::string> parts(outputs);
  std::size_t i = 0;
  for (const std::string_view line : reference_lines(text)) {
    parts[i].append(line);
    i = (i + 1) % outputs;
  }
  return parts;
}

}  // namespace iobench::worker::testing
