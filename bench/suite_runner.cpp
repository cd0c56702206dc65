// precis-suite: the end-to-end runner. It runs precis-verify once per model and analysis
// as a child process (fork/exec, no shell), under a wall-clock limit, measures the
// child's process CPU time (user + sys from wait4), and prints one table: model,
// expected verdict, then per analysis the verdict, CPU ms, refinements and ARG nodes;
// optionally Frama-C Eva and peer verifiers (--tool) side by side. A wrong verdict is the
// worst defect the project can ship, so wrong verdicts are flagged loudly and make the
// exit code 1.
//
//   precis-suite [--verify PATH] [--analysis expl,pred-cart] [--baseline] [--timeout S]
//                [-j N] [--memory-limit MB] [--tool LABEL=COMMAND ARGS] [--frama-c] DIR...
//
// With -j N it runs up to N children at once (one thread per slot, each running one
// child at a time); the table and the CSV are the same as with -j 1, only the times
// differ (and runs then compete for memory bandwidth and caches: for CPU times to
// compare with other machines' tables use -j 1).
//
// A DIR is one of
//   - a .cfa suite: DIR/verdicts.tsv with columns model, verdict[, ...]; the models are
//     DIR/<model>.cfa (verdict SAFE, UNSAFE or NONE = no error location);
//   - a set of SV-COMP tasks: DIR/*.yml (the expected verdict is the one of the
//     unreach-call property), cross-checked with verdicts.tsv (columns task, lines,
//     unreach_call) in DIR or its parent;
//   - an SV-COMP root: DIR/verdicts.tsv with a `task` column listing <set>/<file>.c or
//     <set>/<file>.yml.
//
// Exit status: 0 no wrong verdict, 1 some wrong verdict, 2 usage or setup error; killed
// by the signal on SIGINT/SIGTERM/SIGHUP, after killing every run.

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "suite/child.hpp"
#include "suite/eva.hpp"
#include "suite/json.hpp"
#include "suite/tasks.hpp"

namespace fs = std::filesystem;
using namespace suite;

namespace {

// ---- precis-verify runs ------------------------------------------------------------------

// One column group: a name in the table and the precis-verify arguments it stands for,
// or (peer) a whole command line of another verifier with precis-verify's contract.
struct Config {
  std::string label;
  std::vector<std::string> args;
  bool peer = false;  // args[0] is the program; its verdicts are not certified
};

// What every run gets: the wall-clock limit and the memory limit (MB, 0: none).
struct RunLimits {
  double timeout_s = 60;
  std::size_t memory_mb = 0;
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
  double wall_ms = 0;  // for the progress lines only
  std::optional<std::uint64_t> refinements;
  std::optional<std::uint64_t> arg_nodes;
  bool certified = false;  // a SAFE whose report says its certificate was checked
  std::string note;        // reason for anything but a correct verdict
};

// The address-space (or data) limit set on a child: the memory limit plus room for what
// is reserved but not resident (precis-verify's 512 MB analysis stack, allocator arenas).
std::size_t backstop_mb(std::size_t memory_mb) {
  return memory_mb == 0 ? 0 : memory_mb + std::max<std::size_t>(1024, memory_mb / 2);
}

// One run of precis-verify or of a peer tool with its contract:
//   COMMAND ARGS... -t SECONDS --json -q INPUT
// printing a JSON report with "verdict" (SAFE, UNSAFE, UNKNOWN) and exiting 0, 1 or 2.
Cell run_precis(const std::string& verify, const Config& c, const Model& m,
                const RunLimits& limits) {
  std::vector<std::string> argv;
  if (!c.peer) argv.push_back(verify);
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  // The CLI's own limits stop it cleanly with UNKNOWN; the runner's kill (with a grace
  // period for output) and the rlimit are the backstops for a run that does not stop.
  // A peer gets RLIMIT_DATA rather than RLIMIT_AS: node's WebAssembly reserves more
  // address space than any sensible limit.
  ChildLimits child_limits;
  if (c.peer) {
    child_limits.data_mb = backstop_mb(limits.memory_mb);
  } else {
    child_limits.address_space_mb = backstop_mb(limits.memory_mb);
    if (limits.memory_mb != 0 &&
        std::find(c.args.begin(), c.args.end(), "--memory-limit") == c.args.end())
      argv.insert(argv.end(), {"--memory-limit", std::to_string(limits.memory_mb)});
  }
  std::ostringstream t;
  t << limits.timeout_s;
  argv.insert(argv.end(), {"-t", t.str(), "--json", "-q", m.input.string()});
  const RunResult r =
      run_child(argv, limits.timeout_s + std::max(1.0, 0.1 * limits.timeout_s), child_limits);

  Cell cell;
  cell.cpu_ms = r.cpu_ms;
  cell.wall_ms = r.wall_ms;
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
  if (!verdict || *verdict == "ERROR") {
    // No report, or a report of verdict ERROR: an input error (3: the input is rejected),
    // a usage error such as an analysis the CLI does not know (4), or something worse.
    cell.verdict = "ERR(" + std::to_string(r.exit_code) + ")";
    cell.outcome = r.exit_code == 3 ? Outcome::Rejected : Outcome::Error;
    cell.note = json && json->str("message") ? *json->str("message")
                                             : first_line(r.err.empty() ? r.out : r.err);
    return cell;
  }
  cell.verdict = *verdict;
  if (const Json* s = json->get("statistics")) {
    if (auto x = s->num("refinements")) cell.refinements = static_cast<std::uint64_t>(*x);
    if (auto x = s->num("arg_nodes")) cell.arg_nodes = static_cast<std::uint64_t>(*x);
  }
  if (const Json* x = json->get("certified"); x != nullptr && !c.peer)
    if (const bool* b = std::get_if<bool>(&x->v)) cell.certified = *b;
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
  RunLimits limits;
  std::size_t jobs = 1;
  std::optional<std::size_t> memory_mb;

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
                 "outcome (correct|wrong|unknown|rejected|error), CPU ms, tool (precis|peer) "
                 "(for tables and plots)");
  std::vector<std::string> tools;
  app.add_option("--tool", tools,
                 "a column running a peer verifier with precis-verify's contract, repeatable: "
                 "LABEL=COMMAND ARG... (run as COMMAND ARG... -t S --json -q INPUT; its "
                 "verdicts count like precis's but are not certified)")
      ->allow_extra_args(false);
  app.add_option("-t,--timeout", limits.timeout_s, "wall-clock limit per run in seconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("-j,--jobs", jobs, "runs at once (0: one per core)")->capture_default_str();
  app.add_option("--memory-limit", memory_mb,
                 "memory limit per run in MB, passed to precis-verify as --memory-limit; the "
                 "child's RLIMIT_AS (a peer's RLIMIT_DATA) is this plus max(1 GB, half) "
                 "(0: none; default: the machine's memory / jobs)");
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

  if (jobs == 0) jobs = std::max(1U, std::thread::hardware_concurrency());
  if (memory_mb) {
    limits.memory_mb = *memory_mb;
  } else {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0)
      limits.memory_mb =
          static_cast<std::size_t>(pages) / jobs * static_cast<std::size_t>(page) >> 20;
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
  for (const auto& t : tools) {
    const auto eq = t.find('=');
    Config cfg{eq == std::string::npos ? std::string() : t.substr(0, eq), {}, true};
    if (eq != std::string::npos) {
      std::stringstream ss(t.substr(eq + 1));
      for (std::string arg; ss >> arg;) cfg.args.push_back(arg);
    }
    if (cfg.label.empty() || cfg.args.empty()) {
      std::cerr << "precis-suite: --tool needs LABEL=COMMAND [ARGS], got '" << t << "'\n";
      return 2;
    }
    if (!in_path(cfg.args[0])) {
      std::cerr << "precis-suite: --tool " << cfg.label << ": cannot run '" << cfg.args[0] << "'\n";
      return 2;
    }
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
            << " analyses with " << verify << ", limit " << limits.timeout_s << " s and "
            << (limits.memory_mb ? std::to_string(limits.memory_mb) + " MB" : "no memory limit")
            << " per run, " << jobs << " at a time"
            << (frama_c ? (have_frama_c ? ", with Frama-C Eva" : ", Frama-C not found (n/a)") : "")
            << '\n';

  // Every run is one job writing its own cell; jobs are taken in task order by `jobs`
  // threads, so the results stand in task order whatever the order they finish in.
  install_interrupt_handler();
  std::vector<std::vector<Cell>> cells(models.size(), std::vector<Cell>(configs.size()));
  std::vector<EvaCell> eva(models.size());
  const std::size_t columns = configs.size() + (have_frama_c ? 1 : 0);
  const std::size_t total_runs = models.size() * columns;
  if (frama_c && !have_frama_c)
    for (auto& e : eva) e.result = "n/a";
  std::atomic<std::size_t> next{0};
  std::mutex progress_mutex;
  std::size_t finished = 0;
  const ChildLimits eva_limits{backstop_mb(limits.memory_mb), 0};
  auto worker = [&] {
    for (std::size_t j; (j = next.fetch_add(1)) < total_runs;) {
      const std::size_t i = j / columns, k = j % columns;
      std::string label, result;
      if (k < configs.size()) {
        cells[i][k] = run_precis(verify, configs[k], models[i], limits);
        label = configs[k].label;
        result = cells[i][k].verdict + ", CPU " + fmt_ms(cells[i][k].cpu_ms) + " ms, wall " +
                 fmt_ms(cells[i][k].wall_ms) + " ms";
      } else {
        eva[i] = run_eva(frama_c_path, frama_c_options, models[i], limits.timeout_s, eva_limits);
        label = "frama-c";
        result = eva[i].result + ", CPU " + fmt_ms(eva[i].cpu_ms) + " ms";
      }
      std::lock_guard<std::mutex> lock(progress_mutex);
      std::cerr << "  [" << ++finished << "/" << total_runs << "] " << models[i].name << " ["
                << label << "] " << result << '\n';
    }
  };
  const auto wall_start = std::chrono::steady_clock::now();
  {
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < std::min(jobs, total_runs); ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
  }
  std::cerr << "precis-suite: " << total_runs << " runs in "
            << fmt_ms(std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start)
                          .count() *
                      1e3)
            << " ms wall-clock with " << jobs << " at a time\n";

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
    std::size_t solved = 0, wrong = 0, unknown = 0, rejected = 0, errors = 0, uncertified = 0;
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
      if (c.outcome == Outcome::Correct && c.verdict == "SAFE" && !c.certified) ++uncertified;
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
              << (max_model.empty() ? "" : " (" + max_model + ")");
    // precis's SAFE stands on a checked certificate unless --certify off (or no cvc5);
    // a peer's verdicts have none.
    if (configs[k].peer)
      std::cout << "; peer tool: verdicts not certified";
    else if (uncertified > 0)
      std::cout << "; " << uncertified << " correct SAFE without a checked certificate";
    std::cout << '\n';
  }
  // The virtual best: a model counts as solved if any column solved it, at the CPU time
  // of the fastest column that did; of precis's columns, then with the peers too.
  auto virtual_best = [&](const char* name, bool with_peers) {
    std::size_t solved = 0, columns = 0;
    double total = 0;
    for (const auto& c : configs) columns += (with_peers || !c.peer) ? 1 : 0;
    if (columns < 2) return;
    for (std::size_t i = 0; i < models.size(); ++i) {
      std::optional<double> best;
      for (std::size_t k = 0; k < configs.size(); ++k)
        if ((with_peers || !configs[k].peer) && cells[i][k].outcome == Outcome::Correct &&
            (!best || cells[i][k].cpu_ms < *best))
          best = cells[i][k].cpu_ms;
      if (!best) continue;
      ++solved;
      total += *best;
    }
    std::cout << "  " << name << ": solved " << solved << "/" << models.size() << ", CPU total "
              << fmt_ms(total) << " ms\n";
  };
  const bool any_peer =
      std::any_of(configs.begin(), configs.end(), [](const Config& c) { return c.peer; });
  virtual_best("virtual best", false);
  if (any_peer) virtual_best("virtual best with peer tools", true);
  if (!csv_path.empty()) {
    std::ofstream csv(csv_path);
    csv << "model,expected,config,verdict,outcome,cpu_ms,tool\n";
    for (std::size_t i = 0; i < models.size(); ++i)
      for (std::size_t k = 0; k < configs.size(); ++k) {
        const Cell& c = cells[i][k];
        csv << models[i].name << ',' << to_string(models[i].expected) << ',' << configs[k].label
            << ',' << c.verdict << ',' << outcome_name(c.outcome) << ',' << fmt_ms(c.cpu_ms) << ','
            << (configs[k].peer ? "peer" : "precis") << '\n';
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
