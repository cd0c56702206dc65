#pragma once
// Backward reachability and live variables of a CFA (the Horn clause writer keeps only
// the variables live at a cutpoint; io/chc_writer.hpp): the classic backward may-analysis
// over the CFA's edges, a worklist to the fixpoint, relative to the error location.

#include <algorithm>
#include <iterator>
#include <optional>
#include <variant>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/expr/term.hpp"

namespace precis {

// Locations from which `target` is reachable (target included).
inline std::vector<char> reaching(const Cfa& cfa, Loc target) {
  std::vector<char> seen(cfa.num_locations(), 0);
  std::vector<Loc> work{target};
  seen[target] = 1;
  while (!work.empty()) {
    const Loc v = work.back();
    work.pop_back();
    for (auto e : cfa.in_edges(v)) {
      const Loc u = cfa.source(e);
      if (!seen[u]) {
        seen[u] = 1;
        work.push_back(u);
      }
    }
  }
  return seen;
}

// The variables an operation reads, sorted.
inline std::vector<VarId> read_vars(const Operation& op) {
  std::vector<VarId> out;
  if (const auto* a = std::get_if<Assume>(&op)) collect_vars(a->cond, out);
  if (const auto* as = std::get_if<Assign>(&op)) collect_vars(as->value, out);
  return out;
}

// Live variables by location, sorted: x is live at l if some CFA path from l to the
// error location reads x before writing it. The error location reads nothing (a path
// ends there), and edges out of it or into locations that cannot reach it are ignored.
// Empty sets everywhere if the CFA has no error location.
inline std::vector<std::vector<VarId>> live_variables(const Cfa& cfa) {
  const std::size_t n = cfa.num_locations();
  std::vector<std::vector<VarId>> live(n);
  const auto err = cfa.error_location();
  if (!err || n == 0) return live;
  const std::vector<char> rel = reaching(cfa, *err);
  std::vector<Loc> work;
  std::vector<char> queued(n, 0);
  for (Loc l = 0; l < n; ++l)
    if (rel[l] && l != *err) {
      work.push_back(l);
      queued[l] = 1;
    }
  std::vector<VarId> next, tmp;
  while (!work.empty()) {
    const Loc u = work.back();
    work.pop_back();
    queued[u] = 0;
    next.clear();
    for (auto e : cfa.out_edges(u)) {
      const Loc v = cfa.target(e);
      if (!rel[v]) continue;
      const Operation& op = cfa.operation(e);
      const auto w = written_var(op);
      tmp.clear();
      for (VarId x : live[v])
        if (!w || x != *w) tmp.push_back(x);
      std::vector<VarId> r = read_vars(op);
      std::vector<VarId> merged;
      merged.reserve(next.size() + tmp.size() + r.size());
      std::set_union(tmp.begin(), tmp.end(), r.begin(), r.end(), std::back_inserter(merged));
      tmp.clear();
      std::set_union(next.begin(), next.end(), merged.begin(), merged.end(),
                     std::back_inserter(tmp));
      next.swap(tmp);
    }
    if (next.size() == live[u].size()) continue;  // sets only grow: same size, same set
    live[u] = next;
    for (auto e : cfa.in_edges(u)) {
      const Loc p = cfa.source(e);
      if (rel[p] && p != *err && !queued[p]) {
        queued[p] = 1;
        work.push_back(p);
      }
    }
  }
  return live;
}

}  // namespace precis
