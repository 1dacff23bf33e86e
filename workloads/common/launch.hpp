// What the workload programs share around their launches: a GPU call that must succeed, and the largest block a
// kernel can launch.
#pragma once

#include <mpi.h>

#include <cstdio>

#include "portshmem/gpu_runtime.hpp"

namespace workloads {

/// Ends the job with "<program>: <what> failed: <error>" unless e is success.
inline void must(hipError_t e, const char* program, const char* what) {
  if (e == hipSuccess) return;
  std::fprintf(stderr, "%s: %s failed: %s\n", program, what, hipGetErrorString(e));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/// The most threads a block of kernel f can have (registers decide it on GPUs; the host platform allows 1024).
template <class... A>
unsigned max_block(void (*f)(A...), const char* program) {
#if PORTSHMEM_PLATFORM_NVIDIA
  cudaFuncAttributes attr{};
  must(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(f)), program, "cudaFuncGetAttributes");
  return unsigned(attr.maxThreadsPerBlock);
#elif PORTSHMEM_PLATFORM_AMD
  hipFuncAttributes attr{};
  must(hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(f)), program, "hipFuncGetAttributes");
  return unsigned(attr.maxThreadsPerBlock);
#else
  (void)f;
  (void)program;
  return 1024;
#endif
}

} // namespace workloads
