// precis-suite: the model list: .cfa suites, SV-COMP task directories and roots.
//
// Part of bench/suite_runner.cpp (one translation unit); not a public header.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace suite {

namespace fs = std::filesystem;

// ---- the model list ----------------------------------------------------------------------

enum class Expected { Safe, Unsafe, None, Unknown };

inline const char* to_string(Expected e) {
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

inline std::vector<std::vector<std::string>> read_tsv(const fs::path& p) {
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

inline std::string trim(std::string s) {
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

inline TaskYml read_task_yml(const fs::path& p) {
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

inline Expected from_sv(const std::string& v) {
  if (v == "true") return Expected::Safe;
  if (v == "false") return Expected::Unsafe;
  return Expected::Unknown;
}

// Expected verdicts of SV-COMP tasks from a verdicts.tsv with a `task` column, keyed by
// the canonical path of what that column names: the C file (tests/tasks/sv-comp) or the
// task definition (tests/tasks/sv-comp-more); the verdict column is `unreach_call`,
// `expected_verdict` or `verdict`.
inline void read_task_verdicts(const fs::path& tsv, std::map<fs::path, Expected>& out) {
  auto rows = read_tsv(tsv);
  if (rows.empty() || rows[0].empty() || rows[0][0] != "task") return;
  std::size_t col = 0;
  for (std::size_t i = 0; i < rows[0].size(); ++i)
    if (rows[0][i] == "unreach_call" || rows[0][i] == "expected_verdict" || rows[0][i] == "verdict")
      col = i;
  if (col == 0) return;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].size() <= col) continue;
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(tsv.parent_path() / rows[r][0], ec);
    out[c] = from_sv(rows[r][col]);
  }
}

inline Model task_model(const fs::path& yml_or_c,
                        const std::map<fs::path, Expected>& tsv_verdicts) {
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
  auto it = tsv_verdicts.find(fs::weakly_canonical(m.input, ec));
  if (it == tsv_verdicts.end() && !m.c_file.empty())
    it = tsv_verdicts.find(fs::weakly_canonical(m.c_file, ec));
  if (it != tsv_verdicts.end()) {
    if (m.expected == Expected::Unknown) {
      m.expected = it->second;
    } else if (it->second != Expected::Unknown && it->second != m.expected) {
      std::cerr << "precis-suite: warning: " << m.name << ": the task file says "
                << to_string(m.expected) << ", verdicts.tsv says " << to_string(it->second)
                << "; using the task file\n";
    }
  }
  return m;
}

inline std::vector<fs::path> files_with_ext(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The models of one directory argument (see the header comment); throws on a directory
// that is none of the known kinds.
inline std::vector<Model> collect_models(const fs::path& dir) {
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

}  // namespace suite
