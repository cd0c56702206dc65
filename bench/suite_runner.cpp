// precis-suite: the end-to-end runner. It runs precis-verify once per model and analysis
// as a child process (fork/exec, no shell), under a wall-clock limit, measures the
// child's process CPU time (user + sys from wait4), and prints one table: model,
// expected verdict, then per analysis the verdict, CPU ms, refinements and ARG nodes;
// optionally Frama-C Eva side by side on C tasks. A wrong verdict is the worst defect the
// project can ship, so wrong verdicts are flagged loudly and make the exit code 1.
//
//   precis-suite [--verify PATH] [--analysis expl,pred-cart] [--baseline] [--timeout S]
//                [--frama-c] DIR...
//
// A DIR is one of
//   - a .cfa suite: DIR/verdicts.tsv with columns model, verdict[, ...]; the models are
//     DIR/<model>.cfa (verdict SAFE, UNSAFE or NONE = no error location);
//   - a set of SV-COMP tasks: DIR/*.yml (the expected verdict is the one of the
//     unreach-call property), cross-checked with verdicts.tsv (columns task, lines,
//     unreach_call) in DIR or its parent;
//   - an SV-COMP root: DIR/verdicts.tsv with a `task` column listing <set>/<file>.c.
//
// Exit status: 0 no wrong verdict, 1 some wrong verdict, 2 usage or setup error.

#include <CLI/CLI.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace fs = std::filesystem;

namespace {

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

double tv_ms(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) * 1e3 + static_cast<double>(tv.tv_usec) / 1e3;
}

// Runs argv[0] (a path, or a name looked up in PATH) with stdin from /dev/null, stdout
// and stderr captured, in its own process group so that a kill on expiry also reaches
// anything it started. The CPU time is the child's rusage from wait4, so the runner's
// own work (parsing, this loop) is not counted.
RunResult run_child(const std::vector<std::string>& argv, double timeout_s,
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

// ---- a small JSON reader (precis-verify's --json report) -------------------------------

struct Json {
  using Object = std::vector<std::pair<std::string, Json>>;
  using Array = std::vector<Json>;
  std::variant<std::nullptr_t, bool, double, std::string, Array, Object> v;

  [[nodiscard]] const Json* get(std::string_view key) const {
    if (const auto* o = std::get_if<Object>(&v))
      for (const auto& [k, x] : *o)
        if (k == key) return &x;
    return nullptr;
  }
  [[nodiscard]] std::optional<std::string> str(std::string_view key) const {
    const Json* x = get(key);
    if (x == nullptr) return std::nullopt;
    if (const auto* s = std::get_if<std::string>(&x->v)) return *s;
    return std::nullopt;
  }
  [[nodiscard]] std::optional<double> num(std::string_view key) const {
    const Json* x = get(key);
    if (x == nullptr) return std::nullopt;
    if (const auto* d = std::get_if<double>(&x->v)) return *d;
    return std::nullopt;
  }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}
  std::optional<Json> parse() {
    auto v = value();
    skip_ws();
    if (!v || i_ != s_.size()) return std::nullopt;
    return v;
  }

 private:
  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    skip_ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool literal(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  std::optional<std::string> string() {
    if (!eat('"')) return std::nullopt;
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) return std::nullopt;
      c = s_[i_++];
      switch (c) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (i_ + 4 > s_.size()) return std::nullopt;
          const unsigned cp =
              static_cast<unsigned>(std::stoul(std::string(s_.substr(i_, 4)), nullptr, 16));
          i_ += 4;
          out += cp < 0x80 ? static_cast<char>(cp) : '?';  // reasons are ASCII
          break;
        }
        default: out += c;
      }
    }
    if (i_ >= s_.size()) return std::nullopt;
    ++i_;
    return out;
  }
  std::optional<Json> value() {
    skip_ws();
    if (i_ >= s_.size()) return std::nullopt;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      Json::Object o;
      if (eat('}')) return Json{std::move(o)};
      do {
        auto k = string();
        if (!k || !eat(':')) return std::nullopt;
        auto v = value();
        if (!v) return std::nullopt;
        o.emplace_back(std::move(*k), std::move(*v));
      } while (eat(','));
      if (!eat('}')) return std::nullopt;
      return Json{std::move(o)};
    }
    if (c == '[') {
      ++i_;
      Json::Array a;
      if (eat(']')) return Json{std::move(a)};
      do {
        auto v = value();
        if (!v) return std::nullopt;
        a.push_back(std::move(*v));
      } while (eat(','));
      if (!eat(']')) return std::nullopt;
      return Json{std::move(a)};
    }
    if (c == '"') {
      auto s = string();
      if (!s) return std::nullopt;
      return Json{std::move(*s)};
    }
    if (literal("true")) return Json{true};
    if (literal("false")) return Json{false};
    if (literal("null")) return Json{nullptr};
    const char* begin = s_.data() + i_;
    char* end = nullptr;
    const double d = std::strtod(begin, &end);
    if (end == begin) return std::nullopt;
    i_ += static_cast<std::size_t>(end - begin);
    return Json{d};
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

// ---- the model list ----------------------------------------------------------------------

enum class Expected { Safe, Unsafe, None, Unknown };

const char* to_string(Expected e) {
  switch (e) {
    case Expected::Safe: return "SAFE";
    case Expected::Unsafe: return "UNSAFE";
    case Expected::None: return "NONE";
    case Expected::Unknown: return "?";
  }
  return "?";
}

struct Model {
  std::string name;  // <dir>/<stem>, unique within a run
  fs::path input;    // what precis-verify reads (.cfa, .yml or .c)
  fs::path c_file;   // the C file of a task (empty for .cfa)
  Expected expected = Expected::Unknown;
};

std::vector<std::vector<std::string>> read_tsv(const fs::path& p) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '\t')) cols.push_back(c);
    rows.push_back(std::move(cols));
  }
  return rows;
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  s = s.substr(b, e - b + 1);
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front())
    s = s.substr(1, s.size() - 2);
  return s;
}

// The few fields of an SV-COMP task definition (format 2.0) the runner needs; a line
// reader suffices for these flat files.
struct TaskYml {
  std::vector<std::string> input_files;
  std::optional<bool> unreach_call;  // expected verdict of unreach-call.prp
};

TaskYml read_task_yml(const fs::path& p) {
  TaskYml t;
  std::ifstream in(p);
  std::string line;
  bool in_inputs = false;
  std::string property;
  while (std::getline(in, line)) {
    const std::string s = trim(line);
    if (s.rfind("input_files:", 0) == 0) {
      const std::string v = trim(s.substr(12));
      in_inputs = v.empty();
      if (!v.empty()) t.input_files.push_back(v);
      continue;
    }
    if (in_inputs && s.rfind("- ", 0) == 0) {
      t.input_files.push_back(trim(s.substr(2)));
      continue;
    }
    in_inputs = false;
    if (auto k = s.find("property_file:"); k != std::string::npos) {
      property = trim(s.substr(k + 14));
    } else if (auto e = s.find("expected_verdict:"); e != std::string::npos) {
      if (property.find("unreach-call") != std::string::npos) {
        const std::string v = trim(s.substr(e + 17));
        if (v == "true") t.unreach_call = true;
        if (v == "false") t.unreach_call = false;
      }
    }
  }
  return t;
}

Expected from_sv(const std::string& v) {
  if (v == "true") return Expected::Safe;
  if (v == "false") return Expected::Unsafe;
  return Expected::Unknown;
}

// Expected verdicts of SV-COMP tasks from a verdicts.tsv with a `task` column, keyed by
// the canonical path of the C file.
void read_task_verdicts(const fs::path& tsv, std::map<fs::path, Expected>& out) {
  auto rows = read_tsv(tsv);
  if (rows.empty() || rows[0].empty() || rows[0][0] != "task") return;
  std::size_t col = 0;
  for (std::size_t i = 0; i < rows[0].size(); ++i)
    if (rows[0][i] == "unreach_call" || rows[0][i] == "verdict") col = i;
  if (col == 0) return;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].size() <= col) continue;
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(tsv.parent_path() / rows[r][0], ec);
    out[c] = from_sv(rows[r][col]);
  }
}

Model task_model(const fs::path& yml_or_c, const std::map<fs::path, Expected>& tsv_verdicts) {
  Model m;
  m.name = yml_or_c.parent_path().filename().string() + "/" + yml_or_c.stem().string();
  m.input = yml_or_c;
  if (yml_or_c.extension() == ".yml") {
    const TaskYml t = read_task_yml(yml_or_c);
    if (!t.input_files.empty()) m.c_file = yml_or_c.parent_path() / t.input_files.front();
    if (t.unreach_call) m.expected = *t.unreach_call ? Expected::Safe : Expected::Unsafe;
  } else {
    m.c_file = yml_or_c;
  }
  std::error_code ec;
  if (!m.c_file.empty()) {
    auto it = tsv_verdicts.find(fs::weakly_canonical(m.c_file, ec));
    if (it != tsv_verdicts.end()) {
      if (m.expected == Expected::Unknown) {
        m.expected = it->second;
      } else if (it->second != Expected::Unknown && it->second != m.expected) {
        std::cerr << "precis-suite: warning: " << m.name << ": the task file says "
                  << to_string(m.expected) << ", verdicts.tsv says " << to_string(it->second)
                  << "; using the task file\n";
      }
    }
  }
  return m;
}

std::vector<fs::path> files_with_ext(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The models of one directory argument (see the header comment); throws on a directory
// that is none of the known kinds.
std::vector<Model> collect_models(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw std::runtime_error(dir.string() + " is not a directory");
  std::vector<Model> out;
  const fs::path tsv = dir / "verdicts.tsv";
  const auto ymls = files_with_ext(dir, ".yml");
  if (!ymls.empty()) {
    std::map<fs::path, Expected> verdicts;
    if (fs::exists(tsv)) read_task_verdicts(tsv, verdicts);
    if (fs::exists(dir.parent_path() / "verdicts.tsv"))
      read_task_verdicts(dir.parent_path() / "verdicts.tsv", verdicts);
    for (const auto& y : ymls) out.push_back(task_model(y, verdicts));
    return out;
  }
  if (!fs::exists(tsv))
    throw std::runtime_error(dir.string() + " has neither verdicts.tsv nor .yml tasks");
  const auto rows = read_tsv(tsv);
  if (rows.empty() || rows[0].empty()) throw std::runtime_error(tsv.string() + " is empty");
  if (rows[0][0] == "model") {
    // A .cfa suite: the listed models in file order, then any .cfa file not listed (with
    // an unknown expectation, so nothing in the directory is silently skipped).
    fs::path abs = fs::absolute(dir).lexically_normal();
    if (abs.filename().empty()) abs = abs.parent_path();  // "dir/" names its parent
    const std::string dirname = abs.filename().string();
    std::map<std::string, bool> listed;
    for (std::size_t r = 1; r < rows.size(); ++r) {
      if (rows[r].size() < 2) continue;
      Model m;
      m.name = dirname + "/" + rows[r][0];
      m.input = dir / (rows[r][0] + ".cfa");
      const std::string& v = rows[r][1];
      m.expected = v == "SAFE"     ? Expected::Safe
                   : v == "UNSAFE" ? Expected::Unsafe
                   : v == "NONE"   ? Expected::None
                                   : Expected::Unknown;
      listed[rows[r][0]] = true;
      out.push_back(std::move(m));
    }
    for (const auto& f : files_with_ext(dir, ".cfa")) {
      if (listed.contains(f.stem().string())) continue;
      Model m;
      m.name = dirname + "/" + f.stem().string();
      m.input = f;
      out.push_back(std::move(m));
    }
    return out;
  }
  if (rows[0][0] == "task") {
    // An SV-COMP root: the listed tasks, through their .yml when there is one.
    std::map<fs::path, Expected> verdicts;
    read_task_verdicts(tsv, verdicts);
    for (std::size_t r = 1; r < rows.size(); ++r) {
      fs::path c = dir / rows[r][0];
      fs::path y = c;
      y.replace_extension(".yml");
      out.push_back(task_model(fs::exists(y) ? y : c, verdicts));
    }
    return out;
  }
  throw std::runtime_error(tsv.string() + ": unknown header '" + rows[0][0] +
                           "' (expected 'model' or 'task')");
}

// ---- precis-verify runs ------------------------------------------------------------------

// One column group: a name in the table and the precis-verify arguments it stands for.
struct Config {
  std::string label;
  std::vector<std::string> args;
};

enum class Outcome { Correct, Wrong, Unknown, Rejected, Error };

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Correct: return "correct";
    case Outcome::Wrong: return "wrong";
    case Outcome::Unknown: return "unknown";
    case Outcome::Rejected: return "rejected";
    case Outcome::Error: return "error";
  }
  return "error";
}

struct Cell {
  std::string verdict;  // as shown
  Outcome outcome = Outcome::Unknown;
  double cpu_ms = 0;
  std::optional<std::uint64_t> refinements;
  std::optional<std::uint64_t> arg_nodes;
  std::string note;  // reason for anything but a correct verdict
};

std::string first_line(const std::string& s) {
  std::string t = s;
  while (!t.empty() && (t.front() == '\n' || t.front() == ' ')) t.erase(t.begin());
  return t.substr(0, t.find('\n'));
}

Cell run_precis(const std::string& verify, const Config& c, const Model& m, double timeout_s) {
  std::vector<std::string> argv{verify};
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  // The CLI's own limit stops it cleanly with UNKNOWN; the runner's kill (with a grace
  // period for output) is the backstop for a run that does not stop.
  std::ostringstream t;
  t << timeout_s;
  argv.insert(argv.end(), {"-t", t.str(), "--json", "-q", m.input.string()});
  const RunResult r = run_child(argv, timeout_s + std::max(1.0, 0.1 * timeout_s));

  Cell cell;
  cell.cpu_ms = r.cpu_ms;
  if (!r.started) {
    cell.verdict = "ERROR";
    cell.outcome = Outcome::Error;
    cell.note = r.exec_error;
    return cell;
  }
  if (r.timed_out) {
    cell.verdict = "TIMEOUT";
    cell.outcome = Outcome::Unknown;
    cell.note = "killed after the wall-clock limit";
    return cell;
  }
  if (r.term_signal != 0) {
    cell.verdict = "CRASH";
    cell.outcome = Outcome::Error;
    cell.note =
        std::string("killed by signal ") + strsignal(r.term_signal) + ": " + first_line(r.err);
    return cell;
  }
  const auto json = JsonParser(r.out).parse();
  const std::optional<std::string> verdict = json ? json->str("verdict") : std::nullopt;
  if (!verdict) {
    // No report: an input error (3), a usage error such as an analysis the CLI does not
    // know (4), or something worse.
    cell.verdict = "ERR(" + std::to_string(r.exit_code) + ")";
    cell.outcome = r.exit_code == 3 ? Outcome::Rejected : Outcome::Error;
    cell.note = first_line(r.err.empty() ? r.out : r.err);
    return cell;
  }
  cell.verdict = *verdict;
  if (const Json* s = json->get("statistics")) {
    if (auto x = s->num("refinements")) cell.refinements = static_cast<std::uint64_t>(*x);
    if (auto x = s->num("arg_nodes")) cell.arg_nodes = static_cast<std::uint64_t>(*x);
  }
  const int want_code = *verdict == "SAFE" ? 0 : *verdict == "UNSAFE" ? 1 : 2;
  if (r.exit_code != want_code) {
    cell.outcome = Outcome::Error;
    cell.note = "exit code " + std::to_string(r.exit_code) + " disagrees with the verdict";
    return cell;
  }
  if (*verdict == "UNKNOWN") {
    cell.outcome = Outcome::Unknown;
    cell.note = json->str("reason").value_or("");
    return cell;
  }
  const bool safe = *verdict == "SAFE";
  if (m.expected == Expected::Safe || m.expected == Expected::Unsafe) {
    const bool ok = safe == (m.expected == Expected::Safe);
    cell.outcome = ok ? Outcome::Correct : Outcome::Wrong;
    if (!ok) cell.note = "expected " + std::string(to_string(m.expected));
  } else {
    // Nothing to compare with: neither counted as solved nor as wrong.
    cell.outcome = Outcome::Unknown;
    cell.note = "no expected verdict";
  }
  return cell;
}

// ---- Frama-C Eva ----------------------------------------------------------------------

// A C tokeniser just good enough to find identifiers outside comments, strings and
// character literals, and to match parentheses.
struct Token {
  std::size_t begin, end;
  bool ident;
};

std::vector<Token> tokenize_c(const std::string& s) {
  std::vector<Token> toks;
  std::size_t i = 0;
  const std::size_t n = s.size();
  auto is_id = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < n) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      const auto e = s.find("*/", i + 2);
      i = e == std::string::npos ? n : e + 2;
    } else if (c == '#') {
      // Preprocessor line (with continuations): not code for our purposes.
      while (i < n && s[i] != '\n') i += (s[i] == '\\' && i + 1 < n) ? 2 : 1;
    } else if (c == '"' || c == '\'') {
      const std::size_t b = i++;
      while (i < n && s[i] != c) i += (s[i] == '\\') ? 2 : 1;
      i = std::min(n, i + 1);
      toks.push_back({b, i, false});
    } else if (is_id(c)) {
      const std::size_t b = i;
      while (i < n && is_id(s[i])) ++i;
      toks.push_back({b, i, !std::isdigit(static_cast<unsigned char>(c))});
    } else {
      toks.push_back({i, i + 1, false});
      ++i;
    }
  }
  return toks;
}

// Eva reads nondeterminism from the builtins of __fc_builtin.h: Frama_C_interval and
// friends return an arbitrary value of the range, which Eva keeps as that interval. (An
// uninitialised local would be an alarm, not an input.)
const std::map<std::string, std::string>& nondet_definitions() {
  static const std::map<std::string, std::string> defs = {
      {"int",
       "int __VERIFIER_nondet_int(void) { return Frama_C_int_interval(-2147483647 - 1, "
       "2147483647); }"},
      {"uint",
       "unsigned int __VERIFIER_nondet_uint(void) { return Frama_C_unsigned_int_interval(0u, "
       "4294967295u); }"},
      {"unsigned_int",
       "unsigned int __VERIFIER_nondet_unsigned_int(void) { return "
       "Frama_C_unsigned_int_interval(0u, 4294967295u); }"},
      {"unsigned",
       "unsigned int __VERIFIER_nondet_unsigned(void) { return Frama_C_unsigned_int_interval(0u, "
       "4294967295u); }"},
      {"long",
       "long __VERIFIER_nondet_long(void) { return Frama_C_long_interval(-2147483647L - 1, "
       "2147483647L); }"},
      {"ulong",
       "unsigned long __VERIFIER_nondet_ulong(void) { return Frama_C_unsigned_long_interval(0ul, "
       "4294967295ul); }"},
      {"short",
       "short __VERIFIER_nondet_short(void) { return Frama_C_short_interval(-32768, 32767); }"},
      {"ushort",
       "unsigned short __VERIFIER_nondet_ushort(void) { return Frama_C_unsigned_short_interval(0, "
       "65535); }"},
      {"char", "char __VERIFIER_nondet_char(void) { return Frama_C_char_interval(-128, 127); }"},
      {"uchar",
       "unsigned char __VERIFIER_nondet_uchar(void) { return Frama_C_unsigned_char_interval(0, "
       "255); }"},
      {"bool", "_Bool __VERIFIER_nondet_bool(void) { return Frama_C_interval(0, 1); }"},
      {"_Bool", "_Bool __VERIFIER_nondet__Bool(void) { return Frama_C_interval(0, 1); }"},
  };
  return defs;
}

bool is_type_word(std::string_view w) {
  static const char* words[] = {"void",   "int",    "char",     "short",  "long",   "unsigned",
                                "signed", "_Bool",  "extern",   "static", "inline", "const",
                                "float",  "double", "volatile", "struct", "enum"};
  return std::any_of(std::begin(words), std::end(words), [&](const char* x) { return w == x; });
}

struct EvaInput {
  std::string text;
  std::size_t assertions = 0;  // inserted `assert \false`
  std::vector<std::string> unsupported;
};

// The task's C file prepared for Eva:
//   - every call statement `reach_error(...);` / `__VERIFIER_error(...);` becomes
//     `{ /*@ assert \false; */ }`, so "the error is unreachable" is "the assertion is
//     valid or dead"; their declarations and definitions stay (and are then dead);
//   - `__VERIFIER_assume(e);` becomes `while (!(e)) {}`: Eva reduces by a loop's exit
//     condition, and a false assumption is a path that does not go on;
//   - the used `__VERIFIER_nondet_T` get definitions over Frama_C_*_interval; their
//     declarations in the task (`extern int __VERIFIER_nondet_int(void);`) stay and agree.
EvaInput prepare_for_eva(const std::string& src) {
  EvaInput out;
  const auto toks = tokenize_c(src);
  auto text = [&](std::size_t k) {
    return std::string_view(src).substr(toks[k].begin, toks[k].end - toks[k].begin);
  };
  std::string body;
  std::size_t copied = 0;
  std::map<std::string, bool> nondet_used;
  for (std::size_t k = 0; k < toks.size(); ++k) {
    if (!toks[k].ident) continue;
    const std::string_view w = text(k);
    if (w.rfind("__VERIFIER_nondet_", 0) == 0) {
      nondet_used[std::string(w.substr(18))] = true;
      continue;
    }
    const bool is_error = w == "reach_error" || w == "__VERIFIER_error";
    const bool is_assume = w == "__VERIFIER_assume";
    if (!is_error && !is_assume) continue;
    const bool declaration = k > 0 && toks[k - 1].ident && is_type_word(text(k - 1));
    if (declaration) continue;
    if (k + 1 >= toks.size() || text(k + 1) != "(") continue;
    // Find the matching ')' and require ';' after it: a call statement.
    std::size_t depth = 0, j = k + 1;
    for (; j < toks.size(); ++j) {
      if (text(j) == "(") ++depth;
      if (text(j) == ")" && --depth == 0) break;
    }
    if (j + 1 >= toks.size() || text(j + 1) != ";") {
      out.unsupported.push_back(std::string(w) + " used outside a call statement");
      continue;
    }
    body.append(src, copied, toks[k].begin - copied);
    if (is_error) {
      body += "{ /*@ assert \\false; */ }";
      ++out.assertions;
    } else {
      body += "while (!(" + src.substr(toks[k + 1].end, toks[j].begin - toks[k + 1].end) + ")) {}";
    }
    copied = toks[j + 1].end;
    k = j + 1;
  }
  body.append(src, copied, std::string::npos);

  out.text = "#include \"__fc_builtin.h\"\n";
  std::string defs;
  for (const auto& [t, _] : nondet_used) {
    auto it = nondet_definitions().find(t);
    if (it == nondet_definitions().end()) {
      out.unsupported.push_back("__VERIFIER_nondet_" + t);
      continue;
    }
    // Declare first, define at the end: the task's own declarations come in between.
    defs += it->second + "\n";
  }
  out.text += "#line 1\n" + body + "\n" + defs;
  return out;
}

struct EvaCell {
  std::string result;  // proved, unknown, n/a, timeout, error
  double cpu_ms = 0;
  bool wrong = false;
  std::string note;
};

EvaCell run_eva(const std::string& frama_c, const std::vector<std::string>& options, const Model& m,
                double timeout_s) {
  EvaCell cell;
  if (m.c_file.empty()) {
    cell.result = "n/a";
    return cell;
  }
  std::ifstream in(m.c_file);
  if (!in) {
    cell.result = "error";
    cell.note = "cannot read " + m.c_file.string();
    return cell;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const EvaInput prepared = prepare_for_eva(ss.str());
  if (!prepared.unsupported.empty()) {
    cell.result = "n/a";
    cell.note = "not prepared for Eva: " + prepared.unsupported.front();
    return cell;
  }
  char tmpl[] = "/tmp/precis-suite-eva-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) {
    cell.result = "error";
    cell.note = std::string("mkdtemp: ") + std::strerror(errno);
    return cell;
  }
  const fs::path dir(tmpl);
  const fs::path c = dir / m.c_file.filename();
  std::ofstream(c) << prepared.text;
  const fs::path csv = dir / "report.csv";
  // ILP32 as the tasks declare; the report plugin writes every property status.
  std::vector<std::string> argv{frama_c, "-eva", "-machdep", "x86_32"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {c.filename().string(), "-then", "-report-csv", csv.filename().string()});
  const RunResult r = run_child(argv, timeout_s, dir);
  cell.cpu_ms = r.cpu_ms;
  if (r.timed_out) {
    cell.result = "timeout";
  } else if (!r.started || r.exit_code != 0) {
    cell.result = "error";
    cell.note = r.started ? "frama-c exit " + std::to_string(r.exit_code) + ": " +
                                first_line(r.err.empty() ? r.out : r.err)
                          : r.exec_error;
  } else if (r.out.find("degenerat") != std::string::npos ||
             r.err.find("degenerat") != std::string::npos) {
    // A degenerated analysis stops early: what it did not reach is not proved dead.
    cell.result = "unknown";
    cell.note = "Eva degenerated";
  } else {
    // Our assertions are the user assertions `\false` in our file; proved iff each one
    // is Valid or Dead (unreachable).
    std::size_t found = 0, proved = 0;
    for (const auto& row : read_tsv(csv)) {
      if (row.size() < 7 || row[1] != c.filename().string() || row[4] != "user assertion" ||
          row[6] != "\\false")
        continue;
      ++found;
      if (row[5] == "Valid" || row[5] == "Dead") ++proved;
    }
    const bool ok = found == proved && (found > 0 || prepared.assertions == 0);
    cell.result = ok ? "proved" : "unknown";
    if (!ok && found < prepared.assertions)
      cell.note =
          std::to_string(prepared.assertions - found) + " assertion(s) missing from the report";
    if (ok && m.expected == Expected::Unsafe) {
      cell.wrong = true;
      cell.note = "Eva proved an UNSAFE task";
    }
  }
  // PRECIS_SUITE_KEEP=1 keeps the prepared file and Frama-C's report for inspection.
  if (const char* keep = std::getenv("PRECIS_SUITE_KEEP"); keep != nullptr && *keep == '1') {
    cell.note += (cell.note.empty() ? "" : "; ") + std::string("kept in ") + dir.string();
  } else {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  return cell;
}

// ---- the table ---------------------------------------------------------------------------

std::string fmt_ms(double ms) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", ms);
  return b;
}
std::string fmt_opt(const std::optional<std::uint64_t>& x) { return x ? std::to_string(*x) : "-"; }

void print_table(const std::vector<std::vector<std::string>>& rows, std::size_t header_rows,
                 const std::vector<bool>& left) {
  std::vector<std::size_t> w;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (w.size() <= i) w.push_back(0);
      w[i] = std::max(w[i], r[i].size());
    }
  std::size_t total = 0;
  for (auto x : w) total += x + 2;
  for (std::size_t ri = 0; ri < rows.size(); ++ri) {
    std::string line;
    for (std::size_t i = 0; i < rows[ri].size(); ++i) {
      const std::string& s = rows[ri][i];
      const std::string pad(w[i] - s.size(), ' ');
      line += (i < left.size() && left[i]) ? s + pad : pad + s;
      if (i + 1 < rows[ri].size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << '\n';
    if (ri + 1 == header_rows) std::cout << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
  }
}

std::string find_verify(const std::string& given) {
  if (!given.empty()) return given;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& p : {self.parent_path() / "precis-verify",
                              self.parent_path() / ".." / "examples" / "precis-verify"})
      if (access(p.c_str(), X_OK) == 0) return p.lexically_normal().string();
  }
#ifdef PRECIS_VERIFY_DEFAULT
  if (access(PRECIS_VERIFY_DEFAULT, X_OK) == 0) return PRECIS_VERIFY_DEFAULT;
#endif
  return "precis-verify";  // from PATH
}

bool in_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  std::stringstream ss(path);
  std::string d;
  while (std::getline(ss, d, ':'))
    if (!d.empty() && access((fs::path(d) / name).c_str(), X_OK) == 0) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> dirs;
  std::string verify;
  std::string analyses = "expl";
  bool baseline = false;
  bool frama_c = false;
  std::string frama_c_path = "frama-c";
  std::vector<std::string> frama_c_options;
  double timeout_s = 60;

  CLI::App app{
      "precis-suite: runs precis-verify on model directories and prints one table of verdicts,\n"
      "process CPU time, refinements and ARG nodes per analysis. Exit 1 on any wrong verdict."};
  app.add_option("dirs", dirs,
                 "model directories (.cfa suites with verdicts.tsv, or SV-COMP task dirs)")
      ->required()
      ->check(CLI::ExistingDirectory);
  app.add_option("--verify", verify, "precis-verify to run (default: beside precis-suite)");
  app.add_option("-a,--analysis", analyses, "comma-separated analyses, one column group each")
      ->capture_default_str();
  app.add_flag("--baseline", baseline, "add the track-all baseline column (expl --baseline)");
  std::vector<std::string> extra_configs;
  app.add_option("-c,--config", extra_configs,
                 "a column with its own precis-verify arguments, repeatable: "
                 "LABEL=ARG ARG... (e.g. 'expl-classic=--analysis expl --prefixes none')")
      ->allow_extra_args(false);
  std::string csv_path;
  app.add_option("--csv", csv_path,
                 "also write one row per model and column: model, expected, config, verdict, "
                 "outcome (correct|wrong|unknown|rejected|error), CPU ms (for tables and plots)");
  app.add_option("-t,--timeout", timeout_s, "wall-clock limit per run in seconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_flag("--frama-c", frama_c, "add a Frama-C Eva column for C tasks");
  app.add_option("--frama-c-path", frama_c_path, "the frama-c program")->capture_default_str();
  app.add_option("--frama-c-option", frama_c_options,
                 "extra frama-c argument, repeatable (e.g. --frama-c-option=-eva-precision=3)")
      ->allow_extra_args(false);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  verify = find_verify(verify);
  if (!in_path(verify)) {
    std::cerr << "precis-suite: cannot find precis-verify (tried '" << verify
              << "'); give it with --verify\n";
    return 2;
  }
  std::vector<Config> configs;
  {
    std::stringstream ss(analyses);
    std::string a;
    while (std::getline(ss, a, ','))
      if (!a.empty()) configs.push_back({a, {"--analysis", a}});
  }
  if (baseline) configs.push_back({"expl-baseline", {"--analysis", "expl", "--baseline"}});
  for (const auto& c : extra_configs) {
    const auto eq = c.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "precis-suite: --config needs LABEL=ARGS, got '" << c << "'\n";
      return 2;
    }
    Config cfg{c.substr(0, eq), {}};
    std::stringstream ss(c.substr(eq + 1));
    for (std::string arg; ss >> arg;) cfg.args.push_back(arg);
    configs.push_back(std::move(cfg));
  }
  if (configs.empty()) {
    std::cerr << "precis-suite: no analysis given\n";
    return 2;
  }
  const bool have_frama_c = frama_c && in_path(frama_c_path);

  std::vector<Model> models;
  try {
    for (const auto& d : dirs) {
      auto ms = collect_models(d);
      models.insert(models.end(), ms.begin(), ms.end());
    }
  } catch (const std::exception& e) {
    std::cerr << "precis-suite: " << e.what() << '\n';
    return 2;
  }

  std::cerr << "precis-suite: " << models.size() << " models x " << configs.size()
            << " analyses with " << verify << ", limit " << timeout_s << " s per run"
            << (frama_c ? (have_frama_c ? ", with Frama-C Eva" : ", Frama-C not found (n/a)") : "")
            << '\n';

  std::vector<std::vector<Cell>> cells(models.size());
  std::vector<EvaCell> eva(models.size());
  for (std::size_t i = 0; i < models.size(); ++i) {
    for (const auto& c : configs) cells[i].push_back(run_precis(verify, c, models[i], timeout_s));
    if (frama_c) {
      if (have_frama_c)
        eva[i] = run_eva(frama_c_path, frama_c_options, models[i], timeout_s);
      else
        eva[i].result = "n/a";
    }
    std::cerr << "  [" << (i + 1) << "/" << models.size() << "] " << models[i].name << '\n';
  }

  // One table: two header rows (group names, then column names).
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> h1{"", ""}, h2{"model", "expected"};
  std::vector<bool> left{true, true};
  for (const auto& c : configs) {
    h1.insert(h1.end(), {c.label, "", "", ""});
    h2.insert(h2.end(), {"verdict", "CPU ms", "refs", "ARG"});
    left.insert(left.end(), {true, false, false, false});
  }
  if (frama_c) {
    h1.insert(h1.end(), {"frama-c eva", ""});
    h2.insert(h2.end(), {"result", "CPU ms"});
    left.insert(left.end(), {true, false});
  }
  rows.push_back(h1);
  rows.push_back(h2);
  bool any_wrong = false;
  for (std::size_t i = 0; i < models.size(); ++i) {
    std::vector<std::string> r{models[i].name, to_string(models[i].expected)};
    for (const auto& cell : cells[i]) {
      std::string v = cell.verdict;
      if (cell.outcome == Outcome::Wrong) {
        v = "WRONG:" + v;
        any_wrong = true;
      }
      r.insert(r.end(),
               {v, fmt_ms(cell.cpu_ms), fmt_opt(cell.refinements), fmt_opt(cell.arg_nodes)});
    }
    if (frama_c) {
      std::string v = eva[i].result;
      if (eva[i].wrong) {
        v = "WRONG:" + v;
        any_wrong = true;
      }
      r.insert(r.end(), {v, eva[i].result == "n/a" ? "-" : fmt_ms(eva[i].cpu_ms)});
    }
    rows.push_back(std::move(r));
  }
  print_table(rows, 2, left);

  // Notes: why each run that did not give a correct verdict did not.
  bool notes_header = false;
  for (std::size_t i = 0; i < models.size(); ++i) {
    auto note = [&](const std::string& label, const std::string& verdict, const std::string& text) {
      if (!notes_header) {
        std::cout << "\nnotes:\n";
        notes_header = true;
      }
      std::cout << "  " << models[i].name << " [" << label << "] " << verdict
                << (text.empty() ? "" : ": " + text) << '\n';
    };
    for (std::size_t k = 0; k < configs.size(); ++k)
      if (cells[i][k].outcome != Outcome::Correct)
        note(configs[k].label, cells[i][k].verdict, cells[i][k].note);
    if (frama_c && !eva[i].note.empty()) note("frama-c", eva[i].result, eva[i].note);
  }

  std::cout << "\nsummary (" << models.size() << " models, CPU = process user+sys time):\n";
  for (std::size_t k = 0; k < configs.size(); ++k) {
    std::size_t solved = 0, wrong = 0, unknown = 0, rejected = 0, errors = 0;
    double total = 0, max = 0;
    std::string max_model;
    for (std::size_t i = 0; i < models.size(); ++i) {
      const Cell& c = cells[i][k];
      switch (c.outcome) {
        case Outcome::Correct: ++solved; break;
        case Outcome::Wrong: ++wrong; break;
        case Outcome::Unknown: ++unknown; break;
        case Outcome::Rejected: ++rejected; break;
        case Outcome::Error: ++errors; break;
      }
      total += c.cpu_ms;
      if (c.cpu_ms > max) {
        max = c.cpu_ms;
        max_model = models[i].name;
      }
    }
    std::cout << "  " << configs[k].label << ": solved " << solved << "/" << models.size()
              << ", wrong " << wrong << (wrong ? "  <<<<<< WRONG VERDICTS" : "") << ", unknown "
              << unknown << ", rejected " << rejected << ", errors " << errors << ", CPU total "
              << fmt_ms(total) << " ms, max " << fmt_ms(max) << " ms"
              << (max_model.empty() ? "" : " (" + max_model + ")") << '\n';
  }
  // The virtual best: a model counts as solved if any column solved it, at the CPU time
  // of the fastest column that did.
  if (configs.size() > 1) {
    std::size_t solved = 0;
    double total = 0;
    for (std::size_t i = 0; i < models.size(); ++i) {
      std::optional<double> best;
      for (std::size_t k = 0; k < configs.size(); ++k)
        if (cells[i][k].outcome == Outcome::Correct && (!best || cells[i][k].cpu_ms < *best))
          best = cells[i][k].cpu_ms;
      if (!best) continue;
      ++solved;
      total += *best;
    }
    std::cout << "  virtual best: solved " << solved << "/" << models.size() << ", CPU total "
              << fmt_ms(total) << " ms\n";
  }
  if (!csv_path.empty()) {
    std::ofstream csv(csv_path);
    csv << "model,expected,config,verdict,outcome,cpu_ms\n";
    for (std::size_t i = 0; i < models.size(); ++i)
      for (std::size_t k = 0; k < configs.size(); ++k) {
        const Cell& c = cells[i][k];
        csv << models[i].name << ',' << to_string(models[i].expected) << ',' << configs[k].label
            << ',' << c.verdict << ',' << outcome_name(c.outcome) << ',' << fmt_ms(c.cpu_ms)
            << '\n';
      }
    if (!csv) {
      std::cerr << "precis-suite: cannot write " << csv_path << '\n';
      return 2;
    }
  }
  if (frama_c) {
    std::size_t proved = 0, safe_tasks = 0, wrong = 0, na = 0;
    double total = 0, max = 0;
    for (std::size_t i = 0; i < models.size(); ++i) {
      if (eva[i].result == "n/a") ++na;
      if (eva[i].result == "proved" && !eva[i].wrong) ++proved;
      if (eva[i].wrong) ++wrong;
      if (models[i].expected == Expected::Safe && !models[i].c_file.empty()) ++safe_tasks;
      total += eva[i].cpu_ms;
      max = std::max(max, eva[i].cpu_ms);
    }
    std::cout << "  frama-c eva: proved " << proved << " of " << safe_tasks << " SAFE tasks, wrong "
              << wrong << (wrong ? "  <<<<<< WRONG" : "") << ", n/a " << na << ", CPU total "
              << fmt_ms(total) << " ms, max " << fmt_ms(max) << " ms\n";
  }
  if (any_wrong) {
    std::cout << "\n!!!!!! WRONG VERDICTS: see the WRONG: cells above !!!!!!\n";
    for (std::size_t i = 0; i < models.size(); ++i) {
      for (std::size_t k = 0; k < configs.size(); ++k)
        if (cells[i][k].outcome == Outcome::Wrong)
          std::cout << "!!! " << models[i].name << " [" << configs[k].label << "] said "
                    << cells[i][k].verdict << ", expected " << to_string(models[i].expected)
                    << '\n';
      if (frama_c && eva[i].wrong)
        std::cout << "!!! " << models[i].name << " [frama-c] " << eva[i].note << '\n';
    }
    return 1;
  }
  return 0;
}
