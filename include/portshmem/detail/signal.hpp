// The bodies of signal.hpp, whatever transport carries the signal: the argument checks (all before any byte moves,
// so a bad call writes neither data nor signal), the group's choreography around the data part (a put, detail/rma.hpp)
// and the signal, the choice between a publishing and a relaxed update (strict runs included), and the local reads
// and waits on this PE's own signal words. The data and the signal update are the transport's: loads and stores
// (transport/ipc.hpp), or the proxy (transport/proxy.hpp), which in a job with proxied peers carries every signal
// update, a mapped PE's too (transport/dispatch.hpp: atomicity).
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/rma.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/detail/wait.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/transport/dispatch.hpp"
#include "portshmem/transport/ipc.hpp"
#include "portshmem/transport/proxy.hpp"
#include "portshmem/types.hpp"

namespace portshmem::detail {

inline constexpr unsigned kPutSignalQualifiers =
    mm::cat::coverage | mm::cat::signal | mm::cat::data_path | mm::cat::scope;
inline constexpr unsigned kSignalOpQualifiers = mm::cat::coverage | mm::cat::scope;

/// Why a signal update of sig_addr on pe is bad, judged from the handle alone: a sig_op that is neither set nor
/// add, a misaligned signal word, or what range_status finds (A: a user's word, or a team's, areas in checks.hpp).
template <area A = area::user>
PORTSHMEM_DEVICE portshmem_status_t signal_status(const ctx& c, const std::uint64_t* sig_addr, signal_update op,
                                                  int pe) {
  if (op != signal_set && op != signal_add) return PORTSHMEM_ERR_INVALID_ARG;
  if (reinterpret_cast<std::uintptr_t>(sig_addr) % sizeof(std::uint64_t) != 0) return PORTSHMEM_ERR_INVALID_ARG;
  return range_status<A>(c, sig_addr, sizeof(std::uint64_t), pe);
}

/// pe's copy of the signal word, or nullptr after recording why the call is bad (only `reporter` records).
template <class R, area A = area::user>
PORTSHMEM_DEVICE std::uint64_t* remote_signal(const ctx& c, const std::uint64_t* sig_addr, signal_update op, int pe,
                                              bool reporter) {
  if (!scope_reaches<R>(c, pe, PORTSHMEM_CALL_SIGNAL, reporter)) return nullptr;
  if (const portshmem_status_t bad = signal_status<A>(c, sig_addr, op, pe); bad != PORTSHMEM_SUCCESS) {
    if (reporter) record_error(c, bad, PORTSHMEM_CALL_SIGNAL, pe, sig_addr, sizeof(std::uint64_t));
    return nullptr;
  }
  char* const base = transport::ipc::peer_heap(c, pe, PORTSHMEM_CALL_SIGNAL, sig_addr, sizeof(std::uint64_t), reporter);
  return base ? transport::ipc::at<std::uint64_t>(c, base, sig_addr) : nullptr;
}

/// put_signal_bytes in a job with proxied peers, once the arguments passed. A proxied pe gets one PUT_SIGNAL command
/// (or a SIGNAL, without data) from member 0 after the group's sync; a device- or node-scoped call naming a PE on
/// another node is refused. A mapped pe (this PE included) gets the data by loads and stores, as put_signal_bytes
/// moves it, and the signal through the proxy, after the data (the command's release store follows the group's
/// joined stores) and waited for until performed there.
template <class Group, class R, bool Blocking>
PORTSHMEM_DEVICE_COLD void put_signal_proxied(ctx c, void* dest, const void* src, std::size_t n,
                                              std::uint64_t* sig_addr, std::uint64_t signal, signal_update op, int pe) {
  const bool reporter = Group::rank() == 0;
  const transport::proxy::target sig = transport::proxy::at(c, sig_addr, pe);
  if (transport::proxied(c, pe)) {
    if (!transport::proxy::scope_allows<R>(c, pe, PORTSHMEM_CALL_SIGNAL, reporter)) return;
    Group::sync();
    if (reporter && n == 0) {
      transport::proxy::signal<R>(c, sig, signal, op, false);
    } else if (reporter && local_side_ok<Group>(c, src, n, pe, PORTSHMEM_CALL_SIGNAL, true)) {
      transport::proxy::put_signal<R>(c, transport::proxy::at(c, dest, pe), src, n, sig.offset, signal, op, Blocking);
    }
    group_end<Group>();
    return;
  }
  if (is_word_put<Group>(dest, src, n)) {
    if (transport::ipc::put_word<R>(c, dest, src, n, pe, PORTSHMEM_CALL_SIGNAL)) {
      transport::proxy::signal<R>(c, sig, signal, op, true);
    }
    return;
  }
  char* const base =
      n != 0 && !local_side_ok<Group>(c, src, n, pe, PORTSHMEM_CALL_SIGNAL, reporter)
          ? nullptr
          : transport::ipc::peer_heap(c, pe, PORTSHMEM_CALL_SIGNAL, sig_addr, sizeof(std::uint64_t), reporter);
  if (n != 0) {
    put_mapped<Group, R>(base ? transport::ipc::at(c, base, dest) : nullptr, src, n);
  } else {
    group_end<Group>();
  }
  if (base && reporter) transport::proxy::signal<R>(c, sig, signal, op, true);
  group_end<Group>();
}

/// One put-with-signal by the group: the arguments are checked first (every member reaches the same verdict, so the
/// group stays together), the peer's heap is looked up once, the data moves as a put (ending with every member's
/// stores joined and the group synchronized), member 0 publishes the signal, and the group synchronizes again so
/// that a later fence or quiet by any member covers the signal too (as a put does for its data). SigArea, DestArea:
/// whose addresses the signal word and dest are (checks.hpp; the collectives' team words and scratch are the
/// runtime's).
template <class Group, class R, bool Blocking = true, area SigArea = area::user, area DestArea = SigArea>
PORTSHMEM_DEVICE void put_signal_bytes(const ctx& c, void* dest, const void* src, std::size_t n,
                                       std::uint64_t* sig_addr, std::uint64_t signal, signal_update op, int pe) {
  static_assert(R::path == mm::path_kind::bypass || R::cover == mm::coverage_kind::all,
                "portshmem: put_signal with mm::keep data needs coverage mm::all: a comm-covered signal does not "
                "order data left in this GPU's caches (use mm::bypass, or drop mm::comm)");
  const bool reporter = Group::rank() == 0;
  if (!scope_reaches<R>(c, pe, PORTSHMEM_CALL_SIGNAL, reporter)) return;
  portshmem_status_t bad = signal_status<SigArea>(c, sig_addr, op, pe);
  const void* bad_addr = sig_addr;
  std::size_t bad_bytes = sizeof(std::uint64_t);
  if (bad == PORTSHMEM_SUCCESS && n != 0 && (bad = range_status<DestArea>(c, dest, n, pe)) != PORTSHMEM_SUCCESS) {
    bad_addr = dest;
    bad_bytes = n;
  }
  // One test for the two ways off the load/store path (a bad call, a job with proxied peers), so that path's code is
  // laid out as it is in a job without the RDMA transport.
  if (bad != PORTSHMEM_SUCCESS || transport::atomics_proxied(c)) {
    if (bad == PORTSHMEM_SUCCESS) {
      put_signal_proxied<Group, R, Blocking>(c, dest, src, n, sig_addr, signal, op, pe);
    } else if (reporter) {
      record_error(c, bad, PORTSHMEM_CALL_SIGNAL, pe, bad_addr, bad_bytes);
    }
    return;
  }
  // R::strength needs nothing more: the release below orders every earlier store of the thread (and, through the
  // group's barrier, of the group), not only this call's data.
  if (is_word_put<Group>(dest, src, n)) { // the latency path: one or two words of data, one signal, no copy loop
    if (char* const base = transport::ipc::put_word<R>(c, dest, src, n, pe, PORTSHMEM_CALL_SIGNAL)) {
      transport::ipc::publish_signal<R>(c, transport::ipc::at<std::uint64_t>(c, base, sig_addr), signal, op);
    }
    return;
  }
  char* const base =
      n != 0 && !local_side_ok<Group>(c, src, n, pe, PORTSHMEM_CALL_SIGNAL, reporter)
          ? nullptr
          : transport::ipc::peer_heap(c, pe, PORTSHMEM_CALL_SIGNAL, sig_addr, sizeof(std::uint64_t), reporter);
  if (n != 0) {
    put_mapped<Group, R>(base ? transport::ipc::at(c, base, dest) : nullptr, src, n);
  } else {
    group_end<Group>(); // no data, but under coverage all the members' earlier stores still precede the signal
  }
  if (base && Group::rank() == 0) {
    transport::ipc::publish_signal<R>(c, transport::ipc::at<std::uint64_t>(c, base, sig_addr), signal, op);
  }
  group_end<Group>();
}

/// put_signal_bytes for nelems elements of T, once T is known to be a standard RMA type (the typed forms). A function
/// of its own rather than rma_bytes in the argument list: nvcc schedules put_signal_block differently with that.
template <class Group, class R, class T, bool Blocking = true>
PORTSHMEM_DEVICE void put_signal_elems(const ctx& c, T* dest, const T* src, std::size_t nelems, std::uint64_t* sig_addr,
                                       std::uint64_t signal, signal_update op, int pe) {
  check_rma_type<T>();
  put_signal_bytes<Group, R, Blocking>(c, dest, src, elems_bytes<T>(nelems), sig_addr, signal, op, pe);
}

/// signal_op's body: a publishing update under coverage all (or in a strict run), a relaxed one under comm. A: whose
/// word it is (a team's word, for the collectives: checks.hpp).
template <class R, area A = area::user>
PORTSHMEM_DEVICE void signal_update_on(const ctx& c, std::uint64_t* sig_addr, std::uint64_t signal,
                                       signal_update sig_op, int pe) {
  if (transport::atomics_proxied(c)) { // the checks of remote_signal, then one SIGNAL command
    if (!scope_reaches<R>(c, pe, PORTSHMEM_CALL_SIGNAL, true)) return;
    if (const portshmem_status_t bad = signal_status<A>(c, sig_addr, sig_op, pe); bad != PORTSHMEM_SUCCESS) {
      record_error(c, bad, PORTSHMEM_CALL_SIGNAL, pe, sig_addr, sizeof(std::uint64_t));
      return;
    }
    const bool mapped = transport::mapped(c, pe);
    if (!mapped && !transport::proxy::scope_allows<R>(c, pe, PORTSHMEM_CALL_SIGNAL, true)) return;
    transport::proxy::signal<R>(c, transport::proxy::at(c, sig_addr, pe), signal, sig_op, mapped);
    return;
  }
  std::uint64_t* sig = remote_signal<R, A>(c, sig_addr, sig_op, pe, true);
  if (!sig) return;
  if (R::cover == mm::coverage_kind::all || strict_run<R>(c)) {
    transport::ipc::publish_signal<R>(c, sig, signal, sig_op);
  } else {
    transport::ipc::update_signal(sig, signal, sig_op);
  }
}

/// Whether this PE's own signal word may be read (misaligned: debug checks only), else records why.
PORTSHMEM_DEVICE bool local_signal_ok(const ctx& c, const std::uint64_t* sig_addr) {
  if (misaligned<std::uint64_t>(sig_addr)) {
    record_error(c, PORTSHMEM_ERR_INVALID_ARG, PORTSHMEM_CALL_SIGNAL, c.my_pe, sig_addr, sizeof(std::uint64_t));
    return false;
  }
  if (!is_local_symmetric(c, sig_addr, sizeof(std::uint64_t))) {
    record_error(c, PORTSHMEM_ERR_NOT_SYMMETRIC, PORTSHMEM_CALL_SIGNAL, c.my_pe, sig_addr, sizeof(std::uint64_t));
    return false;
  }
  return true;
}

/// signal_fetch's body: this PE's own signal word, one coherent load.
template <class R>
PORTSHMEM_DEVICE std::uint64_t fetch_signal(const ctx& c, const std::uint64_t* sig_addr) {
  static_assert(mm::checked<R>); // signal_fetch takes no qualifier
  if (!local_signal_ok(c, sig_addr)) return 0;
  return arch::load<arch::order::relaxed, kDataScope>(sig_addr);
}

/// signal_wait_until's body: wait_until's spin and acquire on this PE's own signal word.
template <class R>
PORTSHMEM_DEVICE std::uint64_t wait_signal(const ctx& c, std::uint64_t* sig_addr, cmp op, std::uint64_t value) {
  if (!local_signal_ok(c, sig_addr)) return 0;
  std::uint64_t seen = 0;
  spin_until(
      c,
      [&] {
        seen = arch::load<kPollOrder<R>, kDataScope>(sig_addr);
        return compare(seen, op, value);
      },
      PORTSHMEM_CALL_SIGNAL, sig_addr, value, op);
  observed<R>(c);
  return seen;
}

} // namespace portshmem::detail
