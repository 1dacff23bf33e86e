// What the workloads' NVSHMEM sides share (each nvshmem_side.cu; built only with PORTSHMEM_NVSHMEM_HOME): a CUDA call
// that must succeed, NVSHMEM started over MPI_COMM_WORLD with a heap of a given size, and NVSHMEM's release for the
// table's header.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_runtime.h>
#include <nvshmem.h>
#include <nvshmemx.h>

namespace workloads::nvshmem_start {

/// Whether e is cudaSuccess; otherwise prints what failed, naming the program.
inline bool ok(const char* program, cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "%s (NVSHMEM): %s failed: %s\n", program, what, cudaGetErrorString(e));
  return false;
}

/// Starts NVSHMEM over MPI_COMM_WORLD with a symmetric heap of heap_bytes (unless NVSHMEM_SYMMETRIC_SIZE is set
/// already); false, with why, when it does not start.
inline bool start(std::size_t heap_bytes, std::string& why) {
  setenv("NVSHMEM_SYMMETRIC_SIZE", std::to_string(heap_bytes).c_str(), 0);
  MPI_Comm world = MPI_COMM_WORLD;
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  attr.mpi_comm = &world;
  if (nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr) != 0) {
    why = "nvshmemx_init_attr failed";
    return false;
  }
  return true;
}

/// "NVSHMEM 3.4.5": the release, from NVSHMEM's version macros (nvshmem_info_get_version gives the version of the
/// OpenSHMEM specification it implements, which is what a header without those macros shows, said as such).
inline std::string version() {
#ifdef NVSHMEM_VENDOR_MAJOR_VERSION
  return "NVSHMEM " + std::to_string(NVSHMEM_VENDOR_MAJOR_VERSION) + "." +
         std::to_string(NVSHMEM_VENDOR_MINOR_VERSION) + "." + std::to_string(NVSHMEM_VENDOR_PATCH_VERSION);
#else
  int major = 0, minor = 0;
  nvshmem_info_get_version(&major, &minor);
  return "NVSHMEM (OpenSHMEM " + std::to_string(major) + "." + std::to_string(minor) + ")";
#endif
}

} // namespace workloads::nvshmem_start
