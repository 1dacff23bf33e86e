// Ordering and synchronization: fence, quiet, barrier_all, sync_all. Defaults are OpenSHMEM's (system scope; the
// caller's ordinary stores to symmetric memory are covered too).
#pragma once

#include "portshmem/arch.hpp"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/group.hpp"

namespace portshmem {

/// Puts, AMOs, signal ops and ordinary stores to symmetric memory issued before the fence to a PE are delivered
/// there before those issued after it to the same PE. Promises no completion, and nothing across PEs.
PORTSHMEM_DEVICE void fence(const ctx&) { arch::fence<arch::order::release, arch::scope::system>(); }

/// Every operation the thread issued before the quiet is complete and visible to all PEs, and so are the thread's
/// ordinary stores to symmetric memory; nothing after the quiet is performed before it.
PORTSHMEM_DEVICE void quiet(const ctx&) { arch::fence<arch::order::seq_cst, arch::scope::system>(); }

namespace detail {

/// Dissemination barrier among all PEs, run by one thread per PE: in round k PE i bumps PE (i + 2^k)'s round-k
/// counter and waits until its own has reached the number of barriers it has completed. Counters only grow, so
/// nothing is reset and a fast PE's next barrier cannot be mistaken for this one.
PORTSHMEM_DEVICE void dissemination_barrier(const ctx& c) {
  auto* mine = reinterpret_cast<internal_area*>(c.heap);
  const std::uint64_t epoch = ++mine->barrier_epoch;
  for (int k = 0, dist = 1; dist < c.n_pes; ++k, dist *= 2) {
    const int to = (c.my_pe + dist) % c.n_pes;
    auto* theirs = reinterpret_cast<internal_area*>(c.peer_heaps[to]);
    arch::fetch_add<arch::order::release, arch::scope::system>(&theirs->barrier_arrivals[k], std::uint64_t(1));
    std::uint64_t* arrivals = &mine->barrier_arrivals[k];
    spin_until(
        c, [&] { return arch::load<arch::order::acquire, arch::scope::system>(arrivals) >= epoch; },
        PORTSHMEM_CALL_BARRIER, arrivals, epoch);
  }
}

template <class Group, bool Quiet>
PORTSHMEM_DEVICE void barrier(const ctx& c) {
  Group::sync();
  if (Group::rank() == 0) {
    if constexpr (Quiet) arch::fence<arch::order::seq_cst, arch::scope::system>();
    dissemination_barrier(c);
  }
  Group::sync();
}

}  // namespace detail

/// Quiet, then waits until every PE has entered barrier_all: on return every PE's operations and symmetric stores
/// issued before its barrier are visible. One thread (or group) per PE calls it, the same number of times on all.
PORTSHMEM_DEVICE void barrier_all(const ctx& c) { detail::barrier<thread_group, true>(c); }
PORTSHMEM_DEVICE void barrier_all_wave(const ctx& c) { detail::barrier<wave_group, true>(c); }
PORTSHMEM_DEVICE void barrier_all_block(const ctx& c) { detail::barrier<block_group, true>(c); }

/// Waits until every PE has entered sync_all; completes nothing (no quiet): pair it with quiet where data matters.
PORTSHMEM_DEVICE void sync_all(const ctx& c) { detail::barrier<thread_group, false>(c); }
PORTSHMEM_DEVICE void sync_all_wave(const ctx& c) { detail::barrier<wave_group, false>(c); }
PORTSHMEM_DEVICE void sync_all_block(const ctx& c) { detail::barrier<block_group, false>(c); }

}  // namespace portshmem
