// The bodies of sync.hpp's barriers: the group's choreography (join, synchronize, one member runs the barrier) and
// the dissemination barrier among PEs, whose arrivals go through the transport (transport/ipc.hpp: arrive) and whose
// waits poll this PE's own counters.
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
#include "portshmem/transport/ipc.hpp"

namespace portshmem::detail {

inline constexpr unsigned kFenceQualifiers = mm::cat::coverage | mm::cat::scope;

/// Dissemination barrier among all PEs, run by one thread per PE: in round k PE i bumps PE (i + 2^k)'s round-k
/// counter and waits until its own has reached the number of barriers it has completed. Counters only grow, so
/// nothing is reset and a fast PE's next barrier cannot be mistaken for this one.
template <class R>
PORTSHMEM_DEVICE void dissemination_barrier(const ctx& c) {
  auto* mine = reinterpret_cast<internal_area*>(c.heap);
  // One thread per PE at a time, but successive barriers may be called from different blocks (or SMs / XCDs): the
  // count is read and written coherently, like every other library access to symmetric memory.
  const std::uint64_t epoch = arch::load<arch::order::relaxed, kDataScope>(&mine->barrier_epoch) + 1;
  arch::store<arch::order::relaxed, kDataScope>(&mine->barrier_epoch, epoch);
  for (int k = 0, dist = 1; dist < c.n_pes; ++k, dist *= 2) {
    const int to = (c.my_pe + dist) % c.n_pes;
    transport::ipc::arrive<R>(c, to, k);
    std::uint64_t* arrivals = &mine->barrier_arrivals[k];
    spin_until(
        c, [&] { return arch::load<arch::order::relaxed, kDataScope>(arrivals) >= epoch; }, PORTSHMEM_CALL_BARRIER,
        arrivals, epoch);
    covered_fence<R, arch::order::acquire>(c);
  }
}

template <class Group, bool Quiet, class R>
PORTSHMEM_DEVICE void barrier(const ctx& c) {
  arch::join_comm_stores();
  Group::sync();
  if (Group::rank() == 0) {
    if constexpr (Quiet) covered_fence<R, arch::order::seq_cst>(c);
    dissemination_barrier<R>(c);
  }
  Group::sync();
}

} // namespace portshmem::detail
