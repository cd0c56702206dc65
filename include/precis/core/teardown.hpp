#pragma once
// Deferred teardown, for processes that report a verdict and exit.
//
// Destroying what a run built takes time of its own: on a task of eca-rers2012 the cvc5
// solvers of a VINTA run took 0.4 s to destroy, after the analysis had stopped at its
// time limit and before the verdict could be printed, so the run overran its limit. A
// process that prints its report and ends need not free anything; a portfolio that runs
// stage after stage must free a stage before the next one needs the memory.
//
// While a DeferredTeardown is active on a thread, objects that cooperate (Cvc5Solver
// parks its cvc5 engines; a caller may park anything with defer_teardown) are kept
// alive in it instead of being destroyed. release() destroys what it holds (a portfolio
// calls it between stages, where the cost falls into the time between them); the
// destructor releases too, so nothing leaks; a process may instead end with _Exit and
// skip the work. Objects are destroyed on the thread that parked them, which cvc5 needs
// (its node manager is thread-local). Without an active DeferredTeardown everything is
// destroyed at once, as usual: library users see no difference.

#include <memory>
#include <utility>
#include <vector>

namespace precis {

class DeferredTeardown {
 public:
  DeferredTeardown() : previous_(slot()) { slot() = this; }
  ~DeferredTeardown() {
    release();
    slot() = previous_;
  }
  DeferredTeardown(const DeferredTeardown&) = delete;
  DeferredTeardown& operator=(const DeferredTeardown&) = delete;

  // The active instance on this thread, or nullptr.
  static DeferredTeardown* active() { return slot(); }

  void keep(std::shared_ptr<void> p) { parked_.push_back(std::move(p)); }
  [[nodiscard]] std::size_t size() const { return parked_.size(); }
  // Destroys what is parked, most recent first.
  void release() {
    while (!parked_.empty()) parked_.pop_back();
  }

 private:
  static DeferredTeardown*& slot() {
    thread_local DeferredTeardown* current = nullptr;
    return current;
  }
  DeferredTeardown* previous_;
  std::vector<std::shared_ptr<void>> parked_;
};

// Parks p in the active DeferredTeardown if there is one; else p is released here.
inline void defer_teardown(std::shared_ptr<void> p) {
  if (DeferredTeardown* t = DeferredTeardown::active()) t->keep(std::move(p));
}

}  // namespace precis
