#pragma once
// Concrete values of array variables, for counterexamples and their replay.
//
// An ArrayValue maps every integer index to a value: the cells written so far, and one
// value for all others (`fallback`), as SMT-LIB models print arrays: stores over a
// constant array. A path's array inputs are kept apart from its integer inputs, since
// every other consumer of a path's values (explicit interpolation, witnesses, reports)
// reads integers only.

#include <cstddef>
#include <map>

#include "precis/core/big_int.hpp"

namespace precis {

struct ArrayValue {
  BigInt fallback = 0;
  std::map<BigInt, BigInt> cells;

  [[nodiscard]] const BigInt& at(const BigInt& i) const {
    auto it = cells.find(i);
    return it == cells.end() ? fallback : it->second;
  }
  void set(const BigInt& i, BigInt v) { cells.insert_or_assign(i, std::move(v)); }

  friend bool operator==(const ArrayValue&, const ArrayValue&) = default;
};

// The array inputs of a path: the initial value of an array variable (by its VarId) and
// the value a havoc of an array variable chooses (by step). A missing entry is the array
// of zeros.
struct ArrayInputs {
  std::map<std::size_t, ArrayValue> initial;
  std::map<std::size_t, ArrayValue> havoc;

  [[nodiscard]] bool empty() const { return initial.empty() && havoc.empty(); }
};

}  // namespace precis
