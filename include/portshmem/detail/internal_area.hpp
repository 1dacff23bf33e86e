// The runtime's own symmetric variables, at the start of every PE's heap (user allocations follow them), so they
// have the same offset everywhere and need no allocation protocol.
#pragma once

#include <cstddef>
#include <cstdint>

namespace portshmem::detail {

/// Rounds of the dissemination barrier: ceil(log2(n_pes)) <= 32 for any int PE count.
inline constexpr int kBarrierRounds = 32;

struct internal_area {
  std::uint64_t barrier_arrivals[kBarrierRounds]; // round k: bumped once per barrier by PE (me - 2^k) mod n
  std::uint64_t barrier_epoch;                    // barriers this PE has completed (only the PE's barrier caller)
};

/// Bytes reserved at the heap start; generous so later runtime variables need no layout change.
inline constexpr std::size_t kInternalHeapBytes = 64 * 1024;
static_assert(sizeof(internal_area) <= kInternalHeapBytes, "internal area outgrew its reservation");

} // namespace portshmem::detail
