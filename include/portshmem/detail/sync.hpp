// The bodies of sync.hpp: fence, quiet and pe_quiet over both transports (the load/store transport's fences, and, in a
// job with proxied peers, the proxy's FENCE / QUIET / PE_QUIET on the caller's ring), the barriers' group choreography
// (join, synchronize, one member runs the barrier) and the dissemination barrier among PEs, whose arrivals go through
// the transport that reaches each PE (transport/dispatch.hpp: arrive) and whose waits poll this PE's own counters.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/arch.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/transport/dispatch.hpp"
#include "portshmem/transport/proxy.hpp"

namespace portshmem::detail {

inline constexpr unsigned kFenceQualifiers = mm::cat::coverage | mm::cat::scope;

/// fence's body: the load/store fence, and the proxy's FENCE on the caller's ring (not waited for).
template <class R>
PORTSHMEM_DEVICE void fence_all(const ctx& c) {
  covered_fence<R, arch::order::release>(c);
  if (transport::proxy::active(c)) transport::proxy::fence(c);
}

/// quiet's body: the caller's proxied commands complete at their targets (waited for), then the load/store quiet.
template <class R>
PORTSHMEM_DEVICE void quiet_all(const ctx& c) {
  if (transport::proxy::active(c)) transport::proxy::quiet(c);
  covered_fence<R, arch::order::seq_cst>(c);
}

/// pe_quiet's proxy part: a PE_QUIET for the one proxied PE among pes, a QUIET for several. A device- or node-scoped
/// call naming a proxied PE on another node is refused (nothing is done). Returns false when refused.
template <class R>
PORTSHMEM_DEVICE bool pe_quiet_proxied(const ctx& c, const int* pes, std::size_t npes) {
  int count = 0, last = -1;
  for (std::size_t i = 0; i < npes; ++i) {
    if (!transport::proxied(c, pes[i])) continue;
    if (!transport::proxy::scope_allows<R>(c, pes[i], PORTSHMEM_CALL_QUIET, true)) return false;
    ++count;
    last = pes[i];
  }
  if (count == 1) {
    transport::proxy::pe_quiet(c, last);
  } else if (count > 1) {
    transport::proxy::quiet(c);
  }
  return true;
}

/// pe_quiet's body: what the caller issued toward pes is complete (the load/store part is the whole quiet's).
template <class R>
PORTSHMEM_DEVICE void pe_quiet_all(const ctx& c, const int* pes, std::size_t npes) {
  if (transport::proxy::active(c) && !pe_quiet_proxied<R>(c, pes, npes)) return;
  covered_fence<R, arch::order::seq_cst>(c);
}

/// Dissemination barrier among all PEs, run by one thread per PE: in round k PE i bumps PE (i + 2^k)'s round-k
/// counter and waits until its own has reached the number of barriers it has completed. Counters only grow, so
/// nothing is reset and a fast PE's next barrier cannot be mistaken for this one.
template <class R>
PORTSHMEM_DEVICE void dissemination_barrier(const ctx& c) {
  internal_area* mine = internal_area_of(c);
  // One thread per PE at a time, but successive barriers may be called from different blocks (or SMs / XCDs): the
  // count is read and written coherently, like every other library access to symmetric memory.
  const std::uint64_t epoch = arch::load<arch::order::relaxed, kDataScope>(&mine->barrier_epoch) + 1;
  arch::store<arch::order::relaxed, kDataScope>(&mine->barrier_epoch, epoch);
  for (int k = 0, dist = 1; dist < c.n_pes; ++k, dist *= 2) {
    const int to = (c.my_pe + dist) % c.n_pes;
    transport::arrive<R>(c, to, k);
    std::uint64_t* arrivals = &mine->barrier_arrivals[k];
    spin_until(
        c, [&] { return arch::load<arch::order::relaxed, kDataScope>(arrivals) >= epoch; }, PORTSHMEM_CALL_BARRIER,
        arrivals, epoch, cmp::ge, [&] { return (c.my_pe - dist + c.n_pes) % c.n_pes; }); // round k's writer
    covered_fence<R, arch::order::acquire>(c);
  }
}

template <class Group, bool Quiet, class R>
PORTSHMEM_DEVICE void barrier(const ctx& c) {
  arch::join_comm_stores();
  Group::sync();
  if (Group::rank() == 0) {
    if constexpr (Quiet) quiet_all<R>(c);
    dissemination_barrier<R>(c);
  }
  Group::sync();
}

} // namespace portshmem::detail
