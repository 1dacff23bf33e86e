// Ordering and synchronization: fence, quiet, pe_quiet, barrier_all, sync_all. Qualifiers (memory_model.hpp):
//   coverage  mm::all (default: comm ops and the caller's ordinary stores to symmetric memory) | mm::comm (comm ops:
//             bypass puts, AMOs, signal ops — the cheap path: no cache write-back on AMD)
//   scope     mm::device | mm::node | mm::system (default)
// fence promises no completion and no order across PEs; quiet also holds back everything the thread issues after it.
// barrier_all makes every PE's operations (and, under coverage all, symmetric stores) issued before its barrier
// visible to the caller. A barrier is called by one thread (or one wave / block) per PE, the same number of times on
// every PE.
#pragma once

#include <cstddef>

#include "portshmem/arch.hpp"
#include "portshmem/detail/publish.hpp"
#include "portshmem/detail/sync.hpp"
#include "portshmem/group.hpp"
#include "portshmem/handle.hpp"
#include "portshmem/memory_model.hpp"

namespace portshmem {

/// What the coverage names, issued by this thread before the fence to a PE, is delivered there before what follows it.
template <class... Q>
PORTSHMEM_DEVICE void fence(const ctx& c, Q...) {
  detail::fence_all<mm::resolve<detail::kFenceQualifiers, Q...>>(c);
}

/// What the coverage names, issued by this thread before the quiet, is complete and visible to every PE of the scope.
template <class... Q>
PORTSHMEM_DEVICE void quiet(const ctx& c, Q...) {
  detail::quiet_all<mm::resolve<detail::kFenceQualifiers, Q...>>(c);
}

/// quiet for the operations toward pes[0..npes) (on the load/store transport every operation completes alike, so it
/// is quiet there; the proxy completes only the commands to those PEs).
template <class... Q>
PORTSHMEM_DEVICE void pe_quiet(const ctx& c, const int* pes, std::size_t npes, Q...) {
  detail::pe_quiet_all<mm::resolve<detail::kFenceQualifiers, Q...>>(c, pes, npes);
}

/// Quiet, then waits until every PE has entered barrier_all: each PE's operations before it are visible on return.
template <class... Q>
PORTSHMEM_DEVICE void barrier_all(const ctx& c, Q...) {
  detail::barrier<thread_group, true, mm::resolve<detail::kFenceQualifiers, Q...>>(c);
}

/// barrier_all by every thread of the wave as one barrier call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void barrier_all_wave(const ctx& c, Q...) {
  detail::barrier<wave_group, true, mm::resolve<detail::kFenceQualifiers, Q...>>(c);
}

/// barrier_all by every thread of the block as one barrier call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void barrier_all_block(const ctx& c, Q...) {
  detail::barrier<block_group, true, mm::resolve<detail::kFenceQualifiers, Q...>>(c);
}

/// Waits until every PE has entered sync_all; completes nothing (no quiet): pair it with quiet where data matters.
template <class... Q>
PORTSHMEM_DEVICE void sync_all(const ctx& c, Q...) {
  detail::barrier<thread_group, false, mm::resolve<mm::cat::scope, Q...>>(c);
}

/// sync_all by every thread of the wave as one sync_all call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void sync_all_wave(const ctx& c, Q...) {
  detail::barrier<wave_group, false, mm::resolve<mm::cat::scope, Q...>>(c);
}

/// sync_all by every thread of the block as one sync_all call of this PE.
template <class... Q>
PORTSHMEM_DEVICE void sync_all_block(const ctx& c, Q...) {
  detail::barrier<block_group, false, mm::resolve<mm::cat::scope, Q...>>(c);
}

} // namespace portshmem
