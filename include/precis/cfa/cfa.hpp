#pragma once
// Control-flow automata: the ControlFlowAutomaton concept and the default automaton
// on boost::adjacency_list.
//
// A CFA is a directed graph whose vertices are program locations and whose edges carry
// an Operation. Algorithms see a CFA only through the concept: the Boost.Graph
// incidence interface of `graph()` plus the edge-operation map `operation(e)` and the
// distinguished locations.

#include <boost/graph/adjacency_list.hpp>

#include <algorithm>
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
  // A loop head of the source program (where a witness's loop invariant holds): the
  // position of the loop statement's first token; line 0 if the location is none.
  std::uint32_t loop_line = 0;
  std::uint32_t loop_column = 0;
  // The inlined instance of the function the location belongs to: 1 + an index into
  // Cfa::instances() (a C front end variable `f#2::x` belongs to instance "f#2"); 0 if
  // unknown. Witnesses name variables as the source does only within their instance.
  std::uint32_t instance = 0;
};

struct EdgeInfo {
  Operation op;
  std::uint32_t line = 0;    // source line of the statement, 0 if unknown
  std::uint32_t column = 0;  // its source column (1-based), 0 if unknown
  // For a havoc that chooses the return value of a nondeterministic function (a call of
  // __VERIFIER_nondet_int, ...): 1 + the index of that function's name in
  // Cfa::nondet_functions(); 0 otherwise. Witnesses report such values as \result.
  std::uint32_t nondet = 0;
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
  CfaEdge add_edge(Loc from, Loc to, Operation op, std::uint32_t line = 0,
                   std::uint32_t column = 0) {
    return boost::add_edge(from, to, EdgeInfo{std::move(op), line, column, 0}, g_).first;
  }
  // An edge with all its annotations (passes that rebuild a CFA keep them).
  CfaEdge add_edge(Loc from, Loc to, EdgeInfo info) {
    return boost::add_edge(from, to, std::move(info), g_).first;
  }
  // A location with all its annotations.
  Loc add_location(LocationInfo info) { return boost::add_vertex(std::move(info), g_); }
  // Marks l as the head of the source loop whose statement starts at line:column.
  void set_loop_head(Loc l, std::uint32_t line, std::uint32_t column) {
    g_[l].loop_line = line;
    g_[l].loop_column = column;
  }
  // Marks a havoc edge as choosing the return value of the nondeterministic `function`.
  void set_nondet(CfaEdge e, const std::string& function) {
    auto it = std::find(nondet_functions_.begin(), nondet_functions_.end(), function);
    if (it == nondet_functions_.end()) it = nondet_functions_.insert(it, function);
    g_[e].nondet = static_cast<std::uint32_t>(it - nondet_functions_.begin()) + 1;
  }
  // Registers an inlined function instance's variable prefix; returns its tag.
  std::uint32_t add_instance(std::string prefix) {
    instances_.push_back(std::move(prefix));
    return static_cast<std::uint32_t>(instances_.size());
  }
  void set_instance(Loc l, std::uint32_t tag) { g_[l].instance = tag; }
  void set_instances(std::vector<std::string> is) { instances_ = std::move(is); }
  [[nodiscard]] const std::vector<std::string>& instances() const noexcept { return instances_; }
  // The variable prefix of l's function instance, or nullptr if unknown.
  [[nodiscard]] const std::string* instance_of(Loc l) const {
    const std::uint32_t k = g_[l].instance;
    return k == 0 || k > instances_.size() ? nullptr : &instances_[k - 1];
  }
  // Annotations as stored (for passes that copy edges into a new CFA with the same
  // nondet_functions()).
  void set_nondet_functions(std::vector<std::string> fs) { nondet_functions_ = std::move(fs); }
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
  [[nodiscard]] std::uint32_t column(CfaEdge e) const { return g_[e].column; }
  [[nodiscard]] const EdgeInfo& edge_info(CfaEdge e) const { return g_[e]; }
  [[nodiscard]] const LocationInfo& location_info(Loc l) const { return g_[l]; }
  // The nondeterministic function whose value the edge chooses, or nullptr.
  [[nodiscard]] const std::string* nondet_function(CfaEdge e) const {
    const std::uint32_t k = g_[e].nondet;
    return k == 0 || k > nondet_functions_.size() ? nullptr : &nondet_functions_[k - 1];
  }
  [[nodiscard]] const std::vector<std::string>& nondet_functions() const noexcept {
    return nondet_functions_;
  }
  [[nodiscard]] bool is_loop_head(Loc l) const { return g_[l].loop_line != 0; }
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
  std::vector<std::string> nondet_functions_;
  std::vector<std::string> instances_;
};

static_assert(ControlFlowAutomaton<Cfa>);

}  // namespace precis
