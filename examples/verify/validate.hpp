#pragma once
// --validate WITNESS (validate.cpp): check a witness for the model instead of verifying.

#include "analyses.hpp"
#include "model.hpp"

namespace precis_cli {

// A violation witness (GraphML) is replayed on the model, a correctness witness (YAML)
// proved as a certificate, or, if its invariants are not inductive by themselves,
// checked as assertions by the analysis --analysis names (the registry's, or the
// portfolio). Prints confirmed, rejected or undecided with the reason; returns 0, 1 or 2.
// Needs cvc5 (an input error without it); YAML witnesses need the C front end too.
int validate(const Model& model, const RunContext& ctx);

}  // namespace precis_cli
