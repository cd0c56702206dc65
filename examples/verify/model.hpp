#pragma once
// What precis-verify verifies: a .cfa model, a C program (.c, .i) or an SV-COMP task
// (.yml, .yaml), loaded into a CFA (model.cpp; C needs the C front end).

#include <optional>
#include <string>

#include "config.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/limits.hpp"

namespace precis_cli {

// What was read: the CFA and, for an SV-COMP task, the expected verdict.
struct Model {
  precis::Cfa cfa;
  bool is_task = false;
  std::optional<bool> expected;  // SV-COMP: true = no reachable error call
  std::string c_file;            // the C program (empty for a .cfa model)
  bool lp64 = false;             // its data model
  // --analysis auto on recursive C (--recursion auto): `cfa` has the recursion with an
  // explicit stack (`stack`), and `inlined` the inlined translation the portfolio tries
  // after it (none where inlining did not finish within its share of the time, passed
  // the memory limit or refused a construct: `inlined_failure` says which).
  std::optional<precis::Cfa> inlined{};
  bool stack = false;
  std::string inlined_failure{};
};

// A C program (.c, .i) or an SV-COMP task (.yml, .yaml): read by the C front end.
bool is_c_input(const std::string& path);

// An SV-COMP task (.yml, .yaml): its report has the SV-COMP verdict.
bool looks_like_task(const std::string& path);

// Reads cfg.model (a bare C program with cfg.data_model). Throws input_error (also for
// C input in a build without the C front end) and limit_reached.
Model load_model(const Config& cfg, const precis::Limits& limits);

}  // namespace precis_cli
