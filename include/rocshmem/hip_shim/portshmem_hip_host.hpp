// The HIP kernel language on the host platform (hip/hip_runtime.h here includes it): what rocSHMEM's example programs
// use, mapped onto portshmem's CPU launcher. __shared__ variables become function statics: one object shared by all
// threads of every block of the kernel, which is what a one-block launch (or one whose blocks store the same values)
// needs; per-block shared memory for several concurrent blocks is not provided.
#pragma once

#include <atomic>
#include <cstddef>

#include "portshmem/arch.hpp"
#include "portshmem/gpu_runtime.hpp"

#define __global__
#define __device__
#define __host__
#define __constant__
#define __shared__ static
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)

namespace portshmem::hip_host {

struct uint3_value {
  unsigned x, y, z;
};

/// The grid and block of the launch the calling thread runs in (none outside a launch: a block of one thread).
struct launch_dims {
  dim3 grid, block;
};
inline thread_local const launch_dims* current_dims = nullptr;

inline dim3 block_dim() {
  return current_dims ? current_dims->block : dim3(1, 1, 1);
}
inline dim3 grid_dim() {
  return current_dims ? current_dims->grid : dim3(1, 1, 1);
}
inline uint3_value split(unsigned rank, dim3 d) {
  return {rank % d.x, rank / d.x % d.y, rank / (d.x * d.y)};
}
inline uint3_value thread_idx() {
  return split(portshmem::arch::thread_rank(), block_dim());
}
inline uint3_value block_idx() {
  return split(portshmem::arch::block_rank(), grid_dim());
}

/// hipLaunchKernelGGL: runs kernel(args...) on grid x block CPU threads and returns when all have finished
/// (hipErrorLaunchFailure when a thread trapped).
template <class... Params, class... Args>
inline hipError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t /*shared_bytes*/,
                         hipStream_t /*stream*/, Args&&... args) {
  const launch_dims dims{grid, block};
  const bool finished = portshmem::arch::host::run_grid(grid.x * grid.y * grid.z, block.x * block.y * block.z, [&] {
    current_dims = &dims;
    kernel(args...);
    current_dims = nullptr;
  });
  return finished ? hipSuccess : hipErrorLaunchFailure;
}

/// What `kernel<<<grid, block, shared, stream>>>(args)` becomes in the build's copy of a source: chevron(kernel, grid,
/// block, shared, stream)(args).
template <class... Params>
struct chevron_launch {
  void (*kernel)(Params...);
  dim3 grid, block;
  std::size_t shared_bytes;
  hipStream_t stream;
  template <class... Args>
  hipError_t operator()(Args&&... args) const {
    return launch(kernel, grid, block, shared_bytes, stream, static_cast<Args&&>(args)...);
  }
};
template <class... Params>
inline chevron_launch<Params...> chevron(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared = 0,
                                         hipStream_t stream = nullptr) {
  return {kernel, grid, block, shared, stream};
}

} // namespace portshmem::hip_host

#define threadIdx (::portshmem::hip_host::thread_idx())
#define blockIdx (::portshmem::hip_host::block_idx())
#define blockDim (::portshmem::hip_host::block_dim())
#define gridDim (::portshmem::hip_host::grid_dim())
#define warpSize (int(::portshmem::arch::wave_size()))
#define __syncthreads() ::portshmem::arch::block_sync()
#define __threadfence() std::atomic_thread_fence(std::memory_order_seq_cst)
#define __threadfence_system() std::atomic_thread_fence(std::memory_order_seq_cst)
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...)                                                    \
  ::portshmem::hip_host::launch(kernel, dim3(grid), dim3(block), shmem, stream __VA_OPT__(, ) __VA_ARGS__)
