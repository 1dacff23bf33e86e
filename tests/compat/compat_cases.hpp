// What the rocSHMEM table tests share (test_rocshmem_names.cpp: device names; test_rocshmem_host.cpp: host names): the
// one-word spellings of the element types the generated cases name, the values a PE writes, and the reductions'
// inputs and expected results. Included once per test program, inside its unnamed namespace.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

using signed_char = signed char;
using unsigned_char = unsigned char;
using unsigned_short = unsigned short;
using unsigned_int = unsigned int;
using unsigned_long = unsigned long;
using long_long = long long;
using unsigned_long_long = unsigned long long;

/// Element i of what PE pe writes.
template <class T>
T val(int pe, std::size_t i) {
  return T((pe * 7 + int(i) * 3 + 1) % 100);
}
template <class T>
void fill(T* p, std::size_t n, int pe) {
  for (std::size_t i = 0; i < n; ++i) p[i] = val<T>(pe, i);
}
template <class T>
bool holds(const T* p, std::size_t n, int pe) {
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != val<T>(pe, i)) return false;
  }
  return true;
}
template <class T>
bool zeros(const T* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != T(0)) return false;
  }
  return true;
}

/// A reduction's element i from PE pe: small, so that a product over 4 PEs fits every type.
template <class T>
T small(int pe, std::size_t i) {
  return T((pe + int(i)) % 5 + 1);
}
/// The operator a generated case names (op_sum, ...) applied to a and b.
template <class T>
T combine(const char* op, T a, T b) {
  if (!std::strcmp(op, "op_sum")) return T(a + b);
  if (!std::strcmp(op, "op_prod")) return T(a * b);
  if (!std::strcmp(op, "op_min")) return a < b ? a : b;
  if (!std::strcmp(op, "op_max")) return a > b ? a : b;
  if constexpr (std::is_integral_v<T>) {
    if (!std::strcmp(op, "op_and")) return T(a & b);
    if (!std::strcmp(op, "op_or")) return T(a | b);
    if (!std::strcmp(op, "op_xor")) return T(a ^ b);
  }
  return T(-1);
}
/// PE me's source of a reduction of n elements: small(me, i); of a reduce-scatter (scatter), npes blocks of n, block j
/// small(me * npes + j, i).
template <class T>
void reduce_input(T* s, std::size_t n, int me, int npes, bool scatter) {
  for (int j = 0; j < (scatter ? npes : 1); ++j) {
    for (std::size_t i = 0; i < n; ++i) s[std::size_t(j) * n + i] = small<T>(scatter ? me * npes + j : me, i);
  }
}
/// Whether d holds op over the npes PEs' reduce_input, in PE order (scatter: the reduction of block me).
template <class T>
bool reduced(const char* op, const T* d, std::size_t n, int me, int npes, bool scatter) {
  for (std::size_t i = 0; i < n; ++i) {
    T want = small<T>(scatter ? me : 0, i);
    for (int p = 1; p < npes; ++p) want = combine(op, want, small<T>(scatter ? p * npes + me : p, i));
    if (d[i] != want) return false;
  }
  return true;
}
