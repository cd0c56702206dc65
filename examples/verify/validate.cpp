// precis-verify --validate: checking violation and correctness witnesses.

#include "validate.hpp"

#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "precis/core/input_error.hpp"
#include "witnesses.hpp"

#ifdef PRECIS_HAVE_CFRONT
#include "precis/frontends/c/c_frontend.hpp"
#endif

namespace precis_cli {

#ifdef PRECIS_HAVE_CVC5
namespace {

#ifdef PRECIS_HAVE_CFRONT
// A correctness witness whose invariants are true but not inductive by themselves
// (loop invariants are per source loop: a loop in a function inlined at several call
// sites gets one invariant for all of them, and the caller's locals are out of scope)
// is validated the way SV-COMP validators use a witness: the invariants become
// assertions, an edge from each loop head to the error location when the invariant
// fails, and the analysis (--analysis, auto by default) verifies the instrumented
// program. A certified SAFE confirms the witness: the invariants hold and the program is
// safe; a replayed counterexample rejects it, naming the invariant it violates (or the
// program's own error); anything else leaves it undecided.
Validation validate_by_analysis(const Model& model, const RunContext& ctx,
                                const std::vector<std::pair<precis::Loc, precis::Term>>& at,
                                const std::string& why) {
  Model checked = model;
  precis::Cfa& cfa = checked.cfa;
  precis::ExprManager& em = cfa.exprs();
  const precis::Loc err = *cfa.error_location();
  // The operation text of each assertion edge -> the witness line it checks.
  std::map<std::string, std::uint32_t> assertion_line;
  for (const auto& [l, t] : at) {
    const precis::Operation op = precis::Assume{em.not_(t)};
    const auto& info = cfa.location_info(l);
    cfa.add_edge(l, err, op, info.loop_line, info.loop_column);
    assertion_line.emplace(precis::to_string(op, em), info.loop_line);
  }
  const Outcome o = run_configured(checked, ctx);
  const precis::VerificationResult& r = o.result;
  // The checker's failure names the edge or block first; the formula after it can be long.
  const std::string brief = why.size() > 160 ? why.substr(0, 160) + "..." : why;
  const std::string intro =
      at.empty() ? std::string("the witness states no invariant; ")
                 : "the invariants are not inductive by themselves (" + brief + "); ";
  if (r.verdict == precis::Verdict::Safe && (r.certified || ctx.cfg.certify == "off"))
    return {true,
            intro + (at.empty() ? "the program is safe: " : "they hold and the program is safe: ") +
                (ctx.cfg.analysis == "auto" ? std::string("the portfolio") : ctx.cfg.analysis) +
                (at.empty() ? " proved it" : " proved the program with them as assertions") +
                (r.certified ? " (certified)" : " (unchecked: --certify off)")};
  if (r.verdict == precis::Verdict::Unsafe && r.counterexample &&
      !r.counterexample->steps.empty()) {
    const auto& last = r.counterexample->steps.back();
    const auto it = assertion_line.find(last.operation);
    if (it != assertion_line.end())
      return {false, "the invariant at line " + std::to_string(it->second) +
                         " does not hold: a replayed path of " +
                         std::to_string(r.counterexample->steps.size()) + " steps violates it"};
    return {false, "the program is unsafe: a replayed path of " +
                       std::to_string(r.counterexample->steps.size()) +
                       " steps reaches the error location"};
  }
  return {false, intro + "checking them as assertions was undecided: " + r.reason, true};
}
#endif

}  // namespace

int validate(const Model& model, const RunContext& ctx) {
  const Config& cfg = ctx.cfg;
  const precis::Cfa& cfa = model.cfa;
  Validation v;
  if (ends_with(cfg.validate, ".graphml")) {
    v = validate_violation(cfa, precis::read_violation_graphml(cfg.validate));
  } else if (ends_with(cfg.validate, ".yml") || ends_with(cfg.validate, ".yaml")) {
#ifdef PRECIS_HAVE_CFRONT
    if (model.c_file.empty())
      throw precis::input_error({cfg.validate, 0, 0},
                                "a YAML correctness witness needs a C program or task");
    precis::ExprManager& em = *cfa.expr_manager();
    std::vector<std::pair<precis::Loc, precis::Term>> at;
    for (const auto& w : precis::c::read_correctness_witness(cfg.validate)) {
      std::vector<precis::Loc> heads;
      for (precis::Loc l = 0; l < cfa.num_locations(); ++l) {
        const auto& info = cfa.location_info(l);
        if (info.loop_line == w.line && (w.column == 0 || info.loop_column == w.column))
          heads.push_back(l);
      }
      if (heads.empty()) {
        v = {false, "no loop head at line " + std::to_string(w.line) + ", column " +
                        std::to_string(w.column) + " of the program"};
        break;
      }
      for (precis::Loc l : heads) {
        const precis::CIdentifierResolver resolve = [&](std::string_view n) {
          return resolve_source_name(cfa, l, n);
        };
        try {
          at.emplace_back(l, precis::parse_c_expression(w.value, em, resolve, cfg.validate));
        } catch (const precis::input_error& e) {  // at the column of the witness file
          precis::SourcePosition p = w.value_where;
          if (p.line != 0 && e.position().column != 0) p.column += e.position().column - 1;
          throw precis::input_error(p, e.message());
        }
      }
    }
    if (v.reason.empty()) {
      precis::Cvc5Options o;
      o.deadline = precis::Deadline::of(ctx.limits);
      v = validate_invariants(cfa, at, o);
      if (!v.confirmed) v = validate_by_analysis(model, ctx, at, v.reason);
    }
#else
    throw precis::input_error({cfg.validate, 0, 0},
                              "YAML witnesses need the C front end, which this build lacks");
#endif
  } else {
    throw precis::input_error({cfg.validate, 0, 0},
                              "unknown witness format (precis validates .graphml violation "
                              "witnesses and .yml correctness witnesses)");
  }
  std::cout << (v.confirmed   ? "confirmed"
                : v.undecided ? "undecided"
                              : "rejected")
            << ": " << v.reason << '\n';
  return v.confirmed ? kSafe : v.undecided ? kUnknown : kUnsafe;
}
#else
int validate(const Model&, const RunContext& ctx) {
  throw precis::input_error({ctx.cfg.validate, 0, 0}, "--validate needs cvc5");
}
#endif

}  // namespace precis_cli
