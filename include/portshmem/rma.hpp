// Remote memory access: put, get, p, g — blocking and nbi, by a thread, a wave or a block. Default semantics are
// OpenSHMEM's: a put returns once its source may be reused, with no remote visibility promised until a fence (for
// ordering) or quiet (for completion); a get returns with the value present locally; nbi forms promise nothing
// until quiet. Qualifier (memory_model.hpp), after the ordinary arguments:
//   data path  mm::bypass (default) | mm::keep — how the data written by the call travels; a keep put is ordered
//              only by coverage-all fences (docs/memory_model.md)
// No scope: every access to symmetric memory is coherent at system scope; scopes belong on the calls that order.
// The local side (a put's source, a get's destination) may be global, shared or private memory; a wave or block call
// names memory all its members reach (global or shared), never a thread's private memory.
// A bad call (PE out of range, address outside the symmetric heap, overflowing size, a private local buffer in a
// group call) is recorded for the host (portshmem_check_device_errors) and does nothing. Zero-length calls do nothing.
#pragma once

#include <cstddef>
#include <type_traits>

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/copy.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/group.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/types.hpp"

namespace portshmem {

namespace detail {

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

/// Whether a thread's put of n bytes is one naturally aligned 4- or 8-byte word (the put_word path).
template <class Group>
PORTSHMEM_DEVICE bool is_word_put(const void* dest, const void* src, std::size_t n) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(dest) | reinterpret_cast<std::uintptr_t>(src);
  // A mask, not a % n: with n unknown at compile time that would be a division (seen in sm_90 SASS).
  return std::is_same_v<Group, thread_group> && (n == 8 || n == 4) && (a & (n - 1)) == 0;
}

/// A thread's put of one naturally aligned word U (dest already accepted by range_status): the source load and the
/// peer-table load are issued together, and only then is either waited for (arch::load_source stays where it is
/// written; a plain load was sunk past the table lookup's branch, which serializes two memory latencies: +0.15 us per
/// put-with-signal on H200s). Returns pe's heap base, or nullptr after recording that pe is unreachable (nothing is
/// written).
template <class U, class R>
PORTSHMEM_DEVICE char* put_word_as(const ctx& c, void* dest, const void* src, int pe, portshmem_call_id_t call) {
  const U v = arch::load_source(static_cast<const U*>(src));
  char* const base = peer_heap(c, pe, call, dest, sizeof(U));
  if (base) arch::store_data<R::cache, kDataScope>(reinterpret_cast<U*>(base + heap_offset(c, dest)), v);
  return base;
}

/// put_word_as for the n of a call that is_word_put accepted (4 or 8 bytes).
template <class R>
PORTSHMEM_DEVICE char* put_word(const ctx& c, void* dest, const void* src, std::size_t n, int pe,
                                portshmem_call_id_t call) {
  return n == 8 ? put_word_as<std::uint64_t, R>(c, dest, src, pe, call)
                : put_word_as<std::uint32_t, R>(c, dest, src, pe, call);
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

/// Copies n bytes of the caller's src (global, shared or private memory) to remote (a peer's symmetric memory) with
/// data path C. A global source is read as arch::kSourceCache says (coherently, where plain loads could be stale);
/// shared and private memory, which no other agent writes, with plain loads (bypass accesses need global memory).
template <arch::cache C>
PORTSHMEM_DEVICE void copy_to_remote(char* remote, const void* src, std::size_t n, unsigned rank, unsigned size) {
  if constexpr (arch::kSourceCache == arch::cache::keep) {
    copy_bytes<arch::cache::keep, C, kDataScope>(remote, src, n, rank, size);
  } else if (arch::space_of(src) == arch::space::global) {
    copy_bytes<arch::kSourceCache, C, kDataScope>(remote, src, n, rank, size);
  } else {
    copy_bytes<arch::cache::keep, C, kDataScope>(remote, src, n, rank, size);
  }
}

/// Copies n bytes of remote (a peer's symmetric memory, read coherently) into the caller's dest (global, shared or
/// private memory); C is the data path of the stores into a global dest, plain stores serve the others.
template <arch::cache C>
PORTSHMEM_DEVICE void copy_to_local(void* dest, const char* remote, std::size_t n, unsigned rank, unsigned size) {
  if constexpr (C == arch::cache::keep) {
    copy_bytes<arch::cache::bypass, arch::cache::keep, kDataScope>(dest, remote, n, rank, size);
  } else if (arch::space_of(dest) == arch::space::global) {
    copy_bytes<arch::cache::bypass, C, kDataScope>(dest, remote, n, rank, size);
  } else {
    copy_bytes<arch::cache::bypass, arch::cache::keep, kDataScope>(dest, remote, n, rank, size);
  }
}

/// Moves n bytes from src to remote — pe's copy of the destination, already checked and mapped, or nullptr for a
/// bad call — by the group: the members synchronize first (so their writes of src are visible to all of them), copy
/// with the call's data path, and end as group_end says (also for a bad call, so the group stays together).
template <class Group, class R>
PORTSHMEM_DEVICE void put_mapped(char* remote, const void* src, std::size_t n) {
  Group::sync();
  if (remote) copy_to_remote<R::cache>(remote, src, n, Group::rank(), Group::size());
  group_end<Group>();
}

/// One put by the group.
template <class Group, class R>
PORTSHMEM_DEVICE void put_bytes(const ctx& c, void* dest, const void* src, std::size_t n, int pe) {
  if (n == 0) return;
  if (is_word_put<Group>(dest, src, n) && range_status(c, dest, n, pe) == PORTSHMEM_SUCCESS) {
    put_word<R>(c, dest, src, n, pe, PORTSHMEM_CALL_PUT);
    return;
  }
  const bool reporter = Group::rank() == 0;
  char* const remote = local_side_ok<Group>(c, src, n, pe, PORTSHMEM_CALL_PUT, reporter)
                           ? remote_range(c, dest, n, pe, PORTSHMEM_CALL_PUT, reporter)
                           : nullptr;
  put_mapped<Group, R>(remote, src, n);
}

/// One get by the group: remote loads always read coherently at system scope (so a get after wait<comm> sees the
/// awaited data); the data path applies to the local stores into dest.
template <class Group, class R>
PORTSHMEM_DEVICE void get_bytes(const ctx& c, void* dest, const void* src, std::size_t n, int pe) {
  if (n == 0) return;
  Group::sync();
  const bool reporter = Group::rank() == 0;
  const char* const remote = local_side_ok<Group>(c, dest, n, pe, PORTSHMEM_CALL_GET, reporter)
                                 ? remote_range(c, src, n, pe, PORTSHMEM_CALL_GET, reporter)
                                 : nullptr;
  if (remote) copy_to_local<R::cache>(dest, remote, n, Group::rank(), Group::size());
  group_end<Group>();
}

template <class T>
PORTSHMEM_DEVICE void check_rma_type() {
  static_assert(is_rma_type_v<T>, "portshmem typed RMA takes the OpenSHMEM standard RMA types (types.hpp)");
}

} // namespace detail

// ---- untyped (bytes) and typed (elements of T), each in thread, wave and block forms --------------------------------
// putmem*: copies nbytes from local src to dest on PE pe; returns when src may be reused. nbi: src must not change
// and nothing is promised at the target until quiet. getmem*: copies nbytes of src on PE pe into local dest; the
// data is there on return (nbi: after quiet).
#define PORTSHMEM_DETAIL_RMA_FORMS(NAME, MEMNAME, IMPL, GROUP)                                                         \
  template <class... Q>                                                                                                \
  PORTSHMEM_DEVICE void MEMNAME(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {         \
    detail::IMPL<GROUP, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nbytes, pe);                          \
  }                                                                                                                    \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE void NAME(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {                  \
    detail::check_rma_type<T>();                                                                                       \
    detail::IMPL<GROUP, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nelems * sizeof(T), pe);              \
  }
PORTSHMEM_DETAIL_RMA_FORMS(put, putmem, put_bytes, thread_group)
PORTSHMEM_DETAIL_RMA_FORMS(put_nbi, putmem_nbi, put_bytes, thread_group)
PORTSHMEM_DETAIL_RMA_FORMS(get, getmem, get_bytes, thread_group)
PORTSHMEM_DETAIL_RMA_FORMS(get_nbi, getmem_nbi, get_bytes, thread_group)
#undef PORTSHMEM_DETAIL_RMA_FORMS

// Group forms: NAME_wave / NAME_block, and the untyped NAMEmem_wave / NAMEmem_block spelled the OpenSHMEM way
// (putmem_wave, putmem_nbi_block, ...).
#define PORTSHMEM_DETAIL_RMA_GROUP_FORMS(OP, IMPL, SUFFIX, GROUP)                                                      \
  template <class... Q>                                                                                                \
  PORTSHMEM_DEVICE void OP##SUFFIX(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {      \
    detail::IMPL<GROUP, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nbytes, pe);                          \
  }
#define PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(OP, IMPL, SUFFIX, GROUP)                                                    \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE void OP##SUFFIX(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {            \
    detail::check_rma_type<T>();                                                                                       \
    detail::IMPL<GROUP, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nelems * sizeof(T), pe);              \
  }
PORTSHMEM_DETAIL_RMA_GROUP_FORMS(putmem, put_bytes, _wave, wave_group)
PORTSHMEM_DETAIL_RMA_GROUP_FORMS(putmem, put_bytes, _block, block_group)
PORTSHMEM_DETAIL_RMA_GROUP_FORMS(putmem_nbi, put_bytes, _wave, wave_group)
PORTSHMEM_DETAIL_RMA_GROUP_FORMS(putmem_nbi, put_bytes, _block, block_group)
PORTSHMEM_DETAIL_RMA_GROUP_FORMS(getmem, get_bytes, _wave, wave_group)
PORTSHMEM_DETAIL_RMA_GROUP_FORMS(getmem, get_bytes, _block, block_group)
PORTSHMEM_DETAIL_RMA_GROUP_FORMS(getmem_nbi, get_bytes, _wave, wave_group)
PORTSHMEM_DETAIL_RMA_GROUP_FORMS(getmem_nbi, get_bytes, _block, block_group)
PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(put, put_bytes, _wave, wave_group)
PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(put, put_bytes, _block, block_group)
PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(put_nbi, put_bytes, _wave, wave_group)
PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(put_nbi, put_bytes, _block, block_group)
PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(get, get_bytes, _wave, wave_group)
PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(get, get_bytes, _block, block_group)
PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(get_nbi, get_bytes, _wave, wave_group)
PORTSHMEM_DETAIL_TYPED_GROUP_FORMS(get_nbi, get_bytes, _block, block_group)
#undef PORTSHMEM_DETAIL_RMA_GROUP_FORMS
#undef PORTSHMEM_DETAIL_TYPED_GROUP_FORMS

/// Writes one element to dest on PE pe: one coherent store, atomic whatever the type's size (so it may race with a
/// wait_until or a g of that element; the 16-byte long double of the host platform is two atomic halves). Takes no
/// qualifier.
template <class T, class... Q>
PORTSHMEM_DEVICE void p(const ctx& c, T* dest, T value, int pe, Q...) {
  detail::check_rma_type<T>();
  static_assert(mm::checked<mm::resolve<0, Q...>>); // p takes no qualifier: a scope or data path does not compile
  if (T* remote = reinterpret_cast<T*>(detail::remote_range(c, dest, sizeof(T), pe, PORTSHMEM_CALL_P))) {
    detail::store_value<arch::order::relaxed, detail::kDataScope>(remote, value);
  }
}

/// Reads one element of src on PE pe with one coherent load (T{} after recording an error for a bad call). Takes no
/// qualifier.
template <class T, class... Q>
PORTSHMEM_DEVICE T g(const ctx& c, const T* src, int pe, Q...) {
  detail::check_rma_type<T>();
  static_assert(mm::checked<mm::resolve<0, Q...>>); // g takes no qualifier
  if (const T* remote = reinterpret_cast<const T*>(detail::remote_range(c, src, sizeof(T), pe, PORTSHMEM_CALL_G))) {
    return detail::load_value<arch::order::relaxed, detail::kDataScope>(remote);
  }
  return T{};
}

} // namespace portshmem
