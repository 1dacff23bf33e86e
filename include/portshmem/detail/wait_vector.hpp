// The bodies of wait_vector.hpp: polls of this PE's own symmetric arrays (no transport is involved) in the one spin
// loop (detail/spin.hpp), each element compared with one value (same_value) or its own (the _vector forms); the
// acquire is paid once, after the condition held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/detail/wait.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/types.hpp"

namespace portshmem::detail {

template <class T>
PORTSHMEM_DEVICE void check_wait_vector_type() {
  static_assert(kWaitType<T>, "portshmem: the wait_until_all/any/some and test_all/any/some families take integer "
                              "types of 1, 2, 4 or 8 bytes, float and double");
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

/// Whether ivars[0, n) lies in this PE's symmetric heap (and, debug checks, is aligned); records the bad call when not.
template <class T>
PORTSHMEM_DEVICE bool local_array(const ctx& c, const T* ivars, std::size_t n) {
  if (misaligned<T>(ivars)) {
    record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_WAIT, c.my_pe, ivars, sizeof(T)); // the word's size
    return false;
  }
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
  check_wait_vector_type<T>();
  if (n == 0 || !local_array(c, ivars, n)) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (!included(status, i)) continue;
    spin_until(
        c, [&] { return holds<R>(ivars, i, op, values); }, PORTSHMEM_CALL_WAIT, wait_word(ivars + i),
        awaited_word(T(values[i])), op);
  }
  observed<R>(c);
}

template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t wait_any(const ctx& c, T* ivars, std::size_t n, const int* status, cmp op,
                                      const V& values) {
  check_wait_vector_type<T>();
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
      PORTSHMEM_CALL_WAIT, wait_word(ivars + first), awaited_word(T(values[first])), op);
  observed<R>(c);
  return found;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t wait_some(const ctx& c, T* ivars, std::size_t n, std::size_t* indices, const int* status,
                                       cmp op, const V& values) {
  check_wait_vector_type<T>();
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
      PORTSHMEM_CALL_WAIT, wait_word(ivars + first), awaited_word(T(values[first])), op);
  observed<R>(c);
  return count;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE bool test_all(const ctx& c, T* ivars, std::size_t n, const int* status, cmp op, const V& values) {
  check_wait_vector_type<T>();
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
  check_wait_vector_type<T>();
  if (n == 0 || !local_array(c, ivars, n)) return SIZE_MAX;
  const std::size_t found = find_any<R>(ivars, n, status, op, values);
  if (found != SIZE_MAX) observed<R>(c);
  return found;
}

template <class R, class T, class V>
PORTSHMEM_DEVICE std::size_t test_some(const ctx& c, T* ivars, std::size_t n, std::size_t* indices, const int* status,
                                       cmp op, const V& values) {
  check_wait_vector_type<T>();
  if (n == 0 || !local_array(c, ivars, n)) return 0;
  const std::size_t count = find_some<R>(ivars, n, indices, status, op, values);
  if (count != 0) observed<R>(c);
  return count;
}

} // namespace portshmem::detail
