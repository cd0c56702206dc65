#pragma once
// GraphViz (DOT) output of a CFA: one node per location, edges labelled with their
// operation in .cfa syntax; the initial location has an incoming arrow, the final
// location a double circle, the error location is red.

#include <ostream>
#include <string>
#include <string_view>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"

namespace precis {

namespace cfa_dot_detail {

// A DOT double-quoted string.
inline std::string quote(std::string_view s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    if (c == '\n') {
      r += "\\n";
      continue;
    }
    r += c;
  }
  return r + '"';
}

}  // namespace cfa_dot_detail

inline void write_cfa_dot(std::ostream& os, const Cfa& cfa) {
  using cfa_dot_detail::quote;
  os << "digraph cfa {\n"
     << "  node [shape=circle, fontname=\"monospace\"];\n"
     << "  edge [fontname=\"monospace\"];\n"
     << "  __start [shape=point, label=\"\"];\n";
  for (Loc l : cfa.locations()) {
    os << "  n" << l << " [label=" << quote(cfa.name(l));
    if (cfa.error_location() && l == *cfa.error_location())
      os << ", style=filled, fillcolor=\"#ff9999\", color=red, penwidth=2";
    else if (cfa.final_location() && l == *cfa.final_location())
      os << ", shape=doublecircle";
    os << "];\n";
  }
  os << "  __start -> n" << cfa.initial_location() << ";\n";
  for (CfaEdge e : cfa.edges()) {
    os << "  n" << cfa.source(e) << " -> n" << cfa.target(e)
       << " [label=" << quote(to_string(cfa.operation(e), cfa.exprs())) << "];\n";
  }
  os << "}\n";
}

}  // namespace precis
