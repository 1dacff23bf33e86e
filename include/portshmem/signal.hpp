// Signaling (OpenSHMEM 1.5, "Signaling Operations"): put-with-signal, signal_op, signal_fetch, signal_wait_until. A
// signal is a symmetric std::uint64_t, updated by set or add (sig_op: portshmem::signal_set / signal_add). Qualifiers
// (memory_model.hpp), after the ordinary arguments:
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
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/group.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/rma.hpp"
#include "portshmem/wait.hpp"

/// The signal operations as plain constants (OpenSHMEM's SHMEM_SIGNAL_SET / SHMEM_SIGNAL_ADD), for the C names.
#define PORTSHMEM_SIGNAL_SET 0
#define PORTSHMEM_SIGNAL_ADD 1

namespace portshmem {

/// How a signal operation updates the signal word: overwrite it, or add to it atomically.
enum signal_update : int { signal_set = PORTSHMEM_SIGNAL_SET, signal_add = PORTSHMEM_SIGNAL_ADD };

namespace detail {

inline constexpr unsigned kPutSignalQualifiers =
    mm::cat::coverage | mm::cat::signal | mm::cat::data_path | mm::cat::scope;
inline constexpr unsigned kSignalOpQualifiers = mm::cat::coverage | mm::cat::scope;

/// Why a signal update of sig_addr on pe is bad, judged from the handle alone: a sig_op that is neither set nor
/// add, a misaligned signal word, or what range_status finds.
PORTSHMEM_DEVICE portshmem_status_t signal_status(const ctx& c, const std::uint64_t* sig_addr, signal_update op,
                                                  int pe) {
  if (op != signal_set && op != signal_add) return PORTSHMEM_ERR_INVALID_ARG;
  if (reinterpret_cast<std::uintptr_t>(sig_addr) % sizeof(std::uint64_t) != 0) return PORTSHMEM_ERR_INVALID_ARG;
  return range_status(c, sig_addr, sizeof(std::uint64_t), pe);
}

/// pe's copy of the signal word, or nullptr after recording why the call is bad (only `reporter` records).
template <class R>
PORTSHMEM_DEVICE std::uint64_t* remote_signal(const ctx& c, const std::uint64_t* sig_addr, signal_update op, int pe,
                                              bool reporter) {
  if (!scope_reaches<R>(c, pe, PORTSHMEM_CALL_SIGNAL, reporter)) return nullptr;
  if (const portshmem_status_t bad = signal_status(c, sig_addr, op, pe); bad != PORTSHMEM_SUCCESS) {
    if (reporter) record_error(c, bad, PORTSHMEM_CALL_SIGNAL, pe, sig_addr, sizeof(std::uint64_t));
    return nullptr;
  }
  char* const base = peer_heap(c, pe, PORTSHMEM_CALL_SIGNAL, sig_addr, sizeof(std::uint64_t), reporter);
  return base ? reinterpret_cast<std::uint64_t*>(base + heap_offset(c, sig_addr)) : nullptr;
}

/// The signal update as the release R describes (detail/publish.hpp): set is a publishing store, add a publishing
/// fetch-add, so the signal becomes visible only after what R's coverage names.
template <class R>
PORTSHMEM_DEVICE void publish_signal(const ctx& c, std::uint64_t* sig, std::uint64_t value, signal_update op) {
  if (op == signal_add) {
    publish_add<R>(c, sig, value);
  } else {
    publish_store<R>(c, sig, value);
  }
}

/// One put-with-signal by the group: the arguments are checked first (every member reaches the same verdict, so the
/// group stays together), the peer's heap is looked up once, the data moves as a put (ending with every member's
/// stores joined and the group synchronized), member 0 publishes the signal, and the group synchronizes again so
/// that a later fence or quiet by any member covers the signal too (as a put does for its data).
template <class Group, class R>
PORTSHMEM_DEVICE void put_signal_bytes(const ctx& c, void* dest, const void* src, std::size_t n,
                                       std::uint64_t* sig_addr, std::uint64_t signal, signal_update op, int pe) {
  static_assert(R::path == mm::path_kind::bypass || R::cover == mm::coverage_kind::all,
                "portshmem: put_signal with mm::keep data needs coverage mm::all: a comm-covered signal does not "
                "order data left in this GPU's caches (use mm::bypass, or drop mm::comm)");
  const bool reporter = Group::rank() == 0;
  if (!scope_reaches<R>(c, pe, PORTSHMEM_CALL_SIGNAL, reporter)) return;
  portshmem_status_t bad = signal_status(c, sig_addr, op, pe);
  const void* bad_addr = sig_addr;
  std::size_t bad_bytes = sizeof(std::uint64_t);
  if (bad == PORTSHMEM_SUCCESS && n != 0 && (bad = range_status(c, dest, n, pe)) != PORTSHMEM_SUCCESS) {
    bad_addr = dest;
    bad_bytes = n;
  }
  if (bad != PORTSHMEM_SUCCESS) {
    if (reporter) record_error(c, bad, PORTSHMEM_CALL_SIGNAL, pe, bad_addr, bad_bytes);
    return;
  }
  // R::strength needs nothing more: the release below orders every earlier store of the thread (and, through the
  // group's barrier, of the group), not only this call's data.
  if (is_word_put<Group>(dest, src, n)) { // the latency path: one word of data, one signal, no copy loop
    if (char* const base = put_word<R>(c, dest, src, n, pe, PORTSHMEM_CALL_SIGNAL)) {
      publish_signal<R>(c, reinterpret_cast<std::uint64_t*>(base + heap_offset(c, sig_addr)), signal, op);
    }
    return;
  }
  char* const base = n != 0 && !local_side_ok<Group>(c, src, n, pe, PORTSHMEM_CALL_SIGNAL, reporter)
                         ? nullptr
                         : peer_heap(c, pe, PORTSHMEM_CALL_SIGNAL, sig_addr, sizeof(std::uint64_t), reporter);
  if (n != 0) {
    put_mapped<Group, R>(base ? base + heap_offset(c, dest) : nullptr, src, n);
  } else {
    group_end<Group>(); // no data, but under coverage all the members' earlier stores still precede the signal
  }
  if (base && Group::rank() == 0) {
    publish_signal<R>(c, reinterpret_cast<std::uint64_t*>(base + heap_offset(c, sig_addr)), signal, op);
  }
  group_end<Group>();
}

} // namespace detail

// ---- put-with-signal: typed (elements of T) and untyped (bytes), blocking and nbi, thread / wave / block ------------
// Copies the data to dest on PE pe, then updates sig_addr on PE pe with signal (set or add): the signal becomes
// visible there only after the data (weak; strong: after every earlier op toward pe, too). Blocking: src may be
// reused on return. nbi: src must not change until quiet; the signal still follows the data.
#define PORTSHMEM_DETAIL_PUT_SIGNAL_FORMS(NAME, MEMNAME, GROUP)                                                        \
  template <class... Q>                                                                                                \
  PORTSHMEM_DEVICE void MEMNAME(const ctx& c, void* dest, const void* src, std::size_t nbytes,                         \
                                std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op, int pe, Q...) {   \
    detail::put_signal_bytes<GROUP, mm::resolve<detail::kPutSignalQualifiers, Q...>>(c, dest, src, nbytes, sig_addr,   \
                                                                                     signal, sig_op, pe);              \
  }                                                                                                                    \
  template <class T, class... Q>                                                                                       \
  PORTSHMEM_DEVICE void NAME(const ctx& c, T* dest, const T* src, std::size_t nelems, std::uint64_t* sig_addr,         \
                             std::uint64_t signal, signal_update sig_op, int pe, Q...) {                               \
    detail::check_rma_type<T>();                                                                                       \
    detail::put_signal_bytes<GROUP, mm::resolve<detail::kPutSignalQualifiers, Q...>>(c, dest, src, nelems * sizeof(T), \
                                                                                     sig_addr, signal, sig_op, pe);    \
  }
PORTSHMEM_DETAIL_PUT_SIGNAL_FORMS(put_signal, putmem_signal, thread_group)
PORTSHMEM_DETAIL_PUT_SIGNAL_FORMS(put_signal_wave, putmem_signal_wave, wave_group)
PORTSHMEM_DETAIL_PUT_SIGNAL_FORMS(put_signal_block, putmem_signal_block, block_group)
// On load/store transports the nbi forms move the data the same way: what differs is only what the caller may assume.
PORTSHMEM_DETAIL_PUT_SIGNAL_FORMS(put_signal_nbi, putmem_signal_nbi, thread_group)
PORTSHMEM_DETAIL_PUT_SIGNAL_FORMS(put_signal_nbi_wave, putmem_signal_nbi_wave, wave_group)
PORTSHMEM_DETAIL_PUT_SIGNAL_FORMS(put_signal_nbi_block, putmem_signal_nbi_block, block_group)
#undef PORTSHMEM_DETAIL_PUT_SIGNAL_FORMS

/// Updates sig_addr on PE pe with signal (set or add), atomically. Under mm::all (default) the caller's earlier
/// ordinary stores to symmetric memory are visible before the signal; it orders no earlier comm op (a fence does).
/// Under mm::comm it orders nothing: a relaxed atomic update.
template <class... Q>
PORTSHMEM_DEVICE void signal_op(const ctx& c, std::uint64_t* sig_addr, std::uint64_t signal, signal_update sig_op,
                                int pe, Q...) {
  using R = mm::resolve<detail::kSignalOpQualifiers, Q...>;
  std::uint64_t* sig = detail::remote_signal<R>(c, sig_addr, sig_op, pe, true);
  if (!sig) return;
  if (R::cover == mm::coverage_kind::all || detail::strict_run<R>(c)) {
    detail::publish_signal<R>(c, sig, signal, sig_op);
  } else if (sig_op == signal_add) {
    arch::fetch_add<arch::order::relaxed, detail::kDataScope>(sig, signal);
  } else {
    arch::store<arch::order::relaxed, detail::kDataScope>(sig, signal);
  }
}

/// This PE's signal word sig_addr, read atomically (0 for an address outside the symmetric heap). A comm read: it
/// acquires nothing for later ordinary loads (signal_wait_until does). Takes no qualifier.
template <class... Q>
PORTSHMEM_DEVICE std::uint64_t signal_fetch(const ctx& c, const std::uint64_t* sig_addr, Q...) {
  static_assert(mm::checked<mm::resolve<0, Q...>>); // signal_fetch takes no qualifier
  if (!detail::is_local_symmetric(c, sig_addr, sizeof(std::uint64_t))) {
    detail::record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_SIGNAL, c.my_pe, sig_addr,
                         sizeof(std::uint64_t));
    return 0;
  }
  return arch::load<arch::order::relaxed, detail::kDataScope>(sig_addr);
}

/// Waits until this PE's signal word sig_addr `op` value holds and returns the value that satisfied it; with the
/// acquire strength of wait_until (default: later loads see what the signal's writer published with it). An address
/// outside the symmetric heap is recorded as a bad call and returns 0 without waiting.
template <class... Q>
PORTSHMEM_DEVICE std::uint64_t signal_wait_until(const ctx& c, std::uint64_t* sig_addr, cmp op, std::uint64_t value,
                                                 Q...) {
  using R = mm::resolve<detail::kWaitQualifiers, Q...>;
  if (!detail::is_local_symmetric(c, sig_addr, sizeof(std::uint64_t))) {
    detail::record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_SIGNAL, c.my_pe, sig_addr,
                         sizeof(std::uint64_t));
    return 0;
  }
  std::uint64_t seen = 0;
  detail::spin_until(
      c,
      [&] {
        seen = arch::load<detail::kPollOrder<R>, detail::kDataScope>(sig_addr);
        return detail::compare(seen, op, value);
      },
      PORTSHMEM_CALL_SIGNAL, sig_addr, value);
  detail::observed<R>(c);
  return seen;
}

} // namespace portshmem
