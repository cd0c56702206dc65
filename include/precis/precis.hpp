#pragma once
// The library in one include: what a verifier built on precis names.
//
//   #include <precis/precis.hpp>
//   precis::Cfa cfa = precis::read_cfa_file("model.cfa");
//   precis::CEGAR<precis::Expl> cegar(cfa, precis::CegarOptions{});
//   precis::VerificationResult r = cegar.run();
//
// Without cvc5 (no PRECIS_HAVE_CVC5; CMake target precis::precis) it gives the vocabulary
// (core/concepts.hpp), CFAs and their readers, the CPA algorithm and CEGAR, every abstract
// domain that needs no solver with its CPA and refiner (explicit values, intervals,
// congruences, zones, octagons, products of analyses), abstract interpretation, random
// simulation and the sequential composition. With cvc5 (target precis::smt, which defines
// PRECIS_HAVE_CVC5=1) it is precis/smt.hpp: all of the above and every SMT-based analysis,
// product and refiner, so that `CEGAR<ProductDomain<Expl, Pred>>` needs this one include.
// The polyhedra domain comes with it where PPL is found (target precis::ppl,
// PRECIS_HAVE_PPL=1).
//
// Each header also compiles on its own: a translation unit that wants less includes less.

#include "precis/algorithms/abstract_interpreter.hpp"
#include "precis/algorithms/cegar.hpp"
#include "precis/algorithms/random_simulation.hpp"
#include "precis/algorithms/sequential.hpp"
#include "precis/cfa/builder.hpp"
#include "precis/cfa/cfa.hpp"
#include "precis/core/concepts.hpp"
#include "precis/core/input_error.hpp"
#include "precis/core/limits.hpp"
#include "precis/core/result.hpp"
#include "precis/cpa/cpa_algorithm.hpp"
#include "precis/cpa/domain_analysis.hpp"
#include "precis/domains/box/box.hpp"
#include "precis/domains/box/boxes.hpp"
#include "precis/domains/congruence/interval_congruence.hpp"
#include "precis/domains/explicit/explicit_analysis.hpp"
#include "precis/domains/product/product_domain.hpp"
#include "precis/domains/relational/octagon.hpp"
#include "precis/domains/relational/zone.hpp"
#include "precis/io/cfa_reader.hpp"
#include "precis/io/report.hpp"
#include "precis/path/concrete_interpreter.hpp"
#include "precis/path/error_path.hpp"
#include "precis/path/refiner.hpp"
#include "precis/refine/explicit_refiner.hpp"
#include "precis/refine/product_refiner.hpp"

#ifdef PRECIS_HAVE_CVC5
#include "precis/smt.hpp"
#endif
