#pragma once
// Synergy (synergy paper, sections 3-3.3): predicate abstraction that
// is fast (Cartesian) by default and precise (Boolean, all-solutions: the paper's
// SATQE) only on the edges and predicate clusters where refinement asked for it.
//
//   SynergyPrecision: the predicates per location (a LocalPrecision<PredicateSet>, as
//     PredCart has) plus, per CFA edge, a list of predicate clusters (the paper's
//     localized constraints T_P of Alg. 2, one list per abstract transition relation).
//   SynergyAnalysis: the post of s along edge e to location l is
//       post_cart(s, e, pi(l))  meet  /\_{C in clusters(e)} post_bool(s, e, C),
//     bottom if any part is bottom. With no clusters it is exactly PredCart's post.
//
// Edges are keyed by EdgeIndex: the position of the edge in cfa.edges() (insertion
// order), found from an EdgeRef through the address of its operation (stable while
// the CFA lives). The precise posts are cached by the abstractor per (pre-state,
// operation, cluster): the operation is the edge's, so this is the cache per (edge,
// cluster, pre-state) of Alg. 2's localized abstraction (edges with equal operations share it).
//
// For CEGAR's pivot (algorithms/cegar.hpp compares next.at(l) with the precision a node
// was created with) at(l) is a view of the predicates at l and the clusters of the
// edges entering l: a cluster added to edge (l', l) re-explores from the node before l.
// Clusters ignore the granularity: they belong to their edge only (Alg. 2).

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/local_precision.hpp"
#include "precis/domains/predicate/predicate_abstractor.hpp"
#include "precis/domains/predicate/predicate_domain.hpp"
#include "precis/domains/predicate/predicate_set.hpp"
#include "precis/domains/predicate/predicate_state.hpp"

namespace precis {

using EdgeKey = std::uint32_t;

// The CFA's edges numbered 0..num_edges()-1 in the order of cfa.edges().
class EdgeIndex {
 public:
  EdgeIndex() = default;
  explicit EdgeIndex(const Cfa& cfa) : entering_(cfa.num_locations()) {
    for (CfaEdge e : cfa.edges()) {
      const auto k = static_cast<EdgeKey>(source_.size());
      const EdgeRef r = cfa.ref(e);
      by_op_.emplace(r.op, k);
      source_.push_back(r.source);
      target_.push_back(r.target);
      entering_[r.target].push_back(k);
    }
  }

  [[nodiscard]] std::size_t size() const noexcept { return source_.size(); }
  // The key of an edge of this CFA (std::out_of_range for an edge of another CFA).
  [[nodiscard]] EdgeKey key(const EdgeRef& e) const {
    auto it = by_op_.find(e.op);
    if (it == by_op_.end()) throw std::out_of_range("EdgeIndex: the edge is not of this CFA");
    return it->second;
  }
  [[nodiscard]] Loc source(EdgeKey k) const { return source_.at(k); }
  [[nodiscard]] Loc target(EdgeKey k) const { return target_.at(k); }
  // The keys of the edges entering l (none for a location this index does not know).
  [[nodiscard]] const std::vector<EdgeKey>& entering(Loc l) const {
    static const std::vector<EdgeKey> none;
    return l < entering_.size() ? entering_[l] : none;
  }

 private:
  std::unordered_map<const Operation*, EdgeKey> by_op_;
  std::vector<Loc> source_, target_;
  std::vector<std::vector<EdgeKey>> entering_;
};

// What a synergy refinement adds at a path position: predicates at the location (with
// the precision's granularity) and clusters on edges (the edge's key, any position).
struct SynergyIncrement {
  PredicateSet predicates;
  std::vector<std::pair<EdgeKey, PredicateSet>> clusters;
};

// Clusters per edge, for the statistics of the paper's Table 1.
struct ClusterStats {
  std::size_t edges = 0;              // edges of the CFA
  std::size_t clustered_edges = 0;    // edges with at least one cluster
  std::size_t clusters = 0;           // over all edges
  std::size_t max_per_edge = 0;       // clusters on one edge
  double avg_per_edge = 0;            // clusters / edges
  double avg_per_clustered_edge = 0;  // clusters / clustered_edges
  std::size_t max_cluster_size = 0;   // predicates in one cluster
};

class SynergyPrecision;

// The precision at one location as CEGAR's pivot search sees it (see the header).
struct SynergyLocalView {
  const SynergyPrecision* owner;
  Loc loc;
  [[nodiscard]] bool leq(const SynergyLocalView& o) const;
};

class SynergyPrecision {
 public:
  using Clusters = std::vector<PredicateSet>;

  SynergyPrecision() = default;
  SynergyPrecision(const Cfa& cfa, Granularity g, PredicateSet initial = {})
      : SynergyPrecision(cfa, g, std::make_shared<const EdgeIndex>(cfa), std::move(initial)) {}
  SynergyPrecision(const Cfa& cfa, Granularity g, std::shared_ptr<const EdgeIndex> edges,
                   PredicateSet initial = {})
      : preds_(cfa, g, std::move(initial)), edges_(std::move(edges)) {
    clusters_.resize(edges_->size());
  }

  [[nodiscard]] const LocalPrecision<PredicateSet>& predicates() const noexcept { return preds_; }
  [[nodiscard]] const PredicateSet& predicates(Loc l) const { return preds_.at(l); }
  [[nodiscard]] const Clusters& clusters(EdgeKey k) const {
    static const Clusters none;
    return k < clusters_.size() ? clusters_[k] : none;
  }
  [[nodiscard]] const EdgeIndex& edges() const { return *edges_; }
  [[nodiscard]] const std::shared_ptr<const EdgeIndex>& edge_index() const noexcept {
    return edges_;
  }
  [[nodiscard]] Granularity granularity() const { return preds_.granularity(); }
  [[nodiscard]] SynergyLocalView at(Loc l) const { return SynergyLocalView{this, l}; }

  // Adds the increment's predicates at l (as the granularity prescribes) and its
  // clusters to their edges; returns whether anything changed.
  bool add(Loc l, const SynergyIncrement& inc, const ExprManager& em) {
    bool changed = preds_.add(l, inc.predicates, em);
    for (const auto& [k, c] : inc.clusters) changed |= add_cluster(k, c);
    return changed;
  }
  // A cluster on edge k. Not added if empty or contained in a cluster of k; a cluster
  // of k contained in the new one is dropped (the precise abstraction over a superset
  // implies the one over the subset).
  bool add_cluster(EdgeKey k, const PredicateSet& c) {
    if (k >= clusters_.size()) throw std::out_of_range("SynergyPrecision: no such edge");
    if (c.empty()) return false;
    Clusters& cs = clusters_[k];
    for (const PredicateSet& d : cs)
      if (c.leq(d)) return false;
    std::erase_if(cs, [&](const PredicateSet& d) { return d.leq(c); });
    cs.push_back(c);
    return true;
  }

  [[nodiscard]] bool leq(const SynergyPrecision& o) const {
    if (!preds_.leq(o.preds_)) return false;
    for (std::size_t k = 0; k < clusters_.size(); ++k)
      if (!clusters_leq(clusters_[k], o.clusters(static_cast<EdgeKey>(k)))) return false;
    return true;
  }
  [[nodiscard]] SynergyPrecision join(const SynergyPrecision& o) const {
    SynergyPrecision r = *this;
    r.preds_ = preds_.join(o.preds_);
    for (std::size_t k = 0; k < o.clusters_.size() && k < r.clusters_.size(); ++k)
      for (const PredicateSet& c : o.clusters_[k]) r.add_cluster(static_cast<EdgeKey>(k), c);
    return r;
  }

  // Every cluster of a is contained in a cluster of b.
  static bool clusters_leq(const Clusters& a, const Clusters& b) {
    return std::all_of(a.begin(), a.end(), [&](const PredicateSet& c) {
      return std::any_of(b.begin(), b.end(), [&](const PredicateSet& d) { return c.leq(d); });
    });
  }

  // Predicates over all locations plus predicates over all clusters (CEGAR's
  // precision_size statistic).
  [[nodiscard]] std::size_t total_size() const {
    std::size_t s = preds_.total_size();
    for (const Clusters& cs : clusters_)
      for (const PredicateSet& c : cs) s += c.size();
    return s;
  }

  [[nodiscard]] ClusterStats cluster_stats() const {
    ClusterStats st;
    st.edges = clusters_.size();
    for (const Clusters& cs : clusters_) {
      if (cs.empty()) continue;
      ++st.clustered_edges;
      st.clusters += cs.size();
      st.max_per_edge = std::max(st.max_per_edge, cs.size());
      for (const PredicateSet& c : cs)
        st.max_cluster_size = std::max(st.max_cluster_size, c.size());
    }
    if (st.edges)
      st.avg_per_edge = static_cast<double>(st.clusters) / static_cast<double>(st.edges);
    if (st.clustered_edges)
      st.avg_per_clustered_edge =
          static_cast<double>(st.clusters) / static_cast<double>(st.clustered_edges);
    return st;
  }
  // The cluster statistics as run statistics (Statistics.extra).
  void report(Statistics& st) const {
    const ClusterStats c = cluster_stats();
    st.extra["synergy clustered edges"] = static_cast<double>(c.clustered_edges);
    st.extra["synergy clusters"] = static_cast<double>(c.clusters);
    st.extra["synergy clusters per edge max"] = static_cast<double>(c.max_per_edge);
    st.extra["synergy clusters per edge avg"] = c.avg_per_edge;
    st.extra["synergy clusters per clustered edge avg"] = c.avg_per_clustered_edge;
    st.extra["synergy cluster size max"] = static_cast<double>(c.max_cluster_size);
  }

 private:
  LocalPrecision<PredicateSet> preds_;
  std::shared_ptr<const EdgeIndex> edges_ = std::make_shared<const EdgeIndex>();
  std::vector<Clusters> clusters_;  // by EdgeKey
};

static_assert(Precision<SynergyPrecision>);

inline bool SynergyLocalView::leq(const SynergyLocalView& o) const {
  if (!owner->predicates(loc).leq(o.owner->predicates(o.loc))) return false;
  for (EdgeKey k : owner->edges().entering(loc))
    if (!SynergyPrecision::clusters_leq(owner->clusters(k), o.owner->clusters(k))) return false;
  return true;
}

// The meet of two predicate states: the DNF of the pairwise unions of their cubes,
// contradictory cubes dropped (cube x cube = cube; cube x DNF = the DNF's cubes
// extended by the cube's literals).
inline PredicateState meet_states(const PredicateState& a, const PredicateState& b) {
  if (a.is_bottom() || b.is_bottom()) return PredicateState::bottom();
  if (a.is_top()) return b;
  if (b.is_top()) return a;
  std::vector<Cube> cs;
  cs.reserve(a.cubes().size() * b.cubes().size());
  for (const Cube& ca : a.cubes())
    for (const Cube& cb : b.cubes()) {
      Cube c = ca;
      c.insert(c.end(), cb.begin(), cb.end());
      cs.push_back(std::move(c));  // of_cubes drops the contradictory ones
    }
  return PredicateState::of_cubes(std::move(cs));
}

// The predicate domain of synergy states (DNFs once a cluster contributed): covering is
// syntactic implication (as PredCart's; a sound under-approximation of implication),
// join the Cartesian one; plus meet.
class SynergyDomain : public PredicateDomain {
 public:
  explicit SynergyDomain(std::shared_ptr<PredicateAbstractor> abs = nullptr)
      : PredicateDomain(AbstractionMode::Cartesian, std::move(abs)) {}
  [[nodiscard]] element meet(const element& a, const element& b) const { return meet_states(a, b); }
};

static_assert(AbstractDomain<SynergyDomain>);
static_assert(HasMeet<SynergyDomain>);

// Alg. 3's N_sigma, learned on the fly: unknown (0) until a precise abstraction exceeds
// its time budget (PredicateOptions::boolean_budget_ms, the paper's N_TO); then the size
// of that cluster. From then on, clusters of at least this many predicates get the fast
// (Cartesian) abstraction only, for the rest of the run: SynergyAnalysis skips them and
// the refiner (refine/synergy_refiner.hpp) no longer adds them.
struct SynergyThreshold {
  std::size_t learned = 0;
  [[nodiscard]] bool allows(std::size_t cluster_size) const noexcept {
    return learned == 0 || cluster_size < learned;
  }
};

struct SynergyStats {
  std::uint64_t posts = 0;                 // successors() calls with a non-bottom state
  std::uint64_t cartesian_cache_hits = 0;  // of the Cartesian part
  std::uint64_t precise_posts = 0;         // cluster posts requested
  std::uint64_t precise_cache_hits = 0;    // answered by the abstractor's cache
  std::uint64_t precise_fallbacks = 0;     // cluster too large / unknown: Cartesian over it
  std::uint64_t precise_timeouts = 0;      // of those: over the time budget (Alg. 3)
  std::uint64_t precise_skipped = 0;       // cluster at or over the learned threshold
  std::uint64_t precise_strengthened = 0;  // cluster posts that changed the result
  std::uint64_t precise_bottoms = 0;       // a cluster post was bottom (Cartesian was not)
  double precise_time = 0;                 // seconds in cluster posts
};

class SynergyAnalysis {
 public:
  using domain_type = SynergyDomain;
  using element = PredicateState;
  using precision = SynergyPrecision;

  explicit SynergyAnalysis(const Cfa& cfa, PredicateOptions opts = {})
      : cfa_(&cfa),
        abs_(std::make_shared<PredicateAbstractor>(cfa.expr_manager(), std::move(opts))),
        edges_(std::make_shared<const EdgeIndex>(cfa)),
        stats_(std::make_shared<SynergyStats>()),
        threshold_(std::make_shared<SynergyThreshold>()),
        domain_(abs_) {}

  [[nodiscard]] const domain_type& domain() const { return domain_; }
  [[nodiscard]] element initial_element() const { return element::top(); }
  [[nodiscard]] precision initial_precision(Granularity g) const {
    return precision(*cfa_, g, edges_, PredicateSet{});
  }

  template <class Sink>
  void successors(const element& e, const EdgeRef& edge, const precision& pi, Sink&& sink) const {
    element s = post(e, edge, pi);
    if (!s.is_bottom()) sink(std::move(s));
  }

  // The synergy post (see the header); bottom: no successor.
  [[nodiscard]] element post(const element& e, const EdgeRef& edge, const precision& pi) const {
    if (e.is_bottom()) return e;
    SynergyStats& st = *stats_;
    ++st.posts;
    const Operation& op = edge.operation();
    std::uint64_t hits = abs_->stats().cache_hits;
    element s = abs_->post(e, op, pi.predicates(edge.target), AbstractionMode::Cartesian);
    st.cartesian_cache_hits += abs_->stats().cache_hits - hits;
    if (s.is_bottom()) return s;
    const auto& clusters = pi.clusters(edges_->key(edge));
    if (clusters.empty()) return s;
    const auto t0 = std::chrono::steady_clock::now();
    SynergyThreshold& th = *threshold_;
    for (const PredicateSet& c : clusters) {
      if (!th.allows(c.size())) {  // Alg. 3, line 20: the fast abstraction only
        ++st.precise_skipped;
        continue;
      }
      ++st.precise_posts;
      hits = abs_->stats().cache_hits;
      const std::uint64_t falls = abs_->stats().boolean_fallbacks;
      const std::uint64_t timeouts = abs_->stats().boolean_timeouts;
      const element b = abs_->post(e, op, c, AbstractionMode::Boolean);
      st.precise_cache_hits += abs_->stats().cache_hits - hits;
      st.precise_fallbacks += abs_->stats().boolean_fallbacks - falls;
      if (abs_->stats().boolean_timeouts != timeouts) {
        // Alg. 3, lines 16-18: over N_TO, the result is the fast one (the abstractor
        // fell back to Cartesian) and N_sigma becomes this cluster's size.
        ++st.precise_timeouts;
        th.learned = c.size();
      }
      element m = meet_states(s, b);
      if (m.is_bottom()) ++st.precise_bottoms;
      if (m != s) ++st.precise_strengthened;
      s = std::move(m);
      if (s.is_bottom()) break;
    }
    st.precise_time += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return s;
  }

  [[nodiscard]] Adjusted<element, precision> adjust(const element& e, const precision& /*pi*/,
                                                    Loc /*loc*/) const {
    return {e, std::nullopt, Action::Continue};
  }

  [[nodiscard]] PredicateAbstractor& abstractor() const { return *abs_; }
  [[nodiscard]] const std::shared_ptr<PredicateAbstractor>& shared_abstractor() const noexcept {
    return abs_;
  }
  [[nodiscard]] const EdgeIndex& edges() const { return *edges_; }
  [[nodiscard]] const std::shared_ptr<const EdgeIndex>& shared_edges() const noexcept {
    return edges_;
  }
  [[nodiscard]] const SynergyStats& stats() const { return *stats_; }
  // Alg. 3's learned threshold, shared with the refiner.
  [[nodiscard]] const std::shared_ptr<SynergyThreshold>& threshold() const noexcept {
    return threshold_;
  }

  // Adds this analysis's counters to the run statistics (Statistics.extra). The
  // clusters per edge are the precision's: SynergyPrecision::report.
  void report(Statistics& st) const {
    const SynergyStats& y = *stats_;
    auto& x = st.extra;
    report_abstractor(*abs_, x);
    x["synergy posts"] = static_cast<double>(y.posts);
    x["synergy cartesian cache hits"] = static_cast<double>(y.cartesian_cache_hits);
    x["synergy precise posts"] = static_cast<double>(y.precise_posts);
    x["synergy precise cache hits"] = static_cast<double>(y.precise_cache_hits);
    x["synergy precise fallbacks"] = static_cast<double>(y.precise_fallbacks);
    x["synergy precise strengthened"] = static_cast<double>(y.precise_strengthened);
    x["synergy precise bottoms"] = static_cast<double>(y.precise_bottoms);
    x["synergy precise time s"] = y.precise_time;
    if (y.precise_timeouts) x["synergy precise timeouts"] = static_cast<double>(y.precise_timeouts);
    if (y.precise_skipped) x["synergy precise skipped"] = static_cast<double>(y.precise_skipped);
    if (threshold_->learned)
      x["synergy learned threshold"] = static_cast<double>(threshold_->learned);
  }

 private:
  const Cfa* cfa_;
  std::shared_ptr<PredicateAbstractor> abs_;
  std::shared_ptr<const EdgeIndex> edges_;
  std::shared_ptr<SynergyStats> stats_;
  std::shared_ptr<SynergyThreshold> threshold_;
  domain_type domain_;
};

static_assert(ConfigurableProgramAnalysis<SynergyAnalysis, EdgeRef, Loc>);

}  // namespace precis
