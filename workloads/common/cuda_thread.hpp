// The thread-index helpers and function markers of the workloads' NVSHMEM-side kernels, from CUDA's built-ins (the
// portshmem side takes them from the library's headers: backend_portshmem.hpp). Included by the backend_nvshmem.hpp
// files only, which alias `dev` to this namespace.
#pragma once

#define WL_DEVICE __device__ __forceinline__
#define WL_GLOBAL __global__
#define WL_HOST_DEVICE __host__ __device__ __forceinline__

namespace workloads::cuda_thread {
WL_DEVICE unsigned thread_rank() {
  return threadIdx.x;
}
WL_DEVICE unsigned block_threads() {
  return blockDim.x;
}
WL_DEVICE unsigned block_rank() {
  return blockIdx.x;
}
WL_DEVICE unsigned grid_blocks() {
  return gridDim.x;
}
WL_DEVICE unsigned wave_size() {
  return warpSize;
}
WL_DEVICE void block_sync() {
  __syncthreads();
}
/// The lanes of this warp that exist (the host launches whole warps only).
WL_DEVICE void wave_sync() {
  __syncwarp();
}
} // namespace workloads::cuda_thread
