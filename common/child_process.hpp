#pragma once
// Starting a helper process that nobody measures: a compressor or decompressor, `git`,
// `iobench-worker --list`, through Boost.Process v2 (docs/architecture.md, "Helper processes").
// Measured workers never start here: the spawner starts them (docs/driver.md). A helper gets an
// empty signal mask, SIGPIPE at its default and none of our descriptors but 0, 1 and 2, whatever
// the starting thread blocks, ignores or has open, so it behaves as it would from a shell.
#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

// Boost 1.81's Process v2 on std::filesystem (no compiled Boost.Filesystem) names boost::optional
// and Boost.TypeTraits without including them.
#include <boost/optional.hpp>
#include <boost/type_traits.hpp>
#ifndef BOOST_PROCESS_USE_STD_FS
#define BOOST_PROCESS_USE_STD_FS 1
#endif
#include <boost/asio/io_context.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/stdio.hpp>

namespace iobench::child {

namespace bp = boost::process::v2;

// One started helper. One not waited for is killed and reaped when destroyed (Boost.Process's
// rule): every caller waits on its normal path.
class Helper {
 public:
  // Starts argv (argv[0] looked up in PATH when it has no '/', and passed on as given) with the
  // standard descriptors `stdio` names: a descriptor of ours, nullptr for /dev/null, {} for ours.
  // Throws iobench::Error "cannot start 'NAME': REASON" when it cannot start.
  Helper(const std::vector<std::string>& argv, bp::process_stdio stdio);
  // Out of line: Boost.Process's code is compiled in child_process.cpp alone, not in every file
  // that holds a Helper.
  Helper(Helper&&) noexcept;
  Helper& operator=(Helper&&) = delete;  // would free the old handle's context before the handle
  ~Helper();

  [[nodiscard]] pid_t pid() const { return pid_; }

  // Waits for it, retrying EINTR; a second call returns the first's value. Returns its exit
  // status, or 128 + N when signal N ended it. Throws iobench::Error when it is not ours to wait
  // for (reaped elsewhere).
  int wait();

 private:
  std::unique_ptr<boost::asio::io_context> context_;  // the process handle's: outlives it
  bp::process process_;
  pid_t pid_;  // kept once process_ lets go of it after the wait
  std::optional<int> exit_status_;
};

// "exited with status 3", "was killed by signal 9 (Killed)": for messages, from wait()'s value.
std::string describe_exit(int exit_status);

struct Captured {
  int exit_status = 0;  // as Helper::wait() returns it
  std::string out;      // everything the child wrote to its stdout
};

enum class Stderr { kInherit, kDevNull };

// Runs argv with stdin from /dev/null and stdout into a pipe read to the end (through the
// system-call seam); stderr ours or /dev/null. Throws iobench::Error when it cannot start.
Captured run_capturing_stdout(const std::vector<std::string>& argv, Stderr err = Stderr::kInherit);

}  // namespace iobench::child
