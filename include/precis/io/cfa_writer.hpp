#pragma once
// Writes a Cfa as a .cfa file that precis (and Theta) read back to an equivalent CFA:
// the same locations in the same order, one statement per edge, edges in graph order.
//
// Names that the format cannot hold (keywords, characters outside [A-Za-z0-9_],
// duplicates, e.g. locals of different functions with one name) are renamed to
// unique identifiers; the renaming is applied consistently to every term.

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/expr/printer.hpp"
#include "precis/expr/term.hpp"
#include "precis/io/cfa_reader.hpp"

namespace precis {

namespace cfa_writer_detail {

// Assigns each requested name a valid, unused identifier, keeping it when possible.
class NameTable {
 public:
  std::string claim(std::string_view wanted) {
    std::string base;
    for (char c : wanted) {
      bool ok =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      base += ok ? c : '_';
    }
    if (base.empty() || (base[0] >= '0' && base[0] <= '9')) base.insert(0, "_");
    // Theta's lexer reads a lone 'u' or 's' as a signedness token, not as a name.
    if (cfa_syntax::is_keyword(base) || base == "u" || base == "s") base += '_';
    std::string name = base;
    for (std::size_t k = 1; used_.contains(name); ++k) name = base + "_" + std::to_string(k);
    used_.insert(name);
    return name;
  }

 private:
  std::unordered_set<std::string> used_;
};

// Rebuilds `t` over `to` (whose variable k mirrors variable k of the source manager).
inline Term translate(Term t, ExprManager& to, std::unordered_map<Term, Term, TermHash>& memo) {
  if (auto it = memo.find(t); it != memo.end()) return it->second;
  Term r;
  switch (t.op()) {
    case Op::Var: r = to.var(t.var()); break;
    case Op::IntConst: r = to.int_val(t.value()); break;
    case Op::BoolConst: r = to.bool_val(t.value() != 0); break;
    default: {
      std::vector<Term> args;
      args.reserve(t.num_args());
      for (std::size_t i = 0; i < t.num_args(); ++i) args.push_back(translate(t.arg(i), to, memo));
      r = to.rebuild(t, args);
    }
  }
  memo.emplace(t, r);
  return r;
}

}  // namespace cfa_writer_detail

// Writes `cfa` as `main process <process_name> { ... }`. The process name is adjusted
// like every other name if the format cannot hold it ("main" is a keyword: "main_").
inline void write_cfa(std::ostream& os, const Cfa& cfa, std::string process_name = "main") {
  const ExprManager& em = cfa.exprs();
  cfa_writer_detail::NameTable proc_names, var_names, loc_names;

  // Variables: keep names where possible; otherwise print terms over a renamed copy.
  std::vector<std::string> vname;
  bool renamed = false;
  for (const Variable& v : em.variables()) {
    vname.push_back(var_names.claim(v.name));
    renamed = renamed || vname.back() != v.name;
  }
  ExprManager renamed_em;
  std::unordered_map<Term, Term, TermHash> memo;
  if (renamed)
    for (const Variable& v : em.variables()) renamed_em.declare(vname[v.id], v.type, v.scope);
  const ExprManager& out_em = renamed ? renamed_em : em;
  auto term = [&](Term t) {
    return to_string(renamed ? cfa_writer_detail::translate(t, renamed_em, memo) : t, out_em);
  };

  os << "main process " << proc_names.claim(process_name) << " {\n";
  for (const Variable& v : em.variables())
    os << "    var " << vname[v.id] << " : " << to_string(v.type) << '\n';
  if (!em.variables().empty()) os << '\n';

  std::vector<std::string> lname(cfa.num_locations());
  for (Loc l : cfa.locations()) {
    lname[l] = loc_names.claim(cfa.name(l));
    os << "    ";
    if (l == cfa.initial_location())
      os << "init ";
    else if (cfa.error_location() && l == *cfa.error_location())
      os << "error ";
    else if (cfa.final_location() && l == *cfa.final_location())
      os << "final ";
    os << "loc " << lname[l] << '\n';
  }
  if (cfa.num_edges() != 0) os << '\n';

  for (CfaEdge e : cfa.edges()) {
    os << "    " << lname[cfa.source(e)] << " -> " << lname[cfa.target(e)];
    std::visit(overloaded{
                   [&](const Skip&) {},
                   [&](const Assume& a) { os << " { assume " << term(a.cond) << " }"; },
                   [&](const Assign& a) {
                     os << " { " << vname[a.var] << " := " << term(a.value) << " }";
                   },
                   [&](const Havoc& h) { os << " { havoc " << vname[h.var] << " }"; },
               },
               cfa.operation(e));
    os << '\n';
  }
  os << "}\n";
}

}  // namespace precis
