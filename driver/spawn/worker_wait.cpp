#include "driver/spawn/worker_wait.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include <cerrno>

#include "driver/spawn/core_util.hpp"
#include "driver/spawn/pipe_drain.hpp"

namespace iobench::spawn {
namespace {

// The drain's descriptor, or -1 (poll ignores a negative fd).
int drain_fd(const PipeDrain* drain) {
  return drain != nullptr ? drain->fd() : -1;
}

// Reads the drain's pipe when poll found it ready.
void serve(PipeDrain* drain, const pollfd& polled) {
  if (drain != nullptr && polled.fd >= 0 && polled.revents != 0) drain->read_available();
}

// Waits with a pidfd: poll until it is readable (exited), the deadline passes or cancel_fd is
// readable.
WaitEnd wait_with_pidfd(int pidfd, int cancel_fd, double deadline_s, PipeDrain* drain) {
  for (;;) {
    pollfd fds[3] = {{pidfd, POLLIN, 0}, {cancel_fd, POLLIN, 0}, {drain_fd(drain), POLLIN, 0}};
    int timeout_ms = -1;
    if (deadline_s > 0) {
      const double left_s = deadline_s - monotonic_s();
      if (left_s <= 0) return WaitEnd::kDeadline;
      timeout_ms = static_cast<int>(left_s * 1000) + 1;
    }
    const int ready = ::poll(fds, 3, timeout_ms);
    // Cannot wait: reap (wait4 blocks) rather than spin.
    if (ready < 0 && errno != EINTR) return WaitEnd::kExited;
    if (ready <= 0) continue;
    serve(drain, fds[2]);
    if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) return WaitEnd::kExited;
    if (cancel_fd >= 0 && fds[1].revents != 0) return WaitEnd::kCancelled;
  }
}

void on_sigchld(int /*signal*/) {}

// Waits without a pidfd (old kernel, seccomp, EMFILE): SIGCHLD stays blocked except inside
// ppoll, so a child's exit interrupts it at once (no polling interval to add to the wait), and
// waitid(WNOWAIT) tells whether it was this child, leaving it for wait4.
WaitEnd wait_with_sigchld(pid_t pid, int cancel_fd, double deadline_s, PipeDrain* drain) {
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
    pollfd fds[2] = {{cancel_fd, POLLIN, 0}, {drain_fd(drain), POLLIN, 0}};
    if (::ppoll(fds, 2, timeout_ptr, &during_wait) > 0) {
      serve(drain, fds[1]);
      if (cancel_fd >= 0 && fds[0].revents != 0) {
        end = WaitEnd::kCancelled;
        break;
      }
    }
    // 0: the deadline (checked at the top); EINTR: a SIGCHLD (checked at the top).
  }
  ::pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
  ::sigaction(SIGCHLD, &saved_action, nullptr);
  return end;
}

}  // namespace

WaitEnd wait_for_exit(pid_t pid, int pidfd, int cancel_fd, double deadline_s, PipeDrain* drain) {
  return pidfd >= 0 ? wait_with_pidfd(pidfd, cancel_fd, deadline_s, drain)
                    : wait_with_sigchld(pid, cancel_fd, deadline_s, drain);
}

int terminate_group(pid_t pgid, int pidfd, double grace_s, PipeDrain* drain) {
  ::kill(-pgid, SIGTERM);
  if (wait_for_exit(pgid, pidfd, -1, monotonic_s() + grace_s, drain) != WaitEnd::kDeadline) {
    return SIGTERM;
  }
  ::kill(-pgid, SIGKILL);
  return SIGKILL;
}

}  // namespace iobench::spawn
