// Remote memory access: put, get, p, g — blocking and nbi, by a thread, a wave or a block. Default semantics are
// OpenSHMEM's: a put returns once its source may be reused, with no remote visibility promised until a fence (for
// ordering) or quiet (for completion); a get returns with the value present locally; nbi forms promise nothing
// until quiet. A bad call (PE out of range, address outside the symmetric heap, overflowing size) is recorded for
// the host (portshmem_check_device_errors) and does nothing. Zero-length calls do nothing.
#pragma once

#include <cstddef>

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/copy.hpp"
#include "portshmem/detail/scalar.hpp"
#include "portshmem/group.hpp"
#include "portshmem/types.hpp"

namespace portshmem {

namespace detail {

/// One put by the group: the group first synchronizes (so members' writes of src are visible to all of them),
/// moves the bytes, and synchronizes again (so the caller's later fence or quiet covers every member's stores).
template <class Group, arch::cache C>
PORTSHMEM_DEVICE void put_bytes(const ctx& c, void* dest, const void* src, std::size_t n, int pe) {
  if (n == 0) return;
  Group::sync();
  if (char* remote = remote_range(c, dest, n, pe, PORTSHMEM_CALL_PUT, Group::rank() == 0)) {
    copy_bytes<C>(remote, src, n, Group::rank(), Group::size());
  }
  Group::sync();
}

template <class Group, arch::cache C>
PORTSHMEM_DEVICE void get_bytes(const ctx& c, void* dest, const void* src, std::size_t n, int pe) {
  if (n == 0) return;
  Group::sync();
  if (const char* remote = remote_range(c, src, n, pe, PORTSHMEM_CALL_GET, Group::rank() == 0)) {
    copy_bytes<C>(dest, remote, n, Group::rank(), Group::size());
  }
  Group::sync();
}

template <class T>
PORTSHMEM_DEVICE void check_rma_type() {
  static_assert(is_rma_type_v<T>, "portshmem typed RMA takes the OpenSHMEM standard RMA types (types.hpp)");
}

}  // namespace detail

// ---- untyped: bytes ----------------------------------------------------------------------------------------------
/// Copies nbytes from local src to dest on PE pe; returns when src may be reused (no remote visibility promised).
PORTSHMEM_DEVICE void putmem(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::put_bytes<thread_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
PORTSHMEM_DEVICE void putmem_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::put_bytes<wave_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
PORTSHMEM_DEVICE void putmem_block(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::put_bytes<block_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
/// Starts a put; src must not be modified and nothing is promised at the target until quiet.
PORTSHMEM_DEVICE void putmem_nbi(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::put_bytes<thread_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
PORTSHMEM_DEVICE void putmem_nbi_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::put_bytes<wave_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
PORTSHMEM_DEVICE void putmem_nbi_block(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::put_bytes<block_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
/// Copies nbytes from src on PE pe into local dest; the data is in dest on return.
PORTSHMEM_DEVICE void getmem(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::get_bytes<thread_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
PORTSHMEM_DEVICE void getmem_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::get_bytes<wave_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
PORTSHMEM_DEVICE void getmem_block(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::get_bytes<block_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
/// Starts a get; dest holds the data only after quiet.
PORTSHMEM_DEVICE void getmem_nbi(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::get_bytes<thread_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
PORTSHMEM_DEVICE void getmem_nbi_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::get_bytes<wave_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}
PORTSHMEM_DEVICE void getmem_nbi_block(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe) {
  detail::get_bytes<block_group, arch::cache::keep>(c, dest, src, nbytes, pe);
}

// ---- typed: nelems elements of T -----------------------------------------------------------------------------------
#define PORTSHMEM_DETAIL_TYPED_RMA(NAME, IMPL, GROUP)                                                                 \
  template <class T>                                                                                                  \
  PORTSHMEM_DEVICE void NAME(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe) {                       \
    detail::check_rma_type<T>();                                                                                      \
    detail::IMPL<GROUP, arch::cache::keep>(c, dest, src, nelems * sizeof(T), pe);                                     \
  }
PORTSHMEM_DETAIL_TYPED_RMA(put, put_bytes, thread_group)
PORTSHMEM_DETAIL_TYPED_RMA(put_wave, put_bytes, wave_group)
PORTSHMEM_DETAIL_TYPED_RMA(put_block, put_bytes, block_group)
PORTSHMEM_DETAIL_TYPED_RMA(put_nbi, put_bytes, thread_group)
PORTSHMEM_DETAIL_TYPED_RMA(put_nbi_wave, put_bytes, wave_group)
PORTSHMEM_DETAIL_TYPED_RMA(put_nbi_block, put_bytes, block_group)
PORTSHMEM_DETAIL_TYPED_RMA(get, get_bytes, thread_group)
PORTSHMEM_DETAIL_TYPED_RMA(get_wave, get_bytes, wave_group)
PORTSHMEM_DETAIL_TYPED_RMA(get_block, get_bytes, block_group)
PORTSHMEM_DETAIL_TYPED_RMA(get_nbi, get_bytes, thread_group)
PORTSHMEM_DETAIL_TYPED_RMA(get_nbi_wave, get_bytes, wave_group)
PORTSHMEM_DETAIL_TYPED_RMA(get_nbi_block, get_bytes, block_group)
#undef PORTSHMEM_DETAIL_TYPED_RMA

/// Writes one element to dest on PE pe (a single store; 4- and 8-byte types are written atomically).
template <class T>
PORTSHMEM_DEVICE void p(const ctx& c, T* dest, T value, int pe) {
  detail::check_rma_type<T>();
  if (T* remote = reinterpret_cast<T*>(detail::remote_range(c, dest, sizeof(T), pe, PORTSHMEM_CALL_P))) {
    detail::store_value<arch::order::relaxed, arch::scope::system>(remote, value);
  }
}

/// Reads one element of src on PE pe (T{} after recording an error for a bad call).
template <class T>
PORTSHMEM_DEVICE T g(const ctx& c, const T* src, int pe) {
  detail::check_rma_type<T>();
  if (const T* remote = reinterpret_cast<const T*>(detail::remote_range(c, src, sizeof(T), pe, PORTSHMEM_CALL_G))) {
    return detail::load_value<arch::order::relaxed, arch::scope::system>(remote);
  }
  return T{};
}

}  // namespace portshmem
