#pragma once
// Umbrella header: the core library without the SMT layer (see precis/smt/ for that).

#include "precis/algorithms/cegar.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/result.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/refine/explicit_refiner.hpp"
