#pragma once
// Starting a helper process that nobody measures: a compressor or decompressor, `git`,
// `iobench-worker --list`. (Measured workers never start here: the spawner starts them, see
// docs/driver.md.) The child gets an empty signal mask and SIGPIPE at its default, whatever the
// starting thread blocks or ignores, so a helper behaves as it would from a shell.
#include <sys/types.h>

#include <string>
#include <vector>

namespace iobench::child {

// What one of the child's standard descriptors is.
inline constexpr int kInherit = -1;  // the same as ours
inline constexpr int kDevNull = -2;  // /dev/null

struct Stdio {
  int in = kInherit;  // a descriptor of ours, kInherit or kDevNull
  int out = kInherit;
  int err = kInherit;
};

// Starts argv (argv[0] looked up in PATH when it has no '/'); every other descriptor of ours is
// close-on-exec. Throws iobench::Error "cannot start 'NAME': REASON" when it cannot start.
pid_t start(const std::vector<std::string>& argv, const Stdio& stdio);

// Waits for the child, retrying EINTR. Returns its exit status, or 128 + N when signal N ended
// it. Throws iobench::Error when there is no such child.
int wait(pid_t pid);

// "exited with status 3", "was killed by signal 9 (Killed)": for messages, from wait()'s value.
std::string describe_exit(int exit_status);

struct Captured {
  int exit_status = 0;  // as wait() returns it
  std::string out;      // everything the child wrote to its stdout
};

// Runs argv with stdin from /dev/null and stdout into a pipe read to the end; stderr as given.
// Throws iobench::Error when it cannot start.
Captured run_capturing_stdout(const std::vector<std::string>& argv, int err = kInherit);

}  // namespace iobench::child
