// The runtime's own symmetric variables, at the start of every PE's heap (user allocations follow them), so they
// have the same offset everywhere and need no allocation protocol. The device handle's heap (ctx.heap) starts right
// after them: device calls naming this area are refused like any address outside the heap (detail/checks.hpp), and
// the runtime reaches it kInternalHeapBytes before ctx.heap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace portshmem::detail {

/// Rounds of the dissemination barrier: ceil(log2(n_pes)) <= 32 for any int PE count.
inline constexpr int kBarrierRounds = 32;

/// One live allocation, as offsets from ctx.heap: [begin, end).
struct allocation_range {
  std::uint64_t begin;
  std::uint64_t end;
};

/// Live allocations a table holds; with more, the debug checks fall back to the heap's bounds (see internal_area).
inline constexpr std::size_t kAllocationTableEntries = 2000;

/// The live allocations, sorted by begin and disjoint, as the host's allocator holds them (src/symmetric_heap.cpp).
struct allocation_table {
  std::uint64_t count;
  std::uint64_t reserved;
  allocation_range ranges[kAllocationTableEntries];
};

struct internal_area {
  std::uint64_t barrier_arrivals[kBarrierRounds]; // round k: bumped once per barrier by PE (me - 2^k) mod n
  std::uint64_t barrier_epoch;                    // barriers this PE has completed (only the PE's barrier caller)
  // Which allocation table is current, 1 or 2, for the checks of debug-check builds (PORTSHMEM_DEBUG_CHECKS: a range
  // must lie in one allocation); 0: none (a handle made by hand, or more live allocations than a table holds), and
  // only the heap's bounds are checked. The host rewrites the table that is not current at every allocation and free,
  // then switches, so a kernel running meanwhile reads a whole table.
  std::uint64_t allocation_table_current;
  allocation_table allocation_tables[2];
};

/// Bytes reserved at the heap start; generous so later runtime variables need no layout change.
inline constexpr std::size_t kInternalHeapBytes = 64 * 1024;
static_assert(sizeof(internal_area) <= kInternalHeapBytes, "internal area outgrew its reservation");

} // namespace portshmem::detail
