// The C front end's recursive functions as procedures with an explicit stack
// (TranslateOptions::recursion; semantics: docs/c-frontend.md, "Recursion").
//
// Inlining (calls.cpp) copies a function's body at every call, so recursion is cut at a
// depth by a bound marker. Here each function of a cycle of the call graph is emitted
// once, as a procedure (translator.hpp, struct Procedure): a call assigns the parameters
// and the call site's number to `site` and jumps to the entry; the exit returns to the
// call site `site` names. A call from a function of the same cycle saves the caller's
// variables first (caller-saves): each variable of its activations has an array of the
// array sort, indexed by the caller's stack pointer `sp`; the call pushes, the return
// pops. So the CFA is the program's exact semantics at any depth, with the stack in
// arrays: the concrete interpreter and random simulation run fib(25) to its end, and
// the complete-run certificate (certify/complete_run.hpp) checks it (a cell a push
// wrote has a value).
//
// A procedure's code may not dereference a pointer or allocate: a pointer into another
// activation's locals would need an address per activation. Those, struct parameters and
// local arrays of the array sort raise StackRefused, and translate_source keeps the
// inlined translation.

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "translator.hpp"

namespace precis::c::detail {

void Translator::refuse_in_procedure(clang::SourceLocation loc, const std::string& what) const {
  throw StackRefused{position_of(sm_, loc, file_), what};
}

// The cycles of the call graph among the functions the entry reaches (Boost.Graph's
// strong components): a function is recursive if its component has two functions or it
// calls itself.
void Translator::find_recursive_functions() {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  std::unordered_map<const clang::FunctionDecl*, std::size_t> id;
  for (const clang::FunctionDecl* fd : reachable_fns_) id.emplace(fd, id.size());
  Graph g(id.size());
  std::vector<bool> self(id.size(), false);
  for (const clang::FunctionDecl* fd : reachable_fns_) {
    const std::size_t from = id.at(fd);
    std::vector<const clang::Stmt*> todo{fd->getBody()};
    while (!todo.empty()) {
      const clang::Stmt* s = todo.back();
      todo.pop_back();
      if (s == nullptr) continue;
      if (const auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(s))
        if (const auto* callee = llvm::dyn_cast<clang::FunctionDecl>(dr->getDecl()))
          if (const clang::FunctionDecl* def = callee->getDefinition(); def && id.contains(def)) {
            const std::size_t to = id.at(def);
            boost::add_edge(from, to, g);
            if (to == from) self[from] = true;
          }
      for (const clang::Stmt* c : s->children()) todo.push_back(c);
    }
  }
  std::vector<std::size_t> component(id.size());
  const std::size_t n = boost::strong_components(g, component.data());
  std::vector<std::size_t> size(n, 0);
  for (std::size_t c : component) ++size[c];
  for (const auto& [fd, i] : id)
    if (size[component[i]] > 1 || self[i]) cycle_of_.emplace(fd, component[i]);
}

// The procedure of a recursive function, made with those of its whole cycle at the first
// call of one of them (an outside call resets the stack pointer of each); the bodies
// are emitted after the entry function's (emit_procedure).
Procedure& Translator::procedure(const clang::FunctionDecl* fn) {
  if (auto it = procedure_of_.find(fn); it != procedure_of_.end()) return *it->second;
  const std::size_t cycle = cycle_of_.at(fn);
  for (const clang::FunctionDecl* member : reachable_fns_) {
    const auto c = cycle_of_.find(member);
    if (c == cycle_of_.end() || c->second != cycle) continue;
    Procedure& p = procedures_.emplace_back();
    p.fn = member;
    p.cycle = cycle;
    const std::string name = member->getNameAsString();
    p.index = function_index(name);
    p.prefix = name;
    p.instance = b_.instance(name);
    p.entry = b_.fresh_location(p.index);
    p.exit = b_.fresh_location(p.index);
    b_.instance(p.entry, p.instance);
    b_.instance(p.exit, p.instance);
    Procedure* const outer = owner_;
    owner_ = &p;  // the parameters and `site` belong to its activations
    for (const clang::ParmVarDecl* prm : member->parameters()) {
      if (is_struct(prm->getType())) refuse_in_procedure(prm->getLocation(), "a struct parameter");
      const IntType t = int_type(prm->getType(), prm->getLocation());
      p.params.push_back(Procedure::Param{
          prm,
          new_var(name + "::" + prm->getNameAsString() + pointer_suffix(prm->getType()), p.index,
                  t.sort()),
          t});
    }
    p.site = new_var(name + "::__site", p.index);
    owner_ = outer;
    p.sp = new_var(name + "::__sp", p.index);
    const clang::QualType rq = member->getReturnType();
    if (!rq->isVoidType()) {
      p.ret_type = int_type(rq, member->getLocation());
      p.ret = new_var(name + "::__retval", p.index, p.ret_type.sort());
    }
    procedure_of_.emplace(member, &p);
  }
  return *procedure_of_.at(fn);
}

Term Translator::procedure_call(const clang::FunctionDecl* def, const clang::CallExpr* ce,
                                bool need_value) {
  opt_.deadline.check();
  check_arguments(def, ce);  // calls.cpp
  Procedure& p = procedure(def);
  // The arguments, evaluated in the caller left to right, into temporaries of the
  // parameters' types (a parameter of the caller may be an argument: f(n - 1)).
  Procedure::Call c;
  for (unsigned i = 0; i < ce->getNumArgs(); ++i) {
    const VarId t = new_temp();
    store_argument(t, p.params[i].type, ce->getArg(i));  // calls.cpp
    c.args.push_back(t);
  }
  at(ce->getExprLoc());
  c.line = line_;
  c.column = col_;
  const auto site = static_cast<std::int64_t>(p.calls.size());
  c.code = emitting_;
  if (emitting_ != nullptr && emitting_->cycle == p.cycle) {
    // From the same cycle: the pushes and the pops are added when the caller's variables
    // are all known (link_procedures).
    c.caller = emitting_;
    c.before = cur_;
    c.after = cur_ = fresh();
  } else {
    // From outside the cycle no activation of it is live: the stacks start empty.
    for (const Procedure& q : procedures_)
      if (q.cycle == p.cycle) emit(Assign{q.sp, num(0)});
    for (std::size_t i = 0; i < c.args.size(); ++i)
      emit(Assign{p.params[i].var, em_.var(c.args[i])});
    emit(Assign{p.site, num(site)});
    c.before = cur_;
    jump(p.entry);
    c.after = cur_ = fresh();
  }
  p.calls.push_back(std::move(c));
  if (!p.ret || !need_value) return num(0);
  return snapshot(em_.var(*p.ret));  // the next call of p overwrites its return value
}

// Emits a procedure's body once, from its entry to its exit.
void Translator::emit_procedure(Procedure& p) {
  Frame f;
  f.fn = p.fn;
  f.index = p.index;
  f.prefix = p.prefix;
  f.instance = p.instance;
  f.exit = p.exit;
  f.ret = p.ret;
  f.ret_type = p.ret_type;
  frames_.push_back(std::move(f));
  emitting_ = owner_ = &p;
  for (const Procedure::Param& prm : p.params) {
    frames_.back().locals[prm.decl] = prm.var;
    register_scalar(prm.decl, prm.var, frames_.back().objects, frames_.back().addresses);
  }
  predeclare_objects(p.fn->getBody());  // pointers.cpp
  at(p.fn->getBody()->getBeginLoc());
  cur_ = fresh();  // only calls lead to the entry (a loop at the body's start does not)
  edge(p.entry, cur_, Skip{}, line_, col_);
  stmt(p.fn->getBody());
  if (p.ret) emit(Havoc{*p.ret});  // falling off the end: the value is indeterminate
  jump(p.exit);
  frames_.pop_back();
  emitting_ = owner_ = nullptr;
  for (VarId v : p.owned)
    if (em_.variable(v).type != Type::Int)
      refuse_in_procedure(
          p.fn->getLocation(),
          std::string(is_float(em_.variable(v).type) ? "a floating-point local variable"
                                                     : "a local array of the array sort") +
              " ('" + em_.variable(v).name + "')");
}

void Translator::chain(Loc from, Loc to, const std::vector<Operation>& ops, std::uint32_t index,
                       std::uint32_t instance, std::uint32_t line, std::uint32_t column) {
  Loc at = from;
  for (const Operation& op : ops) {
    const Loc next = b_.fresh_location(index);
    b_.instance(next, instance);
    edge(at, next, op, line, column);
    at = next;
  }
  edge(at, to, Skip{}, line, column);
}

// Which of q's variables are live where each call from q's code returns (`after`): a
// backward analysis over q's code, from its exit (where `site` is read) to its entry,
// stepping over each call (before -> after, reading its arguments) instead of into the
// callee. Only those are pushed and popped: fib(n) keeps n and the first call's value.
std::unordered_map<Loc, std::vector<VarId>> Translator::live_after_calls(const Procedure& q) {
  const Cfa& cfa = b_.peek();
  std::unordered_map<VarId, std::size_t> pos;
  for (VarId v : q.owned) pos.emplace(v, pos.size());
  const std::size_t words = (q.owned.size() + 63) / 64;
  using Bits = std::vector<std::uint64_t>;
  auto set = [](Bits& b, std::size_t i) { b[i / 64] |= std::uint64_t{1} << (i % 64); };
  auto test = [](const Bits& b, std::size_t i) { return ((b[i / 64] >> (i % 64)) & 1U) != 0; };
  auto add_vars = [&](Bits& b, Term t) {
    std::vector<VarId> vs;
    collect_vars(t, vs);
    for (VarId v : vs)
      if (const auto it = pos.find(v); it != pos.end()) set(b, it->second);
  };
  std::unordered_set<Loc> entries;
  for (const Procedure& p : procedures_) entries.insert(p.entry);
  // A step of q's code: an edge (its uses and its definition), or a call stepped over.
  struct Step {
    Loc from, to;
    Bits use;
    std::optional<std::size_t> def;
  };
  std::vector<Step> steps;
  std::unordered_map<Loc, std::vector<std::size_t>> into;  // steps ending at a location
  std::unordered_map<Loc, std::vector<std::pair<Loc, const Procedure::Call*>>> over;
  for (const Procedure& p : procedures_)
    for (const Procedure::Call& c : p.calls)
      if (c.code == &q) over[c.before].emplace_back(c.after, &c);
  std::unordered_set<Loc> seen{q.entry};
  std::vector<Loc> todo{q.entry};
  while (!todo.empty()) {
    const Loc l = todo.back();
    todo.pop_back();
    auto reach = [&](Loc to) {
      if (seen.insert(to).second) todo.push_back(to);
    };
    for (auto e : cfa.out_edges(l)) {
      const Loc to = boost::target(e, cfa.graph());
      if (entries.contains(to)) continue;  // a call: stepped over below
      Step s{l, to, Bits(words, 0), std::nullopt};
      std::visit(overloaded{[](const Skip&) {}, [&](const Assume& a) { add_vars(s.use, a.cond); },
                            [&](const Assign& a) {
                              add_vars(s.use, a.value);
                              if (const auto it = pos.find(a.var); it != pos.end())
                                s.def = it->second;
                            },
                            [&](const Havoc& h) {
                              if (const auto it = pos.find(h.var); it != pos.end())
                                s.def = it->second;
                            }},
                 cfa.operation(e));
      into[to].push_back(steps.size());
      steps.push_back(std::move(s));
      reach(to);
    }
    if (const auto it = over.find(l); it != over.end())
      for (const auto& [after, call] : it->second) {
        Step s{l, after, Bits(words, 0), std::nullopt};
        for (VarId a : call->args)
          if (const auto p = pos.find(a); p != pos.end()) set(s.use, p->second);
        into[after].push_back(steps.size());
        steps.push_back(std::move(s));
        reach(after);
      }
  }
  std::unordered_map<Loc, Bits> live;
  for (Loc l : seen) live.emplace(l, Bits(words, 0));
  if (const auto it = pos.find(q.site); it != pos.end() && seen.contains(q.exit))
    set(live.at(q.exit), it->second);
  std::vector<Loc> work(seen.begin(), seen.end());
  std::unordered_set<Loc> queued(seen.begin(), seen.end());
  std::size_t rounds = 0;
  while (!work.empty()) {
    if ((++rounds & 1023U) == 0) opt_.deadline.check();
    const Loc l = work.back();
    work.pop_back();
    queued.erase(l);
    const auto in = into.find(l);
    if (in == into.end()) continue;
    for (std::size_t k : in->second) {
      const Step& s = steps[k];
      Bits add = live.at(l);
      if (s.def) add[*s.def / 64] &= ~(std::uint64_t{1} << (*s.def % 64));
      Bits& from = live.at(s.from);
      bool grew = false;
      for (std::size_t w = 0; w < words; ++w) {
        const std::uint64_t next = from[w] | add[w] | s.use[w];
        grew = grew || next != from[w];
        from[w] = next;
      }
      if (grew && queued.insert(s.from).second) work.push_back(s.from);
    }
  }
  std::unordered_map<Loc, std::vector<VarId>> out;
  for (const auto& [before, calls] : over)
    for (const auto& [after, call] : calls) {
      std::vector<VarId>& vs = out[after];
      if (!seen.contains(after)) continue;  // (the call is in unreachable code)
      const Bits& b = live.at(after);
      for (std::size_t i = 0; i < q.owned.size(); ++i)
        if (test(b, i)) vs.push_back(q.owned[i]);
    }
  return out;
}

// The returns of every call, and the pushes and pops of the calls within a cycle.
void Translator::link_procedures() {
  std::unordered_map<const Procedure*, std::unordered_map<Loc, std::vector<VarId>>> live;
  for (Procedure& q : procedures_) live.emplace(&q, live_after_calls(q));
  for (Procedure& p : procedures_) {
    for (std::size_t k = 0; k < p.calls.size(); ++k) {
      const Procedure::Call& c = p.calls[k];
      const auto number = num(static_cast<std::int64_t>(k));
      std::vector<Operation> back{Assume{em_.eq(em_.var(p.site), number)}};
      if (c.caller == nullptr) {
        chain(p.exit, c.after, back, p.index, p.instance, c.line, c.column);
        continue;
      }
      Procedure& q = *c.caller;
      const auto& at_q = live.at(&q);
      const auto found = at_q.find(c.after);
      const std::vector<VarId> saved = found != at_q.end() ? found->second : std::vector<VarId>{};
      const Term sp = em_.var(q.sp);
      std::vector<Operation> call;
      for (VarId v : saved) {
        auto it = q.saves.find(v);
        if (it == q.saves.end())
          it = q.saves
                   .emplace(v, new_var(q.prefix + "::__stack_" + em_.variable(v).name, q.index,
                                       Type::Array))
                   .first;
        call.emplace_back(Assign{it->second, em_.store(em_.var(it->second), sp, em_.var(v))});
        back.emplace_back(Assign{v, em_.select(em_.var(it->second), sp)});
      }
      call.emplace_back(Assign{q.sp, em_.add(sp, num(1))});
      back.insert(back.begin() + 1, Assign{q.sp, em_.sub(sp, num(1))});
      for (std::size_t i = 0; i < c.args.size(); ++i)
        call.emplace_back(Assign{p.params[i].var, em_.var(c.args[i])});
      call.emplace_back(Assign{p.site, number});
      chain(c.before, p.entry, call, q.index, q.instance, c.line, c.column);
      chain(p.exit, c.after, back, q.index, q.instance, c.line, c.column);
    }
  }
}

}  // namespace precis::c::detail
