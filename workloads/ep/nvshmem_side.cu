// The NVSHMEM variant of ep_workload (nvshmem_side.hpp): the workload's kernel with nvshmem_policy, on NVSHMEM's
// symmetric heap. Started after portshmem in the same process, on the device portshmem chose, over MPI_COMM_WORLD.
// The kernel goes through nvshmemx_collective_launch, which NVSHMEM requires for kernels that wait on other PEs'
// blocks (it checks that the grid can be resident at once).
#include "nvshmem_side.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_runtime.h>

#include "../common/nvshmem_start.cuh"
#include "backend_nvshmem.hpp"
#include "ep_kernels.hpp"

namespace ep::nv {

namespace {

struct state {
  void* data = nullptr;
  std::uint64_t* words = nullptr;
} g;

bool ok(cudaError_t e, const char* what) {
  return workloads::nvshmem_start::ok("ep_workload", e, what);
}

} // namespace

bool init(std::size_t data_bytes, std::size_t words, void** data, std::uint64_t** word_base, std::string& why) {
  // The heap holds the buffers and room for NVSHMEM's own allocations; only unless already set.
  const std::size_t heap = data_bytes + words * 8 + (std::size_t(256) << 20);
  if (!workloads::nvshmem_start::start(heap, why)) return false;
  g.data = nvshmem_malloc(data_bytes);
  g.words = static_cast<std::uint64_t*>(nvshmem_malloc(words * 8));
  if (!g.data || !g.words) {
    why = "nvshmem_malloc failed (NVSHMEM_SYMMETRIC_SIZE)";
    return false;
  }
  if (!ok(cudaMemset(g.words, 0, words * 8), "cudaMemset") || !ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize")) {
    why = "a CUDA call failed";
    return false;
  }
  nvshmem_barrier_all();
  *data = g.data;
  *word_base = g.words;
  return true;
}

std::string version() {
  return workloads::nvshmem_start::version();
}

unsigned max_threads() {
  cudaFuncAttributes attr{};
  if (!ok(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(ep_kernel<nvshmem_policy>)),
          "cudaFuncGetAttributes"))
    return 0;
  return unsigned(attr.maxThreadsPerBlock);
}

void barrier() {
  nvshmem_barrier_all();
}

bool launch(const ep_args& a, unsigned blocks, unsigned threads) {
  nvshmem_policy pol{nvshmem_my_pe(), nvshmem_n_pes()};
  ep_args args = a;
  void* kernel_args[] = {&pol, &args};
  const int rc = nvshmemx_collective_launch(reinterpret_cast<const void*>(ep_kernel<nvshmem_policy>), dim3(blocks),
                                            dim3(threads), kernel_args, 0, 0);
  if (rc != 0) {
    std::fprintf(stderr, "ep_workload (NVSHMEM): nvshmemx_collective_launch returned %d\n", rc);
    return false;
  }
  return true;
}

void finalize() {
  nvshmem_barrier_all();
  nvshmem_free(g.words);
  nvshmem_free(g.data);
  nvshmem_finalize();
}

} // namespace ep::nv
