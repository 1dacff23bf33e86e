// Per-peer dispatch: which transport a device call takes to the PE it names. A PE whose heap is mapped in this process
// (ctx::peer_heaps, this PE's own included) is reached by loads and stores (transport/ipc.hpp); a PE without a mapping
// goes through the RDMA proxy (transport/proxy.hpp) when the job has one (ctx::proxy_rings). The bodies in detail/ ask
// here first, after their argument checks where a group must agree, and otherwise run the load/store code unchanged:
// with no ring table (a job whose peers are all mapped) every test below is false, and in a build without the RDMA
// transport (PORTSHMEM_ENABLE_RDMA=0) it is false at compile time.
//
// Atomicity decides one exception. A network's atomics are atomic with that network's atomics only (MPI accumulates
// with accumulates, NIC atomics with that NIC's), not with a CPU's or GPU's atomics on the same word. So in a job with
// proxied peers every atomic update — the AMOs and the signal updates — goes through the proxy whatever PE it names,
// this PE and mapped peers included (atomics_proxied); those to a mapped PE wait until performed there, so the caller's
// later loads and stores to that PE come after them (transport/proxy.hpp, "delivered").
#pragma once

#include <cstdint>

#include "portshmem/ctx.h"
#include "portshmem/detail/checks.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/transport/ipc.hpp"
#include "portshmem/transport/proxy.hpp"

namespace portshmem::transport {

/// Whether pe (any int) is a PE of the job whose heap is mapped in this process.
PORTSHMEM_DEVICE bool mapped(const portshmem_ctx_t& c, int pe) {
  return pe >= 0 && pe < c.n_pes && ipc::mapped_heap(c, pe) != nullptr;
}

/// Whether a call naming pe goes through the proxy: the job has proxied peers and pe is a PE without a mapping. An
/// invalid pe is not proxied: the load/store path's checks record it.
PORTSHMEM_DEVICE bool proxied(const portshmem_ctx_t& c, int pe) {
  return proxy::active(c) && pe >= 0 && pe < c.n_pes && ipc::mapped_heap(c, pe) == nullptr;
}

/// Whether atomic updates (AMOs, signal updates) go through the proxy, whatever PE they name: in every job with
/// proxied peers (see the top of this file).
PORTSHMEM_DEVICE bool atomics_proxied(const portshmem_ctx_t& c) {
  return proxy::active(c);
}

/// Whether the one-word calls (p, g, the AMOs) have the direct path below: where the heaps can lie in one symmetric
/// range, and not in debug-check builds, whose full path checks more.
inline constexpr bool kDirectWords = PORTSHMEM_HAS_SYMMETRIC_RANGE && !PORTSHMEM_DEBUG_CHECKS;

/// The direct path of a one-word call: pe's copy of the T at addr when the handle alone shows the call is good and
/// takes the load/store path — the heaps in one symmetric range, no proxy, pe among the mapped PEs (who lie inside
/// [0, n_pes)), [addr, addr + sizeof(T)) inside the heap's user part, addr aligned for T where Aligned —; nullptr
/// otherwise, and the caller takes its full path, which dispatches, checks and records. Register arithmetic and no
/// branch, so a good call costs a few instructions and one predicated access where the full path's tests cost three
/// branch regions (docs/performance.md, "One-word calls").
template <bool Aligned, class T>
PORTSHMEM_DEVICE T* direct_word(const portshmem_ctx_t& c, const T* addr, int pe) {
  if constexpr (!kDirectWords) {
    return nullptr;
  } else {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(addr);
    const std::uintptr_t offset = detail::heap_offset(c, addr);
    // What depends on the handle alone (hoisted out of a caller's loop), then one comparison per call for the heap:
    // with the heap at least one word long, offset <= heap_size - sizeof(T) holds exactly for a word inside it (an
    // address below the heap wrapped offset around).
    const bool handle_ok = c.peer_stride != 0 && !proxy::active(c) && c.heap_size >= sizeof(T);
    const bool mapped_pe = unsigned(pe) - unsigned(c.mapped_first) < unsigned(c.mapped_count);
    const bool in_heap = offset <= c.heap_size - sizeof(T);
    const bool aligned = !Aligned || at % sizeof(T) == 0;
    const std::uintptr_t target = at + std::uintptr_t((std::int64_t(pe) - c.my_pe) * c.peer_stride);
    return (handle_ok & mapped_pe & in_heap & aligned) ? reinterpret_cast<T*>(target) : nullptr;
  }
}

/// Calls full() out of line where a direct path exists: a one-word call's full path, which its good calls skip, costs
/// them a call site instead of its code and registers.
template <class F>
PORTSHMEM_DEVICE_COLD auto out_of_line(F full) {
  return full();
}

/// A one-word call's choreography: direct(remote) on pe's copy of addr where direct_word accepts the call, else full()
/// — out of line where the direct path exists, inline where it does not (debug checks, AMD). Returns what they return.
template <bool Aligned, class T, class Direct, class Full>
PORTSHMEM_DEVICE auto one_word(const portshmem_ctx_t& c, T* addr, int pe, Direct direct, Full full) {
  if constexpr (kDirectWords) {
    T* const remote = direct_word<Aligned>(c, addr, pe);
    if (__builtin_expect(remote != nullptr, 1)) return direct(remote);
    return out_of_line(full);
  } else {
    return full();
  }
}

/// A barrier arrival on pe's round-k counter, by whichever transport reaches pe (one writer per counter: the two
/// transports never update one counter).
template <class R>
PORTSHMEM_DEVICE void arrive(const portshmem_ctx_t& c, int pe, int k) {
  if (proxied(c, pe)) {
    proxy::arrive(c, pe, k);
  } else {
    ipc::arrive<R>(c, pe, k);
  }
}

} // namespace portshmem::transport
