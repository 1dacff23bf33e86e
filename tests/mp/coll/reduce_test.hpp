// The per-type reduce test shared by test_reduce.cpp (types run in every form) and test_reduce_types.cpp (the other
// types, block form only: the forms differ in how a call's threads split the work, not in the arithmetic, and every
// instantiation costs nvcc seconds).
#pragma once

#include <string>

#include "coll_test.hpp"

namespace coll {

struct type_names {
  template <class T>
  static std::string GetName(int) {
    if (std::is_same_v<T, char>) return "char";
    if (std::is_same_v<T, signed char>) return "schar";
    if (std::is_same_v<T, unsigned char>) return "uchar";
    if (std::is_same_v<T, short>) return "short";
    if (std::is_same_v<T, unsigned short>) return "ushort";
    if (std::is_same_v<T, int>) return "int";
    if (std::is_same_v<T, unsigned int>) return "uint";
    if (std::is_same_v<T, long>) return "long";
    if (std::is_same_v<T, unsigned long>) return "ulong";
    if (std::is_same_v<T, long long>) return "longlong";
    if (std::is_same_v<T, unsigned long long>) return "ulonglong";
    if (std::is_same_v<T, float>) return "float";
    if (std::is_same_v<T, double>) return "double";
    if (std::is_same_v<T, portshmem::half_t>) return "half";
    if (std::is_same_v<T, portshmem::bfloat16_t>) return "bfloat16";
    return "T" + std::to_string(sizeof(T));
  }
};

/// Elements up to which a reduce of T takes one round (and one more: two rounds), for the PEs' scratch.
template <class T>
inline constexpr std::size_t kOneShot = portshmem::detail::kReduceOneShotBytes / sizeof(T);

/// Elements of reduce_scatter's largest slice in one scratch half (one more: two chunks).
template <class T>
std::size_t scatter_slice(const coll::team_ref& t) {
  const std::size_t half = t.handle().scratch_bytes / 2 / portshmem::detail::kTeamAlign * portshmem::detail::kTeamAlign;
  return half / (std::size_t(t.size()) * sizeof(T));
}

/// Every operation T takes at sizes 0, 1, 3, 1001, at and past the one-shot limit, in place, and reduce_scatter (also
/// past a scratch half's slice), on the world (every form, or the block form: kEveryForm) and on one sub-team.
template <class T>
void every_operation_and_size() {
  const auto build = [](plan& p, const team_ref& t) {
    const int ti = p.team(t.handle());
    std::uint64_t salt = 1000;
    for (op o : ops_of<T>()) {
      for (std::size_t n :
           {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(1001), kOneShot<T>, kOneShot<T> + 1}) {
        add_reduce<T>(p, 0, ti, t, o, n, false, ++salt);
      }
      for (std::size_t n : {std::size_t(1), kOneShot<T> + 1})
        add_reduce<T>(p, 0, ti, t, o, n, true, ++salt, "reduce in place");
      for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(333)})
        add_reduce_scatter<T>(p, 0, ti, t, o, n, ++salt);
    }
    // Past one scratch half's slice: two chunks (once per type; the operators differ only in the arithmetic).
    add_reduce_scatter<T>(p, 0, ti, t, std::is_integral_v<T> ? op::bxor : op::sum, scatter_slice<T>(t) + 1, ++salt);
  };
  for_each_team<T>("reduce<" + type_names::GetName<T>(0) + ">", sizeof(T) + std::is_signed_v<T>, build, 1);
}

} // namespace coll
