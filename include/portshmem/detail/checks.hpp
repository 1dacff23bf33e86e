// Argument checks of device calls, judged from the handle alone (whatever transport reaches the PE). A bad call (PE
// out of range, address outside the part of the symmetric heap allocations come from — the runtime's reserved areas
// at both ends included —, a range that overflows it, a scope that does not reach the PE; a peer no transport reaches
// is the transport's to report) is recorded in the host-visible error record and skipped, so it can neither crash the
// kernel nor write into a neighbour's memory; the host reports it. Debug-check builds (PORTSHMEM_DEBUG_CHECKS=1) also
// check that a range lies in one live allocation and that a single word is aligned for its access. Written against
// portshmem_ctx_t, not its alias portshmem::ctx: handle.hpp, which declares the alias, includes the load/store
// transport, which uses these checks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/detail/internal_area.hpp"
#include "portshmem/memory_model.hpp"
#include "portshmem/status.h"

namespace portshmem::detail {

/// Counts one error in e; true for the first, whose details the caller then writes (scope: arch::kErrorRecordScope).
PORTSHMEM_DEVICE bool first_error(portshmem_device_error_t* e) {
  return arch::fetch_add<arch::order::relaxed, arch::kErrorRecordScope>(&e->count, std::uint64_t(1)) == 0;
}

/// Records a bad call; only the first error's details are kept, later ones are counted.
PORTSHMEM_DEVICE void record_error(const portshmem_ctx_t& c, portshmem_status_t status, portshmem_call_id_t call,
                                   int target_pe, const void* address, std::uint64_t size) {
  portshmem_device_error_t* e = c.error;
  if (!e) return;
  if (!first_error(e)) return;
  e->status = std::uint32_t(status);
  e->call = std::uint32_t(call);
  e->pe = c.my_pe;
  e->target_pe = target_pe;
  e->address = std::uint64_t(reinterpret_cast<std::uintptr_t>(address));
  e->size = size;
  arch::fence<arch::order::release, arch::scope::system>();
}

/// Where a symmetric address lies from ctx.heap (wrapped around for an address below it). ctx.heap is the start of
/// the heap's user part: the reserved area at the heap start lies kInternalHeapBytes before it, the team area at the
/// end right after ctx.heap + ctx.heap_size, so the one comparison with ctx.heap_size refuses both.
PORTSHMEM_DEVICE std::uintptr_t heap_offset(const portshmem_ctx_t& c, const void* addr) {
  return reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(c.heap);
}

/// The start of this PE's heap, kInternalHeapBytes before ctx.heap: where the runtime's offsets count from (the team
/// handle's, the proxy's).
PORTSHMEM_DEVICE char* heap_start(const portshmem_ctx_t& c) {
  return c.heap - kInternalHeapBytes;
}

/// The runtime's own variables at the start of this PE's heap (the barrier's counters, the allocation tables).
PORTSHMEM_DEVICE internal_area* internal_area_of(const portshmem_ctx_t& c) {
  return reinterpret_cast<internal_area*>(heap_start(c));
}

/// Whose addresses a call names: the user's (a device API call), which must lie in [ctx.heap, ctx.heap +
/// ctx.heap_size); or the runtime's (a team's words and scratch in the team area, addresses the library computes from
/// the team's handle for its collectives), which are not range-checked: only the PE is.
enum class area { user, runtime };

/// Debug checks: why [offset, offset + bytes) of the user part is not inside one live allocation — in none
/// (PORTSHMEM_ERR_NOT_SYMMETRIC) or running past its end (PORTSHMEM_ERR_OVERFLOW) —, from the table of live
/// allocations the host publishes in the internal area; PORTSHMEM_SUCCESS too when no table is published.
PORTSHMEM_DEVICE portshmem_status_t allocation_status(const portshmem_ctx_t& c, std::uint64_t offset,
                                                      std::uint64_t bytes) {
  constexpr auto kRelaxed = arch::order::relaxed;
  constexpr auto kSys = arch::scope::system;
  const internal_area* a = internal_area_of(c);
  const std::uint64_t current = arch::load<arch::order::acquire, kSys>(&a->allocation_table_current);
  if (current != 1 && current != 2) return PORTSHMEM_SUCCESS;
  const allocation_table& t = a->allocation_tables[current - 1];
  std::uint64_t lo = 0, hi = arch::load<kRelaxed, kSys>(&t.count);
  if (hi > kAllocationTableEntries) hi = kAllocationTableEntries;
  while (lo < hi) { // lo: the first range beginning after offset
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (arch::load<kRelaxed, kSys>(&t.ranges[mid].begin) <= offset) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const std::uint64_t end = lo == 0 ? 0 : arch::load<kRelaxed, kSys>(&t.ranges[lo - 1].end);
  if (offset >= end) return PORTSHMEM_ERR_NOT_SYMMETRIC;
  if (bytes > end - offset) return PORTSHMEM_ERR_OVERFLOW;
  return PORTSHMEM_SUCCESS;
}

/// Why a call naming [addr, addr + bytes) on PE pe is bad: PE out of range, an address outside the heap's user part
/// (the reserved areas included), or a range running past its end; judged from the handle alone (no memory is read,
/// so callers can issue their first loads before the peer table's), except in debug-check builds, which also look the
/// range up among the live allocations. A runtime address (A) is not range-checked. PORTSHMEM_SUCCESS otherwise.
template <area A = area::user>
PORTSHMEM_DEVICE portshmem_status_t range_status(const portshmem_ctx_t& c, const void* addr, std::size_t bytes,
                                                 int pe) {
  if constexpr (A == area::runtime) {
    return pe < 0 || pe >= c.n_pes ? PORTSHMEM_ERR_INVALID_PE : PORTSHMEM_SUCCESS;
  } else {
    const std::uintptr_t offset = heap_offset(c, addr);
    if (pe < 0 || pe >= c.n_pes) return PORTSHMEM_ERR_INVALID_PE;
    if (offset >= c.heap_size) return PORTSHMEM_ERR_NOT_SYMMETRIC; // also below ctx.heap: the subtraction wrapped
    if (bytes > c.heap_size - offset) return PORTSHMEM_ERR_OVERFLOW;
    if constexpr (PORTSHMEM_DEBUG_CHECKS) return allocation_status(c, offset, bytes);
    return PORTSHMEM_SUCCESS;
  }
}

/// Debug checks: whether addr is misaligned for the one access p, g, the waits and signal reads make of a T (its
/// size, up to 8 bytes: on a GPU such an access faults instead of being skipped). Always false in release builds.
template <class T>
PORTSHMEM_DEVICE bool misaligned(const void* addr) {
  if constexpr (PORTSHMEM_DEBUG_CHECKS) {
    constexpr std::uintptr_t kAlign = sizeof(T) < 8 ? sizeof(T) : 8;
    return reinterpret_cast<std::uintptr_t>(addr) % kAlign != 0;
  } else {
    return false;
  }
}

/// Whether the call's scope (R, an mm::resolve) reaches pe. Checked only with PORTSHMEM_DEBUG_CHECKS: a device scope
/// naming a PE on another GPU, or a node scope naming one on another node, is a broken promise by the caller (the
/// lowering would be too weak), so it is recorded and the call skipped.
template <class R>
PORTSHMEM_DEVICE bool scope_reaches(const portshmem_ctx_t& c, int pe, portshmem_call_id_t call, bool reporter = true) {
  if constexpr (PORTSHMEM_DEBUG_CHECKS && R::scope_of != mm::scope_kind::system) {
    if (pe < 0 || pe >= c.n_pes || !c.pe_device) return true; // range_status reports a bad PE
    const std::int32_t mine = c.pe_device[c.my_pe], theirs = c.pe_device[pe];
    const bool reaches = R::scope_of == mm::scope_kind::device ? mine == theirs : (mine >> 16) == (theirs >> 16);
    if (!reaches && reporter) record_error(c, PORTSHMEM_ERR_SCOPE, call, pe, nullptr, 0);
    return reaches;
  }
  return true;
}

/// This PE's own copy of a symmetric address, checked the same way (for waits on local symmetric variables).
PORTSHMEM_DEVICE bool is_local_symmetric(const portshmem_ctx_t& c, const void* addr, std::size_t bytes) {
  return range_status(c, addr, bytes, c.my_pe) == PORTSHMEM_SUCCESS;
}

} // namespace portshmem::detail
