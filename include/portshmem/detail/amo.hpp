// The bodies of amo.hpp, whatever transport performs the atomic: the type checks of OpenSHMEM's tables (types.hpp),
// the argument checks (a target word must also be naturally aligned), and the forwarding of each AMO to the
// transport's operation: loads and stores (transport/ipc.hpp), or, in a job with proxied peers, the proxy for every
// PE (transport/dispatch.hpp: a network's atomics are atomic only with its own).
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/transport/dispatch.hpp"
#include "portshmem/transport/ipc.hpp"
#include "portshmem/transport/proxy.hpp"
#include "portshmem/types.hpp"

namespace portshmem::detail {

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
  return reinterpret_cast<T*>(transport::ipc::remote_range(c, addr, sizeof(T), pe, call, reporter));
}

/// For an atomic through the proxy: the checks of remote_word, then pe's copy of addr as a proxy target in *t.
template <class R, class T>
PORTSHMEM_DEVICE bool proxy_word(const ctx& c, const T* addr, int pe, transport::proxy::target* t) {
  static_assert(mm::checked<R>);
  const portshmem_status_t bad = reinterpret_cast<std::uintptr_t>(addr) % sizeof(T) != 0
                                     ? PORTSHMEM_ERR_INVALID_ARG
                                     : range_status(c, addr, sizeof(T), pe);
  if (bad != PORTSHMEM_SUCCESS) {
    record_error(c, bad, PORTSHMEM_CALL_AMO, pe, addr, sizeof(T));
    return false;
  }
  *t = transport::proxy::at(c, addr, pe);
  return true;
}

/// The read-modify-write AMOs' full path: Op on pe's copy of dest, returning the old value (T{} for a bad call).
/// Fetch: whether the caller uses the old value (the non-fetching forms pass false: through the proxy they do not
/// wait).
template <rmw Op, class R, class T, bool Fetch>
PORTSHMEM_DEVICE T amo_rmw_full(const ctx& c, T* dest, T value, int pe) {
  if (transport::atomics_proxied(c)) {
    transport::proxy::target t;
    if (!proxy_word<R>(c, dest, pe, &t)) return T{};
    return transport::proxy::fetch_modify<Op>(c, t, value, Fetch, transport::mapped(c, pe));
  }
  T* remote = remote_word<R>(c, dest, pe, PORTSHMEM_CALL_AMO);
  if (!remote) return T{};
  return transport::ipc::fetch_modify<Op>(remote, value);
}

/// atomic_fetch's full path.
template <class R, class T>
PORTSHMEM_DEVICE T amo_fetch_full(const ctx& c, const T* source, int pe) {
  if (transport::atomics_proxied(c)) {
    transport::proxy::target t;
    if (!proxy_word<R>(c, source, pe, &t)) return T{};
    return transport::proxy::fetch_word<T>(c, t, transport::mapped(c, pe));
  }
  if (const T* remote = remote_word<R>(c, source, pe, PORTSHMEM_CALL_AMO)) return transport::ipc::load_element(remote);
  return T{};
}

/// atomic_set's full path.
template <class R, class T>
PORTSHMEM_DEVICE void amo_set_full(const ctx& c, T* dest, T value, int pe) {
  if (transport::atomics_proxied(c)) {
    transport::proxy::target t;
    if (proxy_word<R>(c, dest, pe, &t)) transport::proxy::set_word(c, t, value, transport::mapped(c, pe));
    return;
  }
  if (T* remote = remote_word<R>(c, dest, pe, PORTSHMEM_CALL_AMO)) transport::ipc::store_element(remote, value);
}

/// atomic_compare_swap's full path.
template <class R, class T>
PORTSHMEM_DEVICE T amo_compare_swap_full(const ctx& c, T* dest, T cond, T value, int pe) {
  if (transport::atomics_proxied(c)) {
    transport::proxy::target t;
    if (!proxy_word<R>(c, dest, pe, &t)) return T{};
    return transport::proxy::compare_swap(c, t, cond, value, transport::mapped(c, pe));
  }
  T* remote = remote_word<R>(c, dest, pe, PORTSHMEM_CALL_AMO);
  if (!remote) return T{};
  return transport::ipc::compare_swap(remote, cond, value);
}

// The bodies: the AMO directly on pe's copy where the handle shows the call good (transport::direct_word: also the
// word's alignment), else the full path above.

/// The read-modify-write AMOs' body. The type check is the table of Op's family: swap the extended types, add the
/// standard ones, and/or/xor the bitwise ones.
template <rmw Op, class R, class T, bool Fetch = true>
PORTSHMEM_DEVICE T amo_rmw(const ctx& c, T* dest, T value, int pe) {
  if constexpr (Op == rmw::swap) {
    check_amo_extended<T>();
  } else if constexpr (Op == rmw::add) {
    check_amo_standard<T>();
  } else {
    check_amo_bitwise<T>();
  }
  return transport::one_word<true>(
      c, dest, pe, [value](T* remote) { return transport::ipc::fetch_modify<Op>(remote, value); },
      [c, dest, value, pe] { return amo_rmw_full<Op, R, T, Fetch>(c, dest, value, pe); });
}

/// atomic_fetch's body.
template <class R, class T>
PORTSHMEM_DEVICE T amo_fetch(const ctx& c, const T* source, int pe) {
  check_amo_extended<T>();
  return transport::one_word<true>(
      c, source, pe, [](const T* remote) { return transport::ipc::load_element(remote); },
      [c, source, pe] { return amo_fetch_full<R>(c, source, pe); });
}

/// atomic_set's body.
template <class R, class T>
PORTSHMEM_DEVICE void amo_set(const ctx& c, T* dest, T value, int pe) {
  check_amo_extended<T>();
  transport::one_word<true>(
      c, dest, pe, [value](T* remote) { transport::ipc::store_element(remote, value); },
      [c, dest, value, pe] { amo_set_full<R>(c, dest, value, pe); });
}

/// atomic_compare_swap's body.
template <class R, class T>
PORTSHMEM_DEVICE T amo_compare_swap(const ctx& c, T* dest, T cond, T value, int pe) {
  check_amo_standard<T>();
  return transport::one_word<true>(
      c, dest, pe, [cond, value](T* remote) { return transport::ipc::compare_swap(remote, cond, value); },
      [c, dest, cond, value, pe] { return amo_compare_swap_full<R>(c, dest, cond, value, pe); });
}

} // namespace portshmem::detail
