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

#include "portshmem/detail/rma.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/types.hpp"

namespace portshmem {

// ---- putmem: nbytes from the caller's src to dest on PE pe ----------------------------------------------------------

/// Copies nbytes from src to dest on PE pe; returns once src may be reused (ordered by fence, complete at quiet).
template <class... Q>
PORTSHMEM_DEVICE void putmem(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::put_bytes<thread_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nbytes, pe);
}

/// putmem by every thread of the wave as one put: a later fence or quiet by any member covers it.
template <class... Q>
PORTSHMEM_DEVICE void putmem_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::put_bytes<wave_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nbytes, pe);
}

/// putmem by every thread of the block as one put: a later fence or quiet by any member covers it.
template <class... Q>
PORTSHMEM_DEVICE void putmem_block(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::put_bytes<block_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nbytes, pe);
}

/// putmem that may return before src is read: src must not change, and nothing is promised, until quiet.
template <class... Q>
PORTSHMEM_DEVICE void putmem_nbi(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::put_bytes<thread_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src, nbytes, pe);
}

/// putmem_nbi by every thread of the wave as one put (nothing is promised until a member's quiet).
template <class... Q>
PORTSHMEM_DEVICE void putmem_nbi_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::put_bytes<wave_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src, nbytes, pe);
}

/// putmem_nbi by every thread of the block as one put (nothing is promised until a member's quiet).
template <class... Q>
PORTSHMEM_DEVICE void putmem_nbi_block(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::put_bytes<block_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src, nbytes, pe);
}

// ---- put: nelems elements of T (an OpenSHMEM standard RMA type, types.hpp), otherwise as putmem ---------------------

/// putmem of nelems elements of T: returns once src may be reused (ordered by fence, complete at quiet).
template <class T, class... Q>
PORTSHMEM_DEVICE void put(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::put_bytes<thread_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, detail::rma_bytes<T>(nelems),
                                                                             pe);
}

/// putmem_wave of nelems elements of T: one put of the wave.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_wave(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::put_bytes<wave_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, detail::rma_bytes<T>(nelems),
                                                                           pe);
}

/// putmem_block of nelems elements of T: one put of the block.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_block(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::put_bytes<block_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, detail::rma_bytes<T>(nelems),
                                                                            pe);
}

/// putmem_nbi of nelems elements of T: src must not change, and nothing is promised, until quiet.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_nbi(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::put_bytes<thread_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src,
                                                                                    detail::rma_bytes<T>(nelems), pe);
}

/// putmem_nbi_wave of nelems elements of T: one put of the wave, promising nothing until quiet.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_nbi_wave(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::put_bytes<wave_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src,
                                                                                  detail::rma_bytes<T>(nelems), pe);
}

/// putmem_nbi_block of nelems elements of T: one put of the block, promising nothing until quiet.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_nbi_block(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::put_bytes<block_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src,
                                                                                   detail::rma_bytes<T>(nelems), pe);
}

// ---- getmem: nbytes of src on PE pe into the caller's dest ----------------------------------------------------------

/// Copies nbytes of src on PE pe (read coherently) into dest; the data is in dest on return.
template <class... Q>
PORTSHMEM_DEVICE void getmem(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::get_bytes<thread_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nbytes, pe);
}

/// getmem by every thread of the wave as one get; the data is in dest when the call returns.
template <class... Q>
PORTSHMEM_DEVICE void getmem_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::get_bytes<wave_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nbytes, pe);
}

/// getmem by every thread of the block as one get; the data is in dest when the call returns.
template <class... Q>
PORTSHMEM_DEVICE void getmem_block(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::get_bytes<block_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, nbytes, pe);
}

/// getmem whose data is promised in dest only after a later quiet.
template <class... Q>
PORTSHMEM_DEVICE void getmem_nbi(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::get_bytes<thread_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src, nbytes, pe);
}

/// getmem_nbi by every thread of the wave as one get (the data is promised after a member's quiet).
template <class... Q>
PORTSHMEM_DEVICE void getmem_nbi_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::get_bytes<wave_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src, nbytes, pe);
}

/// getmem_nbi by every thread of the block as one get (the data is promised after a member's quiet).
template <class... Q>
PORTSHMEM_DEVICE void getmem_nbi_block(const ctx& c, void* dest, const void* src, std::size_t nbytes, int pe, Q...) {
  detail::get_bytes<block_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src, nbytes, pe);
}

// ---- get: nelems elements of T, otherwise as getmem -----------------------------------------------------------------

/// getmem of nelems elements of T: the data is in dest on return.
template <class T, class... Q>
PORTSHMEM_DEVICE void get(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::get_bytes<thread_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, detail::rma_bytes<T>(nelems),
                                                                             pe);
}

/// getmem_wave of nelems elements of T: one get of the wave.
template <class T, class... Q>
PORTSHMEM_DEVICE void get_wave(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::get_bytes<wave_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, detail::rma_bytes<T>(nelems),
                                                                           pe);
}

/// getmem_block of nelems elements of T: one get of the block.
template <class T, class... Q>
PORTSHMEM_DEVICE void get_block(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::get_bytes<block_group, mm::resolve<detail::kRmaQualifiers, Q...>>(c, dest, src, detail::rma_bytes<T>(nelems),
                                                                            pe);
}

/// getmem_nbi of nelems elements of T: the data is promised in dest after quiet.
template <class T, class... Q>
PORTSHMEM_DEVICE void get_nbi(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::get_bytes<thread_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src,
                                                                                    detail::rma_bytes<T>(nelems), pe);
}

/// getmem_nbi_wave of nelems elements of T: one get of the wave, promised after quiet.
template <class T, class... Q>
PORTSHMEM_DEVICE void get_nbi_wave(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::get_bytes<wave_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src,
                                                                                  detail::rma_bytes<T>(nelems), pe);
}

/// getmem_nbi_block of nelems elements of T: one get of the block, promised after quiet.
template <class T, class... Q>
PORTSHMEM_DEVICE void get_nbi_block(const ctx& c, T* dest, const T* src, std::size_t nelems, int pe, Q...) {
  detail::get_bytes<block_group, mm::resolve<detail::kRmaQualifiers, Q...>, false>(c, dest, src,
                                                                                   detail::rma_bytes<T>(nelems), pe);
}

// ---- p, g: one element, one coherent access ------------------------------------------------------------------------
// Atomic whatever the type's size, so a p may race with a wait_until or a g of that element (the 16-byte long double
// of the host platform moves as two atomic halves). Neither takes a qualifier.

/// Writes value to dest on PE pe with one coherent store: covered by mm::comm, ordered by fence, complete at quiet.
template <class T, class... Q>
PORTSHMEM_DEVICE void p(const ctx& c, T* dest, T value, int pe, Q...) {
  detail::put_element<mm::resolve<0, Q...>>(c, dest, value, pe);
}

/// Reads src on PE pe with one coherent load (T{} after recording a bad call); orders nothing else.
template <class T, class... Q>
PORTSHMEM_DEVICE T g(const ctx& c, const T* src, int pe, Q...) {
  return detail::get_element<mm::resolve<0, Q...>>(c, src, pe);
}

} // namespace portshmem
