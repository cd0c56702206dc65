#pragma once
// Writes an ARG in GraphViz DOT: nodes show location and abstract element, tree edges
// the CFA operation, covering edges are dashed, targets red.

#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>

#include "precis/arg/arg.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/limits.hpp"

namespace precis {

namespace detail {
inline std::string dot_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    if (c == '\n') {
      r += "\\n";
      continue;
    }
    r += c;
  }
  return r;
}
}  // namespace detail

// `print_element(os, element)` prints an abstract element. With `limits`, the writer
// checks the run's time and memory every few thousand nodes and throws limit_reached
// (a DOT file of 10^6 nodes takes seconds; output is a phase with limits too).
template <class E, class P, class PrintElement>
void write_arg_dot(std::ostream& os, const Arg<E, P>& arg, const Cfa& cfa,
                   PrintElement&& print_element, const Limits* limits = nullptr) {
  using Node = typename Arg<E, P>::Node;
  std::size_t written = 0;
  const auto poll = [&] {
    if (limits && (++written & 2047U) == 0) limits->check();
  };
  os << "digraph ARG {\n  node [shape=box, fontname=\"monospace\"];\n";
  arg.for_each_live([&](const Node* n) {
    poll();
    std::ostringstream label;
    label << n->id << " @ " << cfa.name(n->loc) << "\n";
    print_element(label, n->element);
    os << "  n" << n->id << " [label=\"" << detail::dot_escape(label.str()) << '"';
    if (n->target)
      os << ", color=red, style=filled, fillcolor=\"#ffd0d0\"";
    else if (n->covered_by)
      os << ", style=dashed";
    os << "];\n";
  });
  arg.for_each_live([&](const Node* n) {
    poll();
    for (const auto& pe : n->parents)
      os << "  n" << pe.node->id << " -> n" << n->id << " [label=\""
         << detail::dot_escape(to_string(cfa.operation(pe.edge), cfa.exprs())) << "\"];\n";
    if (n->covered_by)
      os << "  n" << n->id << " -> n" << n->covered_by->id
         << " [style=dashed, color=gray, label=\"covered\"];\n";
  });
  os << "}\n";
}

}  // namespace precis
