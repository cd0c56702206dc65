#pragma once
// The SMT half of the library in one include (needs cvc5: CMake target precis::smt, which
// defines PRECIS_HAVE_CVC5=1): everything of precis/precis.hpp, and predicate abstraction
// (Cartesian, Boolean, adjustable-block encoding, synergy) with its refiners, explicit
// values with the exact SMT counterexample check, the products of explicit values and
// predicates (ProductDomain<Expl, Pred>, the strategy products), VINTA, bounded model
// checking, k-induction, and the certificate checker that proves every SAFE.

#include "precis/precis.hpp"

#ifndef PRECIS_HAVE_CVC5
#error \
    "precis/smt.hpp needs cvc5: link the CMake target precis::smt (it defines PRECIS_HAVE_CVC5=1)"
#endif

#include "precis/algorithms/bmc.hpp"
#include "precis/algorithms/k_induction.hpp"
#include "precis/algorithms/synergy.hpp"
#include "precis/algorithms/vinta.hpp"
#include "precis/certify/certificate_checker.hpp"
#include "precis/certify/certify.hpp"
#include "precis/domains/predicate/abe_analysis.hpp"
#include "precis/domains/predicate/predicate_analysis.hpp"
#include "precis/domains/product/strategy_product.hpp"
#include "precis/refine/block_refiner.hpp"
#include "precis/refine/explicit_smt_refiner.hpp"
#include "precis/refine/predicate_refiner.hpp"
#include "precis/refine/strategy_product_refiner.hpp"
#include "precis/refine/synergy_refiner.hpp"
#include "precis/smt/cvc5_solver.hpp"

#ifdef PRECIS_HAVE_PPL
#include "precis/domains/relational/polyhedra.hpp"
#endif
