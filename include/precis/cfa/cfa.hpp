#pragma once
// Control-flow automata: the ControlFlowAutomaton concept and the default automaton
// on boost::adjacency_list.
//
// A CFA is a directed graph whose vertices are program locations and whose edges carry
// an Operation. Algorithms see a CFA only through the concept: the Boost.Graph
// incidence interface of `graph()` plus the edge-operation map `operation(e)` and the
// distinguished locations.

#include <boost/graph/adjacency_list.hpp>

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/expr/term.hpp"

namespace precis {

struct LocationInfo {
  std::string name;
  std::uint32_t function = 0;  // index into Cfa::functions()
};

struct EdgeInfo {
  Operation op;
  std::uint32_t line = 0;  // source line of the statement, 0 if unknown
};

using CfaGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, LocationInfo, EdgeInfo>;
using Loc = boost::graph_traits<CfaGraph>::vertex_descriptor;
using CfaEdge = boost::graph_traits<CfaGraph>::edge_descriptor;

// A CFA edge as transfer relations see it.
struct EdgeRef {
  CfaEdge edge;
  Loc source;
  Loc target;
  const Operation* op;
  [[nodiscard]] const Operation& operation() const { return *op; }
};

// What every algorithm needs of a CFA.
template <class C>
concept ControlFlowAutomaton = requires(const C& c, typename C::location l, typename C::edge e) {
  typename C::graph_type;
  { c.graph() } -> std::convertible_to<const typename C::graph_type&>;
  { c.initial_location() } -> std::convertible_to<typename C::location>;
  { c.error_location() } -> std::convertible_to<std::optional<typename C::location>>;
  { c.operation(e) } -> std::convertible_to<const Operation&>;
  { c.source(e) } -> std::convertible_to<typename C::location>;
  { c.target(e) } -> std::convertible_to<typename C::location>;
  { c.num_locations() } -> std::convertible_to<std::size_t>;
  { c.exprs() } -> std::convertible_to<const ExprManager&>;
  out_edges(l, c.graph());
  in_edges(l, c.graph());
};

class Cfa {
 public:
  using graph_type = CfaGraph;
  using location = Loc;
  using edge = CfaEdge;

  explicit Cfa(std::shared_ptr<ExprManager> em = std::make_shared<ExprManager>())
      : em_(std::move(em)) {
    functions_.emplace_back("main");
  }

  // ---- structure ---------------------------------------------------------------------
  Loc add_location(std::string name, std::uint32_t function = 0) {
    return boost::add_vertex(LocationInfo{std::move(name), function}, g_);
  }
  CfaEdge add_edge(Loc from, Loc to, Operation op, std::uint32_t line = 0) {
    return boost::add_edge(from, to, EdgeInfo{std::move(op), line}, g_).first;
  }
  std::uint32_t add_function(std::string name) {
    functions_.push_back(std::move(name));
    return static_cast<std::uint32_t>(functions_.size() - 1);
  }

  void set_initial(Loc l) { init_ = l; }
  void set_error(std::optional<Loc> l) { error_ = l; }
  void set_final(std::optional<Loc> l) { final_ = l; }

  // ---- queries -----------------------------------------------------------------------
  [[nodiscard]] const graph_type& graph() const noexcept { return g_; }
  [[nodiscard]] Loc initial_location() const noexcept { return init_; }
  [[nodiscard]] std::optional<Loc> error_location() const noexcept { return error_; }
  [[nodiscard]] std::optional<Loc> final_location() const noexcept { return final_; }
  [[nodiscard]] const Operation& operation(CfaEdge e) const { return g_[e].op; }
  [[nodiscard]] std::uint32_t line(CfaEdge e) const { return g_[e].line; }
  [[nodiscard]] EdgeRef ref(CfaEdge e) const { return EdgeRef{e, source(e), target(e), &g_[e].op}; }
  [[nodiscard]] Loc source(CfaEdge e) const { return boost::source(e, g_); }
  [[nodiscard]] Loc target(CfaEdge e) const { return boost::target(e, g_); }
  [[nodiscard]] std::size_t num_locations() const noexcept { return boost::num_vertices(g_); }
  [[nodiscard]] std::size_t num_edges() const noexcept { return boost::num_edges(g_); }
  [[nodiscard]] const std::string& name(Loc l) const { return g_[l].name; }
  [[nodiscard]] std::uint32_t function_of(Loc l) const { return g_[l].function; }
  [[nodiscard]] const std::vector<std::string>& functions() const noexcept { return functions_; }
  [[nodiscard]] auto out_edges(Loc l) const {
    return boost::make_iterator_range(boost::out_edges(l, g_));
  }
  [[nodiscard]] auto in_edges(Loc l) const {
    return boost::make_iterator_range(boost::in_edges(l, g_));
  }
  [[nodiscard]] auto locations() const { return boost::make_iterator_range(boost::vertices(g_)); }
  [[nodiscard]] auto edges() const { return boost::make_iterator_range(boost::edges(g_)); }

  [[nodiscard]] ExprManager& exprs() noexcept { return *em_; }
  [[nodiscard]] const ExprManager& exprs() const noexcept { return *em_; }
  [[nodiscard]] const std::shared_ptr<ExprManager>& expr_manager() const noexcept { return em_; }
  [[nodiscard]] const std::vector<Variable>& variables() const noexcept { return em_->variables(); }

 private:
  std::shared_ptr<ExprManager> em_;
  graph_type g_;
  Loc init_ = 0;
  std::optional<Loc> error_;
  std::optional<Loc> final_;
  std::vector<std::string> functions_;
};

static_assert(ControlFlowAutomaton<Cfa>);

}  // namespace precis
