// Point-to-point synchronization on local symmetric variables: wait_until blocks until the variable compares true
// against a value, test reports whether it does now. The load that sees the awaited value is an acquire at system
// scope: the waiting thread's later loads see what the writer published before its update.
#pragma once

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/detail/spin.hpp"

namespace portshmem {

/// Comparison of wait_until / test (OpenSHMEM's SHMEM_CMP_*).
enum class cmp { eq, ne, gt, ge, lt, le };

namespace detail {
template <class T>
PORTSHMEM_DEVICE bool compare(T a, cmp op, T b) {
  switch (op) {
  case cmp::eq: return a == b;
  case cmp::ne: return a != b;
  case cmp::gt: return a > b;
  case cmp::ge: return a >= b;
  case cmp::lt: return a < b;
  default: return a <= b;
  }
}
}  // namespace detail

/// Waits until *ivar (this PE's symmetric variable) `op` value holds. An ivar outside the symmetric heap is recorded
/// as a bad call and not waited on.
template <class T>
PORTSHMEM_DEVICE void wait_until(const ctx& c, T* ivar, cmp op, T value) {
  static_assert(detail::kAtomicWord<T>, "wait_until takes 4- or 8-byte integer types");
  if (!detail::is_local_symmetric(c, ivar, sizeof(T))) {
    detail::record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_WAIT, c.my_pe, ivar, sizeof(T));
    return;
  }
  detail::spin_until(
      c,
      [&] {
        return detail::compare(detail::load_value<arch::order::acquire, arch::scope::system>(ivar), op, value);
      },
      PORTSHMEM_CALL_WAIT, ivar, std::uint64_t(value));
}

/// Whether *ivar `op` value holds now (an acquire when it does).
template <class T>
PORTSHMEM_DEVICE bool test(const ctx& c, T* ivar, cmp op, T value) {
  static_assert(detail::kAtomicWord<T>, "test takes 4- or 8-byte integer types");
  if (!detail::is_local_symmetric(c, ivar, sizeof(T))) {
    detail::record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_WAIT, c.my_pe, ivar, sizeof(T));
    return false;
  }
  return detail::compare(detail::load_value<arch::order::acquire, arch::scope::system>(ivar), op, value);
}

}  // namespace portshmem
