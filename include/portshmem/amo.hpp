// Atomic memory operations (OpenSHMEM 1.5, "Atomic Memory Operations") on a symmetric dest at PE pe: fetch, set,
// swap, compare_swap, fetch_inc/inc, fetch_add/add, fetch_and/and, fetch_or/or, fetch_xor/xor. Each call is one
// relaxed atomic access at the call's scope: atomic with respect to every other AMO on the same location (all AMOs on
// a location agree on one order), and ordered with the caller's other operations only by fence or quiet. A fetching
// AMO has its value on return but holds back only later reads of the same location (docs/memory_model.md A2, A4).
// Qualifiers: none. An AMO is performed coherently at system scope; what it publishes or acquires is the business of
// fence, quiet and the waits, so no qualifier compiles here (a scope belongs on the call that orders).
// Types, as OpenSHMEM's tables: the standard AMO types for every operation; the extended types (standard + float and
// double) also for fetch, set and swap; the bitwise types for and, or and xor. A bad call (PE out of range, address
// outside the symmetric heap or not aligned to its type) is recorded for the host (portshmem_check_device_errors) and
// does nothing; the fetching forms then return T{}.
// No group forms: an AMO is a single-element operation, so a wave or block that wants one lets one member issue it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/arch.hpp"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/memory_model.hpp"

// The OpenSHMEM AMO type tables, listed once as X(TYPENAME, TYPE): the C++ type checks and the C names
// (compat/amo_names.hpp) are both generated from them.
#define PORTSHMEM_AMO_STANDARD_TYPES(X)                                                                                \
  X(int, int)                                                                                                          \
  X(long, long)                                                                                                        \
  X(longlong, long long)                                                                                               \
  X(uint, unsigned int)                                                                                                \
  X(ulong, unsigned long)                                                                                              \
  X(ulonglong, unsigned long long)                                                                                     \
  X(int32, std::int32_t)                                                                                               \
  X(int64, std::int64_t)                                                                                               \
  X(uint32, std::uint32_t)                                                                                             \
  X(uint64, std::uint64_t)                                                                                             \
  X(size, std::size_t)                                                                                                 \
  X(ptrdiff, std::ptrdiff_t)
#define PORTSHMEM_AMO_EXTENDED_ONLY_TYPES(X)                                                                           \
  X(float, float)                                                                                                      \
  X(double, double)
#define PORTSHMEM_AMO_EXTENDED_TYPES(X) PORTSHMEM_AMO_STANDARD_TYPES(X) PORTSHMEM_AMO_EXTENDED_ONLY_TYPES(X)
#define PORTSHMEM_AMO_BITWISE_TYPES(X)                                                                                 \
  X(uint, unsigned int)                                                                                                \
  X(ulong, unsigned long)                                                                                              \
  X(ulonglong, unsigned long long)                                                                                     \
  X(int32, std::int32_t)                                                                                               \
  X(int64, std::int64_t)                                                                                               \
  X(uint32, std::uint32_t)                                                                                             \
  X(uint64, std::uint64_t)

namespace portshmem {

// Type tests as disjunctions over the tables: the fixed-width aliases name the same C++ types as the plain names, so
// a table entry may repeat a type (a specialization per entry would not compile). `long long` is not bitwise where
// int64_t is `long`, as in OpenSHMEM (there is no shmem_longlong_atomic_and).
#define PORTSHMEM_DETAIL_AMO_IS(NAME, TYPE) || std::is_same_v<T, TYPE>
/// Whether T is an OpenSHMEM standard AMO type.
template <class T>
inline constexpr bool is_amo_standard_type_v = false PORTSHMEM_AMO_STANDARD_TYPES(PORTSHMEM_DETAIL_AMO_IS);
/// Whether T is an OpenSHMEM extended AMO type (fetch, set, swap).
template <class T>
inline constexpr bool is_amo_extended_type_v = false PORTSHMEM_AMO_EXTENDED_TYPES(PORTSHMEM_DETAIL_AMO_IS);
/// Whether T is an OpenSHMEM bitwise AMO type (and, or, xor).
template <class T>
inline constexpr bool is_amo_bitwise_type_v = false PORTSHMEM_AMO_BITWISE_TYPES(PORTSHMEM_DETAIL_AMO_IS);
#undef PORTSHMEM_DETAIL_AMO_IS

namespace detail {

inline constexpr unsigned kAmoQualifiers = 0;

/// An argument that does not take part in deducing T (so atomic_add(c, long_counter, 1, pe) compiles).
template <class T>
struct type_identity {
  using type = T;
};
template <class T>
using no_deduce = typename type_identity<T>::type;

template <class T>
PORTSHMEM_DEVICE void check_amo_extended() {
  static_assert(is_amo_extended_type_v<T>, "portshmem: atomic_fetch, atomic_set and atomic_swap take the OpenSHMEM "
                                           "extended AMO types (the standard AMO types, float, double)");
}
template <class T>
PORTSHMEM_DEVICE void check_amo_standard() {
  static_assert(is_amo_standard_type_v<T>,
                "portshmem: this AMO takes the OpenSHMEM standard AMO types (int, long, long long, unsigned int, "
                "unsigned long, unsigned long long, int32_t, int64_t, uint32_t, uint64_t, size_t, ptrdiff_t)");
}
template <class T>
PORTSHMEM_DEVICE void check_amo_bitwise() {
  static_assert(is_amo_bitwise_type_v<T>, "portshmem: atomic and/or/xor take the OpenSHMEM bitwise AMO types "
                                          "(unsigned int, unsigned long, unsigned long long, int32_t, int64_t, "
                                          "uint32_t, uint64_t)");
}

/// pe's copy of the symmetric T at addr, or nullptr after recording why the call is bad: the checks of remote_range,
/// plus natural alignment (an atomic on a misaligned word faults on GPUs instead of being skipped).
template <class R, class T>
PORTSHMEM_DEVICE T* remote_word(const ctx& c, const T* addr, int pe, portshmem_call_id_t call, bool reporter = true) {
  static_assert(mm::checked<R>); // an AMO takes no qualifier: this rejects one
  if (reinterpret_cast<std::uintptr_t>(addr) % sizeof(T) != 0) {
    if (reporter) record_error(c, PORTSHMEM_ERR_INVALID_ARG, call, pe, addr, sizeof(T));
    return nullptr;
  }
  return reinterpret_cast<T*>(remote_range(c, addr, sizeof(T), pe, call, reporter));
}

/// The read-modify-writes of the AMOs, each a relaxed atomic on the bits of T (two's complement makes the unsigned
/// add exact for signed T, and keeps signed overflow defined).
enum class rmw { add, and_, or_, xor_, swap };

template <rmw Op, class R, class T>
PORTSHMEM_DEVICE T amo_rmw(const ctx& c, T* dest, T value, int pe) {
  using U = arch::detail::uint_t<sizeof(T)>;
  constexpr arch::order O = arch::order::relaxed;
  constexpr arch::scope S = kDataScope;
  T* remote = remote_word<R>(c, dest, pe, PORTSHMEM_CALL_AMO);
  if (!remote) return T{};
  U* p = reinterpret_cast<U*>(remote);
  const U v = bit_cast<U>(value);
  U old;
  if constexpr (Op == rmw::add) {
    old = arch::fetch_add<O, S>(p, v);
  } else if constexpr (Op == rmw::and_) {
    old = arch::fetch_and<O, S>(p, v);
  } else if constexpr (Op == rmw::or_) {
    old = arch::fetch_or<O, S>(p, v);
  } else if constexpr (Op == rmw::xor_) {
    old = arch::fetch_xor<O, S>(p, v);
  } else {
    old = arch::exchange<O, S>(p, v);
  }
  return bit_cast<T>(old);
}

} // namespace detail

/// The value of source on PE pe, read atomically (T{} for a bad call). Orders nothing else.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_fetch(const ctx& c, const T* source, int pe, Q...) {
  detail::check_amo_extended<T>();
  using R = mm::resolve<detail::kAmoQualifiers, Q...>;
  if (const T* remote = detail::remote_word<R>(c, source, pe, PORTSHMEM_CALL_AMO)) {
    return detail::load_value<arch::order::relaxed, detail::kDataScope>(remote);
  }
  return T{};
}

/// Writes value to dest on PE pe atomically; not complete on return (a later fence orders it, quiet completes it).
template <class T, class... Q>
PORTSHMEM_DEVICE void atomic_set(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  detail::check_amo_extended<T>();
  using R = mm::resolve<detail::kAmoQualifiers, Q...>;
  if (T* remote = detail::remote_word<R>(c, dest, pe, PORTSHMEM_CALL_AMO)) {
    detail::store_value<arch::order::relaxed, detail::kDataScope>(remote, value);
  }
}

/// Writes value to dest on PE pe and returns the value it replaced, in one atomic step.
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_swap(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {
  detail::check_amo_extended<T>();
  return detail::amo_rmw<detail::rmw::swap, mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);
}

/// Writes value to dest on PE pe if it holds cond, in one atomic step; returns the value it held (== cond: written).
template <class T, class... Q>
PORTSHMEM_DEVICE T atomic_compare_swap(const ctx& c, T* dest, detail::no_deduce<T> cond, detail::no_deduce<T> value,
                                       int pe, Q...) {
  detail::check_amo_standard<T>();
  using R = mm::resolve<detail::kAmoQualifiers, Q...>;
  using U = arch::detail::uint_t<sizeof(T)>;
  T* remote = detail::remote_word<R>(c, dest, pe, PORTSHMEM_CALL_AMO);
  if (!remote) return T{};
  return detail::bit_cast<T>(arch::compare_exchange<arch::order::relaxed, detail::kDataScope>(
      reinterpret_cast<U*>(remote), detail::bit_cast<U>(cond), detail::bit_cast<U>(value)));
}

// The arithmetic and bitwise families, each a fetching form returning the old value and a non-fetching form. The
// names are passed whole: `and`, `or` and `xor` are operator tokens in C++ and cannot be pasted.
#define PORTSHMEM_DETAIL_AMO_PAIR(FETCH_NAME, NAME, OP, CHECK)                                                         \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE T FETCH_NAME(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {                     \
    detail::CHECK<T>();                                                                                                \
    return detail::amo_rmw<detail::rmw::OP, mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);            \
  }                                                                                                                    \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE void NAME(const ctx& c, T* dest, detail::no_deduce<T> value, int pe, Q...) {                        \
    detail::CHECK<T>();                                                                                                \
    detail::amo_rmw<detail::rmw::OP, mm::resolve<detail::kAmoQualifiers, Q...>>(c, dest, value, pe);                   \
  }
/// atomic_fetch_add returns the old value of dest on PE pe after adding value to it atomically; atomic_add adds.
PORTSHMEM_DETAIL_AMO_PAIR(atomic_fetch_add, atomic_add, add, check_amo_standard)
/// atomic_fetch_and / atomic_and: dest &= value, atomically (the fetching form returns the old value).
PORTSHMEM_DETAIL_AMO_PAIR(atomic_fetch_and, atomic_and, and_, check_amo_bitwise)
/// atomic_fetch_or / atomic_or: dest |= value, atomically (the fetching form returns the old value).
PORTSHMEM_DETAIL_AMO_PAIR(atomic_fetch_or, atomic_or, or_, check_amo_bitwise)
/// atomic_fetch_xor / atomic_xor: dest ^= value, atomically (the fetching form returns the old value).
PORTSHMEM_DETAIL_AMO_PAIR(atomic_fetch_xor, atomic_xor, xor_, check_amo_bitwise)
#undef PORTSHMEM_DETAIL_AMO_PAIR

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

} // namespace portshmem
