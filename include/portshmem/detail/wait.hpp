// The bodies of wait.hpp: a wait polls this PE's own symmetric variable (no transport is involved) with coherent
// loads in the one spin loop (detail/spin.hpp), and pays its acquire once the value is seen (detail/publish.hpp).
// Floating-point variables (float, double) are polled as the unsigned integer of their size (load_value) and the
// value loaded is compared as the floating type; a timeout report then shows the value's bits.
#pragma once

#include <cstdint>
#include <type_traits>

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/types.hpp"

namespace portshmem::detail {

template <class T>
PORTSHMEM_DEVICE bool compare(T a, cmp op, T b) {
  switch (op) {
  case cmp::eq:
    return a == b;
  case cmp::ne:
    return a != b;
  case cmp::gt:
    return a > b;
  case cmp::ge:
    return a >= b;
  case cmp::lt:
    return a < b;
  default:
    return a <= b;
  }
}
inline constexpr unsigned kWaitQualifiers = mm::cat::acquire | mm::cat::scope;
/// The integer types a wait polls: 1, 2, 4 or 8 bytes (OpenSHMEM's point-to-point types and the char waits).
template <class T>
inline constexpr bool kWaitIntegerType = std::is_integral_v<T> && !std::is_same_v<T, bool> && kAtomicWord<T>;
/// The floating types a wait polls: float and double (4 and 8 bytes; rocSHMEM's float and double waits).
template <class T>
inline constexpr bool kWaitFloatType = std::is_floating_point_v<T>&& kAtomicWord<T> &&
                                       (sizeof(T) == 4 || sizeof(T) == 8);
/// The types a wait polls.
template <class T>
inline constexpr bool kWaitType = kWaitIntegerType<T> || kWaitFloatType<T>;

/// The word spin_until polls and reports for a timeout: the variable itself, or for a floating type the unsigned
/// integer of its size at the same address (so a timeout records the value's bits, not a rounded integer).
template <class T>
PORTSHMEM_DEVICE const auto* wait_word(const T* ivar) {
  if constexpr (kWaitFloatType<T>) {
    return reinterpret_cast<const arch::detail::uint_t<sizeof(T)>*>(ivar);
  } else {
    return ivar;
  }
}
/// The awaited value as a timeout records it: the integer's value, or a floating value's bits.
template <class T>
PORTSHMEM_DEVICE std::uint64_t awaited_word(T value) {
  if constexpr (kWaitFloatType<T>) {
    return std::uint64_t(bit_cast<arch::detail::uint_t<sizeof(T)>>(value));
  } else {
    return std::uint64_t(value);
  }
}

/// Whether this PE's own variable *ivar may be polled (misaligned: debug checks only), else records why.
template <class T>
PORTSHMEM_DEVICE bool local_word_ok(const ctx& c, const T* ivar) {
  if (misaligned<T>(ivar)) {
    record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_WAIT, c.my_pe, ivar, sizeof(T));
    return false;
  }
  if (!is_local_symmetric(c, ivar, sizeof(T))) {
    record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_WAIT, c.my_pe, ivar, sizeof(T));
    return false;
  }
  return true;
}

/// wait_until's body.
template <class R, class T>
PORTSHMEM_DEVICE void wait_value(const ctx& c, T* ivar, cmp op, T value) {
  static_assert(kWaitType<T>, "wait_until takes integer types of 1, 2, 4 or 8 bytes, float and double");
  if (!local_word_ok(c, ivar)) return;
  spin_until(
      c, [&] { return compare(load_value<kPollOrder<R>, kDataScope>(ivar), op, value); }, PORTSHMEM_CALL_WAIT,
      wait_word(ivar), awaited_word(value), op);
  observed<R>(c);
}

/// test's body.
template <class R, class T>
PORTSHMEM_DEVICE bool test_value(const ctx& c, T* ivar, cmp op, T value) {
  static_assert(kWaitType<T>, "test takes integer types of 1, 2, 4 or 8 bytes, float and double");
  if (!local_word_ok(c, ivar)) return false;
  if (!compare(load_value<kPollOrder<R>, kDataScope>(ivar), op, value)) return false;
  observed<R>(c);
  return true;
}

} // namespace portshmem::detail
