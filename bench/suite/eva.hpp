// precis-suite: Frama-C Eva beside precis on C tasks.
//
// Part of bench/suite_runner.cpp (one translation unit); not a public header.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "child.hpp"
#include "tasks.hpp"

namespace suite {

namespace fs = std::filesystem;

// ---- Frama-C Eva ----------------------------------------------------------------------

// A C tokeniser just good enough to find identifiers outside comments, strings and
// character literals, and to match parentheses.
struct Token {
  std::size_t begin, end;
  bool ident;
};

inline std::vector<Token> tokenize_c(const std::string& s) {
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
inline const std::map<std::string, std::string>& nondet_definitions() {
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

inline bool is_type_word(std::string_view w) {
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
inline EvaInput prepare_for_eva(const std::string& src) {
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

inline EvaCell run_eva(const std::string& frama_c, const std::vector<std::string>& options,
                       const Model& m, double timeout_s, const ChildLimits& limits) {
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
  const RunResult r = run_child(argv, timeout_s, limits, dir);
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

}  // namespace suite
