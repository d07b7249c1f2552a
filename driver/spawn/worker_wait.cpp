#include "driver/spawn/worker_wait.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include <cerrno>

#include "driver/spawn/core_util.hpp"

namespace iobench::spawn {
namespace {

// Waits with a pidfd: poll until it is readable (exited), the deadline passes or cancel_fd is
// readable.
WaitEnd wait_with_pidfd(int pidfd, int cancel_fd, double deadline_s) {
  for (;;) {
    pollfd fds[2] = {{pidfd, POLLIN, 0}, {cancel_fd, POLLIN, 0}};
    int timeout_ms = -1;
    if (deadline_s > 0) {
      const double left_s = deadline_s - monotonic_s();
      if (left_s <= 0) return WaitEnd::kDeadline;
      timeout_ms = static_cast<int>(left_s * 1000) + 1;
    }
    const int ready = ::poll(fds, cancel_fd >= 0 ? 2 : 1, timeout_ms);
    // Cannot wait: reap (wait4 blocks) rather than spin.
    if (ready < 0 && errno != EINTR) return WaitEnd::kExited;
    if (ready <= 0) continue;
    if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) return WaitEnd::kExited;
    if (cancel_fd >= 0 && fds[1].revents != 0) return WaitEnd::kCancelled;
  }
}

void on_sigchld(int /*signal*/) {}

// Waits without a pidfd (old kernel, seccomp, EMFILE): SIGCHLD stays blocked except inside
// ppoll, so a child's exit interrupts it at once (no polling interval to add to the wait), and
// waitid(WNOWAIT) tells whether it was this child, leaving it for wait4.
WaitEnd wait_with_sigchld(pid_t pid, int cancel_fd, double deadline_s) {
  struct sigaction action {};
  action.sa_handler = on_sigchld;  // a handler, not SIG_DFL: an ignored signal wakes nobody
  sigemptyset(&action.sa_mask);
  struct sigaction saved_action {};
  ::sigaction(SIGCHLD, &action, &saved_action);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigset_t saved_mask;
  ::pthread_sigmask(SIG_BLOCK, &chld, &saved_mask);
  sigset_t during_wait = saved_mask;
  sigdelset(&during_wait, SIGCHLD);
  WaitEnd end = WaitEnd::kExited;
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid) {
      end = WaitEnd::kExited;
      break;
    }
    timespec timeout{};
    timespec* timeout_ptr = nullptr;
    if (deadline_s > 0) {
      const double left_s = deadline_s - monotonic_s();
      if (left_s <= 0) {
        end = WaitEnd::kDeadline;
        break;
      }
      timeout.tv_sec = static_cast<time_t>(left_s);
      timeout.tv_nsec = static_cast<long>((left_s - static_cast<double>(timeout.tv_sec)) * 1e9);
      timeout_ptr = &timeout;
    }
    pollfd cancel{cancel_fd, POLLIN, 0};
    if (::ppoll(&cancel, cancel_fd >= 0 ? 1 : 0, timeout_ptr, &during_wait) > 0) {
      end = WaitEnd::kCancelled;
      break;
    }
    // 0: the deadline (checked at the top); EINTR: a SIGCHLD (checked at the top).
  }
  ::pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
  ::sigaction(SIGCHLD, &saved_action, nullptr);
  return end;
}

}  // namespace

WaitEnd wait_for_exit(pid_t pid, int pidfd, int cancel_fd, double deadline_s) {
  return pidfd >= 0 ? wait_with_pidfd(pidfd, cancel_fd, deadline_s)
                    : wait_with_sigchld(pid, cancel_fd, deadline_s);
}

int terminate_group(pid_t pgid, int pidfd, double grace_s) {
  ::kill(-pgid, SIGTERM);
  if (wait_for_exit(pgid, pidfd, -1, monotonic_s() + grace_s) != WaitEnd::kDeadline) {
    return SIGTERM;
  }
  ::kill(-pgid, SIGKILL);
  return SIGKILL;
}

}  // namespace iobench::spawn
