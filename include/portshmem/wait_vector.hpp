// Point-to-point synchronization on arrays (OpenSHMEM 1.5): wait_until_all / _any / _some and test_all / _any / _some
// on this PE's symmetric ivars[0, nelems), each also as a _vector form comparing element i with values[i]. status
// (nullptr: every element takes part) excludes element i when status[i] != 0.
//   all   waits until every included element has satisfied the comparison (each is waited for in turn, so each has
//         held at some point before the call returns)
//   any   waits until one included element does and returns its index; SIZE_MAX at once when none is included
//   some  waits until at least one does, writes the indices of all included elements that do to indices[], returns
//         their count; 0 at once when none is included
//   test_ the same conditions checked once, without waiting (test_any: SIZE_MAX, test_some: 0 when none holds)
// Qualifiers are wait_until's (wait.hpp): acquire strength mm::acquire (default) | mm::comm | mm::relaxed, and scope.
// The polls are coherent loads; the acquire is paid once, after the condition held (a test that fails pays nothing).
// An array outside the symmetric heap is recorded as a bad call: nothing is waited for, any/some return SIZE_MAX / 0
// and test_all returns false.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/wait.hpp"

namespace portshmem {

namespace detail {

template <class T>
PORTSHMEM_DEVICE void check_wait_vector_type() {
  static_assert(kWaitType<T>, "portshmem: the wait_until_all/any/some and test_all/any/some families take integer "
                              "types of 1, 2, 4 or 8 bytes");
}

/// The compare values of the scalar forms: the same value for every element.
template <class T>
struct same_value {
  T value;
  PORTSHMEM_DEVICE T operator[](std::size_t) const { return value; }
};

PORTSHMEM_DEVICE bool included(const int* status, std::size_t i) {
  return !status || status[i] == 0;
}

/// Whether ivars[0, n) lies in this PE's symmetric heap; records the bad call when not.
template <class T>
PORTSHMEM_DEVICE bool local_array(const ctx& c, const T* ivars, std::size_t n) {
  if (n <= c.heap_size / sizeof(T) && is_local_symmetric(c, ivars, n * sizeof(T))) return true;
  record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_WAIT, c.my_pe, ivars, n * sizeof(T));
  return false;
}

/// The first included index, or SIZE_MAX.
PORTSHMEM_DEVICE std::size_t first_included(const int* status, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (included(status, i)) return i;
  }
  return SIZE_MAX;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE bool holds(const T* ivars, std::size_t i, cmp op, const V& values) {
  return compare(load_value<kPollOrder<R>, kDataScope>(ivars + i), op, T(values[i]));
}

/// One pass: the first included index whose comparison holds, or SIZE_MAX.
template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t find_any(const T* ivars, std::size_t n, const int* status, cmp op, const V& values) {
  for (std::size_t i = 0; i < n; ++i) {
    if (included(status, i) && holds<R>(ivars, i, op, values)) return i;
  }
  return SIZE_MAX;
}

/// One pass: writes every included index whose comparison holds to indices[], returns how many.
template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t find_some(const T* ivars, std::size_t n, std::size_t* indices, const int* status, cmp op,
                                       const V& values) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (included(status, i) && holds<R>(ivars, i, op, values)) indices[count++] = i;
  }
  return count;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE void wait_all(const ctx& c, T* ivars, std::size_t n, const int* status, cmp op, const V& values) {
  if (n == 0 || !local_array(c, ivars, n)) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (!included(status, i)) continue;
    spin_until(
        c, [&] { return holds<R>(ivars, i, op, values); }, PORTSHMEM_CALL_WAIT, ivars + i, std::uint64_t(values[i]));
  }
  observed<R>(c);
}

template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t wait_any(const ctx& c, T* ivars, std::size_t n, const int* status, cmp op,
                                      const V& values) {
  if (n == 0 || !local_array(c, ivars, n)) return SIZE_MAX;
  const std::size_t first = first_included(status, n);
  if (first == SIZE_MAX) return SIZE_MAX; // nothing could ever satisfy it
  std::size_t found = SIZE_MAX;
  spin_until(
      c,
      [&] {
        found = find_any<R>(ivars, n, status, op, values);
        return found != SIZE_MAX;
      },
      PORTSHMEM_CALL_WAIT, ivars + first, std::uint64_t(values[first]));
  observed<R>(c);
  return found;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t wait_some(const ctx& c, T* ivars, std::size_t n, std::size_t* indices, const int* status,
                                       cmp op, const V& values) {
  if (n == 0 || !local_array(c, ivars, n)) return 0;
  const std::size_t first = first_included(status, n);
  if (first == SIZE_MAX) return 0;
  std::size_t count = 0;
  spin_until(
      c,
      [&] {
        count = find_some<R>(ivars, n, indices, status, op, values);
        return count != 0;
      },
      PORTSHMEM_CALL_WAIT, ivars + first, std::uint64_t(values[first]));
  observed<R>(c);
  return count;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE bool test_all(const ctx& c, T* ivars, std::size_t n, const int* status, cmp op, const V& values) {
  if (n == 0) return true;
  if (!local_array(c, ivars, n)) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (included(status, i) && !holds<R>(ivars, i, op, values)) return false;
  }
  observed<R>(c);
  return true;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t test_any(const ctx& c, T* ivars, std::size_t n, const int* status, cmp op,
                                      const V& values) {
  if (n == 0 || !local_array(c, ivars, n)) return SIZE_MAX;
  const std::size_t found = find_any<R>(ivars, n, status, op, values);
  if (found != SIZE_MAX) observed<R>(c);
  return found;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t test_some(const ctx& c, T* ivars, std::size_t n, std::size_t* indices, const int* status,
                                       cmp op, const V& values) {
  if (n == 0 || !local_array(c, ivars, n)) return 0;
  const std::size_t count = find_some<R>(ivars, n, indices, status, op, values);
  if (count != 0) observed<R>(c);
  return count;
}

} // namespace detail

// Each public form checks T, resolves the qualifiers and forwards to the detail implementation with its values: one
// value for every element (same_value), or the caller's array (the _vector form, element i against values[i]).
#define PORTSHMEM_DETAIL_WAIT_VECTOR_FORMS(RET, NAME, IMPL)                                                            \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE RET NAME(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op, T value, Q...) {    \
    detail::check_wait_vector_type<T>();                                                                               \
    return detail::IMPL<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op,                      \
                                                                    detail::same_value<T>{value});                     \
  }                                                                                                                    \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE RET NAME##_vector(const ctx& c, T* ivars, std::size_t nelems, const int* status, cmp op,            \
                                     const T* values, Q...) {                                                          \
    detail::check_wait_vector_type<T>();                                                                               \
    return detail::IMPL<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, status, op, values);             \
  }
// The _some forms also take indices[] (room for nelems entries), between nelems and status as in OpenSHMEM.
#define PORTSHMEM_DETAIL_WAIT_SOME_FORMS(NAME, IMPL)                                                                   \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE std::size_t NAME(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices,                  \
                                    const int* status, cmp op, T value, Q...) {                                        \
    detail::check_wait_vector_type<T>();                                                                               \
    return detail::IMPL<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, indices, status, op,             \
                                                                    detail::same_value<T>{value});                     \
  }                                                                                                                    \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE std::size_t NAME##_vector(const ctx& c, T* ivars, std::size_t nelems, std::size_t* indices,         \
                                             const int* status, cmp op, const T* values, Q...) {                       \
    detail::check_wait_vector_type<T>();                                                                               \
    return detail::IMPL<mm::resolve<detail::kWaitQualifiers, Q...>>(c, ivars, nelems, indices, status, op, values);    \
  }
/// Returns once every included element has satisfied the comparison.
PORTSHMEM_DETAIL_WAIT_VECTOR_FORMS(void, wait_until_all, wait_all)
/// Returns the index of an included element that satisfies the comparison (SIZE_MAX at once if none is included).
PORTSHMEM_DETAIL_WAIT_VECTOR_FORMS(std::size_t, wait_until_any, wait_any)
/// Returns how many included elements satisfy the comparison (at least one; 0 at once if none is included), and
/// writes their indices to indices[].
PORTSHMEM_DETAIL_WAIT_SOME_FORMS(wait_until_some, wait_some)
/// Whether every included element satisfies the comparison now (true when none is included).
PORTSHMEM_DETAIL_WAIT_VECTOR_FORMS(bool, test_all, test_all)
/// The index of an included element that satisfies the comparison now, or SIZE_MAX.
PORTSHMEM_DETAIL_WAIT_VECTOR_FORMS(std::size_t, test_any, test_any)
/// How many included elements satisfy the comparison now; their indices go to indices[].
PORTSHMEM_DETAIL_WAIT_SOME_FORMS(test_some, test_some)
#undef PORTSHMEM_DETAIL_WAIT_VECTOR_FORMS
#undef PORTSHMEM_DETAIL_WAIT_SOME_FORMS

} // namespace portshmem
