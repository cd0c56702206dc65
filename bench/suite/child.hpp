// precis-suite: running one child process under a wall-clock limit.
//
// Part of bench/suite_runner.cpp (one translation unit); not a public header.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace suite {

namespace fs = std::filesystem;

// ---- child processes ---------------------------------------------------------------------

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

inline double tv_ms(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) * 1e3 + static_cast<double>(tv.tv_usec) / 1e3;
}

// Runs argv[0] (a path, or a name looked up in PATH) with stdin from /dev/null, stdout
// and stderr captured, in its own process group so that a kill on expiry also reaches
// anything it started. The CPU time is the child's rusage from wait4, so the runner's
// own work (parsing, this loop) is not counted.
inline RunResult run_child(const std::vector<std::string>& argv, double timeout_s,
                           const fs::path& cwd = {}) {
  RunResult r;
  int out_pipe[2], err_pipe[2], exec_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0 ||
      pipe2(exec_pipe, O_CLOEXEC) != 0) {
    r.exec_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
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

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    r.exec_error = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) {
      const int e = errno;
      (void)!write(exec_pipe[1], &e, sizeof e);
      _exit(127);
    }
    execvpe(cargv[0], cargv.data(), cenv.data());
    const int e = errno;
    (void)!write(exec_pipe[1], &e, sizeof e);
    _exit(127);
  }
  setpgid(pid, pid);  // also here: whichever runs first, the group exists before a kill
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(exec_pipe[1]);

  int exec_errno = 0;
  // The exec pipe closes on a successful exec (CLOEXEC), or delivers errno.
  if (read(exec_pipe[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    r.exec_error = argv[0] + ": " + std::strerror(exec_errno);
  } else {
    r.started = true;
  }
  close(exec_pipe[0]);

  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(timeout_s));
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* bufs[2] = {&r.out, &r.err};
  int open_fds = 2;
  char chunk[8192];
  bool killed = false;
  while (open_fds > 0) {
    int wait_ms = -1;
    if (!killed && timeout_s > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      wait_ms = static_cast<int>(std::max<std::int64_t>(0, left.count()));
    }
    const int n = poll(fds, 2, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 && !killed) {
      // Wall-clock limit: kill the whole group, then drain the pipes to EOF.
      kill(-pid, SIGKILL);
      killed = true;
      r.timed_out = true;
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
  int status = 0;
  rusage ru{};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  // A child that closed its output early can outlive the loop above: the group kill
  // covers that case, and wait4 then returns once it is gone.
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
