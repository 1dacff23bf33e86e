// Point-to-point synchronization on local symmetric variables: wait_until blocks until the variable compares true
// against a value, test reports whether it does now. Qualifiers (memory_model.hpp):
//   acquire strength  mm::acquire (default: later ordinary loads see what the awaited writer published) | mm::comm
//                     (only later comm reads — gets, bypass loads — are ordered; no cache invalidate) | mm::relaxed
//   scope             mm::device | mm::node | mm::system (default)
// The spin polls with one coherent load of the variable's size (1, 2, 4 or 8 bytes: an integer type); the acquire is
// paid once, after the value is seen, or folded into the poll where that is cheaper (detail/publish.hpp).
#pragma once

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/memory_model.hpp"

namespace portshmem {

/// Comparison of wait_until / test (OpenSHMEM's SHMEM_CMP_*).
enum class cmp { eq, ne, gt, ge, lt, le };

namespace detail {
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
/// The types a wait polls: integers of 1, 2, 4 or 8 bytes (OpenSHMEM's point-to-point types and the char waits).
template <class T>
inline constexpr bool kWaitType = std::is_integral_v<T> && !std::is_same_v<T, bool> && kAtomicWord<T>;
} // namespace detail

/// Waits until *ivar (this PE's symmetric variable) `op` value holds. An ivar outside the symmetric heap is recorded
/// as a bad call and not waited on.
template <class T, class... Q>
PORTSHMEM_DEVICE void wait_until(const ctx& c, T* ivar, cmp op, T value, Q...) {
  static_assert(detail::kWaitType<T>, "wait_until takes integer types of 1, 2, 4 or 8 bytes");
  using R = mm::resolve<detail::kWaitQualifiers, Q...>;
  if (!detail::is_local_symmetric(c, ivar, sizeof(T))) {
    detail::record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_WAIT, c.my_pe, ivar, sizeof(T));
    return;
  }
  detail::spin_until(
      c,
      [&] { return detail::compare(detail::load_value<detail::kPollOrder<R>, detail::kDataScope>(ivar), op, value); },
      PORTSHMEM_CALL_WAIT, ivar, std::uint64_t(value));
  detail::observed<R>(c);
}

/// Whether *ivar `op` value holds now (with the wait's acquire strength when it does).
template <class T, class... Q>
PORTSHMEM_DEVICE bool test(const ctx& c, T* ivar, cmp op, T value, Q...) {
  static_assert(detail::kWaitType<T>, "test takes integer types of 1, 2, 4 or 8 bytes");
  using R = mm::resolve<detail::kWaitQualifiers, Q...>;
  if (!detail::is_local_symmetric(c, ivar, sizeof(T))) {
    detail::record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_WAIT, c.my_pe, ivar, sizeof(T));
    return false;
  }
  if (!detail::compare(detail::load_value<detail::kPollOrder<R>, detail::kDataScope>(ivar), op, value)) return false;
  detail::observed<R>(c);
  return true;
}

} // namespace portshmem
