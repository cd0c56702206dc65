#pragma once
// CFA edge operations: assume, assignment, havoc and skip over `expr` terms.

#include <optional>
#include <string>
#include <variant>

#include "precis/expr/printer.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct Skip {
  friend bool operator==(const Skip&, const Skip&) = default;
};
struct Assume {
  Term cond;
  friend bool operator==(const Assume&, const Assume&) = default;
};
struct Assign {
  VarId var;
  Term value;
  friend bool operator==(const Assign&, const Assign&) = default;
};
struct Havoc {
  VarId var;
  friend bool operator==(const Havoc&, const Havoc&) = default;
};

using Operation = std::variant<Skip, Assume, Assign, Havoc>;

template <class... Fs>
struct overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
overloaded(Fs...) -> overloaded<Fs...>;

// The operation in .cfa statement syntax ("x := e", "assume e", "havoc x", "skip").
inline std::string to_string(const Operation& op, const ExprManager& em) {
  return std::visit(overloaded{
                        [](const Skip&) { return std::string("skip"); },
                        [&](const Assume& a) { return "assume " + to_string(a.cond, em); },
                        [&](const Assign& a) {
                          return em.variable(a.var).name + " := " + to_string(a.value, em);
                        },
                        [&](const Havoc& h) { return "havoc " + em.variable(h.var).name; },
                    },
                    op);
}

// Variables the operation writes (at most one).
inline std::optional<VarId> written_var(const Operation& op) {
  if (auto* a = std::get_if<Assign>(&op)) return a->var;
  if (auto* h = std::get_if<Havoc>(&op)) return h->var;
  return std::nullopt;
}

}  // namespace precis
