// Whether this MPI takes GPU pointers: Open MPI answers through its extensions header (mpi-ext.h), at build time
// (MPIX_CUDA_AWARE_SUPPORT) and at run time (MPIX_Query_cuda_support, or _rocm_ for ROCm); other MPIs are taken as
// not GPU-aware.
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <string>

#include "portshmem/platform.hpp"
#include "rdma/net_mpi.hpp"

namespace portshmem::rdma {

gpu_awareness query_gpu_awareness() {
#if PORTSHMEM_PLATFORM_AMD
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  const int answer = MPIX_Query_rocm_support();
  return {answer == 1, "MPIX_Query_rocm_support() returned " + std::to_string(answer)};
#elif defined(MPIX_ROCM_AWARE_SUPPORT)
  return {false, "this MPI was built without ROCm support (MPIX_ROCM_AWARE_SUPPORT is 0)"};
#else
  return {false, "mpi-ext.h declares no MPIX_Query_rocm_support, so this MPI's ROCm support is unknown"};
#endif
#else
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  const int answer = MPIX_Query_cuda_support();
  return {answer == 1, "MPIX_Query_cuda_support() returned " + std::to_string(answer)};
#elif defined(MPIX_CUDA_AWARE_SUPPORT)
  return {false, "this MPI was built without CUDA support (MPIX_CUDA_AWARE_SUPPORT is 0)"};
#else
  return {false, "mpi-ext.h declares no MPIX_Query_cuda_support, so this MPI's CUDA support is unknown"};
#endif
#endif
}

} // namespace portshmem::rdma
