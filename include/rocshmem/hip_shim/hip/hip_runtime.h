// HIP's kernel language for rocSHMEM programs built on portshmem (see hip_runtime_api.h here). On the host platform
// kernels run on CPU threads (portshmem's launcher, arch/host_launch.hpp): __global__ and __device__ functions are
// plain functions, threadIdx/blockIdx/blockDim/gridDim read the launching thread's place, __syncthreads is the
// block's barrier, and hipLaunchKernelGGL runs the grid. A header cannot give C++ the <<<grid, block>>> launch syntax:
// portshmem_add_hip_executable (cmake/rocshmem.cmake) rewrites each `kernel<<<...>>>(args)` into
// `portshmem::hip_host::chevron(kernel, ...)(args)` in a copy of the source made at build time.
#pragma once

#include "hip/hip_runtime_api.h"

#if PORTSHMEM_PLATFORM_AMD
#include_next <hip/hip_runtime.h>

#elif PORTSHMEM_PLATFORM_NVIDIA
#include <cuda_runtime.h>
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...)                                                    \
  kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)

#else // host platform
#include "rocshmem/hip_shim/portshmem_hip_host.hpp"
#endif
