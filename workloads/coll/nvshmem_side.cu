// The NVSHMEM variants of coll_workload (nvshmem_side.hpp): the workload kernel with nvshmem_policy and NVSHMEM's own
// collectives, on NVSHMEM's symmetric heap. Started after portshmem in the same process, on the device portshmem
// chose, over MPI_COMM_WORLD. Kernels go through nvshmemx_collective_launch, which NVSHMEM requires for kernels that
// wait on other PEs' blocks (it checks that the grid can be resident at once).
#include "nvshmem_side.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "../common/nvshmem_start.cuh"
#include "backend_nvshmem.hpp"
#include "coll_kernels.hpp"

namespace wl::nv {

namespace {

struct state {
  void *src = nullptr, *dest = nullptr, *one = nullptr, *two = nullptr;
  std::uint64_t* sig = nullptr;
  cudaEvent_t start{}, stop{};
} g;

template <class T>
__global__ void nv_allreduce(void* dest, const void* src, std::size_t count, int iters) {
  for (int i = 0; i < iters; ++i) {
    if constexpr (sizeof(T) == 4) {
      nvshmemx_float_sum_reduce_block(NVSHMEM_TEAM_WORLD, static_cast<float*>(dest), static_cast<const float*>(src),
                                      count);
    } else {
      nvshmemx_bfloat16_sum_reduce_block(NVSHMEM_TEAM_WORLD, static_cast<__nv_bfloat16*>(dest),
                                         static_cast<const __nv_bfloat16*>(src), count);
    }
  }
}

__global__ void nv_alltoall(void* dest, const void* src, std::size_t bytes, int iters) {
  for (int i = 0; i < iters; ++i) nvshmemx_alltoallmem_block(NVSHMEM_TEAM_WORLD, dest, src, bytes);
}

bool ok(cudaError_t e, const char* what) {
  return workloads::nvshmem_start::ok("coll_workload", e, what);
}

} // namespace

bool init(std::size_t buf_bytes, std::size_t one_bytes, std::size_t two_bytes, unsigned blocks, std::string& why) {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const std::size_t sig_bytes = std::size_t(kSigSets) * blocks * std::size_t(n) * sizeof(std::uint64_t);
  // NVSHMEM's reduce wants a scratch of about twice its source (tests/perf/nvshmem_coll.cu); the heap holds the
  // buffers, that scratch and room for NVSHMEM's own allocations. Both only unless already set.
  const std::size_t scratch = std::max<std::size_t>(std::size_t(512) << 10, 2 * buf_bytes);
  setenv("NVSHMEM_REDUCE_SCRATCH_SIZE", std::to_string(scratch).c_str(), 0);
  const std::size_t heap = 2 * buf_bytes + one_bytes + two_bytes + sig_bytes + scratch + (std::size_t(256) << 20);
  if (!workloads::nvshmem_start::start(heap, why)) return false;
  g.src = nvshmem_malloc(buf_bytes);
  g.dest = nvshmem_malloc(buf_bytes);
  g.one = nvshmem_malloc(one_bytes);
  g.two = nvshmem_malloc(two_bytes);
  g.sig = static_cast<std::uint64_t*>(nvshmem_malloc(sig_bytes));
  if (!g.src || !g.dest || !g.one || !g.two || !g.sig) {
    why = "nvshmem_malloc failed (NVSHMEM_SYMMETRIC_SIZE)";
    return false;
  }
  if (!ok(cudaMemset(g.sig, 0, sig_bytes), "cudaMemset") || !ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize") ||
      !ok(cudaEventCreate(&g.start), "cudaEventCreate") || !ok(cudaEventCreate(&g.stop), "cudaEventCreate")) {
    why = "a CUDA call failed";
    return false;
  }
  nvshmem_barrier_all();
  return true;
}

std::string version() {
  return workloads::nvshmem_start::version();
}

bool upload(const void* host, std::size_t bytes) {
  return ok(cudaMemcpy(g.src, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
}

bool guard(std::size_t bytes) {
  return ok(cudaMemset(g.dest, 0xFF, bytes), "cudaMemset") && ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

bool download(void* host, std::size_t bytes) {
  return ok(cudaMemcpy(host, g.dest, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
}

void barrier() {
  nvshmem_barrier_all();
}

double launch(variant v, op k, dtype t, const shape& s, int iters, std::size_t one_slot, std::size_t two_slot,
              unsigned blocks, unsigned threads, std::uint64_t epoch) {
  coll_args a{};
  a.src = g.src, a.dest = g.dest, a.one = g.one, a.two = g.two, a.sig = g.sig;
  a.bytes = s.bytes, a.one_slot = one_slot, a.two_slot = two_slot, a.epoch = epoch, a.iters = iters, a.algo = s.algo;
  nvshmem_policy pol{nvshmem_my_pe(), nvshmem_n_pes()};
  void* dest = g.dest;
  const void* src = g.src;
  std::size_t arg = k == op::alltoall ? s.bytes : s.count;
  void* kernel_args[] = {&pol, &a};
  void* coll_args_[] = {&dest, &src, &arg, &iters};
  const void* f = nullptr;
  void** args = kernel_args;
  unsigned grid = blocks;
  if (v == variant::nvshmem) {
    f = k == op::alltoall ? reinterpret_cast<const void*>(alltoall_kernel<nvshmem_policy>)
        : t == dtype::f32 ? reinterpret_cast<const void*>(allreduce_kernel<nvshmem_policy, f32>)
                          : reinterpret_cast<const void*>(allreduce_kernel<nvshmem_policy, bf16>);
  } else {
    f = k == op::alltoall ? reinterpret_cast<const void*>(nv_alltoall)
        : t == dtype::f32 ? reinterpret_cast<const void*>(nv_allreduce<float>)
                          : reinterpret_cast<const void*>(nv_allreduce<__nv_bfloat16>);
    args = coll_args_, grid = 1;
  }
  if (!ok(cudaEventRecord(g.start), "cudaEventRecord")) return -1.0;
  const int rc = nvshmemx_collective_launch(f, dim3(grid), dim3(threads), args, 0, 0);
  if (!ok(cudaEventRecord(g.stop), "cudaEventRecord") || !ok(cudaEventSynchronize(g.stop), "cudaEventSynchronize"))
    return -1.0;
  float ms = 0;
  if (rc != 0 || !ok(cudaDeviceSynchronize(), "the NVSHMEM kernel") ||
      !ok(cudaEventElapsedTime(&ms, g.start, g.stop), "cudaEventElapsedTime")) {
    if (rc != 0) std::fprintf(stderr, "coll_workload (NVSHMEM): nvshmemx_collective_launch returned %d\n", rc);
    return -1.0;
  }
  return double(ms);
}

void finalize() {
  nvshmem_barrier_all();
  cudaEventDestroy(g.start);
  cudaEventDestroy(g.stop);
  nvshmem_free(g.sig);
  nvshmem_free(g.two);
  nvshmem_free(g.one);
  nvshmem_free(g.dest);
  nvshmem_free(g.src);
  nvshmem_finalize();
}

} // namespace wl::nv
