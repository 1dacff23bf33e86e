// reduce and reduce_scatter for the element types test_reduce.cpp does not run in every form: every operation and size
// in the block form (the per-type arithmetic; the forms are the same code for every type), and the fixed-width names.
#include <cstddef>
#include <cstdint>

#include "reduce_test.hpp"

namespace {

using coll::form;
using coll::op;

template <class T>
class ReduceBlockForm : public ::testing::Test {};
using block_form_types = ::testing::Types<char, signed char, unsigned char, short, unsigned short, unsigned int, long,
                                          unsigned long, long long, unsigned long long, float, portshmem::bfloat16_t>;
TYPED_TEST_SUITE(ReduceBlockForm, block_form_types, coll::type_names);

TYPED_TEST(ReduceBlockForm, EveryOperationAndSize) {
  coll::every_operation_and_size<TypeParam>();
}

// The fixed-width names and size_t/ptrdiff_t are aliases of the types above; each still gets every operation once
// (world, block form), so a platform where they are distinct types is covered too.
template <class T>
class ReduceFixedWidth : public ::testing::Test {};
using fixed_types = ::testing::Types<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t,
                                     std::uint32_t, std::uint64_t, std::size_t, std::ptrdiff_t>;
TYPED_TEST_SUITE(ReduceFixedWidth, fixed_types);

TYPED_TEST(ReduceFixedWidth, EveryOperation) {
  using T = TypeParam;
  coll::team_ref t = coll::team_ref::world();
  coll::plan p;
  const int ti = p.team(t.handle());
  std::uint64_t salt = 5000;
  for (op o : coll::ops_of<T>()) {
    for (std::size_t n : {std::size_t(1), std::size_t(1001), coll::kOneShot<T> + 1})
      coll::add_reduce<T>(p, 0, ti, t, o, n, false, ++salt);
    coll::add_reduce_scatter<T>(p, 0, ti, t, o, 33, ++salt);
  }
  coll::run_checked<T>(p, form::block, "reduce<int" + std::to_string(8 * sizeof(T)) + "_t>");
}

} // namespace
