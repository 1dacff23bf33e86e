// Point-to-point synchronization on local symmetric variables: wait_until blocks until the variable compares true
// against a value, test reports whether it does now. Qualifiers (memory_model.hpp):
//   acquire strength  mm::acquire (default: later ordinary loads see what the awaited writer published) | mm::comm
//                     (only later comm reads — gets, bypass loads — are ordered; no cache invalidate) | mm::relaxed
//   scope             mm::device | mm::node | mm::system (default)
// The spin polls with one coherent load of the variable's size (1, 2, 4 or 8 bytes: an integer type, float or
// double); the acquire is paid once, after the value is seen, or folded into the poll where that is cheaper
// (detail/publish.hpp). The comparisons (portshmem::cmp, OpenSHMEM's SHMEM_CMP_*) are in types.hpp. A float or double
// is loaded as the unsigned integer of its size and compared as the floating type (IEEE comparison): -0.0 equals 0.0,
// and a NaN compares false with everything except ne, which is true, so a wait for eq/lt/le/gt/ge with a NaN on either
// side never returns and one for ne returns at once. An ivar outside the symmetric heap is recorded as a bad call and
// not waited on (test: false).
#pragma once

#include "portshmem/detail/wait.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/types.hpp"

namespace portshmem {

/// Waits until this PE's symmetric *ivar `op` value holds (T: an integer of 1-8 bytes, float or double), then acquires
/// per its qualifier (default: everything).
template <class T, class... Q>
PORTSHMEM_DEVICE void wait_until(const ctx& c, T* ivar, cmp op, T value, Q...) {
  detail::wait_value<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivar, op, value);
}

/// Whether *ivar `op` value holds now, acquiring as wait_until does when it holds (a failed test orders nothing).
template <class T, class... Q>
PORTSHMEM_DEVICE bool test(const ctx& c, T* ivar, cmp op, T value, Q...) {
  return detail::test_value<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivar, op, value);
}

} // namespace portshmem
