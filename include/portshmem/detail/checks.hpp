// Argument checks of device calls. A bad call (PE out of range, address outside the symmetric heap, a range that
// overflows it, a peer without a load/store path) is recorded in the host-visible error record and skipped, so it
// can neither crash the kernel nor write into a neighbour's memory; the host reports it.
#pragma once

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/memory_model.hpp"
#include "portshmem/status.h"

namespace portshmem {
using ctx = portshmem_ctx_t;
}

namespace portshmem::detail {

/// Records a bad call; only the first error's details are kept, later ones are counted.
PORTSHMEM_DEVICE void record_error(const ctx& c, portshmem_status_t status, portshmem_call_id_t call, int target_pe,
                                   const void* address, std::uint64_t size) {
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

/// Where pe's copy of the symmetric range [addr, addr + bytes) is mapped in this process, or nullptr after
/// recording why the call is bad (only the group member `reporter` records, so a group reports once).
PORTSHMEM_DEVICE char* remote_range(const ctx& c, const void* addr, std::size_t bytes, int pe, portshmem_call_id_t call,
                                    bool reporter = true) {
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(c.heap);
  portshmem_status_t bad = PORTSHMEM_SUCCESS;
  if (pe < 0 || pe >= c.n_pes) {
    bad = PORTSHMEM_ERR_INVALID_PE;
  } else if (offset >= c.heap_size) { // also catches addresses below the heap: the subtraction wrapped
    bad = PORTSHMEM_ERR_NOT_SYMMETRIC;
  } else if (bytes > c.heap_size - offset) {
    bad = PORTSHMEM_ERR_OVERFLOW;
  } else if (!c.peer_heaps[pe]) {
    bad = PORTSHMEM_ERR_UNREACHABLE;
  }
  if (bad == PORTSHMEM_SUCCESS) return c.peer_heaps[pe] + offset;
  if (reporter) record_error(c, bad, call, pe, addr, bytes);
  return nullptr;
}

/// Whether the call's scope (R, an mm::resolve) reaches pe. Checked only with PORTSHMEM_DEBUG_CHECKS: a device scope
/// naming a PE on another GPU, or a node scope naming one on another node, is a broken promise by the caller (the
/// lowering would be too weak), so it is recorded and the call skipped.
template <class R>
PORTSHMEM_DEVICE bool scope_reaches(const ctx& c, int pe, portshmem_call_id_t call, bool reporter = true) {
  if constexpr (PORTSHMEM_DEBUG_CHECKS && R::scope_of != mm::scope_kind::system) {
    if (pe < 0 || pe >= c.n_pes || !c.pe_device) return true; // remote_range reports a bad PE
    const std::int32_t mine = c.pe_device[c.my_pe], theirs = c.pe_device[pe];
    const bool reaches = R::scope_of == mm::scope_kind::device ? mine == theirs : (mine >> 16) == (theirs >> 16);
    if (!reaches && reporter) record_error(c, PORTSHMEM_ERR_SCOPE, call, pe, nullptr, 0);
    return reaches;
  }
  return true;
}

/// This PE's own copy of a symmetric address, checked the same way (for waits on local symmetric variables).
PORTSHMEM_DEVICE bool is_local_symmetric(const ctx& c, const void* addr, std::size_t bytes) {
  const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(addr) - reinterpret_cast<std::uintptr_t>(c.heap);
  return offset < c.heap_size && bytes <= c.heap_size - offset;
}

} // namespace portshmem::detail
