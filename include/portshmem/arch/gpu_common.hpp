// What the CUDA and HIP lowerings share: identity, block sync, launch, and the bit-level helpers of the data path.
// Included by arch/nvidia.hpp and arch/amd.hpp (never directly) after each has defined, in portshmem::arch::detail:
//   thread_idx(d) block_idx(d) block_dim(d) grid_dim(d)   (d = 0, 1, 2 for x, y, z)
//   kWaveSize (constexpr unsigned), block_barrier()      (execution barrier of the block + memory ordering among it)
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "portshmem/arch/common.hpp"
#include "portshmem/gpu_runtime.hpp"

namespace portshmem::arch {

// ---- identity: linear ranks over x, y, z (x fastest), as the hardware forms waves -----------------------------------
PORTSHMEM_DEVICE unsigned thread_rank() {
  return detail::thread_idx(0) +
         detail::block_dim(0) * (detail::thread_idx(1) + detail::block_dim(1) * detail::thread_idx(2));
}
PORTSHMEM_DEVICE unsigned block_threads() {
  return detail::block_dim(0) * detail::block_dim(1) * detail::block_dim(2);
}
PORTSHMEM_DEVICE unsigned block_rank() {
  return detail::block_idx(0) +
         detail::grid_dim(0) * (detail::block_idx(1) + detail::grid_dim(1) * detail::block_idx(2));
}
PORTSHMEM_DEVICE unsigned grid_blocks() {
  return detail::grid_dim(0) * detail::grid_dim(1) * detail::grid_dim(2);
}
PORTSHMEM_DEVICE unsigned wave_size() {
  return detail::kWaveSize;
}
PORTSHMEM_DEVICE unsigned lane() {
  return thread_rank() % detail::kWaveSize;
}
/// Threads of the caller's wave that exist: the last wave of a block whose size is not a multiple of the wave is short.
PORTSHMEM_DEVICE unsigned wave_threads() {
  const unsigned first = thread_rank() / detail::kWaveSize * detail::kWaveSize;
  const unsigned rest = block_threads() - first;
  return rest < detail::kWaveSize ? rest : detail::kWaveSize;
}

// ---- group sync -----------------------------------------------------------------------------------------------------
PORTSHMEM_DEVICE void block_sync() {
  detail::block_barrier();
}

// ---- launch (host code of a GPU translation unit) -------------------------------------------------------------------
/// Launches kernel(args...) on grid x block threads with shared_bytes of dynamic shared memory, asynchronously on
/// stream; returns the launch error (configuration errors only: the kernel's own errors show at the next sync).
template <class... Params, class... Args>
inline hipError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes, hipStream_t stream,
                         Args&&... args) {
  kernel<<<grid, block, shared_bytes, stream>>>(std::forward<Args>(args)...);
  return hipGetLastError();
}

} // namespace portshmem::arch
