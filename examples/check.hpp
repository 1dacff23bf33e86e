// What the examples do after each kernel, and what a program should do: a kernel that failed (on a GPU, a trap, such
// as a wait past PORTSHMEM_TIMEOUT; on the host platform the launch itself fails) or device code that recorded an error
// is reported by portshmem_check_device_errors, which prints the record (PE, call, address, values). Then the job is
// ended with MPI_Abort: returning non-zero from this PE alone is not enough, since the other PEs may be blocked in a
// collective (portshmem_barrier_all, portshmem_finalize) waiting for it. The library itself never exits.
#pragma once

#include <cstdio>

#include <mpi.h>

#include <portshmem/portshmem.hpp>

namespace example {

/// Waits for the kernel launch returned (launched) to finish; if it failed or device code recorded an error, prints
/// why and ends the whole job with a non-zero status.
inline void check_kernel(hipError_t launched, const char* kernel) {
  const hipError_t ran = launched == hipSuccess ? hipDeviceSynchronize() : launched;
  const portshmem_status_t recorded = portshmem_check_device_errors(); // prints the record, if any
  if (ran == hipSuccess && recorded == PORTSHMEM_SUCCESS) return;
  std::fprintf(stderr, "PE %d: kernel %s failed (%s; %s): ending the job\n", portshmem_my_pe(), kernel,
               hipGetErrorString(ran), portshmem_status_string(recorded));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

} // namespace example
