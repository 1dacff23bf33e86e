// One symmetric range: the heaps of a node's PEs mapped into one reservation of address space, PE r's at
// base + (r - first) * stride, so device code finds a peer's copy by arithmetic (transport/ipc.hpp, mapped_heap).
// Each heap is followed by an unmapped gap, so a stray access past a heap's end faults instead of landing in the next
// PE's heap. The heap backends that can place mappings (shm_segments.cpp, gpu_vmm_heap.cpp) use this layout.
#pragma once

#include <cstddef>

#include "bootstrap.hpp"
#include "heap_backend.hpp"

namespace portshmem::detail {

struct range_layout {
  int first = 0;          ///< the node's lowest rank: slot 0
  int slots = 0;          ///< ranks first .. the node's highest; a rank of another node keeps its slot unmapped
  std::size_t stride = 0; ///< bytes from one slot to the next: the heap rounded up to the unit, plus one unit of gap
  std::size_t unit = 0;   ///< the mapping granularity, at least kHeapBaseAlignment (every slot is aligned to it)
  std::size_t bytes() const { return std::size_t(slots) * stride; }
  std::size_t offset_of(int rank) const { return std::size_t(rank - first) * stride; }
};

/// The layout for boot's node and heaps of heap_bytes, mapped in units of granularity bytes (a power of two); a
/// layout with slots == 0 when the range would not fit in the address space.
inline range_layout node_range_layout(const bootstrap& boot, std::size_t heap_bytes, std::size_t granularity) {
  range_layout l;
  l.unit = granularity > kHeapBaseAlignment ? granularity : kHeapBaseAlignment;
  const std::size_t units = heap_bytes / l.unit + (heap_bytes % l.unit != 0) + 1;
  const auto& ranks = boot.node_ranks();
  const std::size_t slots = std::size_t(ranks.back() - ranks.front() + 1);
  if (units > (std::size_t(1) << 46) / l.unit / slots) return l; // past 64 TiB: no such reservation exists
  l.first = ranks.front();
  l.slots = int(slots);
  l.stride = units * l.unit;
  return l;
}

} // namespace portshmem::detail
