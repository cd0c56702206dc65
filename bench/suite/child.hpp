// precis-suite: running child processes under a wall-clock and a memory limit, from any
// number of threads at once, and killing all of them on Ctrl-C.
//
// Part of bench/suite_runner.cpp (one translation unit); not a public header.
//
// Every child runs in its own process group (so that a kill also reaches anything it
// started) and is registered while it exists: on SIGINT, SIGTERM or SIGHUP a dedicated
// thread kills every registered group and ends the runner with that signal. A child's
// pid stays registered until it has been reaped, and it is reaped only after it has been
// unregistered, so a group kill never hits a reused pid. There is no SIGCHLD handler:
// each child is reaped by wait4 on its own pid, which also gives its own rusage.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace suite {

namespace fs = std::filesystem;

struct RunResult {
  bool started = false;  // exec succeeded
  std::string exec_error;
  bool timed_out = false;
  int exit_code = -1;  // when exited normally
  int term_signal = 0;
  double cpu_ms = 0;  // user + sys of the child (and its waited-for descendants)
  double wall_ms = 0;
  std::string out;
  std::string err;
};

// Resource limits set in the child before exec (0: none).
struct ChildLimits {
  std::size_t address_space_mb = 0;  // RLIMIT_AS
  // RLIMIT_DATA (private writable memory): for programs that reserve far more address
  // space than they use, such as node with WebAssembly (z3-solver), which fails to start
  // under an RLIMIT_AS of several GB.
  std::size_t data_mb = 0;
};

inline double tv_ms(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) * 1e3 + static_cast<double>(tv.tv_usec) / 1e3;
}

// The running children's process groups.
struct ChildRegistry {
  std::mutex mutex;
  std::set<pid_t> groups;
  bool stopping = false;  // after a termination signal: start nothing more
};

inline ChildRegistry& registry() {
  static ChildRegistry r;
  return r;
}

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and so in every thread it
// starts afterwards: call this first in main) and starts the thread that receives them.
inline void install_interrupt_handler() {
  static sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([] {
    int sig = 0;
    while (sigwait(&set, &sig) != 0) {
    }
    {
      std::lock_guard<std::mutex> lock(registry().mutex);
      registry().stopping = true;
      for (const pid_t g : registry().groups) kill(-g, SIGKILL);
    }
    const char msg[] = "\nprecis-suite: interrupted; all runs killed\n";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    // Die of the signal itself, so that a calling shell sees it.
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    raise(sig);
    _exit(128 + sig);
  }).detach();
}

// The program execve will run: a name with a slash as an absolute path (a child may run
// in another directory), otherwise the first executable of that name in PATH. Resolved
// before fork, so that the child does no allocation between fork and exec.
inline std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return fs::absolute(name).string();
  const char* path = std::getenv("PATH");
  std::stringstream ss(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(ss, d, ':');) {
    const fs::path p = fs::path(d.empty() ? "." : d) / name;
    if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  return name;  // execve fails with ENOENT and the run says so
}

// Runs argv[0] (a path, or a name looked up in PATH) with stdin from /dev/null, stdout
// and stderr captured, in its own process group, under the wall-clock limit timeout_s
// (0: none; on expiry the whole group is killed) and the given resource limits. Safe to
// call from several threads at once. The CPU time is the child's own rusage from wait4,
// so the runner's own work and the other runs are not counted.
inline RunResult run_child(const std::vector<std::string>& argv, double timeout_s,
                           const ChildLimits& limits = {}, const fs::path& cwd = {}) {
  RunResult r;
  const std::string program = resolve_program(argv.at(0));
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  // The environment, with PWD matching the child's directory: some programs (frama-c)
  // resolve relative file names against $PWD rather than getcwd().
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e)
    if (cwd.empty() || std::strncmp(*e, "PWD=", 4) != 0) env.emplace_back(*e);
  if (!cwd.empty()) env.push_back("PWD=" + fs::absolute(cwd).string());
  std::vector<char*> cenv;
  for (auto& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  const std::string cwd_str = cwd.string();
  auto rlimit_of = [](std::size_t mb) {
    rlimit rl{};
    rl.rlim_cur = rl.rlim_max = mb == 0 ? RLIM_INFINITY : static_cast<rlim_t>(mb) << 20;
    return rl;
  };
  const rlimit as_limit = rlimit_of(limits.address_space_mb);
  const rlimit data_limit = rlimit_of(limits.data_mb);

  // O_CLOEXEC from creation: a child another thread forks never inherits these pipes.
  int out_pipe[2], err_pipe[2], exec_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
      pipe2(exec_pipe, O_CLOEXEC) != 0) {
    r.exec_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  bool interrupted = false;
  {
    // Fork and register under the lock: the interrupt thread either sees the new group
    // or has already set `stopping`.
    std::lock_guard<std::mutex> lock(registry().mutex);
    interrupted = registry().stopping;
    if (!interrupted) pid = fork();
    if (pid == 0) {
      // Child: only async-signal-safe calls until exec.
      setpgid(0, 0);
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);  // the runner blocks SIGINT etc.
      const int devnull = open("/dev/null", O_RDONLY);
      if (devnull >= 0) dup2(devnull, STDIN_FILENO);
      dup2(out_pipe[1], STDOUT_FILENO);
      dup2(err_pipe[1], STDERR_FILENO);
      int e = 0;
      if (!cwd_str.empty() && chdir(cwd_str.c_str()) != 0) e = errno;
      if (e == 0 &&
          (setrlimit(RLIMIT_AS, &as_limit) != 0 || setrlimit(RLIMIT_DATA, &data_limit) != 0))
        e = errno;
      if (e == 0) {
        execve(program.c_str(), cargv.data(), cenv.data());
        e = errno;
      }
      (void)!write(exec_pipe[1], &e, sizeof e);
      _exit(127);
    }
    if (pid > 0) {
      setpgid(pid, pid);  // also here: whichever runs first, the group exists before a kill
      registry().groups.insert(pid);
    }
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(exec_pipe[1]);
  if (pid < 0) {
    r.exec_error =
        interrupted ? std::string("interrupted") : std::string("fork: ") + std::strerror(errno);
    close(out_pipe[0]);
    close(err_pipe[0]);
    close(exec_pipe[0]);
    return r;
  }

  int exec_errno = 0;
  // The exec pipe closes on a successful exec (CLOEXEC), or delivers errno.
  ssize_t got_errno = 0;
  while ((got_errno = read(exec_pipe[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  if (got_errno == sizeof exec_errno) {
    r.exec_error = argv[0] + ": " + std::strerror(exec_errno);
  } else {
    r.started = true;
  }
  close(exec_pipe[0]);

  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(timeout_s));
  bool killed = false;
  auto ms_left = [&]() -> int {
    if (killed || timeout_s <= 0) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    return static_cast<int>(std::max<std::int64_t>(0, left.count()));
  };
  auto kill_on_expiry = [&] {
    // Wall-clock limit: kill the whole group (the pipes then reach EOF).
    kill(-pid, SIGKILL);
    killed = true;
    r.timed_out = true;
  };
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* bufs[2] = {&r.out, &r.err};
  int open_fds = 2;
  char chunk[8192];
  while (open_fds > 0) {
    const int n = poll(fds, 2, ms_left());
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 && !killed) {
      kill_on_expiry();
      continue;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
      if (got > 0) {
        bufs[i]->append(chunk, static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  // A child that closed its output can still run: wait for its exit without reaping it
  // (WNOWAIT; the pid stays ours), still under the limit.
  for (;;) {
    siginfo_t info{};
    const int w = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | WNOHANG);
    if (w == 0 && info.si_pid == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (!killed && timeout_s > 0 && ms_left() == 0) kill_on_expiry();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    registry().groups.erase(pid);
  }
  int status = 0;
  rusage ru{};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  r.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  r.cpu_ms = tv_ms(ru.ru_utime) + tv_ms(ru.ru_stime);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  if (!r.started) r.exit_code = -1;
  return r;
}

inline std::string first_line(const std::string& s) {
  std::string t = s;
  while (!t.empty() && (t.front() == '\n' || t.front() == ' ')) t.erase(t.begin());
  return t.substr(0, t.find('\n'));
}

}  // namespace suite
