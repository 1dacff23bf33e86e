// Point-to-point synchronization on arrays (OpenSHMEM 1.5): wait_until_all / _any / _some and test_all / _any / _some
// on this PE's symmetric ivars[0, nelems), each also as a _vector form comparing element i with values[i]. status
// (nullptr: every element takes part) excludes element i when status[i] != 0.
//   all   waits until every included element has satisfied the comparison (each is waited for in turn, so each has
//         held at some point before the call returns)
//   any   waits until one included element does and returns its index; SIZE_MAX at once when none is included
//   some  waits until at least one does, writes the indices of all included elements that do to indices[], returns
//         their count; 0 at once when none is included
//   test_ the same conditions checked once, without waiting (test_any: SIZE_MAX, test_some: 0 when none holds)
// The element types and their comparison are wait_until's (integers of 1-8 bytes, float and double compared as
// floating values: wait.hpp says what a NaN does). Qualifiers are wait_until's (wait.hpp): acquire strength mm::acquire
// (default) | mm::comm | mm::relaxed, and scope. The polls are coherent loads; the acquire is paid once, after the
// condition held (a test that fails pays nothing). An array outside the symmetric heap is recorded as a bad call:
// nothing is waited for, any/some return SIZE_MAX / 0 and test_all returns false.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/detail/wait_vector.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/types.hpp"
#include "portshmem/wait.hpp"

namespace portshmem {

// Each form compares every included element with value, or (the _vector form) element i with values[i]. The _some
// forms also take indices[] (room for nelems entries), between nelems and status as in OpenSHMEM; with no element
// included (status excludes all), wait_until_some returns 0 at once.

/// Returns once every included element has satisfied the comparison, then acquires as wait_until.
template <class T, class... Q>
PORTSHMEM_DEVICE void wait_until_all(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op, T value,
                                     Q...) {
  return detail::wait_all<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op,
                                                                      detail::same_value<T>{value});
}

/// wait_until_all comparing element i with values[i].
template <class T, class... Q>
PORTSHMEM_DEVICE void wait_until_all_vector(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op,
                                            const T* values, Q...) {
  return detail::wait_all<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op, values);
}

/// Returns the index of an included element that satisfies the comparison (SIZE_MAX at once if none is included).
template <class T, class... Q>
PORTSHMEM_DEVICE std::size_t wait_until_any(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op,
                                            T value, Q...) {
  return detail::wait_any<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op,
                                                                      detail::same_value<T>{value});
}

/// wait_until_any comparing element i with values[i].
template <class T, class... Q>
PORTSHMEM_DEVICE std::size_t wait_until_any_vector(const ctx& c, T* ivars, std::size_t nelems, const int* status,
                                                   cmp op, const T* values, Q...) {
  return detail::wait_any<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op, values);
}

/// Waits until some included elements satisfy the comparison; writes their indices to indices[], returns how many.
template <class T, class... Q>
PORTSHMEM_DEVICE std::size_t wait_until_some(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices,
                                             const int* status, cmp op, T value, Q...) {
  return detail::wait_some<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, indices, status, op,
                                                                       detail::same_value<T>{value});
}

/// wait_until_some comparing element i with values[i].
template <class T, class... Q>
PORTSHMEM_DEVICE std::size_t wait_until_some_vector(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices,
                                                    const int* status, cmp op, const T* values, Q...) {
  return detail::wait_some<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, indices, status, op, values);
}

/// Whether every included element satisfies the comparison now (true when none is included; acquires if so).
template <class T, class... Q>
PORTSHMEM_DEVICE bool test_all(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op, T value, Q...) {
  return detail::test_all<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op,
                                                                      detail::same_value<T>{value});
}

/// test_all comparing element i with values[i].
template <class T, class... Q>
PORTSHMEM_DEVICE bool test_all_vector(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op,
                                      const T* values, Q...) {
  return detail::test_all<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op, values);
}

/// The index of an included element that satisfies the comparison now (acquiring), or SIZE_MAX.
template <class T, class... Q>
PORTSHMEM_DEVICE std::size_t test_any(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op, T value,
                                      Q...) {
  return detail::test_any<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op,
                                                                      detail::same_value<T>{value});
}

/// test_any comparing element i with values[i].
template <class T, class... Q>
PORTSHMEM_DEVICE std::size_t test_any_vector(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op,
                                             const T* values, Q...) {
  return detail::test_any<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op, values);
}

/// How many included elements satisfy the comparison now (acquiring if any); their indices go to indices[].
template <class T, class... Q>
PORTSHMEM_DEVICE std::size_t test_some(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices,
                                       const int* status, cmp op, T value, Q...) {
  return detail::test_some<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, indices, status, op,
                                                                       detail::same_value<T>{value});
}

/// test_some comparing element i with values[i].
template <class T, class... Q>
PORTSHMEM_DEVICE std::size_t test_some_vector(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices,
                                              const int* status, cmp op, const T* values, Q...) {
  return detail::test_some<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, indices, status, op, values);
}

} // namespace portshmem
