#pragma once
// precis::Cvc5Solver: the SmtSolver concept over cvc5 1.0.x (Debian libcvc5-dev).
//
// Terms of one precis ExprManager are translated to cvc5 terms with a cache; every
// precis variable becomes one cvc5 constant named after it (the SSA copies of
// smt/path_formula.hpp are separate variables `x@3`). Integers are mathematical:
// precis `/` and `mod` are SMT-LIB `div` and `mod` (both Euclidean, as the .cfa
// format defines them) and `rem` is ite(b >= 0, mod(a, b), -mod(a, b)).
//
// Measured: a few dense LIA queries never finish with the default options but do
// with `dio-solver=false` or `simplification=none`. So every check has a time
// limit (`tlimit-per`), and a check that answers unknown is repeated once on a fresh
// solver created with those options (cvc5 accepts them only before first use), into
// which the current assertion frames are replayed. Statistics are per instance.
//
// Every call runs under the run's remaining time (Cvc5Options::deadline): its
// limit is min(own limit, time left), and a call that gives no answer because the
// deadline came throws precis::limit_reached (CEGAR reports "time limit of N s
// reached"), never "unknown". Measured on cvc5 1.0.3: `tlimit-per` may be changed
// after the solver was used (`tlimit` and `rlimit-per` may not), it bounds checks,
// getQuantifierElimination (which then returns its input, still quantified) and
// getInterpolant (which returns a null term); `tlimit` does not bound getInterpolant.
// So each call sets `tlimit-per` of its engine. simplify() is rewriting only and has
// no limit; it checks the deadline first. QE is declined on non-linear input (cvc5's QE
// is complete for linear arithmetic only and ran for ever on `exists a. a mod b > 2`)
// and above `qe_max_size` nodes.

#include <cvc5/cvc5.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "precis/core/limits.hpp"
#include "precis/core/teardown.hpp"
#include "precis/expr/eval_big.hpp"
#include "precis/expr/floating_point.hpp"
#include "precis/expr/term.hpp"
#include "precis/smt/linearity.hpp"
#include "precis/smt/solver.hpp"

namespace precis {

struct Cvc5Options {
  std::string logic = "ALL";        // "QF_LIA" is faster to set up for linear paths
  std::uint32_t timeout_ms = 5000;  // tlimit-per of every check and QE call; 0 = none
  bool retry_on_unknown = true;     // once, with dio-solver=false, simplification=none
  bool unsat_cores = true;          // produce-unsat-cores (of check_assuming)
  std::uint32_t interpolation_timeout_ms = 2000;  // tlimit-per of each getInterpolant
  std::size_t qe_max_size = 5000;                 // QE input above this many term nodes is declined
  // The run's time budget: no call outlives it, and once it has passed every call
  // throws limit_reached. The CLI sets precis::Deadline::of(limits); default: none.
  Deadline deadline{};
};

class Cvc5Solver {
 public:
  explicit Cvc5Solver(ExprManager& em, Cvc5Options opts = {})
      : em_(em), opts_(std::move(opts)), main_(make_engine(Mode::Main)) {
    frames_.emplace_back();
  }
  Cvc5Solver(const Cvc5Solver&) = delete;
  Cvc5Solver& operator=(const Cvc5Solver&) = delete;
  // Under a DeferredTeardown (core/teardown.hpp) the engines are parked, not destroyed:
  // destroying a cvc5 solver that has seen many terms takes tenths of a second.
  ~Cvc5Solver() {
    for (auto* e : {&main_, &retry_, &side_})
      if (*e) defer_teardown(std::shared_ptr<Engine>(std::move(*e)));
  }

  [[nodiscard]] ExprManager& manager() noexcept { return em_; }
  [[nodiscard]] const Cvc5Options& options() const noexcept { return opts_; }
  [[nodiscard]] const SolverStats& stats() const noexcept { return stats_; }
  [[nodiscard]] const std::string& reason_unknown() const noexcept { return reason_; }
  [[nodiscard]] const Deadline& deadline() const noexcept { return opts_.deadline; }

  void push() {
    forget_retry();
    main_engine().solver->push();
    frames_.emplace_back();
  }
  void pop() {
    if (frames_.size() <= 1) throw std::logic_error("Cvc5Solver::pop without push");
    forget_retry();
    // Popping back from a large check costs about what the check took (cvc5 restores its
    // context node by node: 1 s after a VINTA DAG check on token_ring.07, past the run's
    // limit). Where that would end past the deadline, the engine is parked instead and
    // rebuilt without the frame if the solver is used again.
    if (main_ && may_overrun(*main_)) drop_main_engine();
    if (main_) main_->solver->pop();
    frames_.pop_back();
  }
  void assert_(Term f) {
    require_bool(f);
    forget_retry();
    Engine& m = main_engine();
    const std::uint64_t before = m.translated;
    const cvc5::Term tf = translate(m, f);
    frames_.back().push_back(f);
    if (m.cores && bits_) {  // the first bit term: rebuilt without cores, f included
      main_engine();
      return;
    }
    m.solver->assertFormula(tf);
    m.asserted_since_check += m.translated - before;
  }

  SatResult check() { return check_assuming({}); }

  SatResult check_assuming(std::span<const Term> assumptions) {
    for (Term a : assumptions) require_bool(a);
    Timer timer(stats_);
    ++stats_.checks;
    forget_retry();
    assumptions_.assign(assumptions.begin(), assumptions.end());
    reason_.clear();
    last_ = SatResult::Unknown;  // no stale model or core if this check throws
    // Translated before the time limit is computed: the solver gets what is left after.
    Engine* mp = &main_engine();
    for (Term a : assumptions_) translate(*mp, a);
    if (mp->cores && bits_) {
      mp = &main_engine();  // rebuilt without cores
      for (Term a : assumptions_) translate(*mp, a);
    }
    Engine& m = *mp;
    const CallLimit limit = call_limit(opts_.deadline, opts_.timeout_ms);
    set_time_limit(m, limit.ms);
    const std::uint64_t pending = admit(m);
    SatResult r = run_check(m, pending);
    if (r == SatResult::Unknown) {
      try {
        out_of_time(limit);
      } catch (const limit_reached&) {
        drop_main_engine();
        throw;
      }
    }
    if (r == SatResult::Unknown && opts_.retry_on_unknown) {
      ++stats_.retries;
      const CallLimit retry_limit = call_limit(opts_.deadline, opts_.timeout_ms);
      retry_ = make_engine(Mode::Retry, retry_limit.ms);
      for (const auto& frame : frames_)
        for (Term f : frame) retry_->solver->assertFormula(translate(*retry_, f));
      retry_->asserted_since_check = retry_->translated;
      r = run_check(*retry_, admit(*retry_));
      if (r == SatResult::Unknown) {
        out_of_time(retry_limit);
        reason_ +=
            " (also after retry with dio-solver=false, "
            "simplification=none)";
      }
    }
    switch (r) {
      case SatResult::Sat: ++stats_.sat; break;
      case SatResult::Unsat: ++stats_.unsat; break;
      case SatResult::Unknown: ++stats_.unknown; break;
    }
    last_ = r;
    return r;
  }

  // Model value after Sat; Booleans as 0/1; nullopt if it does not fit std::int64_t.
  std::optional<std::int64_t> value(Term t) {
    if (last_ != SatResult::Sat) throw std::logic_error("Cvc5Solver::value without a model");
    Engine& e = current();
    cvc5::Term v = e.solver->getValue(translate(e, t));
    if (v.isBooleanValue()) return v.getBooleanValue() ? 1 : 0;
    if (v.isInt64Value()) return v.getInt64Value();
    return fp_bits(v);
  }

  // Exact model value after Sat (arbitrary precision); Booleans as 0/1; nullopt if the
  // value is not an integer (cannot happen for precis' Int and Bool terms).
  std::optional<BigInt> big_value(Term t) {
    if (last_ != SatResult::Sat) throw std::logic_error("Cvc5Solver::big_value without a model");
    Engine& e = current();
    cvc5::Term v = e.solver->getValue(translate(e, t));
    if (v.isBooleanValue()) return BigInt(v.getBooleanValue() ? 1 : 0);
    if (auto bits = fp_bits(v)) return BigInt(*bits);
    return integer_constant(v);
  }

  // Model value of an array term after Sat: its stores over a constant array. nullopt
  // if a cell or the fallback is not an integer (cannot happen for precis' arrays).
  std::optional<ArrayValue> array_value(Term t) {
    if (last_ != SatResult::Sat) throw std::logic_error("Cvc5Solver::array_value without a model");
    Engine& e = current();
    cvc5::Term v = e.solver->getValue(translate(e, t));
    const auto big = integer_constant;
    ArrayValue out;
    while (v.getKind() == cvc5::Kind::STORE) {  // the outermost store is the latest
      auto i = big(v[1]);
      auto x = big(v[2]);
      if (!i || !x) return std::nullopt;
      out.cells.emplace(std::move(*i), std::move(*x));
      v = v[0];
    }
    if (!v.isConstArray()) return std::nullopt;
    auto f = big(v.getConstArrayBase());
    if (!f) return std::nullopt;
    out.fallback = std::move(*f);
    return out;
  }

  // After Unsat: the assumptions of the last check in an unsat core (in their order).
  std::vector<Term> unsat_core() {
    if (last_ != SatResult::Unsat) throw std::logic_error("Cvc5Solver::unsat_core after non-unsat");
    std::vector<Term> out;
    Engine& e = current();
    if (!e.cores) return assumptions_;
    std::unordered_map<cvc5::Term, bool> in_core;
    for (const cvc5::Term& c : e.solver->getUnsatCore()) in_core.emplace(c, true);
    for (Term a : assumptions_)
      if (in_core.count(translate(e, a)) != 0 && std::find(out.begin(), out.end(), a) == out.end())
        out.push_back(a);
    return out;
  }

  // cvc5's simplification (on a solver without assertions, so the result is equivalent
  // outright), translated back; `t` itself when the result leaves precis Terms.
  Term simplify(Term t) {
    opts_.deadline.check();  // rewriting only: no solver limit applies
    Timer timer(stats_);
    ++stats_.simplify_calls;
    Engine& e = side_engine();
    auto r = back(e, e.solver->simplify(translate(e, t)));
    return r ? *r : t;
  }

  // exists vars. phi, by cvc5's quantifier elimination (complete for LIA) on a solver
  // with no assertions, so the answer is equivalent outright. Declined (nullopt) for
  // non-linear or oversized input, where cvc5's QE may not terminate.
  std::optional<Term> eliminate_exists(std::span<const VarId> vars, Term phi) {
    require_bool(phi);
    std::vector<VarId> fv;
    collect_vars(phi, fv);
    std::vector<VarId> qv;
    for (VarId v : vars)
      if (std::binary_search(fv.begin(), fv.end(), v)) qv.push_back(v);
    if (qv.empty()) return phi;
    std::sort(qv.begin(), qv.end());
    std::optional<std::vector<Term>> atoms;  // array terms, opaque to QE
    if (opts_.qe_max_size == 0 || dag_size(phi, opts_.qe_max_size + 1) <= opts_.qe_max_size)
      atoms = is_linear(phi) ? std::vector<Term>{} : array_atoms(phi, qv);
    if (!atoms) {
      ++stats_.qe_declined;
      return std::nullopt;
    }
    const CallLimit limit = call_limit(opts_.deadline, opts_.timeout_ms);
    Timer timer(stats_);
    ++stats_.qe_calls;
    Engine& e = side_engine();
    set_time_limit(e, limit.ms);
    cvc5::Term body = translate(e, phi);
    std::vector<cvc5::Term> consts, bound;
    for (VarId v : qv) {
      consts.push_back(constant(e, v));
      bound.push_back(e.solver->mkVar(sort(e, em_.variable(v).type), em_.variable(v).name));
    }
    // Each array atom becomes a fresh constant for the elimination and is put back after.
    std::vector<cvc5::Term> atom_terms, atom_consts;
    for (Term a : *atoms) {
      atom_terms.push_back(translate(e, a));
      atom_consts.push_back(e.solver->mkConst(sort(e, a.type()), "__qe_atom"));
    }
    if (!atom_terms.empty()) body = body.substitute(atom_terms, atom_consts);
    body = body.substitute(consts, bound);
    cvc5::Term q = e.solver->mkTerm(cvc5::Kind::EXISTS,
                                    {e.solver->mkTerm(cvc5::Kind::VARIABLE_LIST, bound), body});
    // Out of time, cvc5 returns q itself, which back() refuses.
    std::optional<Term> r;
    try {
      cvc5::Term qf = e.solver->getQuantifierElimination(q);
      if (!atom_terms.empty()) qf = qf.substitute(atom_consts, atom_terms);
      r = back(e, qf);
    } catch (const cvc5::CVC5ApiException&) {
    }
    if (!r) out_of_time(limit);
    return r;
  }

  // Opt-in, experimental (syntax-guided, slow, may not terminate on
  // divisibility). Bounded by tlimit-per (interpolation_timeout_ms min'd with the
  // deadline; measured: `tlimit` does not bound it). a /\ b must be unsat.
  std::optional<Term> interpolate(Term a, Term b) {
    require_bool(a);
    require_bool(b);
    const CallLimit limit = call_limit(opts_.deadline, opts_.interpolation_timeout_ms);
    Timer timer(stats_);
    ++stats_.interpolation_calls;
    auto e = make_engine(Mode::Interpolation, limit.ms);
    std::optional<Term> r;
    try {
      e->solver->assertFormula(translate(*e, a));
      cvc5::Term i = e->solver->getInterpolant(translate(*e, em_.not_(b)));
      if (!i.isNull()) r = back(*e, i);
    } catch (const cvc5::CVC5ApiException&) {
    }
    if (!r) out_of_time(limit);
    return r;
  }

  // ---- cvc5-level access (terms of the main solver) -----------------------------------
  [[nodiscard]] cvc5::Solver& raw() { return *main_engine().solver; }
  cvc5::Term to_cvc5(Term t) { return translate(main_engine(), t); }
  std::optional<Term> from_cvc5(const cvc5::Term& t) { return back(main_engine(), t); }

 private:
  enum class Mode : std::uint8_t { Main, Retry, Side, Interpolation };

  struct Engine {
    std::unique_ptr<cvc5::Solver> solver;
    std::uint64_t time_limit_ms = 0;  // the current tlimit-per (0: none)
    std::unordered_map<Term, cvc5::Term, TermHash> cache;
    std::unordered_map<VarId, cvc5::Term> consts;
    std::unordered_map<cvc5::Term, VarId> vars_of;  // back translation of constants
    std::uint64_t translated = 0;                   // terms translated (deadline polls)
    std::uint64_t asserted_since_check = 0;         // new nodes asserted (admit)
    double ns_per_node = 0;  // time per node taken in on the last large check (admit)
    std::chrono::steady_clock::duration last_check{};  // how long the last check took
    bool cores = false;                                // produce-unsat-cores is on
  };

  struct Timer {
    explicit Timer(SolverStats& s) : s_(s), t0_(std::chrono::steady_clock::now()) {}
    ~Timer() { s_.time += std::chrono::steady_clock::now() - t0_; }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;
    SolverStats& s_;
    std::chrono::steady_clock::time_point t0_;
  };

  // `time_limit_ms`: tlimit-per of a check or interpolation engine (0: none); the main
  // and side engines get theirs per call (set_time_limit).
  std::unique_ptr<Engine> make_engine(Mode mode, std::uint64_t time_limit_ms = 0) const {
    auto e = std::make_unique<Engine>();
    e->solver = std::make_unique<cvc5::Solver>();
    cvc5::Solver& s = *e->solver;
    const bool check_engine = mode == Mode::Main || mode == Mode::Retry;
    s.setOption("produce-models", check_engine ? "true" : "false");
    s.setOption("dag-thresh", "0");  // back translation reads internal kinds' names
    // The retry engine answers one query; the side engine several QE/simplify calls.
    if (mode == Mode::Main || mode == Mode::Side) s.setOption("incremental", "true");
    // Unsat cores turn off the preprocessing that bit terms need (bit_and_term: a
    // satisfiable x & (x - 1) = 0 query went from 0.05 s to over 10 s): a solver that has
    // seen iand answers without cores (unsat_core() then gives every assumption).
    e->cores = check_engine && opts_.unsat_cores && !bits_;
    if (e->cores) s.setOption("produce-unsat-cores", "true");
    if (time_limit_ms > 0) {
      s.setOption("tlimit-per", std::to_string(time_limit_ms));
      e->time_limit_ms = time_limit_ms;
    }
    // With logic ALL cvc5 1.0.3 leaves arithmetic equalities as they are, and its
    // branch and bound then loops on queries as small as y = z, y' = (y + 1) mod 2^32,
    // z' = (z + 1) mod 2^32, y' /= z' (an unsigned increment's consecution: over 10 s
    // with ALL, 2 ms with this option or a quantifier-free logic). Not where unsat cores
    // are produced: with it, getUnsatCore (which no time limit bounds) took seconds on
    // VINTA's interpolation queries, past the run's deadline.
    if (check_engine && !e->cores) s.setOption("arith-rewrite-equalities", "true");
    if (mode == Mode::Retry) {
      s.setOption("dio-solver", "false");
      s.setOption("simplification", "none");
    }
    if (mode == Mode::Interpolation) s.setOption("produce-interpolants", "true");
    // Floating point is bit-blasted; cvc5 1.0.3's default SAT back end for it (CaDiCaL)
    // aborted the process on incremental BMC queries over floats ("can only get value in
    // satisfied state"); the internal bit-blaster (on cvc5's own SAT solver) does not. precis
    // has no other bit-vector terms.
    s.setOption("bv-solver", "bitblast-internal");
    // QE and interpolation need quantifiers; a check engine uses the configured logic.
    s.setLogic(check_engine ? opts_.logic : std::string("ALL"));
    return e;
  }

  // Admission near the deadline (fits_before_deadline, smt/solver.hpp): the nodes to
  // take in are those of the assertions since the engine's last check and of the
  // assumptions; the rate is the one the engine showed on its last large check, at
  // least kSolverNsPerNode. Returns the node count, for run_check to learn the rate.
  static constexpr std::uint64_t kLearnFromNodes = 4096;
  std::uint64_t admit(Engine& e) {
    std::uint64_t pending = e.asserted_since_check;
    if (opts_.deadline.none()) return pending;
    const double rate = std::max(kSolverNsPerNode, e.ns_per_node);
    const auto fits =
        static_cast<std::uint64_t>(static_cast<double>(opts_.deadline.remaining_ms()) * 1e6 / rate);
    for (Term a : assumptions_) {
      if (pending > fits) break;
      pending += dag_size(a, fits - pending + 1);
    }
    if (!fits_before_deadline(opts_.deadline, pending, rate)) {
      ++stats_.declined_near_deadline;
      throw limit_reached(LimitKind::Time, opts_.deadline.reason);
    }
    return pending;
  }

  SatResult run_check(Engine& e, std::uint64_t pending) {
    std::vector<cvc5::Term> as;
    as.reserve(assumptions_.size());
    for (Term a : assumptions_) as.push_back(translate(e, a));
    const auto t0 = std::chrono::steady_clock::now();
    cvc5::Result r = as.empty() ? e.solver->checkSat() : e.solver->checkSatAssuming(as);
    e.asserted_since_check = 0;
    e.last_check = std::chrono::steady_clock::now() - t0;
    if (pending >= kLearnFromNodes)
      e.ns_per_node = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now() - t0)
                                              .count()) /
                      static_cast<double>(pending);
    if (r.isSat()) return SatResult::Sat;
    if (r.isUnsat()) return SatResult::Unsat;
    reason_ = "cvc5: " + r.toString();
    return SatResult::Unknown;
  }

  // cvc5 1.0.3 accepts a new tlimit-per between calls (measured).
  static void set_time_limit(Engine& e, std::uint64_t ms) {
    if (e.time_limit_ms == ms) return;
    e.solver->setOption("tlimit-per", std::to_string(ms));
    e.time_limit_ms = ms;
  }

  // A call under `limit` gave no answer: if the run's time is what ran out, end the run.
  void out_of_time(const CallLimit& limit) const { throw_if_out_of_time(opts_.deadline, limit); }

  Engine& current() { return retry_ ? *retry_ : main_engine(); }

  // A check the deadline ended leaves cvc5's engine holding that check's state, and
  // popping back from it costs as much as its preprocessing did (tenths of a second on a
  // block formula of 30,000 nodes, past the run's limit). The run is ending: the engine
  // is parked for teardown (core/teardown.hpp) instead, and rebuilt from `frames_` if
  // the solver is used again.
  void drop_main_engine() {
    if (main_) defer_teardown(std::shared_ptr<Engine>(std::move(main_)));
  }
  // The main engine, (re)built from the asserted frames if it was dropped, or if it has
  // unsat cores on and bit terms have appeared (make_engine).
  Engine& main_engine() {
    if (main_ && main_->cores && bits_) drop_main_engine();
    while (!main_) {
      auto e = make_engine(Mode::Main);
      for (std::size_t i = 0; i < frames_.size(); ++i) {
        if (i > 0) e->solver->push();
        for (Term f : frames_[i]) e->solver->assertFormula(translate(*e, f));
      }
      e->asserted_since_check = e->translated;
      if (e->cores && bits_) continue;  // a bit term among the frames: again without cores
      main_ = std::move(e);
    }
    return *main_;
  }
  // The retry engine is destroyed, or parked where its teardown (as long as its check,
  // like a pop) would end past the deadline.
  void forget_retry() {
    if (retry_ && may_overrun(*retry_)) defer_teardown(std::shared_ptr<Engine>(std::move(retry_)));
    retry_.reset();
  }
  // Whether undoing e's last check (pop, teardown) may take longer than the time left.
  [[nodiscard]] bool may_overrun(const Engine& e) const {
    if (opts_.deadline.none()) return false;
    return opts_.deadline.at - std::chrono::steady_clock::now() <= e.last_check;
  }
  Engine& side_engine() {
    if (!side_) side_ = make_engine(Mode::Side);
    return *side_;
  }

  static void require_bool(Term t) {
    if (!t.valid() || !t.is_bool()) throw type_error("SMT formula must be a valid Bool term");
  }

  static cvc5::Sort sort(Engine& e, Type t) {
    switch (t) {
      case Type::Bool: return e.solver->getBooleanSort();
      case Type::Array:
        return e.solver->mkArraySort(e.solver->getIntegerSort(), e.solver->getIntegerSort());
      case Type::Float32:
      case Type::Float64: {
        const auto [eb, sb] = fp_format(t);
        return e.solver->mkFloatingPointSort(eb, sb);
      }
      case Type::Int: break;
    }
    return e.solver->getIntegerSort();
  }

  // Exponent and significand widths of SMT-LIB's (_ FloatingPoint eb sb).
  static std::pair<std::uint32_t, std::uint32_t> fp_format(Type t) {
    return t == Type::Float32 ? std::pair<std::uint32_t, std::uint32_t>{8, 24}
                              : std::pair<std::uint32_t, std::uint32_t>{11, 53};
  }
  static cvc5::Term rne(cvc5::Solver& s) {
    return s.mkRoundingMode(cvc5::RoundingMode::ROUND_NEAREST_TIES_TO_EVEN);
  }
  static cvc5::Term fp_constant(cvc5::Solver& s, Type t, std::int64_t bits) {
    const auto [eb, sb] = fp_format(t);
    return s.mkFloatingPoint(eb, sb, s.mkBitVector(eb + sb, static_cast<std::uint64_t>(bits)));
  }
  // The bit pattern of a cvc5 floating-point value (expr/term.hpp's representation).
  static std::optional<std::int64_t> fp_bits(const cvc5::Term& v) {
    if (!v.isFloatingPointValue()) return std::nullopt;
    const auto [eb, sb, bv] = v.getFloatingPointValue();
    const std::string digits = bv.getBitVectorValue(2);
    std::uint64_t u = 0;
    for (char c : digits) u = (u << 1) | (c == '1' ? 1U : 0U);
    const Type t = eb == 8 && sb == 24 ? Type::Float32 : Type::Float64;
    return fp::canonical(t, static_cast<std::int64_t>(u));
  }

  cvc5::Term constant(Engine& e, VarId v) {
    auto it = e.consts.find(v);
    if (it != e.consts.end()) return it->second;
    const Variable& var = em_.variable(v);
    cvc5::Term c = e.solver->mkConst(sort(e, var.type), var.name);
    e.consts.emplace(v, c);
    e.vars_of.emplace(c, v);
    return c;
  }

  cvc5::Term translate(Engine& e, Term t) {
    if (auto it = e.cache.find(t); it != e.cache.end()) return it->second;
    // A huge formula (a flat disjunction of 365,000 equalities) takes seconds to
    // translate: the run's deadline is polled every 4,096 new terms.
    if ((++e.translated & 4095U) == 0) opts_.deadline.check();
    cvc5::Solver& s = *e.solver;
    using K = cvc5::Kind;
    std::vector<cvc5::Term> a;
    a.reserve(t.num_args());
    for (std::size_t i = 0; i < t.num_args(); ++i) a.push_back(translate(e, t.arg(i)));
    auto mk = [&](K k) { return s.mkTerm(k, a); };
    cvc5::Term r;
    switch (t.op()) {
      case Op::Var: r = constant(e, t.var()); break;
      case Op::IntConst: r = s.mkInteger(t.value()); break;
      case Op::BoolConst: r = s.mkBoolean(t.value() != 0); break;
      case Op::Not: r = mk(K::NOT); break;
      case Op::And: r = mk(K::AND); break;
      case Op::Or: r = mk(K::OR); break;
      case Op::Imply: r = mk(K::IMPLIES); break;
      case Op::Iff: r = mk(K::EQUAL); break;
      case Op::Xor: r = mk(K::XOR); break;
      case Op::Eq: r = mk(K::EQUAL); break;
      case Op::Neq: r = mk(K::DISTINCT); break;
      case Op::Lt: r = mk(K::LT); break;
      case Op::Le: r = mk(K::LEQ); break;
      case Op::Gt: r = mk(K::GT); break;
      case Op::Ge: r = mk(K::GEQ); break;
      case Op::Add: r = mk(K::ADD); break;
      case Op::Sub: r = mk(K::SUB); break;
      case Op::Mul: r = mk(K::MULT); break;
      case Op::Div: r = mk(K::INTS_DIVISION); break;  // Euclidean in SMT-LIB too
      case Op::Mod: r = mk(K::INTS_MODULUS); break;
      case Op::Rem: {
        cvc5::Term m = mk(K::INTS_MODULUS);
        r = s.mkTerm(K::ITE, {s.mkTerm(K::GEQ, {a[1], s.mkInteger(0)}), m, s.mkTerm(K::NEG, {m})});
        break;
      }
      case Op::Neg: r = mk(K::NEG); break;
      case Op::Ite: r = mk(K::ITE); break;
      case Op::BitAnd:
        bits_ = true;
        r = bit_and_term(s, t, a[0], a[1]);
        break;
      case Op::Pow2: r = pow2_term(s, a[0]); break;
      case Op::Select: r = mk(K::SELECT); break;
      case Op::Store: r = mk(K::STORE); break;
      case Op::ConstArray: r = s.mkConstArray(sort(e, Type::Array), a[0]); break;
      // Floating point: SMT-LIB's theory (cvc5 bit-blasts it with SymFPU), every
      // operation rounded to nearest, ties to even (expr/term.hpp).
      case Op::FpConst: r = fp_constant(s, t.type(), t.value()); break;
      case Op::FpAdd: r = s.mkTerm(K::FLOATINGPOINT_ADD, {rne(s), a[0], a[1]}); break;
      case Op::FpSub: r = s.mkTerm(K::FLOATINGPOINT_SUB, {rne(s), a[0], a[1]}); break;
      case Op::FpMul: r = s.mkTerm(K::FLOATINGPOINT_MULT, {rne(s), a[0], a[1]}); break;
      case Op::FpDiv: r = s.mkTerm(K::FLOATINGPOINT_DIV, {rne(s), a[0], a[1]}); break;
      case Op::FpNeg: r = mk(K::FLOATINGPOINT_NEG); break;
      case Op::FpAbs: r = mk(K::FLOATINGPOINT_ABS); break;
      case Op::FpSqrt: r = s.mkTerm(K::FLOATINGPOINT_SQRT, {rne(s), a[0]}); break;
      case Op::FpRound: {
        static constexpr cvc5::RoundingMode modes[] = {
            cvc5::RoundingMode::ROUND_NEAREST_TIES_TO_EVEN,
            cvc5::RoundingMode::ROUND_NEAREST_TIES_TO_AWAY,
            cvc5::RoundingMode::ROUND_TOWARD_POSITIVE, cvc5::RoundingMode::ROUND_TOWARD_NEGATIVE,
            cvc5::RoundingMode::ROUND_TOWARD_ZERO};
        r = s.mkTerm(K::FLOATINGPOINT_RTI, {s.mkRoundingMode(modes[t.value() % 5]), a[0]});
        break;
      }
      case Op::FpEq: r = mk(K::FLOATINGPOINT_EQ); break;
      case Op::FpLt: r = mk(K::FLOATINGPOINT_LT); break;
      case Op::FpLe: r = mk(K::FLOATINGPOINT_LEQ); break;
      case Op::FpIsNan: r = mk(K::FLOATINGPOINT_IS_NAN); break;
      case Op::FpIsInf: r = mk(K::FLOATINGPOINT_IS_INF); break;
      case Op::FpIsZero: r = mk(K::FLOATINGPOINT_IS_ZERO); break;
      case Op::FpIsSubnormal: r = mk(K::FLOATINGPOINT_IS_SUBNORMAL); break;
      case Op::FpIsNormal: r = mk(K::FLOATINGPOINT_IS_NORMAL); break;
      case Op::FpIsNeg: r = mk(K::FLOATINGPOINT_IS_NEG); break;
      case Op::FpToFp: {
        const auto [eb, sb] = fp_format(t.type());
        r = s.mkTerm(s.mkOp(K::FLOATINGPOINT_TO_FP_FROM_FP, {eb, sb}), {rne(s), a[0]});
        break;
      }
      case Op::IntToFp: {
        // From the exact integer (as a real) with one rounding: cvc5 1.0.3 decides
        // to_fp of a non-constant real; its fp.to_sbv with bv2nat did not finish on a
        // 3-constraint query.
        const auto [eb, sb] = fp_format(t.type());
        r = s.mkTerm(s.mkOp(K::FLOATINGPOINT_TO_FP_FROM_REAL, {eb, sb}),
                     {rne(s), s.mkTerm(K::TO_REAL, {a[0]})});
        break;
      }
      case Op::FpToInt: {
        // Truncation toward zero over fp.to_real: floor of |x| with x's sign; 0 for NaN
        // and the infinities (expr/term.hpp), where fp.to_real is unspecified.
        const cvc5::Term real = s.mkTerm(K::FLOATINGPOINT_TO_REAL, {a[0]});
        const cvc5::Term up = s.mkTerm(K::TO_INTEGER, {real});
        const cvc5::Term down =
            s.mkTerm(K::NEG, {s.mkTerm(K::TO_INTEGER, {s.mkTerm(K::NEG, {real})})});
        const cvc5::Term special =
            s.mkTerm(K::OR, {mk(K::FLOATINGPOINT_IS_NAN), mk(K::FLOATINGPOINT_IS_INF)});
        r = s.mkTerm(K::ITE, {special, s.mkInteger(0),
                              s.mkTerm(K::ITE, {mk(K::FLOATINGPOINT_IS_NEG), down, up})});
        break;
      }
    }
    e.cache.emplace(t, r);
    return r;
  }

  // iand_k(a, b) (expr/term.hpp) bit by bit in linear arithmetic: r_0 = a mod 2^k,
  // r_{i+1} = r_i div 2, bit_i = r_i mod 2, and the sum of 2^i over the bits set in both.
  // cvc5 1.0.3's own (_ iand k) did not prove `x & (x - 1) = 0, x odd, 1 < x < 2^31`
  // unsat within 30 s in any iand-mode, nor did int2bv/bv2nat; this expansion does it in
  // 0.45 s (bench/README.md "Bit operations"). A constant operand keeps only its set bits.
  static cvc5::Term bit_and_term(cvc5::Solver& s, Term t, const cvc5::Term& x,
                                 const cvc5::Term& y) {
    using K = cvc5::Kind;
    const auto k = static_cast<unsigned>(t.value());
    auto bits = [&](const cvc5::Term& v) {
      std::vector<cvc5::Term> out;
      const cvc5::Term modulus = pow2_constant(s, k);
      cvc5::Term r = s.mkTerm(K::INTS_MODULUS, {v, modulus});
      for (unsigned i = 0; i < k; ++i) {
        out.push_back(
            s.mkTerm(K::EQUAL, {s.mkTerm(K::INTS_MODULUS, {r, s.mkInteger(2)}), s.mkInteger(1)}));
        if (i + 1 < k) r = s.mkTerm(K::INTS_DIVISION, {r, s.mkInteger(2)});
      }
      return out;
    };
    std::optional<std::uint64_t> mask;
    cvc5::Term v = x;
    if (t.arg(0).op() == Op::IntConst)
      mask = static_cast<std::uint64_t>(t.arg(0).value()), v = y;
    else if (t.arg(1).op() == Op::IntConst)
      mask = static_cast<std::uint64_t>(t.arg(1).value());
    const std::vector<cvc5::Term> bv = bits(v);
    std::vector<cvc5::Term> bw;
    if (!mask) bw = bits(y);
    std::vector<cvc5::Term> sum;
    for (unsigned i = 0; i < k; ++i) {
      if (mask && ((*mask >> i) & 1U) == 0) continue;
      cvc5::Term set = mask ? bv[i] : s.mkTerm(K::AND, {bv[i], bw[i]});
      sum.push_back(s.mkTerm(K::ITE, {set, pow2_constant(s, i), s.mkInteger(0)}));
    }
    if (sum.empty()) return s.mkInteger(0);
    if (sum.size() == 1) return sum[0];
    return s.mkTerm(K::ADD, sum);
  }
  // 2^k as a cvc5 constant, beyond 64 bits too.
  static cvc5::Term pow2_constant(cvc5::Solver& s, unsigned k) {
    if (k <= 62) return s.mkInteger(std::int64_t{1} << k);
    return s.mkInteger((BigInt(1) << k).str());
  }
  // pow2(n): a constant for a constant n; otherwise an ite over n = 0..62 (linear
  // arithmetic), 0 below 0 and cvc5's POW2 beyond.
  static cvc5::Term pow2_term(cvc5::Solver& s, const cvc5::Term& n) {
    using K = cvc5::Kind;
    if (n.getKind() == K::CONST_INTEGER && n.isInt64Value()) {
      const std::int64_t v = n.getInt64Value();
      if (v < 0) return s.mkInteger(0);
      // A constant exponent (the C front end's 2^63, 2^64 of 64-bit types) is a constant.
      if (v <= 4096) return pow2_constant(s, static_cast<unsigned>(v));
    }
    cvc5::Term r = s.mkTerm(K::POW2, {n});
    for (int i = 62; i >= 0; --i)
      r = s.mkTerm(K::ITE,
                   {s.mkTerm(K::EQUAL, {n, s.mkInteger(i)}), s.mkInteger(std::int64_t{1} << i), r});
    return s.mkTerm(K::ITE, {s.mkTerm(K::LT, {n, s.mkInteger(0)}), s.mkInteger(0), r});
  }

  // Exact value of a cvc5 integer constant; nullopt for any other term.
  static std::optional<BigInt> integer_constant(const cvc5::Term& c) {
    if (c.isInt64Value()) return BigInt(c.getInt64Value());
    if (c.isIntegerValue()) return parse_big_int(c.getIntegerValue());
    return std::nullopt;
  }

  // Integer value of a cvc5 constant (integral rationals included), if it fits.
  static std::optional<std::int64_t> int_of(const cvc5::Term& c) {
    if (c.isInt64Value()) return c.getInt64Value();
    if (c.isReal64Value()) {
      auto [num, den] = c.getReal64Value();
      if (den == 1) return num;
    }
    return std::nullopt;
  }

  // cvc5 -> precis for the (linear or not) integer fragment precis Terms express.
  std::optional<Term> back(Engine& e, const cvc5::Term& t) {
    std::unordered_map<cvc5::Term, Term> memo;
    return back_rec(e, t, memo);
  }

  std::optional<Term> back_rec(Engine& e, const cvc5::Term& t,
                               std::unordered_map<cvc5::Term, Term>& memo) {
    if (auto it = memo.find(t); it != memo.end()) return it->second;
    using K = cvc5::Kind;
    const K k = t.getKind();
    std::optional<Term> r;
    if (k == K::CONSTANT) {
      auto it = e.vars_of.find(t);
      if (it == e.vars_of.end()) return std::nullopt;
      r = em_.var(it->second);
    } else if (k == K::CONST_BOOLEAN) {
      r = em_.bool_val(t.getBooleanValue());
    } else if (k == K::CONST_INTEGER || k == K::CONST_RATIONAL) {
      if (auto v = int_of(t)) {
        r = em_.int_val(*v);
      } else {
        // Beyond int64 (2^64 from a 64-bit unsigned wrap-around): pow2 terms, exactly.
        auto b = integer_constant(t);
        if (!b) return std::nullopt;
        r = big_int_term(em_, *b);
      }
    } else if (k == K::CONST_FLOATINGPOINT) {
      auto bits = fp_bits(t);
      if (!bits) return std::nullopt;
      r = em_.fp_val(std::get<0>(t.getFloatingPointValue()) == 8 ? Type::Float32 : Type::Float64,
                     *bits);
    } else if (k == K::CONST_ARRAY) {
      auto v = int_of(t.getConstArrayBase());
      if (!v) return std::nullopt;
      r = em_.const_array(em_.int_val(*v));
    } else {
      std::vector<Term> a;
      for (std::size_t i = 0; i < t.getNumChildren(); ++i) {
        auto c = back_rec(e, t[i], memo);
        if (!c) return std::nullopt;
        a.push_back(*c);
      }
      auto nary = [&](Op op) -> Term {
        if (a.size() == 1) return a[0];
        // Binary precis operators folded left for cvc5's n-ary ones.
        if (op == Op::Sub || op == Op::Xor || op == Op::Div || op == Op::Mod) {
          Term acc = a[0];
          for (std::size_t i = 1; i < a.size(); ++i) acc = em_.mk(op, {acc, a[i]});
          return acc;
        }
        return em_.mk(op, a);
      };
      auto chain = [&](Op op) -> Term {  // (< a b c) = a < b and b < c
        if (a.size() == 2) return em_.mk(op, {a[0], a[1]});
        std::vector<Term> cs;
        for (std::size_t i = 0; i + 1 < a.size(); ++i) cs.push_back(em_.mk(op, {a[i], a[i + 1]}));
        return em_.conj(cs);
      };
      try {
        switch (k) {
          case K::NOT: r = em_.not_(a.at(0)); break;
          case K::AND: r = nary(Op::And); break;
          case K::OR: r = nary(Op::Or); break;
          case K::IMPLIES: {  // right associative
            Term acc = a.back();
            for (std::size_t i = a.size() - 1; i-- > 0;) acc = em_.imply(a[i], acc);
            r = acc;
            break;
          }
          case K::XOR: r = nary(Op::Xor); break;
          case K::EQUAL:
            r = a.at(0).is_bool() && a.size() == 2 ? em_.iff(a[0], a[1]) : chain(Op::Eq);
            break;
          case K::DISTINCT: {
            std::vector<Term> cs;
            for (std::size_t i = 0; i < a.size(); ++i)
              for (std::size_t j = i + 1; j < a.size(); ++j)
                cs.push_back(a[i].is_bool() ? em_.xor_(a[i], a[j]) : em_.neq(a[i], a[j]));
            r = em_.conj(cs);
            break;
          }
          case K::LT: r = chain(Op::Lt); break;
          case K::LEQ: r = chain(Op::Le); break;
          case K::GT: r = chain(Op::Gt); break;
          case K::GEQ: r = chain(Op::Ge); break;
          case K::ADD: r = nary(Op::Add); break;
          case K::SUB: r = nary(Op::Sub); break;
          case K::MULT: r = nary(Op::Mul); break;
          case K::NEG: r = em_.neg(a.at(0)); break;
          case K::INTS_DIVISION: r = nary(Op::Div); break;
          case K::INTS_MODULUS: r = nary(Op::Mod); break;
          case K::ITE: r = em_.ite(a.at(0), a.at(1), a.at(2)); break;
          case K::IAND: {
            auto w = int_of(t.getOp()[0]);
            if (!w || *w < 1 || *w > static_cast<std::int64_t>(ExprManager::max_bit_width))
              return std::nullopt;
            r = em_.bit_and(a.at(0), a.at(1), static_cast<unsigned>(*w));
            break;
          }
          case K::POW2: r = em_.pow2(a.at(0)); break;
          case K::SELECT: r = em_.select(a.at(0), a.at(1)); break;
          case K::STORE: r = em_.store(a.at(0), a.at(1), a.at(2)); break;
          case K::TO_REAL:
          case K::TO_INTEGER:  // only over integer terms here (no real variables)
            if (!t[0].getSort().isInteger()) return std::nullopt;
            r = a.at(0);
            break;
          case K::ABS: r = em_.ite(em_.ge(a.at(0), em_.int_val(0)), a[0], em_.neg(a[0])); break;
          case K::DIVISIBLE: {  // ((_ divisible n) x) = (x mod n = 0)
            auto n = int_of(t.getOp()[0]);
            if (!n || *n == 0) return std::nullopt;
            r = em_.eq(em_.mod(a.at(0), em_.int_val(*n)), em_.int_val(0));
            break;
          }
          case K::INTERNAL_KIND: {
            // QE yields the total versions of div/mod (internal kinds); they agree with
            // div/mod whenever the divisor is a non-zero constant.
            const std::string str = t.toString();  // no lets: dag-thresh=0
            const bool is_div = str.rfind("(div ", 0) == 0;
            const bool is_mod = str.rfind("(mod ", 0) == 0;
            const bool constant_divisor =
                a.size() == 2 && ((a[1].is_const() && a[1].value() != 0) ||
                                  constant_pow2_exponent(a[1]).has_value());
            if ((!is_div && !is_mod) || !constant_divisor) return std::nullopt;
            r = is_div ? em_.div(a[0], a[1]) : em_.mod(a[0], a[1]);
            break;
          }
          default: return std::nullopt;
        }
      } catch (const type_error&) {
        return std::nullopt;
      }
    }
    memo.emplace(t, *r);
    return r;
  }

  ExprManager& em_;
  Cvc5Options opts_;
  // An iand term has been translated (make_engine: no unsat cores). Declared before the
  // engines: the constructor's make_engine reads it.
  bool bits_ = false;
  std::unique_ptr<Engine> main_;
  std::unique_ptr<Engine> retry_;  // answers for the last check when it was retried
  std::unique_ptr<Engine> side_;   // simplification and QE, without assertions
  std::vector<std::vector<Term>> frames_;
  std::vector<Term> assumptions_;
  SatResult last_ = SatResult::Unknown;
  std::string reason_;
  SolverStats stats_;
};

static_assert(InterpolatingSolver<Cvc5Solver>);

}  // namespace precis
