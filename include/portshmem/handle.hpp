// The device handle and what a kernel asks about itself: its PE and the number of PEs, where a peer's copy of a
// symmetric object is mapped (ptr), and the calling thread's place in the launch (thread, wave and block ranks and
// sizes). Kernels need nothing from the arch layer. ptr is answered by the load/store transport (transport/ipc.hpp),
// the only one with pointers to give, which is why that header comes first.
#pragma once

#include "portshmem/arch.hpp"
#include "portshmem/ctx.h"
#include "portshmem/transport/ipc.hpp"

namespace portshmem {

/// The device handle (portshmem_get_ctx), by value to kernels and first to every device call; it is also the default
/// context: fence and quiet order what was issued through it.
using ctx = portshmem_ctx_t;

/// This PE's number, in [0, n_pes).
PORTSHMEM_DEVICE int my_pe(const ctx& c) {
  return c.my_pe;
}

/// The number of PEs in the job.
PORTSHMEM_DEVICE int n_pes(const ctx& c) {
  return c.n_pes;
}

// ptr records no error for a PE out of range or an address outside the symmetric heap (nullptr too): asking is not a
// bad call.
/// A pointer for ordinary loads/stores to pe's copy of the symmetric addr; nullptr if pe has no load/store path.
template <class T>
PORTSHMEM_DEVICE T* ptr(const ctx& c, T* addr, int pe) {
  return reinterpret_cast<T*>(transport::ipc::pointer(c, addr, pe));
}

// ---- the calling thread's place in the launch (ranks count x fastest, then y, then z) ------------------------------

/// The calling thread's rank in its block, in [0, block_threads()).
PORTSHMEM_DEVICE unsigned thread_rank() {
  return arch::thread_rank();
}

/// The number of threads in a block.
PORTSHMEM_DEVICE unsigned block_threads() {
  return arch::block_threads();
}

/// The calling block's rank in the grid, in [0, grid_blocks()).
PORTSHMEM_DEVICE unsigned block_rank() {
  return arch::block_rank();
}

/// The number of blocks in the grid.
PORTSHMEM_DEVICE unsigned grid_blocks() {
  return arch::grid_blocks();
}

/// The number of threads in a full wave (AMD wavefront, NVIDIA warp; the host platform's chosen width).
PORTSHMEM_DEVICE unsigned wave_size() {
  return arch::wave_size();
}

/// The calling thread's rank in its wave: thread_rank() % wave_size().
PORTSHMEM_DEVICE unsigned lane() {
  return arch::lane();
}

} // namespace portshmem
