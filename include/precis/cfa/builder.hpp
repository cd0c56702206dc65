#pragma once
// CfaBuilder: the convenient way for readers, front ends and tests to make a Cfa.
//
//   precis::CfaBuilder b;
//   auto x = b.int_var("x");
//   auto& e = b.exprs();
//   b.edge("L0", "L1", precis::Assign{x, e.int_val(0)});
//   b.initial("L0"); b.error("ERR");
//   precis::Cfa cfa = std::move(b).build();
//
// Locations are created on first mention by name. `chain` turns a statement list into
// a chain of edges through fresh locations, as the .cfa format prescribes.

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"

namespace precis {

class CfaBuilder {
 public:
  CfaBuilder() = default;
  explicit CfaBuilder(std::shared_ptr<ExprManager> em) : cfa_(std::move(em)) {}

  ExprManager& exprs() { return cfa_.exprs(); }

  VarId var(std::string name, Type type, std::uint32_t scope = global_scope) {
    return cfa_.exprs().declare(std::move(name), type, scope);
  }
  VarId int_var(std::string name) { return var(std::move(name), Type::Int); }
  VarId bool_var(std::string name) { return var(std::move(name), Type::Bool); }
  Term ref(VarId v) { return cfa_.exprs().var(v); }

  std::uint32_t function(std::string name) {
    if (name == "main") return 0;
    return cfa_.add_function(std::move(name));
  }

  // The location with this name, created on first use.
  Loc location(const std::string& name, std::uint32_t function = 0) {
    auto it = by_name_.find(name);
    if (it != by_name_.end()) return it->second;
    Loc l = cfa_.add_location(name, function);
    by_name_.emplace(name, l);
    return l;
  }
  [[nodiscard]] bool has_location(const std::string& name) const { return by_name_.contains(name); }
  // A fresh, anonymous location (named "__N", as the .cfa format names chain locations).
  Loc fresh_location(std::uint32_t function = 0) {
    std::string name;
    do {
      name = "__" + std::to_string(fresh_++);
    } while (by_name_.contains(name));
    return location(name, function);
  }

  CfaEdge edge(Loc from, Loc to, Operation op, std::uint32_t line = 0, std::uint32_t column = 0) {
    return cfa_.add_edge(from, to, std::move(op), line, column);
  }
  // Source annotations for witnesses (cfa/cfa.hpp).
  void loop_head(Loc l, std::uint32_t line, std::uint32_t column) {
    cfa_.set_loop_head(l, line, column);
  }
  void nondet(CfaEdge e, const std::string& function) { cfa_.set_nondet(e, function); }
  std::uint32_t instance(std::string prefix) { return cfa_.add_instance(std::move(prefix)); }
  void instance(Loc l, std::uint32_t tag) { cfa_.set_instance(l, tag); }
  CfaEdge edge(const std::string& from, const std::string& to, Operation op,
               std::uint32_t line = 0) {
    return edge(location(from), location(to), std::move(op), line);
  }
  // k operations become k edges through k-1 fresh locations; none becomes one skip.
  void chain(Loc from, Loc to, const std::vector<Operation>& ops, std::uint32_t line = 0) {
    if (ops.empty()) {
      edge(from, to, Skip{}, line);
      return;
    }
    Loc cur = from;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      Loc next = i + 1 == ops.size() ? to : fresh_location(cfa_.function_of(from));
      edge(cur, next, ops[i], line);
      cur = next;
    }
  }

  void initial(Loc l) { init_ = l; }
  void initial(const std::string& name) { initial(location(name)); }
  void error(Loc l) { cfa_.set_error(l); }
  void error(const std::string& name) { error(location(name)); }
  void final_(Loc l) { cfa_.set_final(l); }
  void final_(const std::string& name) { final_(location(name)); }

  [[nodiscard]] const Cfa& peek() const { return cfa_; }

  // Checks the invariants every algorithm relies on and hands the CFA over.
  // Throws std::invalid_argument when they do not hold.
  Cfa build() && {
    if (!init_) throw std::invalid_argument("the CFA has no initial location");
    cfa_.set_initial(*init_);
    auto no_out = [&](std::optional<Loc> l, const char* what) {
      if (l && boost::out_degree(*l, cfa_.graph()) != 0)
        throw std::invalid_argument(std::string("the ") + what + " location '" + cfa_.name(*l) +
                                    "' has outgoing edges");
    };
    no_out(cfa_.error_location(), "error");
    no_out(cfa_.final_location(), "final");
    if (cfa_.error_location() && *cfa_.error_location() == *init_)
      throw std::invalid_argument("the initial location is also the error location");
    if (cfa_.final_location() && cfa_.error_location() &&
        *cfa_.final_location() == *cfa_.error_location())
      throw std::invalid_argument("the final location is also the error location");
    return std::move(cfa_);
  }

 private:
  Cfa cfa_;
  std::unordered_map<std::string, Loc> by_name_;
  std::optional<Loc> init_;
  std::size_t fresh_ = 0;
};

}  // namespace precis
