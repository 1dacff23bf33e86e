// Ordering and synchronization: fence, quiet, pe_quiet, barrier_all, sync_all. Qualifiers (memory_model.hpp):
//   coverage  mm::all (default: comm ops and the caller's ordinary stores to symmetric memory) | mm::comm (comm ops:
//             bypass puts, AMOs, signal ops — the cheap path: no cache write-back on AMD)
//   scope     mm::device | mm::node | mm::system (default)
#pragma once

#include "portshmem/arch.hpp"
#include "portshmem/detail/checks.hpp"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/spin.hpp"
#include "portshmem/group.hpp"
#include "portshmem/memory_model.hpp"

namespace portshmem {

namespace detail {
inline constexpr unsigned kFenceQualifiers = mm::cat::coverage | mm::cat::scope;
}

/// What the coverage names, issued by this thread before the fence to a PE, is delivered there before what it issues
/// after it to the same PE. Promises no completion, and no order across PEs.
template <class... Q>
PORTSHMEM_DEVICE void fence(const ctx& c, Q...) {
  detail::covered_fence<mm::resolve<detail::kFenceQualifiers, Q...>, arch::order::release>(c);
}

/// What the coverage names, issued by this thread before the quiet, is complete and visible to every PE of the
/// scope; nothing the thread issues after it is performed before it.
template <class... Q>
PORTSHMEM_DEVICE void quiet(const ctx& c, Q...) {
  detail::covered_fence<mm::resolve<detail::kFenceQualifiers, Q...>, arch::order::seq_cst>(c);
}

/// quiet restricted to operations targeting pes[0..npes): with load/store transports every operation completes the
/// same way, so this is quiet (the RDMA path will wait only for those PEs' completions).
template <class... Q>
PORTSHMEM_DEVICE void pe_quiet(const ctx& c, const int* /*pes*/, std::size_t /*npes*/, Q... q) {
  quiet(c, q...);
}

namespace detail {

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
    auto* theirs = reinterpret_cast<internal_area*>(c.peer_heaps[to]);
    publish_add<R>(c, &theirs->barrier_arrivals[k], std::uint64_t(1));
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

} // namespace detail

/// Quiet, then waits until every PE has entered barrier_all: on return every PE's operations (and, with coverage
/// all, symmetric stores) issued before its barrier are visible to the caller. One thread (or one wave / block) per
/// PE calls it, the same number of times on every PE.
template <class... Q>
PORTSHMEM_DEVICE void barrier_all(const ctx& c, Q...) {
  detail::barrier<thread_group, true, mm::resolve<detail::kFenceQualifiers, Q...>>(c);
}
template <class... Q>
PORTSHMEM_DEVICE void barrier_all_wave(const ctx& c, Q...) {
  detail::barrier<wave_group, true, mm::resolve<detail::kFenceQualifiers, Q...>>(c);
}
template <class... Q>
PORTSHMEM_DEVICE void barrier_all_block(const ctx& c, Q...) {
  detail::barrier<block_group, true, mm::resolve<detail::kFenceQualifiers, Q...>>(c);
}

/// Waits until every PE has entered sync_all; completes nothing (no quiet): pair it with quiet where data matters.
template <class... Q>
PORTSHMEM_DEVICE void sync_all(const ctx& c, Q...) {
  detail::barrier<thread_group, false, mm::resolve<mm::cat::scope, Q...>>(c);
}
template <class... Q>
PORTSHMEM_DEVICE void sync_all_wave(const ctx& c, Q...) {
  detail::barrier<wave_group, false, mm::resolve<mm::cat::scope, Q...>>(c);
}
template <class... Q>
PORTSHMEM_DEVICE void sync_all_block(const ctx& c, Q...) {
  detail::barrier<block_group, false, mm::resolve<mm::cat::scope, Q...>>(c);
}

} // namespace portshmem
