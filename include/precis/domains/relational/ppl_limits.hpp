#pragma once
// The run's deadline inside the Parma Polyhedra Library (the rule that every phase of a
// run stops by itself at the time limit, applied to a single PPL operation, which can take
// minutes: the join of two boxes of 16 bounded variables converts 2 * 2^16 vertices).
//
// PPL's expensive loops (the Chernikova conversion between constraints and generators,
// which every exponential operation goes through) call maybe_abandon(), which calls
// throw_me() on the object Parma_Polyhedra_Library::abandon_expensive_computations points
// to when that pointer is not null. PplDeadlineGuard points it, for its lifetime, at a
// Throwable that throws precis::limit_reached once the deadline has passed, and restores
// the previous pointer when it ends (guards nest). Without a deadline it does nothing.
//
// Cost: PPL polls once per row the conversion treats (a scalar product of two rows,
// about 0.8 us on bench/'s skewed cubes); the guard reads the clock (steady_clock, 35 ns
// on the benchmark VM) at every kStride-th poll. A read at every poll cost 5 % of a
// conversion-bound join (bench/polyhedra_bench.cpp: BM_DeadlinePoll, BM_PolyJoinSkewed
// with and without a deadline), one in 8 well under 1 %, and the throw comes at most 7
// rows late.
//
// After a throw, the polyhedra the interrupted operation was computing, and those whose
// lazily computed description it was completing (PPL updates caches of const operands),
// are in an unspecified state: they may only be destroyed or assigned to. The run they
// belong to ends (UNKNOWN, the limit as the reason). PPL is not thread-safe, and the
// pointer is global: one thread at a time may use PPL, guards included.

#include <ppl.hh>

#include <cstdint>

#include "precis/core/limits.hpp"

namespace precis {

class PplDeadlineGuard {
 public:
  // The clock is read at every kStride-th poll.
  static constexpr std::uint64_t kStride = 8;

  // `deadline` must outlive the guard (it is read, not copied, at every poll).
  explicit PplDeadlineGuard(const Deadline& deadline)
      : thrower_(deadline), prev_(Parma_Polyhedra_Library::abandon_expensive_computations) {
    if (deadline.none()) return;
    Parma_Polyhedra_Library::abandon_expensive_computations = &thrower_;
    installed_ = true;
  }
  ~PplDeadlineGuard() {
    if (installed_) Parma_Polyhedra_Library::abandon_expensive_computations = prev_;
  }
  PplDeadlineGuard(const PplDeadlineGuard&) = delete;
  PplDeadlineGuard& operator=(const PplDeadlineGuard&) = delete;
  PplDeadlineGuard(PplDeadlineGuard&&) = delete;
  PplDeadlineGuard& operator=(PplDeadlineGuard&&) = delete;

  // How often PPL polled the deadline under this guard.
  [[nodiscard]] std::uint64_t polls() const noexcept { return thrower_.polls; }

 private:
  class Thrower final : public Parma_Polyhedra_Library::Throwable {
   public:
    explicit Thrower(const Deadline& d) : deadline_(&d) {}
    void throw_me() const override {
      if (++polls % kStride == 0 && deadline_->passed())
        throw limit_reached(LimitKind::Time, deadline_->reason);
    }
    mutable std::uint64_t polls = 0;

   private:
    const Deadline* deadline_;
  };

  Thrower thrower_;
  const Parma_Polyhedra_Library::Throwable* prev_;
  bool installed_ = false;
};

}  // namespace precis
