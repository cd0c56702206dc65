#pragma once
// Writes a CFA as constrained Horn clauses (CHCs) in the CHC-COMP format (CHC-COMP
// benchmark format, https://chc-comp.github.io/format.html, revision 2023: SMT-LIB 2.6
// with `(set-logic HORN)`, predicates declared by `declare-fun ... Bool`, clauses
// `(assert (forall (vars) (=> tail head)))`, the query a clause with head `false`,
// `(check-sat)`), so that any Horn solver runs on the transition system precis verifies:
// `sat` means SAFE (the error location is unreachable), `unsat` means UNSAFE.
//
// Encoding (the "large-block" Horn encoding of a program's cutpoint graph, as in
// Gurfinkel, Kahsai, Komuravelli, Navas, "The SeaHorn verification framework", CAV 2015,
// and Bjorner, Gurfinkel, McMillan, Rybalchenko, "Horn clause solvers for program
// verification", 2015, section 5):
//
// - Predicates only at cutpoints: the abstraction points of cfa/block_encoding.hpp's
//   BlockOperator with BlockPolicy::LoopHeads (the heads of the weak topological order,
//   the initial and the error location), the cutpoint graph VINTA uses. Cutpoints that
//   cannot reach the error location are left out (no path to the error passes them).
// - A cutpoint's predicate has one argument per variable live there (some path to the
//   error location reads it before writing it; the error location itself reads none),
//   Int or Bool as the variable. The initial location's predicate has no arguments
//   unless a block leads back to it (its live variables are then arguments): the
//   initial values are unconstrained, i.e. universally quantified in its clauses.
// - One clause per block (cutpoint h to cutpoint p, all loop-free CFA paths between
//   them): P_h(x@0, ...) /\ B(h, p) => P_p(x@k, ...), where B is the block's formula
//   of smt/block_formula.hpp, exactly as VINTA and the block refinement encode it: the
//   DAG encoding with SSA copies x@k and a control variable per block node and edge,
//   linear in the block's size (a block with many branches is never split into paths).
//   Control variables that every model sets to true (nodes on every path of the block,
//   edges into such nodes with no alternative) are replaced by true and the Boolean
//   skeleton is simplified, so a straight-line block is a plain conjunction.
// - One fact for the initial location, `P_init` (or `forall live. P_init(live)`); each
//   block into the error location is a query (head `false`).
// - A havoc is a fresh SSA copy that no constraint mentions: an unconstrained variable.
//
// Terms are printed exactly as smt/cvc5_solver.hpp translates them: precis `/` and `mod`
// are SMT-LIB `div` and `mod` (both Euclidean, as the .cfa format defines them), `rem`
// is `(ite (>= b 0) (mod a b) (- (mod a b)))`, `if` is `ite`, `/=` is `distinct`, `iff`
// is `=`; so the clauses are equisatisfiable with the path and block formulas precis
// checks (division by zero included: SMT-LIB leaves `(div a 0)` unspecified, for both).
// A C front end's wrap-around is already spelled out in these operators. A subterm that
// occurs several times (hash-consed terms are DAGs; `rem` repeats its operands) and is
// not tiny is named by a fresh variable defined by an equality, so the output stays
// linear in the size of the term DAG. An operator without an exact SMT-LIB counterpart
// makes write_chc throw chc_error naming it (none of precis' operators today).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "precis/cfa/block_encoding.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/cfa/liveness.hpp"
#include "precis/cfa/operation.hpp"
#include "precis/expr/eval.hpp"
#include "precis/expr/term.hpp"
#include "precis/smt/block_formula.hpp"
#include "precis/smt/path_formula.hpp"

namespace precis {

struct ChcOptions {
  // Written at the top of the output, each line as an SMT-LIB comment (`; ...`).
  std::string comment;
};

// A term the writer cannot express exactly in SMT-LIB.
class chc_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace chc_detail {

// SMT-LIB simple symbols: letters, digits and ~!@$%^&*_-+=<>.?/, not starting with a
// digit; anything else is written as a quoted symbol |...| (which may not contain | or
// a backslash; those and non-printable characters become '_').
inline bool is_simple_symbol_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("~!@$%^&*_-+=<>.?/").find(c) != std::string_view::npos;
}

inline std::string sanitize(std::string_view raw) {
  std::string s;
  s.reserve(raw.size());
  for (char c : raw) {
    const auto u = static_cast<unsigned char>(c);
    s += (u < 0x20 || u > 0x7e || c == '|' || c == '\\') ? '_' : c;
  }
  return s;
}

// `name` (already sanitized) as it is written: simple if it can be, else quoted.
inline std::string spell(const std::string& name) {
  bool simple = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name) simple = simple && is_simple_symbol_char(c);
  return simple ? name : "|" + name + "|";
}

inline std::string int_literal(std::int64_t v) {
  if (v >= 0) return std::to_string(v);
  const std::uint64_t mag = ~static_cast<std::uint64_t>(v) + 1;  // exact for INT64_MIN
  return "(- " + std::to_string(mag) + ")";
}

// Appends t's variables to `out` (unsorted; collect_vars sorts on every call, which is
// quadratic over many conjuncts).
inline void append_vars(Term t, std::vector<VarId>& out) {
  for_each_subterm(t, [&](Term x) {
    if (x.is_var()) out.push_back(x.var());
    return true;
  });
}

inline void sort_unique(std::vector<VarId>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace chc_detail

namespace chc_detail {

class ChcWriter {
 public:
  ChcWriter(std::ostream& out, const Cfa& cfa, const ChcOptions& opts)
      : out_(out), cfa_(cfa), opts_(opts), ssa_(*cfa.expr_manager()) {}

  void write() {
    if (!opts_.comment.empty()) {
      std::size_t pos = 0;
      while (pos <= opts_.comment.size()) {
        std::size_t nl = opts_.comment.find('\n', pos);
        if (nl == std::string::npos) nl = opts_.comment.size();
        out_ << "; " << opts_.comment.substr(pos, nl - pos) << '\n';
        pos = nl + 1;
      }
    }
    out_ << "(set-logic HORN)\n";
    const std::size_t n = cfa_.num_locations();
    const auto err = cfa_.error_location();
    if (n == 0 || !err) {
      trivial_program();
      return;
    }
    const Loc init = cfa_.initial_location();
    const BlockOperator op(cfa_, BlockPolicy::LoopHeads);
    const BlockGraph graph(cfa_, op);
    const std::vector<char> rel = precis::reaching(cfa_, *err);
    live_ = live_variables(cfa_);

    // The blocks on some path to the error location, and the cutpoints with a predicate.
    std::vector<std::size_t> kept;
    std::vector<char> has_pred(n, 0);
    bool init_entered = false;
    for (std::size_t i = 0; i < graph.blocks().size(); ++i) {
      const Block& b = graph.block(i);
      if (b.entry == *err || !rel[b.exit] || !rel[b.entry]) continue;
      kept.push_back(i);
      if (b.exit != *err) has_pred[b.exit] = 1;
      if (b.exit == init) init_entered = true;
    }
    if (init == *err) init_entered = false;
    has_pred[init] = 1;
    pred_name_.assign(n, std::string());
    args_.assign(n, {});
    std::unordered_set<std::string> taken;
    for (Loc l : op.reachable_points()) {
      if (!has_pred[l] || (l == *err && l != init)) continue;
      std::string base = "P_" + sanitize(cfa_.name(l));
      std::replace(base.begin(), base.end(), '@', '_');  // never an SSA name (x@k)
      std::string name = base;
      for (int k = 2; !taken.insert(name).second; ++k) name = base + "_" + std::to_string(k);
      pred_name_[l] = spell(name);
      if (l != init || init_entered) args_[l] = live_[l];
      out_ << "; " << pred_name_[l] << ": location " << cfa_.name(l)
           << (l == init ? " (initial)" : " (cutpoint)") << '\n';
      out_ << "(declare-fun " << pred_name_[l] << " (";
      for (std::size_t i = 0; i < args_[l].size(); ++i)
        out_ << (i ? " " : "") << sort(cfa_.exprs().variable(args_[l][i]).type);
      out_ << ") Bool)\n";
    }
    ++clauses_;
    out_ << "; initial states: every value\n";
    if (args_[init].empty()) {
      out_ << "(assert " << pred_name_[init] << ")\n";
    } else {
      Clause c;
      c.head = atom(init, nullptr);
      write_clause(c);
    }

    index_.assign(cfa_.exprs().num_vars(), 0);
    BlockFormulaEncoder enc(cfa_, ssa_);
    bool query = false;
    for (std::size_t i : kept) {
      const Block& b = graph.block(i);
      std::fill(index_.begin(), index_.end(), 0U);
      index_.resize(cfa_.exprs().num_vars(), 0);
      const BlockFormula bf = enc.encode(b, index_);
      Clause c;
      c.comment = "block " + cfa_.name(b.entry) + " -> " + cfa_.name(b.exit);
      c.body_atom = atom(b.entry, nullptr);
      c.constraint = simplify_block(b, bf);
      if (b.exit == *err) {
        query = true;
      } else {
        c.head = atom(b.exit, &index_);
      }
      write_clause(c);
      ++clauses_;
    }
    if (init == *err) {  // the error location is reached with no step at all
      Clause c;
      c.comment = "the initial location is the error location";
      c.body_atom = atom(init, nullptr);
      write_clause(c);
      ++clauses_;
      query = true;
    }
    if (!query) {  // the error location is unreachable: a query that never fires
      Clause c;
      c.comment = "no path reaches the error location";
      c.constraint = ssa_.ssa().false_();
      write_clause(c);
      ++clauses_;
    }
    out_ << "(check-sat)\n";
  }

 private:
  struct Atom {
    std::string pred;  // spelled; empty: none
    std::vector<Term> args;
  };
  struct Clause {
    std::string comment;
    std::optional<Atom> body_atom;
    Term constraint;           // over SSA variables; invalid: none
    std::optional<Atom> head;  // none: false (a query)
  };

  static const char* sort(Type t) {
    if (is_float(t))
      throw chc_error("write_chc: floating-point variables have no sort in the CHC-COMP language");
    return t == Type::Bool ? "Bool" : t == Type::Array ? "(Array Int Int)" : "Int";
  }

  // P_l over the SSA copies of its arguments (index 0, or the index in `index`).
  Atom atom(Loc l, const std::vector<std::uint32_t>* index) {
    Atom a;
    a.pred = pred_name_[l];
    for (VarId x : args_[l]) a.args.push_back(ssa_.var(x, index ? (*index)[x] : 0));
    return a;
  }

  void trivial_program() {
    out_ << "; no error location: nothing to reach\n";
    out_ << "(declare-fun P_init () Bool)\n(assert P_init)\n";
    out_ << "(assert (forall ((unused Bool)) (=> (and P_init false) false)))\n(check-sat)\n";
  }

  // ---- the block formula with the control variables every model sets to true -------
  Term simplify_block(const Block& b, const BlockFormula& bf) {
    // Nodes on every entry-exit path: the dominators of the exit in the block's DAG
    // (nodes are topologically ordered, so idom(v) is the common dominator of v's
    // predecessors, found by walking up the dominator tree).
    const std::size_t n = b.nodes.size();
    std::vector<std::vector<std::uint32_t>> in(n);
    for (std::size_t i = 0; i < b.edges.size(); ++i)
      in[b.edges[i].target].push_back(static_cast<std::uint32_t>(i));
    constexpr std::uint32_t none = 0xffffffffU;
    std::vector<std::uint32_t> idom(n, none);
    idom[0] = 0;
    for (std::size_t v = 1; v < n; ++v) {
      std::uint32_t d = none;
      for (std::uint32_t ei : in[v]) {
        std::uint32_t u = b.edges[ei].source;
        if (idom[u] == none) continue;  // not reachable from the entry
        if (d == none) {
          d = u;
          continue;
        }
        while (u != d) {
          while (u > d) u = idom[u];
          while (d > u) d = idom[d];
        }
      }
      idom[v] = d;
    }
    Binding subst;
    const Term tru = ssa_.ssa().true_();
    for (std::uint32_t v = b.exit_node(); idom[v] != none;) {
      if (v != 0) subst[bf.reach[v].var()] = tru;
      if (in[v].size() == 1) subst[bf.taken[in[v][0]].var()] = tru;
      if (v == 0) break;
      v = idom[v];
    }
    Memo memo;
    return rewrite(bf.formula, subst, memo);
  }

  using Binding = std::unordered_map<VarId, Term>;
  using Memo = std::unordered_map<Term, Term, TermHash>;

  // t with the bound variables replaced, Boolean connectives with constant operands
  // folded, and operators over constants evaluated (exactly: expr/eval.hpp gives no
  // value on overflow or division by zero, and those stay unevaluated). Equivalent to t
  // under the bindings.
  Term rewrite(Term t, const Binding& bind, Memo& memo) {
    if (auto it = memo.find(t); it != memo.end()) return it->second;
    ExprManager& s = ssa_.ssa();
    Term r = t;
    if (t.is_var()) {
      if (auto it = bind.find(t.var()); it != bind.end()) r = it->second;
    } else if (t.num_args() > 0) {
      std::vector<Term> a;
      a.reserve(t.num_args());
      bool changed = false;
      bool constant = true;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        a.push_back(rewrite(t.arg(i), bind, memo));
        changed = changed || a.back() != t.arg(i);
        constant = constant && a.back().is_const();
      }
      auto is = [](Term x, bool v) { return x.op() == Op::BoolConst && (x.value() != 0) == v; };
      switch (t.op()) {
        case Op::And:
        case Op::Or: {
          const bool conj = t.op() == Op::And;
          std::vector<Term> keep;
          bool absorbed = false;
          for (Term x : a) {
            if (is(x, !conj)) absorbed = true;
            if (x.op() == Op::BoolConst) {
              changed = true;
            } else if (x.op() == t.op()) {  // flattened
              changed = true;
              for (std::size_t i = 0; i < x.num_args(); ++i) keep.push_back(x.arg(i));
            } else {
              keep.push_back(x);
            }
          }
          if (absorbed)
            r = s.bool_val(!conj);
          else if (changed)
            r = conj ? s.conj(keep) : s.disj(keep);
          break;
        }
        case Op::Imply:
          if (is(a[0], true))
            r = a[1];
          else if (is(a[0], false) || is(a[1], true))
            r = s.true_();
          else if (changed)
            r = s.imply(a[0], a[1]);
          break;
        case Op::Ite:
          if (a[0].is_const())
            r = a[0].value() != 0 ? a[1] : a[2];
          else if (changed)
            r = s.ite(a[0], a[1], a[2]);
          break;
        default:
          if (changed) r = s.rebuild(t, a);
          if (constant) {
            if (auto v = evaluate(r, EmptyValuation{}))
              r = r.is_bool() ? s.bool_val(*v != 0) : s.int_val(*v);
          }
      }
    }
    memo.emplace(t, r);
    return r;
  }

  // A variable's value fixed by a conjunct (x = c, c = x, a Bool x, not x), if any.
  static std::optional<std::pair<VarId, Term>> binding_of(Term c, ExprManager& s) {
    if (c.is_var() && c.is_bool()) return std::pair{c.var(), s.true_()};
    if (c.op() == Op::Not && c.arg(0).is_var()) return std::pair{c.arg(0).var(), s.false_()};
    if (c.op() == Op::Eq || c.op() == Op::Iff) {
      if (c.arg(0).is_var() && c.arg(1).is_const()) return std::pair{c.arg(0).var(), c.arg(1)};
      if (c.arg(1).is_var() && c.arg(0).is_const()) return std::pair{c.arg(1).var(), c.arg(0)};
    }
    return std::nullopt;
  }

  // Constant propagation over the top-level conjuncts, in one pass in their order (the
  // block encoder emits them in topological order, so a straight-line definition comes
  // before its uses): each conjunct is rewritten under the constants found so far, then
  // may fix one more. A bound variable that still occurs afterwards (in an atom, or in a
  // subterm rewritten before its binding was found) keeps its definition. Equivalent,
  // and linear in the conjuncts' DAG.
  void propagate(std::vector<Term>& conj, const std::vector<VarId>& atom_vars) {
    ExprManager& s = ssa_.ssa();
    Binding bind;
    std::vector<VarId> bound;  // in binding order
    Memo memo;
    std::vector<Term> out;
    out.reserve(conj.size());
    for (Term c : conj) {
      const Term r = rewrite(c, bind, memo);
      if (r.op() == Op::BoolConst) {
        if (r.value() != 0) continue;
        out.assign(1, r);  // false: the clause holds vacuously
        conj.swap(out);
        return;
      }
      if (auto b = binding_of(r, s); b && !bind.count(b->first)) {
        bind.emplace(b->first, b->second);
        bound.push_back(b->first);
        memo[s.var(b->first)] = b->second;
        continue;
      }
      if (r.op() == Op::And) {
        for (std::size_t i = 0; i < r.num_args(); ++i) out.push_back(r.arg(i));
      } else {
        out.push_back(r);
      }
    }
    std::vector<VarId> occurs(atom_vars);
    for (Term t : out) append_vars(t, occurs);
    sort_unique(occurs);
    std::vector<Term> defs;
    for (VarId x : bound) {
      if (!std::binary_search(occurs.begin(), occurs.end(), x)) continue;
      const Term v = s.var(x);
      const Term c = bind.at(x);
      defs.push_back(v.is_bool() ? (c.value() != 0 ? v : s.not_(v)) : s.eq(v, c));
    }
    out.insert(out.begin(), defs.begin(), defs.end());
    conj.swap(out);
  }

  // ---- printing ---------------------------------------------------------------------
  void write_clause(const Clause& c) {
    // The constraint's top-level conjuncts.
    std::vector<Term> conj;
    if (c.constraint.valid()) {
      if (c.constraint.op() == Op::And)
        for (std::size_t i = 0; i < c.constraint.num_args(); ++i)
          conj.push_back(c.constraint.arg(i));
      else if (!(c.constraint.op() == Op::BoolConst && c.constraint.value() != 0))
        conj.push_back(c.constraint);
    }
    std::vector<VarId> atom_vars;
    for (const auto* a : {&c.body_atom, &c.head})
      if (*a)
        for (Term x : (*a)->args) atom_vars.push_back(x.var());
    std::sort(atom_vars.begin(), atom_vars.end());
    propagate(conj, atom_vars);
    name_shared(conj);

    // The clause's variables: SSA copies, control variables, then the named subterms.
    std::vector<VarId> vars;
    auto add_vars = [&](const std::optional<Atom>& a) {
      if (a)
        for (Term x : a->args) vars.push_back(x.var());
    };
    add_vars(c.body_atom);
    add_vars(c.head);
    for (Term t : conj) append_vars(t, vars);
    sort_unique(vars);
    names_.clear();
    std::unordered_set<std::string> used;
    const ExprManager& s = ssa_.ssa();
    for (VarId v : vars) {
      std::string base;
      if (ssa_.is_auxiliary(v)) {  // "__blk<k>.r<i>" -> "r<i>"
        const std::string& full = s.variable(v).name;
        const std::size_t dot = full.rfind('.');
        base = dot == std::string::npos ? full : full.substr(dot + 1);
      } else {
        base = sanitize(s.variable(v).name);  // x@k
      }
      std::string name = base;
      for (int k = 2; !used.insert(name).second; ++k) name = base + "!" + std::to_string(k);
      names_.emplace(v, spell(name));
    }
    std::vector<std::pair<std::string, Type>> decls;
    for (VarId v : vars) decls.emplace_back(names_.at(v), s.variable(v).type);
    for (std::size_t i = 0; i < shared_order_.size(); ++i) {
      std::string name = "s" + std::to_string(i + 1);
      while (!used.insert(name).second) name += "!";
      shared_name_[shared_order_[i]] = name;
      decls.emplace_back(name, shared_order_[i].type());
    }
    if (decls.empty()) decls.emplace_back("unused", Type::Bool);  // var_decl+

    if (!c.comment.empty()) out_ << "; " << c.comment << '\n';
    const bool fact = !c.body_atom && conj.empty() && shared_order_.empty() && c.head;
    out_ << "(assert (forall (";
    for (std::size_t i = 0; i < decls.size(); ++i)
      out_ << (i ? " " : "") << '(' << decls[i].first << ' ' << sort(decls[i].second) << ')';
    out_ << ")\n";
    if (fact) {
      out_ << "  ";
      print_atom(*c.head);
      out_ << "))\n";
      clear_shared();
      return;
    }
    const std::size_t tail_size = (c.body_atom ? 1 : 0) + conj.size() + shared_order_.size();
    out_ << "  (=> ";
    if (tail_size == 0) {
      out_ << "true";
    } else {
      if (tail_size > 1) out_ << "(and";
      if (c.body_atom) {
        out_ << (tail_size > 1 ? "\n    " : "");
        print_atom(*c.body_atom);
      }
      for (Term t : shared_order_) {
        out_ << (tail_size > 1 ? "\n    " : "") << "(= " << shared_name_.at(t) << ' ';
        print(t, true);
        out_ << ')';
      }
      for (Term t : conj) {
        out_ << (tail_size > 1 ? "\n    " : "");
        print(t, false);
      }
      if (tail_size > 1) out_ << ')';
    }
    out_ << "\n    ";
    if (c.head)
      print_atom(*c.head);
    else
      out_ << "false";
    out_ << ")))\n";
    clear_shared();
  }

  void print_atom(const Atom& a) {
    if (a.args.empty()) {
      out_ << a.pred;
      return;
    }
    out_ << '(' << a.pred;
    for (Term x : a.args) out_ << ' ' << names_.at(x.var());
    out_ << ')';
  }

  void clear_shared() {
    shared_order_.clear();
    shared_name_.clear();
  }

  // Names the subterms that would be printed more than once and are not tiny, so that
  // the printed size stays linear in the DAG (each remaining subterm printed more than
  // once has at most `tiny` symbols).
  void name_shared(const std::vector<Term>& roots) {
    constexpr std::uint64_t tiny = 4;
    std::unordered_map<Term, std::uint32_t, TermHash> refs;
    std::vector<Term> order;  // parents before children
    std::vector<Term> stack;
    for (Term r : roots) {
      if (refs[r]++ == 0) stack.push_back(r);
    }
    while (!stack.empty()) {
      const Term t = stack.back();
      stack.pop_back();
      order.push_back(t);
      // `rem` prints its dividend twice and its divisor three times.
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        const std::uint32_t times = t.op() != Op::Rem ? 1 : (i == 0 ? 2 : 3);
        auto& k = refs[t.arg(i)];
        if (k == 0) stack.push_back(t.arg(i));
        k += times;
      }
    }
    // Children before parents: `order` reversed is not a topological order in general
    // (a DFS preorder visits a shared child on its first parent), so sort by depth.
    std::stable_sort(order.begin(), order.end(),
                     [](Term a, Term b) { return a.depth() < b.depth(); });
    std::unordered_map<Term, std::uint64_t, TermHash> eff;  // printed size, named children 1
    for (Term t : order) {
      std::uint64_t size = 1;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        const Term c = t.arg(i);
        const std::uint64_t cs = shared_name_.count(c) ? 1 : eff.at(c);
        size += t.op() == Op::Rem ? (i == 0 ? 2 : 3) * cs + 3 : cs;
      }
      eff[t] = std::min<std::uint64_t>(size, 1ULL << 40);
      if (t.num_args() > 0 && refs.at(t) > 1 && size > tiny) {
        shared_name_[t] = std::string();  // named once printing starts
        shared_order_.push_back(t);       // children first: definitions in order
      }
    }
  }

  // Prints t; a named subterm as its name, unless `define` (its definition).
  void print(Term t, bool define) {
    if (!define) {
      if (auto it = shared_name_.find(t); it != shared_name_.end()) {
        out_ << it->second;
        return;
      }
    }
    auto args = [&](const char* op) {
      out_ << '(' << op;
      for (std::size_t i = 0; i < t.num_args(); ++i) {
        out_ << ' ';
        print(t.arg(i), false);
      }
      out_ << ')';
    };
    switch (t.op()) {
      case Op::Var: out_ << names_.at(t.var()); return;
      case Op::IntConst: out_ << int_literal(t.value()); return;
      case Op::BoolConst: out_ << (t.value() != 0 ? "true" : "false"); return;
      case Op::Not: return args("not");
      case Op::And: return args("and");
      case Op::Or: return args("or");
      case Op::Imply: return args("=>");
      case Op::Iff: return args("=");
      case Op::Xor: return args("xor");
      case Op::Eq: return args("=");
      case Op::Neq: return args("distinct");
      case Op::Lt: return args("<");
      case Op::Le: return args("<=");
      case Op::Gt: return args(">");
      case Op::Ge: return args(">=");
      case Op::Add: return args("+");
      case Op::Sub: return args("-");
      case Op::Mul: return args("*");
      case Op::Div: return args("div");  // Euclidean, as precis' `/`
      case Op::Mod: return args("mod");
      case Op::Rem: {  // as smt/cvc5_solver.hpp: ite(b >= 0, mod(a, b), -mod(a, b))
        out_ << "(ite (>= ";
        print(t.arg(1), false);
        out_ << " 0) ";
        for (int neg = 0; neg < 2; ++neg) {
          out_ << (neg ? " (- (mod " : "(mod ");
          print(t.arg(0), false);
          out_ << ' ';
          print(t.arg(1), false);
          out_ << (neg ? "))" : ")");
        }
        out_ << ')';
        return;
      }
      case Op::Neg: return args("-");
      case Op::Ite: return args("ite");
      case Op::Select: return args("select");
      case Op::Store: return args("store");
      case Op::ConstArray:
        out_ << "((as const (Array Int Int)) ";
        print(t.arg(0), false);
        out_ << ')';
        return;
      case Op::BitAnd:  // cvc5's (_ iand k) and pow2 are not in the CHC-COMP language
      case Op::Pow2:
      case Op::FpConst:  // nor is floating point (CHC-COMP's tracks are LIA, LRA, arrays)
      case Op::FpAdd:
      case Op::FpSub:
      case Op::FpMul:
      case Op::FpDiv:
      case Op::FpNeg:
      case Op::FpAbs:
      case Op::FpSqrt:
      case Op::FpRound:
      case Op::FpEq:
      case Op::FpLt:
      case Op::FpLe:
      case Op::FpIsNan:
      case Op::FpIsInf:
      case Op::FpIsZero:
      case Op::FpIsSubnormal:
      case Op::FpIsNormal:
      case Op::FpIsNeg:
      case Op::FpToFp:
      case Op::IntToFp:
      case Op::FpToInt: break;
    }
    throw chc_error(std::string("write_chc: operator '") + ExprManager::op_name(t.op()) +
                    "' has no exact SMT-LIB counterpart");
  }

  std::ostream& out_;
  const Cfa& cfa_;
  const ChcOptions& opts_;
  SsaVars ssa_;
  std::vector<std::vector<VarId>> live_;
  std::vector<std::string> pred_name_;
  std::vector<std::vector<VarId>> args_;
  std::vector<std::uint32_t> index_;
  std::unordered_map<VarId, std::string> names_;
  std::unordered_map<Term, std::string, TermHash> shared_name_;
  std::vector<Term> shared_order_;
  std::size_t clauses_ = 0;
};

}  // namespace chc_detail

// Writes `cfa` as CHCs in the CHC-COMP format (see the top of this file): sat iff the
// error location is unreachable. Throws chc_error for a term it cannot write exactly.
inline void write_chc(std::ostream& out, const Cfa& cfa, const ChcOptions& opts = {}) {
  chc_detail::ChcWriter(out, cfa, opts).write();
}

}  // namespace precis
