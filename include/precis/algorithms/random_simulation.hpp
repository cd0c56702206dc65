#pragma once
// Random simulation: the program run concretely, over and over, with random values for
// every nondeterministic choice, to find bugs too deep for an unrolling or an abstraction
// (a loop that fills an array of 100,000 cells six times and then reads it: BMC would
// unroll 700,000 steps, the explicit domain does not track large arrays, a run of the
// program takes a fraction of a second).
//
// One run starts at the initial location with random initial values, and at each
// location takes an enabled edge (an assume whose condition holds, or an assignment or a
// havoc), at random among several; a havoc draws its value from a mixture of small
// numbers, the program's constants (+-1) and values at the edges of the C types' ranges
// (`sample`). A run ends at the error location, at a location without edges (the
// program's end), where no edge is enabled, or at the step cap. A value that makes the
// next assumes false (the range check after a nondeterministic int, a
// __VERIFIER_assume) is drawn again: the run rolls back to its last havoc, up to
// `resample_tries` times, while no array was written since.
//
// Arrays: the cells of an array the run havocs (or starts with) that it reads before
// writing are drawn when first read, and recorded in the run's array inputs, so that the
// replay reads the same values.
//
// Verdicts:
//  - UNSAFE only when the run that reached the error location replays on the concrete
//    interpreter (path/concrete_interpreter.hpp) with the recorded inputs: the same
//    gate as every other counterexample.
//  - SAFE only for a program with one execution: the first run that made no choice
//    between edges and drew no array cell (its havocs may have drawn values nothing
//    reads: an uninitialized local assigned later) and ended without an error is handed
//    to the complete-run checker (certify/complete_run.hpp), which runs the program
//    again, refusing wherever an initial value or a havoc's value may choose between
//    edges; a certified SAFE when it confirms. (A random run shows one execution only;
//    only a program whose inputs decide no branch has no other.)
//  - UNKNOWN when a limit ends it, when one run with random choices uses a quarter of
//    the time or 25 million steps (the rest is for confirming what it would find; a run
//    without inputs so far may take 2.5 times as long, and more steps, but an error
//    path beyond 25 million steps is not reported), when the runs are input-free and end
//    without an error twice, reading initial values (once after 100,000 steps): every
//    further run would repeat them, or when the runs stop covering new CFA edges (for
//    0.25 s, and twice as long as covering the others took; judged only after a run
//    that ended by itself, not by the step cap).
//
// A run is deterministic until its first random choice (an array's havoc draws nothing
// until a cell of it is read unwritten): the cap counts the steps after it, so that a
// program's execution millions of steps deep without inputs runs until it ends or a
// limit does. The cap starts at `first_step_cap` and doubles whenever a run reaches it
// (a loop whose exit is rarely drawn gets longer runs).
//
// A path through a bound marker (core/bound_marker.hpp: recursion deeper than the
// inlining bound) is not an execution: a run that reaches one ends there (and when two
// runs without inputs do, the verdict is UNKNOWN naming the bound).
//
// Statistics: "sim runs", "sim steps" (all runs), "sim longest run", "sim resamples";
// after a complete-run check "certificate steps", "certificate time s", "certificate
// valid".

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "precis/certify/complete_run.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/bound_marker.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"
#include "precis/expr/floating_point.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/path/error_path.hpp"

namespace precis {

struct SimulationOptions {
  std::uint64_t seed = 0x5eed5eedULL;
  std::size_t first_step_cap = 100'000;  // steps of a run with random choices
  std::size_t max_runs = 0;              // 0: until a limit
  std::size_t resample_tries = 16;       // per havoc, when the next assumes fail
  // Called after runs 1, 2, 4, 8, ... (runs, steps of all runs, elapsed seconds).
  std::function<void(std::size_t, std::size_t, double)> progress;
};

class RandomSimulation {
 public:
  explicit RandomSimulation(const Cfa& cfa, SimulationOptions opts = {})
      : cfa_(&cfa), opts_(std::move(opts)), rng_(opts_.seed) {
    const ExprManager& em = cfa.exprs();
    out_.resize(cfa.num_locations());
    for (Loc l = 0; l < cfa.num_locations(); ++l)
      for (auto e : cfa.out_edges(l)) {
        out_[l].push_back(static_cast<std::uint32_t>(edges_.size()));
        edges_.push_back(cfa.ref(e));
        covered_.push_back(false);
        collect_constants(cfa.operation(e));
      }
    std::sort(constants_.begin(), constants_.end());
    constants_.erase(std::unique(constants_.begin(), constants_.end()), constants_.end());
    for (const auto& v : em.variables())
      if (is_bound_marker(v.name)) markers_.push_back(v.id);
  }

  // The Algorithm shape (core/concepts.hpp): the run under these limits.
  VerificationResult run(const Limits& limits) { return run(&limits); }
  VerificationResult run(const Limits* limits = nullptr) {
    VerificationResult r;
    const auto started = std::chrono::steady_clock::now();
    try {
      run_loop(r, limits);
    } catch (const limit_reached& e) {
      r.verdict = Verdict::Unknown;
      r.reason = std::string(e.what()) + "; " + summary();
    }
    auto& x = r.stats.extra;
    x["sim runs"] = static_cast<double>(runs_);
    x["sim steps"] = static_cast<double>(total_steps_);
    x["sim longest run"] = static_cast<double>(longest_);
    x["sim resamples"] = static_cast<double>(resamples_);
    r.stats.time_total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
  }

 private:
  enum class End : std::uint8_t { Error, Exit, Blocked, Cap, Bound, Budget };

  // The run's last scalar havoc, to draw its value again when the assumes after it fail:
  // the path's length before it, and the old values of the variables written since.
  struct Checkpoint {
    bool active = false;
    std::size_t path_size = 0;
    std::size_t havocs = 0;
    Loc loc = 0;
    std::size_t tries = 0;
    std::vector<std::pair<VarId, BigInt>> undo;
  };

  // The valuation the evaluator reads: the run's scalars and arrays.
  struct Valuation {
    RandomSimulation* sim;
    OptBigInt operator()(VarId x) const { return sim->cur_[x]; }
    OptBigInt select(VarId a, const BigInt& i) const { return sim->read_cell(a, i); }
  };

  void run_loop(VerificationResult& r, const Limits* limits) {
    const Cfa& cfa = *cfa_;
    if (cfa.num_locations() == 0 || !cfa.error_location()) {
      r.verdict = Verdict::Unknown;
      r.reason = "the program has no error location";
      return;
    }
    std::size_t cap = std::max<std::size_t>(opts_.first_step_cap, 1);
    std::size_t input_free_ends = 0;
    // One run gets a quarter of the time: replaying the path it finds takes about as long
    // as the run, up to 1.6 times (3.6 million steps over arrays: a 0.9 s run, a 0.9 s
    // replay; 20 million over integers: 2 s, 3.3 s), building the counterexample a
    // quarter of the replay, and both must end within the limit too.
    const auto started = std::chrono::steady_clock::now();
    auto last_new_edge = started;
    const double run_seconds = limits != nullptr ? limits->remaining_s() / kConfirmShare
                                                 : std::numeric_limits<double>::infinity();
    for (;;) {
      if (opts_.max_runs != 0 && runs_ >= opts_.max_runs) {
        r.reason = "run limit of " + std::to_string(opts_.max_runs) + " reached; " + summary();
        return;
      }
      if (limits != nullptr) limits->check();
      const End end = execute(cap, limits, run_seconds);
      ++runs_;
      total_steps_ += path_.size();
      longest_ = std::max(longest_, path_.size());
      if (opts_.progress && (runs_ & (runs_ - 1)) == 0)
        opts_.progress(runs_, total_steps_, limits != nullptr ? limits->elapsed() : 0.0);
      if (end == End::Error) {
        counterexample(r, limits);
        return;
      }
      if (end == End::Budget) {
        r.verdict = Verdict::Unknown;
        r.reason = "a run of " + std::to_string(path_.size()) +
                   " steps used its share of the time (the rest is kept for replaying an "
                   "error path); " +
                   summary();
        return;
      }
      // Coverage: the runs stop when they have covered no new CFA edge for 0.25 s and
      // for twice as long as it took to cover the ones they did (a safe program's runs
      // repeat the same paths; the budget is better spent by the stages after this one).
      const auto now = std::chrono::steady_clock::now();
      if (covered_new_) last_new_edge = now;
      covered_new_ = false;
      const double stalled = std::chrono::duration<double>(now - last_new_edge).count();
      const double growing = std::chrono::duration<double>(last_new_edge - started).count();
      // A run the cap ended has not shown that the paths repeat: the next one, with a
      // doubled cap, goes deeper (an array filled in a loop of 200,000 iterations, then
      // copied, then checked: the check is 3 million steps deep).
      if (end != End::Cap && stalled > std::max(kMinStallSeconds, 2 * growing)) {
        r.verdict = Verdict::Unknown;
        r.reason =
            "the runs covered no new edge for " + format_seconds(stalled) + " s; " + summary();
        return;
      }
      if (end == End::Cap && cap <= std::numeric_limits<std::size_t>::max() / 2) cap *= 2;
      // The program may have this one execution (a havoc whose value decides no branch,
      // as of an uninitialized local assigned later, is no choice): the checker decides,
      // once; it refuses where an initial value or a havoc's value decides a branch.
      const bool ended = end == End::Exit || end == End::Blocked;  // without an error
      if (choice_free_ && ended && !complete_run_tried_) {
        complete_run_tried_ = true;
        if (certify_complete_run(r, limits)) return;
      }
      if (input_free_ && ended) {
        // Twice, with other initial values; once when the run was long.
        if (++input_free_ends == 2 || path_.size() > kLongRun) {
          r.verdict = Verdict::Unknown;
          r.reason = "the program's execution without inputs ends without reaching the error (" +
                     std::to_string(path_.size()) + " steps)" +
                     (refused_.empty() ? "" : "; not the program's only execution: " + refused_);
          return;
        }
      } else if (input_free_ && end == End::Bound) {
        // Twice: the program's execution needs more than the translation inlined.
        if (++input_free_ends == 2) {
          r.verdict = Verdict::Unknown;
          r.reason = "the program's execution without inputs passes a bound of the translation (" +
                     marker_bound(cfa.exprs().variable(bound_).name).value_or("?") + ") at step " +
                     std::to_string(path_.size() + 1);
          return;
        }
      } else {
        input_free_ends = 0;
      }
    }
  }

  // A run without random choices ended: SAFE if the complete-run checker confirms that
  // it is the program's only execution; true when that decides the run's verdict.
  bool certify_complete_run(VerificationResult& r, const Limits* limits) {
    const CompleteRunCheck c =
        check_complete_run(*cfa_, CompleteRunCertificate{path_.size()}, limits);
    auto& x = r.stats.extra;
    x["certificate steps"] = static_cast<double>(path_.size());
    x["certificate time s"] = c.seconds;
    x["certificate valid"] = c.valid ? 1 : 0;
    if (c.unfinished) {
      r.verdict = Verdict::Unknown;
      r.reason = "a run without inputs ended after " + std::to_string(path_.size()) +
                 " steps without reaching the error, but the complete-run check did not finish (" +
                 c.failure + ")";
      return true;
    }
    if (!c.valid) {  // an initial value or an input decides a branch: the runs go on
      refused_ = c.failure;
      return false;
    }
    r.verdict = Verdict::Safe;
    r.certified = true;
    r.reason =
        "the error location is unreachable: the program has one execution (no input or "
        "initial value decides a branch), and it ends after " +
        std::to_string(path_.size()) +
        " steps without reaching the error (checked by the complete-run checker)";
    return true;
  }

  std::string summary() const {
    std::string s = "no error in " + std::to_string(runs_) + " random run" +
                    (runs_ == 1 ? "" : "s") + " (" + std::to_string(total_steps_) +
                    " steps, the longest " + std::to_string(longest_) + ")";
    if (!refused_.empty()) s += "; not the program's only execution: " + refused_;
    return s;
  }

  // One run from the initial location; path_, havocs_ and inputs_ describe it.
  End execute(std::size_t cap, const Limits* limits, double seconds) {
    const auto started = std::chrono::steady_clock::now();
    const Cfa& cfa = *cfa_;
    const ExprManager& em = cfa.exprs();
    path_.clear();
    havocs_.clear();
    inputs_ = PathInputs{};
    arrays_.clear();
    origin_.clear();
    checkpoint_ = Checkpoint{};
    input_free_ = choice_free_ = true;
    cur_.assign(em.num_vars(), 0);
    for (const auto& v : em.variables()) {
      if (v.type == Type::Array) {
        ArrayValue& in = inputs_.arrays.initial[v.id];
        arrays_[v.id] = in;
        origin_[v.id] = &in;
      } else {
        cur_[v.id] = sample(v.type);
      }
    }
    inputs_.initial = cur_;
    const Loc error = *cfa.error_location();
    std::vector<std::uint32_t> enabled;
    std::size_t free_prefix = 0;  // the steps before the run's first random choice
    Loc l = cfa.initial_location();
    for (std::size_t step = 0;; ++step) {
      if (l == error) return End::Error;
      const auto& outs = out_[l];
      if (outs.empty()) return End::Exit;
      if (input_free_) {
        free_prefix = path_.size();
      } else if (path_.size() - free_prefix >= cap) {
        return End::Cap;
      }
      if (limits != nullptr && (step & 0xfff) == 0xfff) {
        limits->check();
        // A run without inputs so far needs no replay to be useful (its end is checked
        // by check_complete_run, about as long as the run): 2.5 times the time, and
        // steps up to a quarter of the memory limit (4 bytes each).
        const double used =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (input_free_ ? used > seconds * kInputFreeTimeFactor || path_memory_exceeded(limits)
                        : used > seconds || path_.size() > kMaxRunSteps)
          return End::Budget;
      }
      enabled.clear();
      for (std::uint32_t e : outs) {
        if (const auto* a = std::get_if<Assume>(edges_[e].op)) {
          const auto c = evaluate_big(a->cond, Valuation{this});
          if (!c || *c == 0) continue;
        }
        enabled.push_back(e);
      }
      if (enabled.empty()) {
        if (!roll_back(l)) return End::Blocked;
        continue;
      }
      std::uint32_t pick = enabled.front();
      if (enabled.size() > 1) {
        pick = enabled[rng_() % enabled.size()];
        input_free_ = choice_free_ = false;
      }
      const std::optional<End> stop = take(pick, l);
      if (stop) return *stop;
      path_.push_back(pick);
      if (!covered_[pick]) covered_[pick] = covered_new_ = true;
      l = edges_[pick].target;
      if (checkpoint_.active && path_.size() > checkpoint_.path_size + kCheckpointSteps)
        checkpoint_.active = false;
    }
  }

  // Executes edge e from l (not yet on the path); an End when the run stops at it.
  std::optional<End> take(std::uint32_t e, Loc l) {
    const ExprManager& em = cfa_->exprs();
    const Operation& op = *edges_[e].op;
    if (const auto* s = std::get_if<Assign>(&op)) {
      if (s->value.type() == Type::Array) {
        checkpoint_.active = false;  // array writes are not undone
        ArrayValue* base_origin = nullptr;
        const bool ok =
            detail::assign_array(s->var, s->value, Valuation{this}, arrays_, [&](Term base) {
              if (base.op() == Op::Var) base_origin = origin_[base.var()];
            });
        if (!ok) return End::Blocked;
        origin_[s->var] = base_origin;
      } else {
        auto v = evaluate_big(s->value, Valuation{this});
        if (!v) return End::Blocked;
        write(s->var, std::move(*v));
      }
    } else if (const auto* h = std::get_if<Havoc>(&op)) {
      if (std::find(markers_.begin(), markers_.end(), h->var) != markers_.end()) {
        bound_ = h->var;
        return End::Bound;
      }
      const std::size_t step = path_.size();
      if (em.variable(h->var).type == Type::Array) {
        checkpoint_.active = false;
        ArrayValue& in = inputs_.arrays.havoc[step];
        in = ArrayValue{};
        arrays_[h->var] = in;
        origin_[h->var] = &in;
      } else {
        if (!(checkpoint_.active && checkpoint_.path_size == step && checkpoint_.loc == l))
          checkpoint_ = Checkpoint{true, step, havocs_.size(), l, 0, {}};
        checkpoint_.undo.clear();
        input_free_ = false;
        BigInt v = sample(em.variable(h->var).type);
        havocs_.emplace_back(step, v);
        write(h->var, std::move(v));
      }
    }
    return std::nullopt;
  }

  void write(VarId x, BigInt v) {
    if (checkpoint_.active) checkpoint_.undo.emplace_back(x, cur_[x]);
    cur_[x] = std::move(v);
  }

  // Back to the last havoc to draw its value again; false when there is none to retry.
  bool roll_back(Loc& l) {
    Checkpoint& c = checkpoint_;
    if (!c.active || c.tries >= opts_.resample_tries) return false;
    for (auto it = c.undo.rbegin(); it != c.undo.rend(); ++it) cur_[it->first] = it->second;
    c.undo.clear();
    path_.resize(c.path_size);
    havocs_.resize(c.havocs);
    l = c.loc;
    ++c.tries;
    ++resamples_;
    return true;
  }

  // A cell the run reads: written, or drawn once from the array's input.
  BigInt read_cell(VarId a, const BigInt& i) {
    ArrayValue& cur = arrays_[a];
    if (auto it = cur.cells.find(i); it != cur.cells.end()) return it->second;
    ArrayValue* in = origin_[a];
    if (in == nullptr) return cur.fallback;
    auto [it, fresh] = in->cells.try_emplace(i, BigInt(0));
    if (fresh) {
      it->second = sample(Type::Int);
      input_free_ = choice_free_ = false;
    }
    cur.cells.emplace(i, it->second);
    return it->second;
  }

  // A random value: small numbers, the program's constants (+-1), the ends of the C
  // types' ranges, any 32-bit value; for a floating-point variable (its bit pattern,
  // expr/floating_point.hpp) small integral and fractional values, the program's
  // floating constants, the zeros, the infinities, NaN, any pattern.
  BigInt sample(Type type) {
    if (type == Type::Bool) return BigInt(static_cast<int>(rng_() & 1));
    if (is_float(type)) return BigInt(sample_float(type));
    static constexpr std::int64_t kEdges[] = {-128,
                                              127,
                                              255,
                                              -32768,
                                              32767,
                                              65535,
                                              -2147483648LL,
                                              2147483647LL,
                                              4294967295LL,
                                              std::numeric_limits<std::int64_t>::min(),
                                              std::numeric_limits<std::int64_t>::max()};
    const std::uint64_t r = rng_() % 100;
    const std::uint64_t u = rng_();
    if (r < 10) return BigInt(0);
    if (r < 20) return BigInt(1);
    if (r < 40) return BigInt(static_cast<std::int64_t>(u % 33) - 16);
    if (r < 55) return BigInt(static_cast<std::int64_t>(u % 256));
    if (r < 70 && !constants_.empty()) {
      const std::int64_t c = constants_[u % constants_.size()];
      const int d = static_cast<int>((u >> 32) % 3) - 1;
      return BigInt(c) + d;
    }
    if (r < 80) return BigInt(kEdges[u % std::size(kEdges)]);
    if (r < 90) return BigInt(static_cast<std::int32_t>(static_cast<std::uint32_t>(u)));
    return BigInt(static_cast<std::uint32_t>(u));
  }

  std::int64_t sample_float(Type type) {
    const std::uint64_t r = rng_() % 100;
    const std::uint64_t u = rng_();
    auto of = [&](double d) {
      return type == Type::Float32 ? fp::bits_of(static_cast<float>(d)) : fp::bits_of(d);
    };
    if (r < 10) return of(0.0);
    if (r < 30) return of(static_cast<double>(static_cast<std::int64_t>(u % 33) - 16));
    if (r < 45) return of(static_cast<double>(static_cast<std::int64_t>(u % 2001) - 1000) / 8.0);
    if (r < 65 && !float_constants_.empty()) {
      const double c = float_constants_[u % float_constants_.size()];
      static constexpr double kScale[] = {1.0, -1.0, 0.5, 2.0, 1.0 + 1e-6, 1.0 - 1e-6};
      return of(c * kScale[(u >> 32) % std::size(kScale)]);
    }
    if (r < 75) return of(static_cast<double>(u % 1000001) / 1000.0 - 500.0);
    if (r < 80) {
      static constexpr double kSpecial[] = {-0.0, HUGE_VAL, -HUGE_VAL, 1e-40, 1e30, -1e30};
      return of(kSpecial[u % std::size(kSpecial)]);
    }
    if (r < 82) return type == Type::Float32 ? fp::nan32 : fp::nan64;
    if (type == Type::Float32)
      return fp::canonical(type, static_cast<std::int64_t>(u & 0xffffffffU));
    return fp::canonical(type, static_cast<std::int64_t>(u));
  }

  void collect_constants(const Operation& op) {
    auto add = [&](Term t) {
      for_each_subterm(t, [&](Term x) {
        if (x.op() == Op::FpConst && float_constants_.size() < kMaxConstants) {
          const double d = x.type() == Type::Float32 ? static_cast<double>(fp::to_float(x.value()))
                                                     : fp::to_double(x.value());
          if (std::isfinite(d)) float_constants_.push_back(d);
        }
        if (x.op() == Op::IntConst && constants_.size() < kMaxConstants)
          constants_.push_back(x.value());
        return true;
      });
    };
    if (const auto* a = std::get_if<Assume>(&op)) add(a->cond);
    if (const auto* s = std::get_if<Assign>(&op)) add(s->value);
  }

  bool path_memory_exceeded(const Limits* limits) const {
    return limits->memory_limit_mb > 0 && path_.size() * sizeof(std::uint32_t) * 4 >
                                              limits->memory_limit_mb * std::size_t{1 << 20};
  }

  // The run that reached the error, replayed: UNSAFE with its counterexample.
  void counterexample(VerificationResult& r, const Limits* limits) {
    const Cfa& cfa = *cfa_;
    // A run without inputs may be longer than any counterexample is built for.
    if (path_.size() > kMaxRunSteps) {
      r.verdict = Verdict::Unknown;
      r.reason = "a run without inputs reached the error location after " +
                 std::to_string(path_.size()) + " steps, more than the " +
                 std::to_string(kMaxRunSteps) + " a counterexample is built for";
      return;
    }
    // The replay and the counterexample hold every step (measured: about 140 bytes a
    // step with the path and the replay's inputs, 3.0 GB for 20 million): a path they cannot hold
    // under the memory limit ends the run here, UNKNOWN, rather than by running out of memory.
    if (limits != nullptr && limits->memory_limit_mb > 0) {
      const std::size_t need = path_.size() * kCounterexampleBytesPerStep + resident_bytes();
      if (need > limits->memory_limit_mb * std::size_t{1024 * 1024}) {
        r.verdict = Verdict::Unknown;
        r.reason = "a random run reached the error location after " + std::to_string(path_.size()) +
                   " steps, but its counterexample would exceed the memory limit of " +
                   std::to_string(limits->memory_limit_mb) + " MB";
        return;
      }
    }
    ErrorPath path{cfa.initial_location(), {}};
    path.steps.reserve(path_.size());
    for (std::uint32_t e : path_) path.steps.push_back(edges_[e]);
    PathInputs in = std::move(inputs_);
    in.havoc.assign(path_.size(), BigInt(0));
    for (auto& [step, v] : havocs_) in.havoc[step] = std::move(v);
    const auto replay_start = std::chrono::steady_clock::now();
    ReplayResult rep = replay(cfa.exprs(), path.operations(), in, ReplayRecord::Changes);
    const double replay_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - replay_start).count();
    if (!rep.ok) {
      r.verdict = Verdict::Unknown;
      r.reason = "a random run reached the error location, but it does not replay (step " +
                 std::to_string(rep.failed_step + 1) + ": " + rep.reason + ")";
      return;
    }
    // Building the counterexample takes a quarter of the replay's time or less (3.6
    // million steps: 0.9 s, 0.15 s; 20 million: 3.3 s, 0.7 s); where that would pass the
    // limit, the run ends UNKNOWN here.
    if (limits != nullptr && limits->remaining_s() < kCounterexamplePerReplay * replay_s) {
      r.verdict = Verdict::Unknown;
      r.reason = limits->time_reason() +
                 " while replaying a random run that reached the error "
                 "location after " +
                 std::to_string(path_.size()) + " steps";
      return;
    }
    r.verdict = Verdict::Unsafe;
    r.reason = "a random run reached the error location (run " + std::to_string(runs_) + ", " +
               std::to_string(path_.size()) + " CFA edges; replayed)";
    const auto cx_start = std::chrono::steady_clock::now();
    r.counterexample = make_counterexample(cfa, path, in, std::move(rep));
    r.stats.extra["sim replay s"] = replay_s;
    r.stats.extra["sim counterexample s"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - cx_start).count();
  }

  static constexpr std::size_t kCheckpointSteps = 32;
  static constexpr std::size_t kCounterexampleBytesPerStep = 200;
  static constexpr double kConfirmShare = 4;
  static constexpr double kCounterexamplePerReplay = 0.5;
  // A path of 20 million steps costs 3 GB to replay and report (with its certificate,
  // 6 s after the run): no run goes beyond this many steps.
  static constexpr std::size_t kMaxRunSteps = 25'000'000;
  static constexpr std::size_t kLongRun = 100'000;
  static constexpr double kInputFreeTimeFactor = 2.5;
  static constexpr double kMinStallSeconds = 0.25;
  static constexpr std::size_t kMaxConstants = 4096;

  const Cfa* cfa_;
  SimulationOptions opts_;
  std::mt19937_64 rng_;
  std::vector<EdgeRef> edges_;
  std::vector<std::vector<std::uint32_t>> out_;  // by location: indices into edges_
  std::vector<std::int64_t> constants_;
  std::vector<double> float_constants_;  // finite floating constants, as double
  std::vector<bool> covered_;            // by edge: taken by some run
  bool covered_new_ = false;             // the current run took an edge no run took before
  std::vector<VarId> markers_;

  // The current run.
  std::vector<BigInt> cur_;
  std::map<VarId, ArrayValue> arrays_;
  std::map<VarId, ArrayValue*> origin_;  // where an array's unread cells come from
  std::vector<std::uint32_t> path_;
  std::vector<std::pair<std::size_t, BigInt>> havocs_;  // (step, value)
  PathInputs inputs_;
  Checkpoint checkpoint_;
  bool input_free_ = true;
  bool choice_free_ = true;          // no choice between edges, no array cell drawn
  bool complete_run_tried_ = false;  // check_complete_run refused a run: not again
  std::string refused_;              // why check_complete_run refused the run it was given
  VarId bound_ = 0;                  // the marker the last run ended at (End::Bound)

  std::size_t runs_ = 0;
  std::size_t total_steps_ = 0;
  std::size_t longest_ = 0;
  std::size_t resamples_ = 0;
};

}  // namespace precis
