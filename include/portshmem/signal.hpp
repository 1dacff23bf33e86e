// Signaling (OpenSHMEM 1.5, "Signaling Operations"): put-with-signal, signal_op, signal_fetch, signal_wait_until. A
// signal is a symmetric std::uint64_t, updated by set or add (sig_op: portshmem::signal_set / signal_add, declared in
// types.hpp). Qualifiers (memory_model.hpp), after the ordinary arguments:
//   put_signal[_nbi]  coverage mm::all (default: the signal's release also publishes the caller's ordinary stores to
//                     symmetric memory) | mm::comm (comm ops only); signal strength mm::weak (default: the signal
//                     follows this call's data) | mm::strong (also every earlier op toward that PE that a fence of the
//                     same coverage orders: fence + signal in one call); data path of the data part mm::bypass
//                     (default) | mm::keep (needs coverage all: a comm-covered release does not reach data left in
//                     this GPU's caches); scope
//   signal_op         coverage and scope (no data, so no strength or path)
//   signal_wait_until acquire strength mm::acquire (default) | mm::comm | mm::relaxed, and scope (as wait_until)
//   signal_fetch      none (a coherent read that orders nothing)
// The data and the signal word are always written coherently at system scope; the scope narrows the ordering only.
// On load/store transports a weak and a strong signal lower to the same release: the fence or release store that
// puts the signal after this call's data already follows every earlier store of the thread. A bad call (PE out of
// range, an address outside the symmetric heap, a misaligned signal word, a sig_op that is neither set nor add) is
// recorded for the host (portshmem_check_device_errors) and does nothing — neither data nor signal is written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/amo.hpp"
#include "portshmem/detail/signal.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/rma.hpp"
#include "portshmem/types.hpp"
#include "portshmem/wait.hpp"

namespace portshmem {

// ---- put-with-signal: bytes (putmem_signal) and elements of T (put_signal), blocking and nbi, thread / wave / block -
// Copies the data to dest on PE pe, then updates sig_addr on PE pe with signal (set or add): the signal becomes
// visible there only after the data (weak; strong: after every earlier op toward pe, too). Blocking: src may be
// reused on return. nbi: src must not change until quiet; the signal still follows the data (the load/store transport
// moves an nbi form's data as the blocking one's). A wave or block form is one operation of the group: a later fence
// or quiet by any member covers its data and signal.

/// Puts nbytes to dest on PE pe, then signals sig_addr there: the signal is visible only after the data.
template <class... Q>
PORTSHMEM_DEVICE void putmem_signal(const ctx& c, void* dest, const void* src, std::size_t nbytes,
                                    std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op, int pe, Q...) {
  detail::put_signal_bytes<thread_group, mm::resolve<detail::kPutSignalQualifiers, Q...>>(c, dest, src, nbytes,
                                                                                          sig_addr, signal, sig_op, pe);
}

/// putmem_signal by every thread of the wave as one operation: the signal follows the whole wave's data.
template <class... Q>
PORTSHMEM_DEVICE void putmem_signal_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes,
                                         std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op, int pe,
                                         Q...) {
  detail::put_signal_bytes<wave_group, mm::resolve<detail::kPutSignalQualifiers, Q...>>(c, dest, src, nbytes, sig_addr,
                                                                                        signal, sig_op, pe);
}

/// putmem_signal by every thread of the block as one operation: the signal follows the block's data.
template <class... Q>
PORTSHMEM_DEVICE void putmem_signal_block(const ctx& c, void* dest, const void* src, std::size_t nbytes,
                                          std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op, int pe,
                                          Q...) {
  detail::put_signal_bytes<block_group, mm::resolve<detail::kPutSignalQualifiers, Q...>>(c, dest, src, nbytes, sig_addr,
                                                                                         signal, sig_op, pe);
}

/// putmem_signal whose src must not change until quiet; the signal still follows the data.
template <class... Q>
PORTSHMEM_DEVICE void putmem_signal_nbi(const ctx& c, void* dest, const void* src, std::size_t nbytes,
                                        std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op, int pe,
                                        Q...) {
  detail::put_signal_bytes<thread_group, mm::resolve<detail::kPutSignalQualifiers, Q...>, false>(
      c, dest, src, nbytes, sig_addr, signal, sig_op, pe);
}

/// putmem_signal_nbi by every thread of the wave as one operation.
template <class... Q>
PORTSHMEM_DEVICE void putmem_signal_nbi_wave(const ctx& c, void* dest, const void* src, std::size_t nbytes,
                                             std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op,
                                             int pe, Q...) {
  detail::put_signal_bytes<wave_group, mm::resolve<detail::kPutSignalQualifiers, Q...>, false>(
      c, dest, src, nbytes, sig_addr, signal, sig_op, pe);
}

/// putmem_signal_nbi by every thread of the block as one operation.
template <class... Q>
PORTSHMEM_DEVICE void putmem_signal_nbi_block(const ctx& c, void* dest, const void* src, std::size_t nbytes,
                                              std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op,
                                              int pe, Q...) {
  detail::put_signal_bytes<block_group, mm::resolve<detail::kPutSignalQualifiers, Q...>, false>(
      c, dest, src, nbytes, sig_addr, signal, sig_op, pe);
}

/// putmem_signal of nelems elements of T: the signal is visible at pe only after the data.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_signal(const ctx& c, T* dest, const T* src, std::size_t nelems, std::uint64_t* sig_addr,
                                 std::uint64_t signal, signal_update sig_op, int pe, Q...) {
  detail::put_signal_elems<thread_group, mm::resolve<detail::kPutSignalQualifiers, Q...>>(c, dest, src, nelems,
                                                                                          sig_addr, signal, sig_op, pe);
}

/// putmem_signal_wave of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_signal_wave(const ctx& c, T* dest, const T* src, std::size_t nelems, std::uint64_t* sig_addr,
                                      std::uint64_t signal, signal_update sig_op, int pe, Q...) {
  detail::put_signal_elems<wave_group, mm::resolve<detail::kPutSignalQualifiers, Q...>>(c, dest, src, nelems, sig_addr,
                                                                                        signal, sig_op, pe);
}

/// putmem_signal_block of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_signal_block(const ctx& c, T* dest, const T* src, std::size_t nelems, std::uint64_t* sig_addr,
                                       std::uint64_t signal, signal_update sig_op, int pe, Q...) {
  detail::put_signal_elems<block_group, mm::resolve<detail::kPutSignalQualifiers, Q...>>(c, dest, src, nelems, sig_addr,
                                                                                         signal, sig_op, pe);
}

/// putmem_signal_nbi of nelems elements of T: src must not change until quiet.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_signal_nbi(const ctx& c, T* dest, const T* src, std::size_t nelems, std::uint64_t* sig_addr,
                                     std::uint64_t signal, signal_update sig_op, int pe, Q...) {
  detail::put_signal_elems<thread_group, mm::resolve<detail::kPutSignalQualifiers, Q...>, T, false>(
      c, dest, src, nelems, sig_addr, signal, sig_op, pe);
}

/// putmem_signal_nbi_wave of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_signal_nbi_wave(const ctx& c, T* dest, const T* src, std::size_t nelems,
                                          std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op, int pe,
                                          Q...) {
  detail::put_signal_elems<wave_group, mm::resolve<detail::kPutSignalQualifiers, Q...>, T, false>(
      c, dest, src, nelems, sig_addr, signal, sig_op, pe);
}

/// putmem_signal_nbi_block of nelems elements of T.
template <class T, class... Q>
PORTSHMEM_DEVICE void put_signal_nbi_block(const ctx& c, T* dest, const T* src, std::size_t nelems,
                                           std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op, int pe,
                                           Q...) {
  detail::put_signal_elems<block_group, mm::resolve<detail::kPutSignalQualifiers, Q...>, T, false>(
      c, dest, src, nelems, sig_addr, signal, sig_op, pe);
}

// ---- signal_op, signal_fetch, signal_wait_until ---------------------------------------------------------------------
// signal_op orders no earlier comm op, whatever its coverage (a fence does); under mm::comm it is a relaxed update.

/// Updates sig_addr on PE pe atomically, after the caller's earlier ordinary stores (mm::all) or unordered (comm).
template <class... Q>
PORTSHMEM_DEVICE void signal_op(const ctx& c, std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op,
                                int pe, Q...) {
  detail::signal_update_on<mm::resolve<detail::kSignalOpQualifiers, Q...>>(c, sig_addr, signal, sig_op, pe);
}

/// This PE's signal word sig_addr, read atomically (0 for an address outside the symmetric heap); acquires nothing.
template <class... Q>
PORTSHMEM_DEVICE std::uint64_t signal_fetch(const ctx& c, const std::uint64_t* sig_addr, Q...) {
  return detail::fetch_signal<mm::resolve<0, Q...>>(c, sig_addr);
}

/// Waits until this PE's sig_addr `op` value holds, acquiring as wait_until does; returns the value that satisfied it.
template <class... Q>
PORTSHMEM_DEVICE std::uint64_t signal_wait_until(const ctx& c, std::uint64_t* sig_addr, cmp op, std::uint64_t value,
                                                 Q...) {
  return detail::wait_signal<mm::resolve<detail::kWaitQualifiers, Q...>>(c, sig_addr, op, value);
}

} // namespace portshmem
