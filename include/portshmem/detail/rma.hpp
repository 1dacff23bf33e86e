// The bodies of rma.hpp, whatever transport moves the bytes: the argument checks, the group's choreography (members
// synchronize before the copy and join their stores after it, also for a bad call, so the group stays together) and
// the choice of the one-word latency path; the bytes move through the transport the PE takes (transport/dispatch.hpp):
// loads and stores (transport/ipc.hpp), or one proxy command per call (transport/proxy.hpp), posted by one member of
// a group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "portshmem/arch.hpp"
#include "portshmem/detail/checks.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/transport/dispatch.hpp"
#include "portshmem/transport/ipc.hpp"
#include "portshmem/transport/proxy.hpp"
#include "portshmem/types.hpp"

namespace portshmem::detail {

inline constexpr unsigned kRmaQualifiers = mm::cat::data_path;

/// Ends a group operation: every member's stores are joined (arch::join_comm_stores) before the closing barrier,
/// so the caller's later fence or quiet — made by any one member — covers the whole group's operation.
template <class Group>
PORTSHMEM_DEVICE void group_end() {
  if constexpr (!std::is_same_v<Group, thread_group>) {
    arch::join_comm_stores();
    Group::sync();
  }
}

/// Whether a thread's put of n bytes takes the put_word path: one naturally aligned 4- or 8-byte word, or two 8-byte
/// words (16 bytes, 8-aligned; transport::ipc::put_word says why).
template <class Group>
PORTSHMEM_DEVICE bool is_word_put(const void* dest, const void* src, std::size_t n) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(dest) | reinterpret_cast<std::uintptr_t>(src);
  // A mask, not a % n: with n unknown at compile time that would be a division (seen in sm_90 SASS).
  const std::uintptr_t misaligned = a & (n == 4 ? 3 : 7);
  return std::is_same_v<Group, thread_group> && (n == 4 || n == 8 || n == 16) && misaligned == 0;
}

/// Whether the group may use `local` as its side of the transfer: a wave or block cannot share one thread's private
/// memory (each member's generic address would name its own), so that is a bad call (only `reporter` records it).
template <class Group>
PORTSHMEM_DEVICE bool local_side_ok(const ctx& c, const void* local, std::size_t n, int pe, portshmem_call_id_t call,
                                    bool reporter) {
  if constexpr (std::is_same_v<Group, thread_group>) {
    return true;
  } else {
    if (arch::space_of(local) != arch::space::local) return true;
    if (reporter) record_error(c, PORTSHMEM_ERR_LOCAL_BUFFER, call, pe, local, n);
    return false;
  }
}

/// Moves n bytes from src to remote — pe's copy of the destination, already checked and resolved, or nullptr for a
/// bad call — by the group: the members synchronize first (so their writes of src are visible to all of them), copy
/// with the call's data path, and end as group_end says (also for a bad call, so the group stays together).
template <class Group, class R>
PORTSHMEM_DEVICE void put_mapped(char* remote, const void* src, std::size_t n) {
  Group::sync();
  if (remote) transport::ipc::copy_to_remote<R::cache>(remote, src, n, Group::rank(), Group::size());
  group_end<Group>();
}

/// One put by the group to a PE the proxy reaches: the members synchronize (so their writes of src are in it), member
/// 0 checks and posts the one command (a blocking put waits until src may be reused), and the group ends together.
template <class Group, class R>
PORTSHMEM_DEVICE_COLD void put_proxied(ctx c, void* dest, const void* src, std::size_t n, int pe, bool blocking) {
  Group::sync();
  if (Group::rank() == 0 && local_side_ok<Group>(c, src, n, pe, PORTSHMEM_CALL_PUT, true)) {
    if (const portshmem_status_t bad = range_status(c, dest, n, pe); bad != PORTSHMEM_SUCCESS) {
      record_error(c, bad, PORTSHMEM_CALL_PUT, pe, dest, n);
    } else {
      transport::proxy::put<R>(c, transport::proxy::at(c, dest, pe), src, n, blocking, PORTSHMEM_CALL_PUT);
    }
  }
  group_end<Group>();
}

/// One put by the group; Blocking: the nbi forms pass false (only the proxy path tells them apart).
template <class Group, class R, bool Blocking = true>
PORTSHMEM_DEVICE void put_bytes(const ctx& c, void* dest, const void* src, std::size_t n, int pe) {
  if (n == 0) return;
  if (transport::proxied(c, pe)) {
    put_proxied<Group, R>(c, dest, src, n, pe, Blocking);
    return;
  }
  if (is_word_put<Group>(dest, src, n) && range_status(c, dest, n, pe) == PORTSHMEM_SUCCESS) {
    transport::ipc::put_word<R>(c, dest, src, n, pe, PORTSHMEM_CALL_PUT);
    return;
  }
  const bool reporter = Group::rank() == 0;
  char* const remote = local_side_ok<Group>(c, src, n, pe, PORTSHMEM_CALL_PUT, reporter)
                           ? transport::ipc::remote_range(c, dest, n, pe, PORTSHMEM_CALL_PUT, reporter)
                           : nullptr;
  put_mapped<Group, R>(remote, src, n);
}

/// One get by the group from a PE the proxy reaches: member 0 posts the one command and, for a blocking get, waits
/// for the data; the group's closing barrier then hands it to every member.
template <class Group, class R>
PORTSHMEM_DEVICE_COLD void get_proxied(ctx c, void* dest, const void* src, std::size_t n, int pe, bool blocking) {
  Group::sync();
  if (Group::rank() == 0 && local_side_ok<Group>(c, dest, n, pe, PORTSHMEM_CALL_GET, true)) {
    if (const portshmem_status_t bad = range_status(c, src, n, pe); bad != PORTSHMEM_SUCCESS) {
      record_error(c, bad, PORTSHMEM_CALL_GET, pe, src, n);
    } else {
      transport::proxy::get<R>(c, transport::proxy::at(c, src, pe), dest, n, blocking);
    }
  }
  group_end<Group>();
}

/// One get by the group: remote loads always read coherently at system scope (so a get after wait<comm> sees the
/// awaited data); the data path applies to the local stores into dest. Blocking: as put_bytes.
template <class Group, class R, bool Blocking = true>
PORTSHMEM_DEVICE void get_bytes(const ctx& c, void* dest, const void* src, std::size_t n, int pe) {
  if (n == 0) return;
  if (transport::proxied(c, pe)) {
    get_proxied<Group, R>(c, dest, src, n, pe, Blocking);
    return;
  }
  Group::sync();
  const bool reporter = Group::rank() == 0;
  const char* const remote = local_side_ok<Group>(c, dest, n, pe, PORTSHMEM_CALL_GET, reporter)
                                 ? transport::ipc::remote_range(c, src, n, pe, PORTSHMEM_CALL_GET, reporter)
                                 : nullptr;
  if (remote) transport::ipc::copy_to_local<R::cache>(dest, remote, n, Group::rank(), Group::size());
  group_end<Group>();
}

template <class T>
PORTSHMEM_DEVICE void check_rma_type() {
  static_assert(is_rma_type_v<T>, "portshmem typed RMA takes the OpenSHMEM standard RMA types (types.hpp)");
}

/// The bytes of nelems elements of T, saturated: a count whose product would wrap (a negative count converted to
/// size_t, say) becomes SIZE_MAX, which the range checks refuse (PORTSHMEM_ERR_OVERFLOW), instead of a small transfer.
template <class T>
PORTSHMEM_DEVICE std::size_t elems_bytes(std::size_t nelems) {
  constexpr std::size_t kMaxElems = ~std::size_t(0) / sizeof(T);
  return nelems > kMaxElems ? ~std::size_t(0) : nelems * sizeof(T);
}

/// The bytes of nelems elements of T, once T is known to be a standard RMA type (the typed forms' size argument).
template <class T>
PORTSHMEM_DEVICE std::size_t rma_bytes(std::size_t nelems) {
  check_rma_type<T>();
  return elems_bytes<T>(nelems);
}

/// p's full path: dispatch, checks and the record of a bad call.
template <class R, class T>
PORTSHMEM_DEVICE void put_element_full(const ctx& c, T* dest, T value, int pe) {
  if (misaligned<T>(dest)) { // debug checks only: the one coherent store of T would fault on a GPU
    record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_P, pe, dest, sizeof(T));
    return;
  }
  if (transport::proxied(c, pe)) {
    if (const portshmem_status_t bad = range_status(c, dest, sizeof(T), pe); bad != PORTSHMEM_SUCCESS) {
      record_error(c, bad, PORTSHMEM_CALL_P, pe, dest, sizeof(T));
    } else {
      transport::proxy::store_element(c, transport::proxy::at(c, dest, pe), value);
    }
    return;
  }
  if (T* remote = reinterpret_cast<T*>(transport::ipc::remote_range(c, dest, sizeof(T), pe, PORTSHMEM_CALL_P))) {
    transport::ipc::store_element(remote, value);
  }
}

/// g's full path (T{} after recording a bad call).
template <class R, class T>
PORTSHMEM_DEVICE T get_element_full(const ctx& c, const T* src, int pe) {
  if (misaligned<T>(src)) { // debug checks only
    record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_G, pe, src, sizeof(T));
    return T{};
  }
  if (transport::proxied(c, pe)) {
    if (const portshmem_status_t bad = range_status(c, src, sizeof(T), pe); bad != PORTSHMEM_SUCCESS) {
      record_error(c, bad, PORTSHMEM_CALL_G, pe, src, sizeof(T));
      return T{};
    }
    return transport::proxy::load_element<T>(c, transport::proxy::at(c, src, pe));
  }
  if (const T* remote =
          reinterpret_cast<const T*>(transport::ipc::remote_range(c, src, sizeof(T), pe, PORTSHMEM_CALL_G))) {
    return transport::ipc::load_element(remote);
  }
  return T{};
}

/// p's body: one coherent store of value to pe's copy of dest, directly where the handle shows the call good
/// (transport::direct_word), else by the full path.
template <class R, class T>
PORTSHMEM_DEVICE void put_element(const ctx& c, T* dest, T value, int pe) {
  check_rma_type<T>();
  static_assert(mm::checked<R>); // p takes no qualifier: a scope or data path does not compile
  transport::one_word<false>(
      c, dest, pe, [value](T* remote) { transport::ipc::store_element(remote, value); },
      [c, dest, value, pe] { put_element_full<R>(c, dest, value, pe); });
}

/// g's body: one coherent load of pe's copy of src (T{} after recording a bad call), directly as p's.
template <class R, class T>
PORTSHMEM_DEVICE T get_element(const ctx& c, const T* src, int pe) {
  check_rma_type<T>();
  static_assert(mm::checked<R>); // g takes no qualifier
  return transport::one_word<false>(
      c, src, pe, [](const T* remote) { return transport::ipc::load_element(remote); },
      [c, src, pe] { return get_element_full<R>(c, src, pe); });
}

} // namespace portshmem::detail
