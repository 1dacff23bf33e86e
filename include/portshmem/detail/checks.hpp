// Argument checks of device calls, judged from the handle alone (whatever transport reaches the PE). A bad call (PE
// out of range, address outside the symmetric heap, a range that overflows it, a scope that does not reach the PE;
// a peer no transport reaches is the transport's to report) is recorded in the host-visible error record and
// skipped, so it can neither crash the kernel nor write into a neighbour's memory; the host reports it. Written
// against portshmem_ctx_t, not its alias portshmem::ctx: handle.hpp, which declares the alias, includes the load/store
// transport, which uses these checks.
#pragma once

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/memory_model.hpp"
#include "portshmem/status.h"

namespace portshmem::detail {

/// Records a bad call; only the first error's details are kept, later ones are counted.
PORTSHMEM_DEVICE void record_error(const portshmem_ctx_t& c, portshmem_status_t status, portshmem_call_id_t call,
                                   int target_pe, const void* address, std::uint64_t size) {
  portshmem_device_error_t* e = c.error;
  if (!e) return;
  if (arch::fetch_add<arch::order::relaxed, arch::scope::system>(&e->count, std::uint64_t(1)) != 0) return;
  e->status = std::uint32_t(status);
  e->call = std::uint32_t(call);
  e->pe = c.my_pe;
  e->target_pe = target_pe;
  e->address = std::uint64_t(reinterpret_cast<std::uintptr_t>(address));
  e->size = size;
  arch::fence<arch::order::release, arch::scope::system>();
}

/// Where a symmetric address lies in the heap (wrapped around for an address below it).
PORTSHMEM_DEVICE std::uintptr_t heap_offset(const portshmem_ctx_t& c, const void* addr) {
  return reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(c.heap);
}

/// Why a call naming [addr, addr + bytes) on PE pe is bad, judged from the handle alone (no memory is read, so
/// callers can issue their first loads before the peer table's): PE out of range, an address outside the symmetric
/// heap, or a range running past its end. PORTSHMEM_SUCCESS otherwise.
PORTSHMEM_DEVICE portshmem_status_t range_status(const portshmem_ctx_t& c, const void* addr, std::size_t bytes,
                                                 int pe) {
  const std::uintptr_t offset = heap_offset(c, addr);
  if (pe < 0 || pe >= c.n_pes) return PORTSHMEM_ERR_INVALID_PE;
  if (offset >= c.heap_size) return PORTSHMEM_ERR_NOT_SYMMETRIC; // also below the heap: the subtraction wrapped
  if (bytes > c.heap_size - offset) return PORTSHMEM_ERR_OVERFLOW;
  return PORTSHMEM_SUCCESS;
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
