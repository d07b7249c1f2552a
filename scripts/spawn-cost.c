// What starting and reaping one program costs each tool's way, outside either tool
// (scripts/bench-vs-hyperfine, docs/bench.md "Timed as precisely as hyperfine"):
// - "posix_spawn": what hyperfine 1.15's timed region does around a command without a shell
//   (strace): Rust's std opens /dev/null for stdin, stdout and stderr, calls glibc's posix_spawn
//   with an empty signal mask and SIGPIPE at its default (POSIX_SPAWN_SETSIGMASK |
//   POSIX_SPAWN_SETSIGDEF; glibc's child then queries and resets every signal's handler, about
//   130 rt_sigaction calls), dup2s them, closes its copies and waits;
// - "vfork": what iobench's spawner does (driver/spawn/worker_start.cpp): vfork, in the child a
//   process group, three dup2s, five signals to their default and the mask emptied, execve,
//   then wait4.
// Each is timed from before the spawn to after the reap, ROUNDS times in alternation; prints the
// median of each in microseconds and their difference.
// Usage: spawn-cost PROGRAM [ROUNDS=2000]
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static double spawn_as_hyperfine(char* const argv[]) {
  const double start = now_us();
  const int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const int out = open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int err = open("/dev/null", O_WRONLY | O_CLOEXEC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in, 0);
  posix_spawn_file_actions_adddup2(&actions, out, 1);
  posix_spawn_file_actions_adddup2(&actions, err, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t set;
  sigemptyset(&set);
  posix_spawnattr_setsigmask(&attr, &set);
  sigaddset(&set, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &set);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid;
  if (posix_spawn(&pid, argv[0], &actions, &attr, argv, environ) != 0) exit(2);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  close(in);
  close(out);
  close(err);
  int status;
  waitpid(pid, &status, 0);
  return now_us() - start;
}

static double spawn_as_iobench(char* const argv[], int null_fd) {
  const double start = now_us();
  sigset_t all, saved;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &saved);
  const pid_t pid = vfork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(null_fd, 0);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
    const int defaults[] = {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT};
    for (int i = 0; i < 5; ++i) signal(defaults[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(argv[0], argv, environ);
    _exit(127);
  }
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  int status;
  struct rusage usage;
  wait4(pid, &status, 0, &usage);
  return now_us() - start;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* values, int n) {
  qsort(values, (size_t)n, sizeof *values, by_value);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: spawn-cost PROGRAM [ROUNDS]\n");
    return 2;
  }
  const int rounds = argc > 2 ? atoi(argv[2]) : 2000;
  if (rounds < 1) return 2;
  char* const command[] = {argv[1], NULL};
  const int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  double* spawned = malloc(sizeof(double) * (size_t)rounds);
  double* vforked = malloc(sizeof(double) * (size_t)rounds);
  for (int i = 0; i < rounds; ++i) {
    if (i % 2 == 0) {
      spawned[i] = spawn_as_hyperfine(command);
      vforked[i] = spawn_as_iobench(command, null_fd);
    } else {
      vforked[i] = spawn_as_iobench(command, null_fd);
      spawned[i] = spawn_as_hyperfine(command);
    }
  }
  const double s = median(spawned, rounds), v = median(vforked, rounds);
  printf("posix_spawn %.1f us, vfork %.1f us, difference %.1f us (%d rounds each)\n", s, v, s - v,
         rounds);
  return 0;
}
