#pragma once
// --invariants zone|oct: a relational abstract interpretation first;
// its invariant, once the solver has proved it inductive, strengthens the CFA the chosen
// analysis runs on (cfa/strengthen.hpp), so that a CEGAR analysis starts from what the
// relational domain already knows (k == i, x + y == n) instead of rediscovering it by
// unrolling. When the invariant alone excludes the error location the run is SAFE at
// once, certified as ai-* certifies. A SAFE of the strengthened run reports its
// certificate conjoined with the invariant (valid for the original program).

#include "analyses.hpp"

namespace precis_cli {

// Runs `entry` on model, with the invariants of cfg.invariants first.
Outcome run_with_invariants(const AnalysisEntry& entry, const Model& model, const RunContext& ctx);

#ifdef PRECIS_HAVE_CVC5
// --analysis kind: k-induction whose step case assumes the octagon invariant
// (--invariants zone: the zone invariant) once the solver has proved it inductive.
Outcome run_kind(const Model& model, const RunContext& ctx);
#endif

}  // namespace precis_cli
