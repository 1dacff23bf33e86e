// Atomic memory operations (OpenSHMEM 1.5, "Atomic Memory Operations") on a symmetric dest at PE pe: fetch, set,
// swap, compare_swap, fetch_inc/inc, fetch_add/add, fetch_and/and, fetch_or/or, fetch_xor/xor. Each call is one
// relaxed atomic access at the call's scope: atomic with respect to every other AMO on the same location (all AMOs on
// a location agree on one order), and ordered with the caller's other operations only by fence or quiet. A fetching
// AMO has its value on return but holds back only later reads of the same location (docs/memory_model.md A2, A4).
// Qualifiers: none. An AMO is performed coherently at system scope; what it publishes or acquires is the business of
// fence, quiet and the waits, so no qualifier compiles here (a scope belongs on the call that orders).
// Types, as OpenSHMEM's tables (types.hpp): the standard AMO types for every operation; the extended types (standard
// + float and double) also for fetch, set and swap; the bitwise types for and, or and xor. A bad call (PE out of
// range, address outside the symmetric heap or not aligned to its type) is recorded for the host
// (portshmem_check_device_errors) and does nothing; the fetching forms then return T{}.
// No group forms: an AMO is a single-element operation, so a wave or block that wants one lets one member issue it.
#pragma once

#include "portshmem/detail/amo.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/types.hpp"

namespace portshmem {

/// The value of source on PE pe, read atomically (T{} for a bad call). Orders nothing else.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_fetch(const ctx& c, const T* source, int pe, Q...) {
  return detail::amo_fetch<mm::resolve<detail::kAmoQualifiers, Q...>>(c, source, pe);
}

/// Writes value to dest on PE pe atomically; not complete on return (a later fence orders it, quiet completes it).
template <class T, class... Q>
PORTSHMEM_DEVICE void atomic_set(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  detail::amo_set<mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);
}

/// Writes value to dest on PE pe and returns the value it replaced, in one atomic step.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_swap(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  return detail::amo_rmw<detail::rmw::swap, mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);
}

/// Writes value to dest on PE pe if it holds cond, in one atomic step; returns the value it held (== cond: written).
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_compare_swap(const ctx& c, T* dest, detail::no_deduce<T> cond, detail::no_deduce<T> value,
                                       int pe, Q...) {
  return detail::amo_compare_swap<mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, cond, value, pe);
}

/// Adds value to dest on PE pe atomically and returns the old value.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_fetch_add(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  return detail::amo_rmw<detail::rmw::add, mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);
}

/// Adds value to dest on PE pe atomically.
template <class T, class... Q>
PORTSHMEM_DEVICE void atomic_add(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  detail::amo_rmw<detail::rmw::add, mm::resolve<detail::kAmoQualifiers, Q...>, T, false>(c, dest, value, pe);
}

/// Adds 1 to dest on PE pe atomically and returns the old value.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_fetch_inc(const ctx& c, T* dest, int pe, Q... q) {
  return atomic_fetch_add(c, dest, T(1), pe, q...);
}

/// Adds 1 to dest on PE pe atomically.
template <class T, class... Q>
PORTSHMEM_DEVICE void atomic_inc(const ctx& c, T* dest, int pe, Q... q) {
  atomic_add(c, dest, T(1), pe, q...);
}

/// dest &= value on PE pe, atomically; returns the old value.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_fetch_and(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  return detail::amo_rmw<detail::rmw::and_, mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);
}

/// dest &= value on PE pe, atomically.
template <class T, class... Q>
PORTSHMEM_DEVICE void atomic_and(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  detail::amo_rmw<detail::rmw::and_, mm::resolve<detail::kAmoQualifiers, Q...>, T, false>(c, dest, value, pe);
}

/// dest |= value on PE pe, atomically; returns the old value.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_fetch_or(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  return detail::amo_rmw<detail::rmw::or_, mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);
}

/// dest |= value on PE pe, atomically.
template <class T, class... Q>
PORTSHMEM_DEVICE void atomic_or(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  detail::amo_rmw<detail::rmw::or_, mm::resolve<detail::kAmoQualifiers, Q...>, T, false>(c, dest, value, pe);
}

/// dest ^= value on PE pe, atomically; returns the old value.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_fetch_xor(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  return detail::amo_rmw<detail::rmw::xor_, mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);
}

/// dest ^= value on PE pe, atomically.
template <class T, class... Q>
PORTSHMEM_DEVICE void atomic_xor(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  detail::amo_rmw<detail::rmw::xor_, mm::resolve<detail::kAmoQualifiers, Q...>, T, false>(c, dest, value, pe);
}

} // namespace portshmem
