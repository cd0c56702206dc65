#pragma once
// Human- and machine-readable reports of a VerificationResult: the counterexample as a
// table of steps with variable values, the statistics, and a JSON document.

#include <algorithm>
#include <iomanip>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "precis/core/big_int.hpp"
#include "precis/core/result.hpp"
#include "precis/expr/floating_point.hpp"
#include "precis/io/json_writer.hpp"

namespace precis {

// The counterexample as text. With few variables a table (one row per step, the value
// of every variable after it); with many, a list that shows per step only the variables
// whose value changed. Both stop after `max_steps` rows with a note, so that a path over
// 20,000 variables prints kilobytes, not gigabytes (the JSON report has everything).
struct CounterexampleFormat {
  std::size_t table_max_variables = 10;
  std::size_t max_steps = 2000;
  std::size_t max_changes_per_step = 32;
  std::size_t max_initial = 64;
};

// The value of variable v as the counterexample shows it: the integer, or for a float or
// double the shortest decimal that reads back to it (nan, inf, -inf, -0).
inline std::string value_text(const Counterexample& cex, std::size_t v, const BigInt& x) {
  const unsigned w = cex.float_width_of(v);
  if (w == 0) return to_string(x);
  const auto bits = to_int64(x);
  if (!bits) return to_string(x);
  return fp::to_text(w == 32 ? Type::Float32 : Type::Float64, *bits);
}

inline void print_counterexample(std::ostream& os, const Counterexample& cex,
                                 const CounterexampleFormat& fmt = {}) {
  const std::size_t shown_steps = std::min(cex.steps.size(), fmt.max_steps);
  auto edge_of = [](const CounterexampleStep& s) {
    std::string edge = s.from + " -> " + s.to;
    if (s.line) edge += " (line " + std::to_string(s.line) + ")";
    return edge;
  };
  auto cell = [](const std::string& c) { return c.size() > 48 ? c.substr(0, 45) + "..." : c; };
  if (cex.variables.size() <= fmt.table_max_variables) {
    std::vector<std::string> head{"step", "edge", "operation"};
    for (std::size_t v = 0; v < cex.variables.size(); ++v)
      if (!cex.is_array(v)) head.push_back(cex.variables[v]);
    std::vector<std::vector<std::string>> rows;
    {
      std::vector<std::string> r{"0", "(initial)", ""};
      for (std::size_t v = 0; v < cex.initial.size(); ++v)
        if (!cex.is_array(v)) r.push_back(value_text(cex, v, cex.initial[v]));
      rows.push_back(std::move(r));
    }
    std::vector<BigInt> cur = cex.initial;
    for (std::size_t i = 0; i < shown_steps; ++i) {
      const auto& s = cex.steps[i];
      for (const auto& [x, val] : s.changes)
        if (x < cur.size()) cur[x] = val;
      std::vector<std::string> r{std::to_string(i + 1), edge_of(s), s.operation};
      for (std::size_t v = 0; v < cur.size(); ++v)
        if (!cex.is_array(v)) r.push_back(value_text(cex, v, cur[v]));
      r.resize(head.size());
      rows.push_back(std::move(r));
    }
    std::vector<std::size_t> w(head.size());
    for (std::size_t c = 0; c < head.size(); ++c) {
      w[c] = head[c].size();
      for (const auto& r : rows) w[c] = std::max(w[c], r[c].size());
      w[c] = std::min<std::size_t>(w[c], 48);
    }
    auto line = [&](const std::vector<std::string>& r) {
      os << ' ';
      for (std::size_t c = 0; c < r.size(); ++c)
        os << ' ' << std::left << std::setw(static_cast<int>(w[c])) << cell(r[c]);
      os << '\n';
    };
    os << "Counterexample (" << cex.steps.size() << " steps; values after each step):\n";
    line(head);
    for (const auto& r : rows) line(r);
  } else {
    os << "Counterexample (" << cex.steps.size() << " steps over " << cex.variables.size()
       << " variables; each step lists the variables it changed):\n";
    os << "  initial:";
    const std::size_t shown_init = std::min(cex.initial.size(), fmt.max_initial);
    for (std::size_t v = 0; v < shown_init; ++v)
      if (!cex.is_array(v))
        os << ' ' << cex.variables[v] << '=' << value_text(cex, v, cex.initial[v]);
    if (shown_init < cex.initial.size())
      os << " ... (" << cex.initial.size() - shown_init << " more; --json has all)";
    os << '\n';
    for (std::size_t i = 0; i < shown_steps; ++i) {
      const auto& s = cex.steps[i];
      os << "  " << i + 1 << ": " << edge_of(s) << "  " << cell(s.operation);
      std::size_t shown = 0;
      for (const auto& [x, val] : s.changes) {
        if (shown == fmt.max_changes_per_step) {
          os << " ... (" << s.changes.size() - shown << " more changes)";
          break;
        }
        os << (shown++ == 0 ? "  | " : ", ") << (x < cex.variables.size() ? cex.variables[x] : "?")
           << '=' << value_text(cex, x, val);
      }
      os << '\n';
    }
  }
  if (shown_steps < cex.steps.size())
    os << "  ... " << cex.steps.size() - shown_steps
       << " more steps not shown (--json has the whole path)\n";
  if (!cex.array_inputs.empty()) {
    os << "Array inputs (the cells the model lists, then the value of every other cell):\n";
    for (const auto& a : cex.array_inputs) os << "  " << a << '\n';
  }
}

inline void print_statistics(std::ostream& os, const Statistics& s) {
  auto row = [&](const std::string& k, auto v) {
    os << "  " << std::left << std::setw(static_cast<int>(std::max<std::size_t>(26, k.size() + 2)))
       << k << v << '\n';
  };
  os << "Statistics:\n";
  row("refinements", s.refinements);
  row("ARG nodes (live)", s.arg_nodes);
  row("ARG nodes (created)", s.created_nodes);
  row("covered nodes", s.covered_nodes);
  row("expanded nodes", s.expanded_nodes);
  row("reached set", s.reached_size);
  row("pruned nodes", s.pruned_nodes);
  row("precision size", s.precision_size);
  os << std::fixed << std::setprecision(4);
  row("time total (s)", s.time_total);
  row("time CPA (s)", s.time_cpa);
  row("time refinement (s)", s.time_refinement);
  row("time feasibility (s)", s.time_feasibility);
  os.unsetf(std::ios::fixed);
  for (const auto& [k, v] : s.extra) row(k, v);
  for (const auto& [k, vs] : s.lists) {
    std::string joined;
    for (const auto& v : vs) joined += (joined.empty() ? "" : ", ") + v;
    row(k, vs.empty() ? std::string("(none)") : joined);
  }
}

// The SV-COMP view of a verdict for a task: "true" (safe), "false" (unsafe) or
// "unknown", and the task's expected verdict if it states one.
struct SvCompInfo {
  std::string verdict;
  std::optional<std::string> expected;
};

inline void write_json(std::ostream& os, const VerificationResult& r, const std::string& model,
                       const std::string& analysis,
                       const std::optional<SvCompInfo>& sv = std::nullopt) {
  JsonWriter j(os);
  j.begin_object();
  j.field("model", model).field("analysis", analysis).field("verdict", to_string(r.verdict));
  if (sv) {
    j.field("sv_verdict", sv->verdict);
    j.key("expected");
    if (sv->expected)
      j.value(*sv->expected);
    else
      j.null();
  }
  j.field("reason", r.reason);
  j.key("certified").value(r.certified);
  const auto& s = r.stats;
  j.key("statistics").begin_object();
  j.field("refinements", std::uint64_t{s.refinements})
      .field("arg_nodes", std::uint64_t{s.arg_nodes})
      .field("created_nodes", std::uint64_t{s.created_nodes})
      .field("covered_nodes", std::uint64_t{s.covered_nodes})
      .field("expanded_nodes", std::uint64_t{s.expanded_nodes})
      .field("reached_size", std::uint64_t{s.reached_size})
      .field("pruned_nodes", std::uint64_t{s.pruned_nodes})
      .field("precision_size", std::uint64_t{s.precision_size})
      .field("time_total", s.time_total)
      .field("time_cpa", s.time_cpa)
      .field("time_refinement", s.time_refinement)
      .field("time_feasibility", s.time_feasibility);
  for (const auto& [k, v] : s.extra) j.field(k, v);
  for (const auto& [k, vs] : s.lists) {
    j.key(k).begin_array();
    for (const auto& v : vs) j.value(v);
    j.end_array();
  }
  j.end_object();
  if (r.counterexample) {
    const auto& c = *r.counterexample;
    j.key("counterexample").begin_object();
    j.key("variables").begin_array();
    for (const auto& v : c.variables) j.value(v);
    j.end_array();
    j.key("initial").begin_array();
    for (const auto& x : c.initial) j.value(x);
    j.end_array();
    // The values of floats and doubles are their IEEE bit patterns (binary64's as a signed
    // 64-bit integer); this names those variables and their width.
    bool any_float = false;
    for (std::size_t v = 0; v < c.variables.size(); ++v)
      any_float = any_float || c.float_width_of(v) != 0;
    if (any_float) {
      j.key("float_bit_patterns").begin_object();
      for (std::size_t v = 0; v < c.variables.size(); ++v)
        if (c.float_width_of(v) != 0) j.field(c.variables[v], std::uint64_t{c.float_width_of(v)});
      j.end_object();
    }
    j.key("steps").begin_array();
    for (const auto& st : c.steps) {
      j.begin_object().field("from", st.from).field("to", st.to).field("operation", st.operation);
      j.field("line", std::uint64_t{st.line});
      j.key("changes").begin_object();
      for (const auto& [x, val] : st.changes)
        j.field(x < c.variables.size() ? c.variables[x] : std::to_string(x), val);
      j.end_object().end_object();
    }
    j.end_array();
    if (!c.array_inputs.empty()) {
      j.key("array_inputs").begin_array();
      for (const auto& a : c.array_inputs) j.value(a);
      j.end_array();
    }
    j.end_object();
  }
  j.end_object();
  os << '\n';
}

// The JSON report of a run that ended without a verdict because of an error: bad input
// (kind "input", with the position when known), a usage error ("usage") or an internal
// error ("internal"). A tool that reads stdout as JSON always gets one object.
inline void write_json_error(std::ostream& os, const std::string& model,
                             const std::string& analysis, const std::string& kind,
                             const std::string& message, const std::string& file = {},
                             std::size_t line = 0, std::size_t column = 0) {
  JsonWriter j(os);
  j.begin_object();
  j.field("model", model).field("analysis", analysis).field("verdict", "ERROR");
  j.field("error", kind).field("message", message);
  j.key("file");
  if (file.empty())
    j.null();
  else
    j.value(file);
  j.key("line");
  if (line)
    j.value(std::uint64_t{line});
  else
    j.null();
  j.key("column");
  if (column)
    j.value(std::uint64_t{column});
  else
    j.null();
  j.end_object();
  os << '\n';
}

}  // namespace precis
