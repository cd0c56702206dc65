#pragma once
// Microbenchmarks of any abstract domain's operations, with Google Benchmark: the lattice
// operations (join, leq, meet, widen, hash, where the domain has them) and the transfer of
// an assignment and of an assume, over a family of elements of growing size.
//
//   #include <precis/bench/domain_ops.hpp>
//   int main(int argc, char** argv) {
//     precis::bench::register_domain_ops<precis::BoxDomain>("box");
//     benchmark::Initialize(&argc, argv);
//     benchmark::RunSpecifiedBenchmarks();
//   }
//
// registers "box/join/16", "box/post_assign/64", ... For a domain that is a
// TransferRelation with a top element (core/concepts.hpp), the family is generated from
// the domain's own transfer (`transfer_family`): with n integer variables x0..x(n-1),
// element a is top after x_i := i for every i and the assumes x_i <= x_(i+1), element b the
// same from x_i := i + 1, so that a and b differ on every variable and a relational domain
// relates neighbours; the benchmarked transfers are x0 := x1 + x(n-1) and
// assume x0 <= x(n-1). Any other domain (explicit values and predicates need their own
// precisions or abstractors) passes a family of its own: a callable from n to a
// DomainOpsFamily<D>.
//
// The header needs Google Benchmark (Debian: libbenchmark-dev) and the library only; it is
// the top layer, above io (docs/architecture.md).

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "precis/cfa/operation.hpp"
#include "precis/core/concepts.hpp"
#include "precis/expr/term.hpp"

namespace precis::bench {

// One member of the family, of size n.
template <class D>
struct DomainOpsFamily {
  std::shared_ptr<ExprManager> em;  // owns the terms of the elements and operations
  D domain;
  typename D::element a, b;  // two comparable-size elements that differ everywhere
  Operation assign;          // a transfer to time on a
  Operation assume;
  // join(a, b), filled in by register_domain_ops: `leq` times a <= join(a, b), the check
  // that succeeds and so reads all of a (a <= b may stop at the first variable).
  typename D::element upper{};
};

// The generic family of a TransferRelation with top (see the top of this file).
template <class D>
requires TransferRelation<D> && HasTop<D> && std::default_initializable<D> DomainOpsFamily<D>
transfer_family(std::size_t n) {
  auto em = std::make_shared<ExprManager>();
  std::vector<Term> x;
  for (std::size_t i = 0; i < n; ++i) {
    std::string name = "x";
    name += std::to_string(i);
    x.push_back(em->var(em->declare(std::move(name), Type::Int)));
  }
  const D d{};
  const auto build = [&](std::int64_t shift) {
    typename D::element e = d.top();
    for (std::size_t i = 0; i < n; ++i)
      e = d.post(e, Assign{x[i].var(), em->int_val(static_cast<std::int64_t>(i) + shift)});
    for (std::size_t i = 0; i + 1 < n; ++i) e = d.post(e, Assume{em->le(x[i], x[i + 1])});
    return e;
  };
  DomainOpsFamily<D> f{em, d, build(0), build(1), Skip{}, Skip{}};
  f.assign = Assign{x[0].var(), em->add(x[n > 1 ? 1 : 0], x[n - 1])};
  f.assume = Assume{em->le(x[0], x[n - 1])};
  return f;
}

namespace detail {

template <class D, class Op>
void register_one(const std::string& name, std::size_t n,
                  const std::function<DomainOpsFamily<D>(std::size_t)>& make, Op op) {
  benchmark::RegisterBenchmark((name + "/" + std::to_string(n)).c_str(),
                               [make, n, op](benchmark::State& st) {
                                 DomainOpsFamily<D> f = make(n);
                                 f.upper = f.domain.join(f.a, f.b);
                                 for (auto _ : st) benchmark::DoNotOptimize(op(f));
                               });
}

}  // namespace detail

// Registers name/OP/n for every n in `sizes` and every operation the domain has.
template <class D>
requires AbstractDomain<D>
void register_domain_ops(const std::string& name,
                         std::function<DomainOpsFamily<D>(std::size_t)> make,
                         const std::vector<std::size_t>& sizes = {4, 16, 64}) {
  using F = DomainOpsFamily<D>;
  for (const std::size_t n : sizes) {
    detail::register_one<D>(name + "/join", n, make,
                            [](const F& f) { return f.domain.join(f.a, f.b); });
    detail::register_one<D>(name + "/leq", n, make,
                            [](const F& f) { return f.domain.leq(f.a, f.upper); });
    if constexpr (HasMeet<D>)
      detail::register_one<D>(name + "/meet", n, make,
                              [](const F& f) { return f.domain.meet(f.a, f.b); });
    if constexpr (HasWiden<D>)
      detail::register_one<D>(name + "/widen", n, make,
                              [](const F& f) { return f.domain.widen(f.a, f.b); });
    if constexpr (HashableDomain<D>)
      detail::register_one<D>(name + "/hash", n, make,
                              [](const F& f) { return f.domain.hash(f.a); });
    if constexpr (TransferRelation<D>) {
      detail::register_one<D>(name + "/post_assign", n, make,
                              [](const F& f) { return f.domain.post(f.a, f.assign); });
      detail::register_one<D>(name + "/post_assume", n, make,
                              [](const F& f) { return f.domain.post(f.a, f.assume); });
    }
  }
}

// The same with the generic family of a TransferRelation with top.
template <class D>
requires TransferRelation<D> && HasTop<D> && std::default_initializable<D>
void register_domain_ops(const std::string& name,
                         const std::vector<std::size_t>& sizes = {4, 16, 64}) {
  register_domain_ops<D>(name, &transfer_family<D>, sizes);
}

}  // namespace precis::bench
